import type { Throttle } from "../kernel/throttle";

export type { Throttle };

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
