import { sql } from "drizzle-orm";
import { newId } from "../../crypto";
import type { Deps } from "../../kernel";
import { balanceOf, type LedgerReason, ledgerBalanceSql } from "../../billing/service/ledger";
import { watchBalance } from "./alerts";

/**
 * Moves credits of a space in one conditional statement, so concurrent movements can neither
 * take the balance below zero nor (with `once`) book the same reason and reference twice.
 * Answers the new balance, or null when the condition refused the movement.
 */
export async function moveCredits(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  input: { spaceId: string; delta: number; reason: LedgerReason; reference: string; once?: boolean },
): Promise<number | null> {
  if (!Number.isInteger(input.delta)) throw new Error("credit movements are whole numbers");
  await balanceOf(deps, input.spaceId);
  const once = input.once
    ? sql`AND NOT EXISTS (SELECT 1 FROM credit_ledger WHERE space_id = ${input.spaceId} AND reason = ${input.reason} AND reference = ${input.reference})`
    : sql``;
  const rows = await deps.db.all<{ balance_after: number }>(sql`
    INSERT INTO credit_ledger (id, space_id, delta, balance_after, reason, reference, created_at)
    SELECT ${newId("cr")}, ${input.spaceId}, ${input.delta}, balance + ${input.delta}, ${input.reason}, ${input.reference}, ${deps.now().toISOString()}
    FROM (SELECT ${ledgerBalanceSql(input.spaceId)} AS balance)
    WHERE balance + ${input.delta} >= 0 ${once}
    RETURNING balance_after`);
  const balanceAfter = rows[0]?.balance_after;
  if (balanceAfter === undefined) return null;
  await watchBalance(deps, input.spaceId, input.delta, balanceAfter);
  return balanceAfter;
}

/** SQL: a person's benefits balance, the newest benefit row's (0 before any). */
export const benefitBalanceSql = (userId: string) =>
  sql`COALESCE((SELECT balance_after FROM benefit_ledger WHERE user_id = ${userId} ORDER BY seq DESC LIMIT 1), 0)`;

/**
 * Moves a person's benefits in one conditional statement, never below zero. Answers the new
 * balance, or null when the balance could not cover a withdrawal.
 */
export async function moveBenefits(
  deps: Pick<Deps, "db" | "now">,
  input: { userId: string; delta: number; reason: "creator" | "cash-out" | "cash-out-refused" | "adjustment"; reference: string; appId?: string | null },
): Promise<number | null> {
  const rows = await deps.db.all<{ balance_after: number }>(sql`
    INSERT INTO benefit_ledger (id, user_id, delta, balance_after, reason, reference, app_id, created_at)
    SELECT ${newId("ben")}, ${input.userId}, ${input.delta}, balance + ${input.delta}, ${input.reason}, ${input.reference}, ${input.appId ?? null}, ${deps.now().toISOString()}
    FROM (SELECT ${benefitBalanceSql(input.userId)} AS balance)
    WHERE balance + ${input.delta} >= 0
    RETURNING balance_after`);
  return rows[0]?.balance_after ?? null;
}
