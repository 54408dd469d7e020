import { type SQL, sql } from "drizzle-orm";
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
 *
 * Enterprise credits (decision 0019): a member's allocation is credits of the balance set aside
 * for them. A member's hold takes from their allocation first (the part is kept on the hold as
 * `allocated`), then from the unallocated pool; anyone else's hold only from the pool. The pool
 * is the balance less every live hold less each member's allocation not already held, so the
 * allocations stay covered whatever runs at once.
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
  /** The member of a team space who spends (their allocation is used first), or null. */
  memberUserId?: string | null;
  /** The part of `amount` reserved from the member's allocation. */
  allocated?: number;
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

/** SQL: the part of a member's allocation their live holds reserve (optionally but one hold). `member` is SQL naming the user id. */
function memberHeldSql(spaceId: string, member: SQL, nowMs: number, except?: string) {
  const range = spaceRange(spaceId);
  return sql`(SELECT COALESCE(SUM(json_extract(value, '$.allocated')), 0) FROM key_values
    WHERE key >= ${range.from} AND key < ${range.to} AND expires_at > ${nowMs}
    AND json_extract(value, '$.memberUserId') = ${member}
    ${except ? sql`AND key <> ${except}` : sql``})`;
}

/** SQL: the credits of a member's allocation no live hold reserves (0 for anyone without a membership or an allocation). */
export function memberFreeSql(spaceId: string, userId: string, nowMs: number, except?: string) {
  return sql`COALESCE((SELECT MAX(0, credit_allocation - ${memberHeldSql(spaceId, sql`${userId}`, nowMs, except)})
    FROM space_members WHERE space_id = ${spaceId} AND user_id = ${userId}), 0)`;
}

/** SQL: every member's allocation not reserved by their live holds: what the pool must leave untouched. */
function freeAllocationsSql(spaceId: string, nowMs: number, except?: string) {
  return sql`(SELECT COALESCE(SUM(MAX(0, m.credit_allocation - ${memberHeldSql(spaceId, sql`m.user_id`, nowMs, except)})), 0)
    FROM space_members m WHERE m.space_id = ${spaceId} AND m.credit_allocation > 0)`;
}

/**
 * SQL: the unallocated pool, what anyone's spend may take besides a member's own allocation: the
 * balance less every live hold less the allocations not held. A removed member's row is gone,
 * so their allocation is back in the pool at once; their running holds still count as holds.
 */
export function unallocatedSql(spaceId: string, nowMs: number, except?: string) {
  return sql`(${ledgerBalanceSql(spaceId)} - ${heldSql(spaceId, nowMs, except ? { except } : {})} - ${freeAllocationsSql(spaceId, nowMs, except)})`;
}

/** SQL: what a user key may still spend (a large number when it has no limit). */
function keyRoomSql(userKeyId: string, spaceId: string, nowMs: number, except?: string) {
  return sql`(SELECT CASE WHEN credit_limit IS NULL THEN 9007199254740991 ELSE credit_limit - credits_used - ${heldSql(spaceId, nowMs, { userKeyId, ...(except ? { except } : {}) })} END
    FROM user_keys WHERE id = ${userKeyId})`;
}

/**
 * What a new turn can still reserve: for the space's own spending the unallocated pool, for a
 * member their allocation not held plus the pool (never more than the balance less its holds).
 */
export async function availableBalance(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  spaceId: string,
  memberUserId?: string | null,
): Promise<number> {
  await balanceOf(deps, spaceId);
  const nowMs = deps.now().getTime();
  const free = memberUserId ? memberFreeSql(spaceId, memberUserId, nowMs) : sql`0`;
  const rows = await deps.db.all<{ available: number }>(
    sql`SELECT MIN(${free} + ${unallocatedSql(spaceId, nowMs)}, ${ledgerBalanceSql(spaceId)} - ${heldSql(spaceId, nowMs)}) AS available`,
  );
  return rows[0]?.available ?? 0;
}

/**
 * Reserves up to `amount` credits, at least `minimum`, in one statement: the INSERT happens only
 * when the room covers `minimum`, and reserves the smaller of `amount` and that room. The room is
 * the unallocated pool (plus, for a member, their allocation not held), never more than the
 * balance less its live holds, and within the user key's limit less its use and holds. A
 * member's hold records the part taken from their allocation. SQLite runs one statement at a
 * time, so concurrent callers can never reserve the same credits. Throws `insufficient_credits`
 * when the room is short.
 */
export async function takeHold(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  input: { spaceId: string; amount: number; minimum?: number; userKeyId?: string | null; memberUserId?: string | null; reference?: string },
): Promise<CreditHold> {
  const amount = Math.max(1, Math.ceil(input.amount));
  const minimum = Math.min(amount, Math.max(1, Math.ceil(input.minimum ?? amount)));
  await balanceOf(deps, input.spaceId);
  const id = newId("hold");
  const key = keyOf({ id, spaceId: input.spaceId });
  const nowMs = deps.now().getTime();
  const userKeyId = input.userKeyId ?? null;
  const memberUserId = input.memberUserId ?? null;
  const keyRoom = userKeyId ? keyRoomSql(userKeyId, input.spaceId, nowMs) : sql`${amount}`;
  const free = memberUserId ? memberFreeSql(input.spaceId, memberUserId, nowMs) : sql`0`;
  const rows = await deps.db.all<{ value: string }>(sql`
    INSERT INTO key_values (key, value, expires_at)
    SELECT ${key}, json_object('amount', room, 'userKeyId', ${userKeyId}, 'reference', ${input.reference ?? null},
      'memberUserId', ${memberUserId}, 'allocated', MIN(room, free)), ${nowMs + HOLD_TTL_MS}
    FROM (SELECT MIN(${amount}, free + ${unallocatedSql(input.spaceId, nowMs)}, ${ledgerBalanceSql(input.spaceId)} - ${heldSql(input.spaceId, nowMs)},
        COALESCE(${keyRoom}, 0)) AS room, free
      FROM (SELECT ${free} AS free))
    WHERE room >= ${minimum}
    RETURNING value`);
  const stored = rows[0]?.value;
  if (!stored) throw new ServiceError("insufficient_credits", "insufficient_credits");
  const value = JSON.parse(stored) as { amount: number; allocated: number };
  return { id, spaceId: input.spaceId, userKeyId, amount: value.amount, memberUserId, allocated: value.allocated };
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
    const member = hold.memberUserId ?? null;
    // A member pays from their allocation first (this hold's part is theirs again), then from the
    // pool; anyone else only from the pool. The allocation's part moves to credits_spent in the
    // same statement (the trigger of migration 0017), so no other writer sees it twice.
    const free = member ? memberFreeSql(hold.spaceId, member, nowMs, key) : sql`0`;
    const rows = await deps.db.all<{ delta: number; balance_after: number }>(sql`
      INSERT INTO credit_ledger (id, space_id, delta, balance_after, reason, reference, hold_key, user_id, from_allocation, created_at)
      SELECT ${newId("cr")}, ${hold.spaceId}, -charge, ${ledgerBalanceSql(hold.spaceId)} - charge, 'usage', ${input.reference}, ${key},
        ${member}, MIN(fromAllocation, charge), ${deps.now().toISOString()}
      FROM (SELECT fromAllocation, MAX(0, MIN(${credits}, fromAllocation + MAX(0, pool), balance)) AS charge
        FROM (SELECT MIN(${credits}, ${free}) AS fromAllocation, ${unallocatedSql(hold.spaceId, nowMs, key)} AS pool,
          ${ledgerBalanceSql(hold.spaceId)} - ${heldSql(hold.spaceId, nowMs, { except: key })} AS balance))
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

/** Where a space's credits stand: its ledger balance, its live holds and the unallocated pool. */
export async function creditPosition(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  spaceId: string,
): Promise<{ balance: number; held: number; unallocated: number }> {
  await balanceOf(deps, spaceId);
  const nowMs = deps.now().getTime();
  const rows = await deps.db.all<{ balance: number; held: number; unallocated: number }>(
    sql`SELECT ${ledgerBalanceSql(spaceId)} AS balance, ${heldSql(spaceId, nowMs)} AS held, ${unallocatedSql(spaceId, nowMs)} AS unallocated`,
  );
  return rows[0] ?? { balance: 0, held: 0, unallocated: 0 };
}

/**
 * Sets a member's allocation in one conditional statement: lowering it always succeeds; raising
 * it only when the unallocated pool covers the increase (counting what the member's own live
 * holds already reserve), so concurrent allocations and turns can never make the allocations
 * exceed the balance. The owner has no allocation. Answers the new allocation, or null when
 * nothing changed (no such member, or the pool is short).
 */
export async function setMemberAllocation(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  input: { spaceId: string; userId: string; amount: number },
): Promise<number | null> {
  await balanceOf(deps, input.spaceId);
  const nowMs = deps.now().getTime();
  const held = memberHeldSql(input.spaceId, sql`${input.userId}`, nowMs);
  const rows = await deps.db.all<{ allocation: number }>(sql`
    UPDATE space_members SET credit_allocation = ${input.amount}
    WHERE space_id = ${input.spaceId} AND user_id = ${input.userId} AND role <> 'owner'
      AND (${input.amount} <= credit_allocation
        OR ${unallocatedSql(input.spaceId, nowMs)} + MAX(0, credit_allocation - ${held}) - MAX(0, ${input.amount} - ${held}) >= 0)
    RETURNING credit_allocation AS allocation`);
  return rows[0]?.allocation ?? null;
}
