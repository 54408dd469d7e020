/**
 * A gate that opens at most once per `intervalMs`.
 *
 * Returns a function that answers `true` when the caller may act now (and starts a new
 * window), `false` while the previous window is still running. The clock is injectable so
 * tests need no timers.
 */
export function createThrottle(intervalMs: number, now: () => number = Date.now): () => boolean {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const current = now();
    if (current - last < intervalMs) return false;
    last = current;
    return true;
  };
}

/** Spec §9: network warnings are shown at most once per 3 s. */
export const NETWORK_WARNING_INTERVAL_MS = 3000;
/** Spec §9: the 'please login first' warning is shown at most once per second. */
export const LOGIN_WARNING_INTERVAL_MS = 1000;
/** Spec §7/§9: every request gives up after 60 s. */
export const REQUEST_TIMEOUT_MS = 60_000;
