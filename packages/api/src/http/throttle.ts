import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { type Throttle, type ThrottleHit, ThrottleUnavailableError } from "../kernel/throttle";

export type { Throttle };

/**
 * What the throttle needs of a rate-limiter-flexible limiter: its counters, never its own
 * refusals (its `points` is unreachable; limits are per call, checked here).
 */
interface Counters {
  consume(key: string, points: number, options: { customDuration: number }): Promise<RateLimiterRes>;
  reward(key: string, points: number): Promise<RateLimiterRes>;
  get(key: string): Promise<RateLimiterRes | null>;
  delete(key: string): Promise<boolean>;
}

// Larger than any limit a caller passes (the login strikes counter passes MAX_SAFE_INTEGER).
const UNREACHABLE = Number.MAX_SAFE_INTEGER;
const waitSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** The {@link Throttle} over counters; `counters(key)` picks the store of a key. */
function throttleOver(counters: (key: string) => Counters): Throttle {
  /** Takes one attempt; answers the wait when it went over `limit` (the attempt given back). */
  const take = async (hit: ThrottleHit): Promise<number> => {
    // A window of no time (e.g. PARLEY_CODE_RESEND_SECONDS=0) counts nothing.
    if (hit.windowSeconds <= 0) return 0;
    const store = counters(hit.key);
    const res = await store.consume(hit.key, 1, { customDuration: hit.windowSeconds });
    if (res.consumedPoints <= hit.limit) return 0;
    await store.reward(hit.key, 1);
    return waitSeconds(res.msBeforeNext);
  };
  const current = (key: string) => counters(key).get(key);
  return {
    hit: (key, limit, windowSeconds) => take({ key, limit, windowSeconds }),
    async hitAll(all) {
      const hits = all.filter((hit) => hit.windowSeconds > 0);
      const taken = await Promise.allSettled(
        hits.map(async (hit) => {
          const store = counters(hit.key);
          const res = await store.consume(hit.key, 1, { customDuration: hit.windowSeconds });
          return { res, store };
        }),
      );
      const refused = taken.findIndex((result, i) => result.status === "fulfilled" && result.value.res.consumedPoints > hits[i]!.limit);
      const failed = taken.find((result) => result.status === "rejected");
      if (refused < 0 && !failed) return undefined;
      // Give back every attempt counted, so a refused message does not use up any rule's window.
      await Promise.all(taken.map((result, i) => (result.status === "fulfilled" ? result.value.store.reward(hits[i]!.key, 1) : undefined)));
      if (failed) throw (failed as PromiseRejectedResult).reason;
      const res = (taken[refused] as PromiseFulfilledResult<{ res: RateLimiterRes }>).value.res;
      return { index: all.indexOf(hits[refused]!), seconds: waitSeconds(res.msBeforeNext) };
    },
    async peek(key, limit) {
      const res = await current(key);
      if (!res || res.consumedPoints < limit) return 0;
      return res.msBeforeNext < 0 ? 1 : waitSeconds(res.msBeforeNext);
    },
    async reset(key) {
      await counters(key).delete(key);
    },
    async count(key) {
      const res = await current(key);
      return res ? Math.max(0, res.consumedPoints) : 0;
    },
    async undo(key) {
      const res = await current(key);
      if (res && res.consumedPoints > 0) await counters(key).reward(key, 1);
    },
  };
}

/**
 * Counters in a Map, on a clock (`Date.now`, or a test's). Not rate-limiter-flexible's memory
 * store: that one ends each key with its own `setTimeout`, which Node cuts to 1 ms above 24.8
 * days, and the sign-in guard remembers known addresses for 30 days. Expired windows are swept
 * every thousand attempts.
 */
function mapCounters(now: () => number): Counters {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let attempts = 0;
  const sweep = () => {
    if (++attempts % 1000 !== 0) return;
    const at = now();
    for (const [key, window] of windows) if (window.resetAt <= at) windows.delete(key);
  };
  const live = (key: string) => {
    const window = windows.get(key);
    if (window && window.resetAt > now()) return window;
    windows.delete(key);
    return undefined;
  };
  const res = (window: { count: number; resetAt: number }) => new RateLimiterRes(0, window.resetAt - now(), window.count);
  return {
    async consume(key, points, { customDuration }) {
      sweep();
      let window = live(key);
      if (!window) windows.set(key, (window = { count: 0, resetAt: now() + customDuration * 1000 }));
      window.count += points;
      return res(window);
    },
    async reward(key, points) {
      const window = live(key);
      if (window) window.count -= points;
      return window ? res(window) : new RateLimiterRes(0, 0, 0);
    },
    async get(key) {
      const window = live(key);
      return window ? res(window) : null;
    },
    async delete(key) {
      return windows.delete(key);
    },
  };
}

/** The single-process {@link Throttle}: counters in this process's memory, on `now` (tests pass a clock). */
export function createMemoryThrottle(now: () => number = Date.now): Throttle {
  const counters = mapCounters(now);
  return throttleOver(() => counters);
}

/** Prefix of every throttle key in Redis (`parley:throttle:<key>`). */
export const THROTTLE_KEY_PREFIX = "parley:throttle";

/**
 * The {@link Throttle} of a scaled-out instance: counters in Redis, shared by every process
 * (rate-limiter-flexible's atomic INCR + PEXPIRE script). While Redis cannot be reached, keys for
 * which `failsClosed(key)` holds (sign-in and codes) throw {@link ThrottleUnavailableError}; every
 * other key is counted in this process's memory until Redis answers again (rate-limiter-flexible's
 * insurance limiter; those keys' windows are at most a day).
 */
export function createRedisThrottle(redis: Redis, options: { failsClosed?: (key: string) => boolean } = {}): Throttle {
  const base = { storeClient: redis, keyPrefix: THROTTLE_KEY_PREFIX, points: UNREACHABLE, duration: 1, rejectIfRedisNotReady: true };
  const insured = new RateLimiterRedis({ ...base, insuranceLimiter: new RateLimiterMemory({ points: UNREACHABLE, duration: 1 }) });
  const strict = new RateLimiterRedis(base);
  const unavailable = (error: unknown): never => {
    throw new ThrottleUnavailableError(`the shared throttle store is unreachable: ${error instanceof Error ? error.message : String(error)}`);
  };
  const closed: Counters = {
    consume: (key, points, opts) => strict.consume(key, points, opts).catch(unavailable),
    reward: (key, points) => strict.reward(key, points).catch(unavailable),
    get: (key) => strict.get(key).catch(unavailable),
    delete: (key) => strict.delete(key).catch(unavailable),
  };
  const failsClosed = options.failsClosed ?? (() => false);
  return throttleOver((key) => (failsClosed(key) ? closed : insured));
}
