/** One counter to take in {@link Throttle.hitAll}. */
export interface ThrottleHit {
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Fixed-window attempt counters (sign-ins, codes, widget messages, app rate limits) on
 * rate-limiter-flexible: in process memory by default, in Redis when PARLEY_REDIS_URL is set so
 * every process counts together (docs/decisions/0031-realtime-and-limits.md). A window starts at a
 * key's first attempt and lasts `windowSeconds`.
 */
export interface Throttle {
  /** Counts one attempt; answers seconds to wait when the limit was already reached (nothing counted), else 0. */
  hit(key: string, limit: number, windowSeconds: number): Promise<number>;
  /**
   * Counts one attempt on every key at once, or on none: when one refuses, what the others took is
   * given back. Answers the first refusing hit's index and seconds to wait, or undefined when all counted.
   */
  hitAll(hits: readonly ThrottleHit[]): Promise<{ index: number; seconds: number } | undefined>;
  /** Seconds until the key may be used again, without counting. */
  peek(key: string, limit: number): Promise<number>;
  reset(key: string): Promise<void>;
  /** Attempts counted for the key in its current window (0 when none or expired). */
  count(key: string): Promise<number>;
  /** Takes back one counted attempt (an attempt that turned out legitimate). */
  undo(key: string): Promise<void>;
}

/**
 * Thrown by a {@link Throttle} when its shared store cannot be reached and the key is one that
 * fails closed (sign-in and codes): the caller answers a clear "try again shortly".
 */
export class ThrottleUnavailableError extends Error {
  override name = "ThrottleUnavailableError";
}
