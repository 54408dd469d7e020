/**
 * Fixed-window attempt counters (sign-ins, codes, widget messages). The embedded one is kept in
 * memory (http/throttle.ts), enough for one process; a cluster swaps in a shared store.
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
