import { desc, eq, sql } from "drizzle-orm";
import { newId } from "../../crypto";
import { creditLedger } from "../../db/schema/index";
import { prepared } from "../../db/prepared";
import type { Deps } from "../../kernel";
import { watchBalance } from "../../benefits/service/alerts";

/** Why credits moved. */
export type LedgerReason = (typeof creditLedger.$inferInsert)["reason"];

/**
 * The space's balance: the newest ledger row's balance, or the welcome grant
 * (PARLEY_WELCOME_CREDITS) on first use, so a fresh install can chat at once.
 */
export async function balanceOf(deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">, spaceId: string): Promise<number> {
  const row = await prepared(deps.db, "ledger.balance", () =>
    deps.db
      .select({ balance: creditLedger.balanceAfter })
      .from(creditLedger)
      .where(eq(creditLedger.spaceId, sql.placeholder("spaceId")))
      .orderBy(desc(creditLedger.seq))
      .limit(1)
      .prepare(),
  ).get({ spaceId });
  if (row) return row.balance;
  return (await appendLedger(deps, { spaceId, delta: deps.config.welcomeCredits, reason: "grant", reference: "welcome" })).balanceAfter;
}

/** SQL: a space's balance, the newest ledger row's (0 before any). Every ledger write computes from it. */
export const ledgerBalanceSql = (spaceId: string) =>
  sql`COALESCE((SELECT balance_after FROM credit_ledger WHERE space_id = ${spaceId} ORDER BY seq DESC LIMIT 1), 0)`;

/**
 * Appends one movement. The new balance is computed inside the INSERT from the newest row, so
 * two writers never read the same old balance (SQLite serialises writes).
 */
export async function appendLedger(
  deps: Pick<Deps, "db" | "logger" | "mail" | "now" | "sms">,
  input: { spaceId: string; delta: number; reason: LedgerReason; reference?: string },
): Promise<{ id: string; balanceAfter: number }> {
  if (!Number.isInteger(input.delta)) throw new Error("credit movements are whole numbers");
  const id = newId("cr");
  const now = deps.now().toISOString();
  const rows = await deps.db.all<{ balance_after: number }>(sql`
    INSERT INTO credit_ledger (id, space_id, delta, balance_after, reason, reference, created_at)
    SELECT ${id}, ${input.spaceId}, ${input.delta},
      ${ledgerBalanceSql(input.spaceId)} + ${input.delta},
      ${input.reason}, ${input.reference ?? null}, ${now}
    RETURNING balance_after`);
  const balanceAfter = rows[0]?.balance_after;
  if (balanceAfter === undefined) throw new Error("ledger insert returned nothing");
  await watchBalance(deps, input.spaceId, input.delta, balanceAfter);
  return { id, balanceAfter };
}

/** Ledger rows of a space, newest first. */
export async function listLedger(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  spaceId: string,
  input: { limit: number; offset: number },
) {
  await balanceOf(deps, spaceId);
  return deps.db
    .select({
      id: creditLedger.id,
      delta: creditLedger.delta,
      balanceAfter: creditLedger.balanceAfter,
      reason: creditLedger.reason,
      reference: creditLedger.reference,
      userId: creditLedger.userId,
      fromAllocation: creditLedger.fromAllocation,
      createdAt: creditLedger.createdAt,
    })
    .from(creditLedger)
    .where(eq(creditLedger.spaceId, spaceId))
    .orderBy(desc(creditLedger.seq))
    .limit(input.limit)
    .offset(input.offset);
}
