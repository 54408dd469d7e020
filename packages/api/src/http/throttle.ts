/**
 * Fixed-window attempt counters kept in memory: enough for one process. A cluster swaps in a
 * shared store behind the same interface.
 */
export interface Throttle {
  /** Counts one attempt; returns seconds to wait when the limit was already reached, else 0. */
  hit(key: string, limit: number, windowSeconds: number): number;
  /** Seconds until the key may be used again, without counting. */
  peek(key: string, limit: number): number;
  reset(key: string): void;
  /** Attempts counted for the key in its current window (0 when none or expired). */
  count(key: string): number;
  /** Takes back one counted attempt (an attempt that turned out legitimate). */
  undo(key: string): void;
}

/** An in-memory {@link Throttle}. */
export function createMemoryThrottle(now: () => number = Date.now): Throttle {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let sweeps = 0;
  const sweep = () => {
    if (++sweeps % 1000 !== 0) return;
    const at = now();
    for (const [key, window] of windows) if (window.resetAt <= at) windows.delete(key);
  };
  return {
    hit(key, limit, windowSeconds) {
      sweep();
      const at = now();
      let window = windows.get(key);
      if (!window || window.resetAt <= at) {
        window = { count: 0, resetAt: at + windowSeconds * 1000 };
        windows.set(key, window);
      }
      if (window.count >= limit) return Math.max(1, Math.ceil((window.resetAt - at) / 1000));
      window.count += 1;
      return 0;
    },
    peek(key, limit) {
      const window = windows.get(key);
      const at = now();
      if (!window || window.resetAt <= at || window.count < limit) return 0;
      return Math.max(1, Math.ceil((window.resetAt - at) / 1000));
    },
    reset(key) {
      windows.delete(key);
    },
    count(key) {
      const window = windows.get(key);
      return window && window.resetAt > now() ? window.count : 0;
    },
    undo(key) {
      const window = windows.get(key);
      if (window && window.count > 0) window.count -= 1;
    },
  };
}
