import { hashPassword, verifyPassword } from "../../crypto";
import { ServiceError } from "../../errors";
import type { Deps, Throttle } from "../../kernel";
import { ThrottleUnavailableError } from "../../kernel/throttle";

/**
 * Sign-in throttling (docs/decisions/0012-sign-in-throttling.md). Every counter is taken
 * before the password hash is computed, each one atomically (in Redis across processes when
 * configured), so requests sent at once are counted like requests sent one after another.
 * Counters are keyed on the name typed, not on a user row, so unknown and known accounts behave
 * the same. While a shared throttle store is down, sign-in and codes fail closed
 * (docs/decisions/0031-realtime-and-limits.md).
 */

const KNOWN_ADDRESS_SECONDS = 30 * 24 * 3600;
const MAX_LOCK_SECONDS = 24 * 3600;
const STRIKE_MEMORY_SECONDS = 24 * 3600;

/** One sign-in attempt admitted by {@link admitPasswordAttempt}; settle it with the outcome. */
export interface LoginAttempt {
  succeeded(): Promise<void>;
  failed(): Promise<void>;
}

function keys(account: string, ip: string) {
  return {
    ip: `login-ip:${ip}`,
    pair: `login-pair:${account}:${ip}`,
    lock: `login-pair-lock:${account}:${ip}`,
    strikes: `login-pair-strikes:${account}:${ip}`,
    ceiling: `login-account:${account}`,
    known: `login-known:${account}:${ip}`,
  };
}

/** Key prefixes of the sign-in and code counters: they fail closed while a shared store is down. */
const SIGN_IN_KEY = /^(login-|codes-|code-resend:)/;

/** Whether a throttle key is a sign-in or code counter (these refuse rather than count locally while Redis is down). */
export function isSignInThrottleKey(key: string): boolean {
  return SIGN_IN_KEY.test(key);
}

const RETRY_WHEN_UNAVAILABLE_SECONDS = 5;

/** The throttle, answering "try again in a few seconds" (429) instead of failing when its store is down. */
export function signInThrottle(throttle: Throttle): Throttle {
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (error) {
        if (!(error instanceof ThrottleUnavailableError)) throw error;
        const seconds = RETRY_WHEN_UNAVAILABLE_SECONDS;
        throw new ServiceError("rate_limited", "sign_in_unavailable", { seconds }, { retryAfterSeconds: seconds });
      }
    };
  return {
    hit: guard(throttle.hit),
    hitAll: guard(throttle.hitAll),
    peek: guard(throttle.peek),
    reset: guard(throttle.reset),
    count: guard(throttle.count),
    undo: guard(throttle.undo),
  };
}

/** Runs the bookkeeping after an attempt; a store gone meanwhile loses it (logged), never the answer. */
async function settle(deps: Pick<Deps, "logger">, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    deps.logger.warn("sign-in counters not updated: the throttle store is unreachable");
  }
}

function pairLocked(wait: number): ServiceError {
  return new ServiceError("rate_limited", "rate_limited", { seconds: wait }, { retryAfterSeconds: wait });
}

/**
 * Counts a password attempt for `account` (channel and normalized name) from `ip`, or refuses
 * it with a 429: the address is over its own limit, the pair is backing off, or the account's
 * ceiling for all addresses is reached and this address never signed in to it.
 */
export async function admitPasswordAttempt(deps: Deps, account: string, ip: string): Promise<LoginAttempt> {
  const throttle = signInThrottle(deps.throttle);
  const limits = deps.config.throttle;
  const key = keys(account, ip);
  const ipWait = await throttle.hit(key.ip, limits.loginPerIp, limits.windowSeconds);
  if (ipWait > 0) throw pairLocked(ipWait);
  const lockWait = await throttle.peek(key.lock, 1);
  if (lockWait > 0) throw pairLocked(lockWait);
  const known = (await throttle.peek(key.known, 1)) > 0;
  const ceilingWait = await throttle.hit(key.ceiling, limits.loginAccountCeiling, limits.windowSeconds);
  if (ceilingWait > 0 && !known) {
    throw new ServiceError("rate_limited", "login_paused", { seconds: ceilingWait }, { retryAfterSeconds: ceilingWait });
  }
  const counted = ceilingWait === 0;
  const pairWait = await throttle.hit(key.pair, limits.loginPerAccount, limits.windowSeconds);
  if (pairWait > 0) {
    if (counted) await throttle.undo(key.ceiling);
    throw pairLocked(Math.max(pairWait, await throttle.peek(key.lock, 1)));
  }
  return {
    succeeded: () =>
      settle(deps, async () => {
        await throttle.reset(key.pair);
        await throttle.reset(key.strikes);
        // A legitimate sign-in does not use up the account's allowance for everyone else.
        if (counted) await throttle.undo(key.ceiling);
        await throttle.reset(key.known);
        await throttle.hit(key.known, 1, KNOWN_ADDRESS_SECONDS);
      }),
    failed: () =>
      settle(deps, async () => {
        if ((await throttle.count(key.pair)) < limits.loginPerAccount || (await throttle.peek(key.lock, 1)) > 0) return;
        // The pair used up its attempts: it waits a window, twice as long for each lockout in a day.
        await throttle.hit(key.strikes, Number.MAX_SAFE_INTEGER, STRIKE_MEMORY_SECONDS);
        const strikes = await throttle.count(key.strikes);
        const seconds = Math.min(MAX_LOCK_SECONDS, limits.windowSeconds * 2 ** Math.min(20, strikes - 1));
        await throttle.hit(key.lock, 1, seconds);
        await throttle.reset(key.pair);
      }),
  };
}

/**
 * Counts a code sign-in attempt from `ip`: the address limit and the pair's own counter, never
 * the account ceiling, so a stranger's guessing cannot keep the owner from signing in by code.
 */
export async function admitCodeAttempt(deps: Deps, account: string, ip: string): Promise<LoginAttempt> {
  const throttle = signInThrottle(deps.throttle);
  const limits = deps.config.throttle;
  const key = keys(account, ip);
  const codePair = `login-code-pair:${account}:${ip}`;
  const ipWait = await throttle.hit(key.ip, limits.loginPerIp, limits.windowSeconds);
  if (ipWait > 0) throw pairLocked(ipWait);
  const pairWait = await throttle.hit(codePair, limits.loginPerAccount, limits.windowSeconds);
  if (pairWait > 0) throw pairLocked(pairWait);
  return {
    succeeded: () =>
      settle(deps, async () => {
        await throttle.reset(codePair);
        await throttle.reset(key.pair);
        await throttle.reset(key.lock);
        await throttle.reset(key.strikes);
        await throttle.reset(key.known);
        await throttle.hit(key.known, 1, KNOWN_ADDRESS_SECONDS);
      }),
    failed: async () => {},
  };
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against the stored hash, or against a hash of the same cost when there is
 * none (unknown account, account without a password), so both take the same time.
 */
export async function verifyOrPretend(password: string, stored: string | null | undefined): Promise<boolean> {
  if (stored) return verifyPassword(password, stored);
  dummyHash ??= hashPassword("parley-timing-equalizer");
  await verifyPassword(password, await dummyHash);
  return false;
}
