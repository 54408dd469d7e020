import { and, desc, eq, sql } from "drizzle-orm";
import { benefitLedger } from "../../db/schema/index";
import type { Auth, Deps } from "../../kernel";
import { moveBenefits } from "./credits";

/**
 * Whether a turn is the creator's own use: console chat says `user:<id>`, the OpenAI-compatible
 * API `user:<id>` or `user:<id>:<their user>`, a web client's signed-in visitor
 * `web:<client>:user:<id>`. Calls with the space's user keys and a workflow's inner turns are the
 * space's own work too.
 */
function isOwnUse(endUserId: string, creatorUserId: string): boolean {
  return (
    endUserId === `user:${creatorUserId}` ||
    endUserId.startsWith(`user:${creatorUserId}:`) ||
    endUserId.endsWith(`:user:${creatorUserId}`) ||
    endUserId.startsWith("user-key:") ||
    endUserId.startsWith("workflow:")
  );
}

/**
 * A turn of a published app was charged: its creator earns the configured share of the credits,
 * unless the creator is the one talking. One INSERT, and only for published apps.
 */
export async function creditCreator(
  deps: Pick<Deps, "config" | "db" | "now">,
  input: { app: { id: string; isPublic: boolean; createdBy: string }; endUserId: string; charged: number; reference: string },
): Promise<void> {
  if (!input.app.isPublic || input.charged <= 0 || isOwnUse(input.endUserId, input.app.createdBy)) return;
  const share = Math.floor((input.charged * deps.config.earning.creatorSharePercent) / 100);
  if (share <= 0) return;
  await moveBenefits(deps, { userId: input.app.createdBy, delta: share, reason: "creator", reference: input.reference, appId: input.app.id });
}

/** The caller's benefits account: balance, total earned, cashed out and awaiting review. */
export async function benefitsAccount(deps: Pick<Deps, "config" | "db">, auth: Auth) {
  const rows = await deps.db.all<{ balance: number | null; earned: number | null; paid: number | null; pending: number | null }>(sql`
    SELECT
      (SELECT balance_after FROM benefit_ledger WHERE user_id = ${auth.userId} ORDER BY seq DESC LIMIT 1) AS balance,
      (SELECT SUM(delta) FROM benefit_ledger WHERE user_id = ${auth.userId} AND reason = 'creator') AS earned,
      (SELECT SUM(amount) FROM cash_outs WHERE user_id = ${auth.userId} AND status = 'approved') AS paid,
      (SELECT SUM(amount) FROM cash_outs WHERE user_id = ${auth.userId} AND status = 'requested') AS pending`);
  const row = rows[0];
  return {
    balance: row?.balance ?? 0,
    totalEarned: row?.earned ?? 0,
    cashedOut: row?.paid ?? 0,
    pending: row?.pending ?? 0,
    sharePercent: deps.config.earning.creatorSharePercent,
  };
}

/** Movements of the caller's benefits account, newest first. */
export async function listBenefits(deps: Pick<Deps, "db">, auth: Auth, input: { limit: number; offset: number; reason?: "creator" | undefined }) {
  return deps.db
    .select({
      id: benefitLedger.id,
      delta: benefitLedger.delta,
      balanceAfter: benefitLedger.balanceAfter,
      reason: benefitLedger.reason,
      reference: benefitLedger.reference,
      appId: benefitLedger.appId,
      createdAt: benefitLedger.createdAt,
    })
    .from(benefitLedger)
    .where(input.reason ? and(eq(benefitLedger.userId, auth.userId), eq(benefitLedger.reason, input.reason)) : eq(benefitLedger.userId, auth.userId))
    .orderBy(desc(benefitLedger.seq))
    .limit(input.limit)
    .offset(input.offset);
}
