import { sql } from "drizzle-orm";
import { newId } from "../../crypto";
import { ServiceError } from "../../errors";
import type { Deps } from "../../kernel";
import { watchBalance } from "../../benefits/service/alerts";
import { balanceOf, ledgerBalanceSql } from "./ledger";

/**
 * Credit holds (decision 0011): a reservation taken in one conditional statement before a model
 * is called, settled to the real cost after, released on failure. A space's spendable balance is
 * its ledger balance minus its live holds; a user key's is its limit minus what it used minus its
 * live holds. Holds live in `key_values` under {@link HOLD_PREFIX} with an expiry, so a hold a
 * crashed process left stops counting when it expires and is deleted by the key-value sweep
 * (`startKeyValueSweeper`: at start-up and then every hour).
 */

/** Key prefix of holds in `key_values`: `credit-hold:<spaceId>:<holdId>`. */
export const HOLD_PREFIX = "credit-hold:";

/** How long a hold counts without being extended: a running turn extends it, a crashed one lets it lapse. */
export const HOLD_TTL_MS = 10 * 60_000;

/** A reservation of credits for one model call (or one turn). */
export interface CreditHold {
  id: string;
  spaceId: string;
  /** The user key whose credit limit the hold also counts against. */
  userKeyId: string | null;
  /** Credits reserved. */
  amount: number;
}

const spaceRange = (spaceId: string) => ({ from: `${HOLD_PREFIX}${spaceId}:`, to: `${HOLD_PREFIX}${spaceId};` });
const keyOf = (hold: Pick<CreditHold, "id" | "spaceId">) => `${HOLD_PREFIX}${hold.spaceId}:${hold.id}`;

/** SQL: credits held by live holds of a space (optionally of one user key, optionally but one hold). */
function heldSql(spaceId: string, nowMs: number, options: { userKeyId?: string | null; except?: string } = {}) {
  const range = spaceRange(spaceId);
  return sql`(SELECT COALESCE(SUM(json_extract(value, '$.amount')), 0) FROM key_values
    WHERE key >= ${range.from} AND key < ${range.to} AND expires_at > ${nowMs}
    ${options.userKeyId ? sql`AND json_extract(value, '$.userKeyId') = ${options.userKeyId}` : sql``}
    ${options.except ? sql`AND key <> ${options.except}` : sql``})`;
}

/** SQL: what a user key may still spend (a large number when it has no limit). */
function keyRoomSql(userKeyId: string, spaceId: string, nowMs: number, except?: string) {
  return sql`(SELECT CASE WHEN credit_limit IS NULL THEN 9007199254740991 ELSE credit_limit - credits_used - ${heldSql(spaceId, nowMs, { userKeyId, ...(except ? { except } : {}) })} END
    FROM user_keys WHERE id = ${userKeyId})`;
}

/** The space's balance less its live holds: what a new turn can still reserve. */
export async function availableBalance(deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">, spaceId: string): Promise<number> {
  await balanceOf(deps, spaceId);
  const rows = await deps.db.all<{ available: number }>(sql`SELECT ${ledgerBalanceSql(spaceId)} - ${heldSql(spaceId, deps.now().getTime())} AS available`);
  return rows[0]?.available ?? 0;
}

/**
 * Reserves up to `amount` credits, at least `minimum`, in one statement: the INSERT happens only
 * when the space's balance less its live holds (and the user key's limit less its use and holds)
 * covers `minimum`, and reserves the smaller of `amount` and that room. SQLite runs one statement
 * at a time, so concurrent callers can never reserve the same credits. Throws
 * `insufficient_credits` when the room is short.
 */
export async function takeHold(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  input: { spaceId: string; amount: number; minimum?: number; userKeyId?: string | null; reference?: string },
): Promise<CreditHold> {
  const amount = Math.max(1, Math.ceil(input.amount));
  const minimum = Math.min(amount, Math.max(1, Math.ceil(input.minimum ?? amount)));
  await balanceOf(deps, input.spaceId);
  const id = newId("hold");
  const key = keyOf({ id, spaceId: input.spaceId });
  const nowMs = deps.now().getTime();
  const userKeyId = input.userKeyId ?? null;
  const keyRoom = userKeyId ? keyRoomSql(userKeyId, input.spaceId, nowMs) : sql`${amount}`;
  const rows = await deps.db.all<{ value: string }>(sql`
    INSERT INTO key_values (key, value, expires_at)
    SELECT ${key}, json_object('amount', room, 'userKeyId', ${userKeyId}, 'reference', ${input.reference ?? null}), ${nowMs + HOLD_TTL_MS}
    FROM (SELECT MIN(${amount}, ${ledgerBalanceSql(input.spaceId)} - ${heldSql(input.spaceId, nowMs)}, COALESCE(${keyRoom}, 0)) AS room)
    WHERE room >= ${minimum}
    RETURNING value`);
  const stored = rows[0]?.value;
  if (!stored) throw new ServiceError("insufficient_credits", "insufficient_credits");
  return { id, spaceId: input.spaceId, userKeyId, amount: (JSON.parse(stored) as { amount: number }).amount };
}

/** Keeps a hold of a turn that is still running from lapsing. */
export async function extendHold(deps: Pick<Deps, "db" | "now">, hold: CreditHold): Promise<void> {
  await deps.db.run(sql`UPDATE key_values SET expires_at = ${deps.now().getTime() + HOLD_TTL_MS} WHERE key = ${keyOf(hold)}`);
}

/** Drops a hold without charging (the call failed before producing anything). */
export async function releaseHold(deps: Pick<Deps, "db">, hold: CreditHold): Promise<void> {
  await deps.db.run(sql`DELETE FROM key_values WHERE key = ${keyOf(hold)}`);
}

/**
 * Charges the real cost of what the hold covered and drops the hold. The charge is the cost,
 * capped at what the space (and the user key) can pay besides the other live holds, so neither
 * a balance nor a limit is ever overrun, even when a model used more than the hold foresaw. The
 * charge names its hold and a trigger deletes the hold in the same statement (migration 0015):
 * no other writer sees the credits both charged and held, so concurrent settles on a tight
 * balance charge exactly. Answers what was charged and the new balance.
 */
export async function settleHold(
  deps: Pick<Deps, "db" | "logger" | "mail" | "now" | "sms">,
  hold: CreditHold,
  input: { credits: number; reference: string },
): Promise<{ charged: number; balance: number | null }> {
  let credits = Math.max(0, Math.ceil(input.credits));
  let charged = 0;
  let balance: number | null = null;
  const key = keyOf(hold);
  // The key's share first, as a conditional update: this hold still counts for everyone else
  // until it is deleted, so the key's room can only be understated in between, never overstated.
  let keyCharged = 0;
  if (credits > 0 && hold.userKeyId) {
    for (let attempt = 0; attempt < 5 && keyCharged === 0; attempt++) {
      const nowMs = deps.now().getTime();
      const room = (await deps.db.all<{ room: number | null }>(sql`SELECT ${keyRoomSql(hold.userKeyId, hold.spaceId, nowMs, key)} AS room`))[0]?.room ?? 0;
      const take = Math.max(0, Math.min(credits, room));
      if (take === 0) break;
      const updated = await deps.db.all<{ id: string }>(sql`
        UPDATE user_keys SET credits_used = credits_used + ${take}, last_used_at = ${deps.now().toISOString()}
        WHERE id = ${hold.userKeyId} AND (credit_limit IS NULL OR credit_limit - credits_used - ${heldSql(hold.spaceId, nowMs, { userKeyId: hold.userKeyId, except: key })} >= ${take})
        RETURNING id`);
      if (updated.length > 0) keyCharged = take;
    }
    credits = keyCharged;
  }
  if (credits > 0) {
    const nowMs = deps.now().getTime();
    const rows = await deps.db.all<{ delta: number; balance_after: number }>(sql`
      INSERT INTO credit_ledger (id, space_id, delta, balance_after, reason, reference, hold_key, created_at)
      SELECT ${newId("cr")}, ${hold.spaceId}, -charge, ${ledgerBalanceSql(hold.spaceId)} - charge, 'usage', ${input.reference}, ${key}, ${deps.now().toISOString()}
      FROM (SELECT MAX(0, MIN(${credits}, ${ledgerBalanceSql(hold.spaceId)} - ${heldSql(hold.spaceId, nowMs, { except: key })})) AS charge)
      WHERE charge > 0
      RETURNING delta, balance_after`);
    if (rows[0]) {
      charged = -rows[0].delta;
      balance = rows[0].balance_after;
      await watchBalance(deps, hold.spaceId, rows[0].delta, balance);
    }
  }
  if (hold.userKeyId && keyCharged > charged) {
    // The space could pay less than the key was charged: the key counts only what was paid.
    await deps.db.run(sql`UPDATE user_keys SET credits_used = credits_used - ${keyCharged - charged} WHERE id = ${hold.userKeyId}`);
  }
  // A charge dropped its hold in the same statement (the trigger); only an uncharged hold is left.
  if (charged === 0) await releaseHold(deps, hold);
  return { charged, balance };
}
