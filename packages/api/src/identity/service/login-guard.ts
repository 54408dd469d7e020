import { hashPassword, verifyPassword } from "../../crypto";
import { ServiceError } from "../../errors";
import type { Deps } from "../../kernel";

/**
 * Sign-in throttling (docs/decisions/0012-sign-in-throttling.md). Every counter is taken
 * synchronously before the password hash is computed, so requests sent at once are counted
 * like requests sent one after another. Counters are keyed on the name typed, not on a user
 * row, so unknown and known accounts behave the same.
 */

const KNOWN_ADDRESS_SECONDS = 30 * 24 * 3600;
const MAX_LOCK_SECONDS = 24 * 3600;
const STRIKE_MEMORY_SECONDS = 24 * 3600;

/** One sign-in attempt admitted by {@link admitPasswordAttempt}; settle it with the outcome. */
export interface LoginAttempt {
  succeeded(): void;
  failed(): void;
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

function pairLocked(wait: number): ServiceError {
  return new ServiceError("rate_limited", "rate_limited", { seconds: wait }, { retryAfterSeconds: wait });
}

/**
 * Counts a password attempt for `account` (channel and normalized name) from `ip`, or refuses
 * it with a 429: the address is over its own limit, the pair is backing off, or the account's
 * ceiling for all addresses is reached and this address never signed in to it.
 */
export function admitPasswordAttempt(deps: Deps, account: string, ip: string): LoginAttempt {
  const { throttle } = deps;
  const limits = deps.config.throttle;
  const key = keys(account, ip);
  const ipWait = throttle.hit(key.ip, limits.loginPerIp, limits.windowSeconds);
  if (ipWait > 0) throw pairLocked(ipWait);
  const lockWait = throttle.peek(key.lock, 1);
  if (lockWait > 0) throw pairLocked(lockWait);
  const known = throttle.peek(key.known, 1) > 0;
  const ceilingWait = throttle.hit(key.ceiling, limits.loginAccountCeiling, limits.windowSeconds);
  if (ceilingWait > 0 && !known) {
    throw new ServiceError("rate_limited", "login_paused", { seconds: ceilingWait }, { retryAfterSeconds: ceilingWait });
  }
  const counted = ceilingWait === 0;
  const pairWait = throttle.hit(key.pair, limits.loginPerAccount, limits.windowSeconds);
  if (pairWait > 0) {
    if (counted) throttle.undo(key.ceiling);
    throw pairLocked(Math.max(pairWait, throttle.peek(key.lock, 1)));
  }
  return {
    succeeded() {
      throttle.reset(key.pair);
      throttle.reset(key.strikes);
      // A legitimate sign-in does not use up the account's allowance for everyone else.
      if (counted) throttle.undo(key.ceiling);
      throttle.reset(key.known);
      throttle.hit(key.known, 1, KNOWN_ADDRESS_SECONDS);
    },
    failed() {
      if (throttle.count(key.pair) < limits.loginPerAccount || throttle.peek(key.lock, 1) > 0) return;
      // The pair used up its attempts: it waits a window, twice as long for each lockout in a day.
      throttle.hit(key.strikes, Number.MAX_SAFE_INTEGER, STRIKE_MEMORY_SECONDS);
      const strikes = throttle.count(key.strikes);
      const seconds = Math.min(MAX_LOCK_SECONDS, limits.windowSeconds * 2 ** Math.min(20, strikes - 1));
      throttle.hit(key.lock, 1, seconds);
      throttle.reset(key.pair);
    },
  };
}

/**
 * Counts a code sign-in attempt from `ip`: the address limit and the pair's own counter, never
 * the account ceiling, so a stranger's guessing cannot keep the owner from signing in by code.
 */
export function admitCodeAttempt(deps: Deps, account: string, ip: string): LoginAttempt {
  const { throttle } = deps;
  const limits = deps.config.throttle;
  const key = keys(account, ip);
  const codePair = `login-code-pair:${account}:${ip}`;
  const ipWait = throttle.hit(key.ip, limits.loginPerIp, limits.windowSeconds);
  if (ipWait > 0) throw pairLocked(ipWait);
  const pairWait = throttle.hit(codePair, limits.loginPerAccount, limits.windowSeconds);
  if (pairWait > 0) throw pairLocked(pairWait);
  return {
    succeeded() {
      throttle.reset(codePair);
      throttle.reset(key.pair);
      throttle.reset(key.lock);
      throttle.reset(key.strikes);
      throttle.reset(key.known);
      throttle.hit(key.known, 1, KNOWN_ADDRESS_SECONDS);
    },
    failed() {},
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
