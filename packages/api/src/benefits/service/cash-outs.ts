import { desc, eq, sql } from "drizzle-orm";
import { newId } from "../../crypto";
import { cashOuts, users } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { benefitBalanceSql, moveBenefits } from "./credits";

/** Largest single cash-out (benefits are credits; a sanity bound on input). */
export const CASH_OUT_MAX = 1_000_000_000;

const cashOutColumns = {
  id: cashOuts.id,
  userId: cashOuts.userId,
  amount: cashOuts.amount,
  account: cashOuts.account,
  status: cashOuts.status,
  reviewNote: cashOuts.reviewNote,
  createdAt: cashOuts.createdAt,
  reviewedAt: cashOuts.reviewedAt,
};

/**
 * Asks to pay out benefits. The amount is held at once (a negative `cash-out` entry, taken in a
 * conditional statement so concurrent requests cannot together overdraw); a request above the
 * balance is refused and leaves nothing behind.
 */
export async function requestCashOut(deps: Pick<Deps, "db" | "now">, auth: Auth, input: { amount: number; account: string }) {
  const account = input.account.trim();
  if (!account) throw fail.invalid("field_required", "account", { field: "account" });
  const id = newId("cash");
  const now = deps.now().toISOString();
  await deps.db.insert(cashOuts).values({ id, userId: auth.userId, amount: input.amount, account, status: "requested", createdAt: now });
  const balance = await moveBenefits(deps, { userId: auth.userId, delta: -input.amount, reason: "cash-out", reference: id });
  if (balance === null) {
    await deps.db.delete(cashOuts).where(eq(cashOuts.id, id));
    const current = await deps.db.all<{ balance: number }>(sql`SELECT ${benefitBalanceSql(auth.userId)} AS balance`);
    throw new ServiceError("validation", "cash_out_over_balance", { balance: current[0]?.balance ?? 0 }, { field: "amount" });
  }
  return (await deps.db.select(cashOutColumns).from(cashOuts).where(eq(cashOuts.id, id)).get())!;
}

/** The caller's cash-out requests, newest first. */
export async function listMyCashOuts(deps: Pick<Deps, "db">, auth: Auth, input: { limit: number; offset: number }) {
  return deps.db
    .select(cashOutColumns)
    .from(cashOuts)
    .where(eq(cashOuts.userId, auth.userId))
    .orderBy(desc(cashOuts.createdAt))
    .limit(input.limit)
    .offset(input.offset);
}

/** Every cash-out request (the administrator's review list), optionally of one status, newest first. */
export async function listCashOuts(
  deps: Pick<Deps, "db">,
  input: { status?: "requested" | "approved" | "refused" | undefined; limit: number; offset: number },
) {
  return deps.db
    .select({ ...cashOutColumns, userName: users.name, userEmail: users.email })
    .from(cashOuts)
    .innerJoin(users, eq(users.id, cashOuts.userId))
    .where(input.status ? eq(cashOuts.status, input.status) : undefined)
    .orderBy(desc(cashOuts.createdAt))
    .limit(input.limit)
    .offset(input.offset);
}

/**
 * The administrator decides a request, once (a conditional update): approved keeps the amount
 * paid out; refused returns it to the benefits account.
 */
export async function decideCashOut(
  deps: Pick<Deps, "db" | "now">,
  auth: Auth,
  id: string,
  input: { decision: "approved" | "refused"; note?: string | undefined },
) {
  const now = deps.now().toISOString();
  const decided = await deps.db
    .update(cashOuts)
    .set({ status: input.decision, reviewedBy: auth.userId, reviewNote: input.note?.trim() || null, reviewedAt: now })
    .where(sql`${cashOuts.id} = ${id} AND ${cashOuts.status} = 'requested'`)
    .returning({ userId: cashOuts.userId, amount: cashOuts.amount });
  const row = decided[0];
  if (!row) {
    const existing = await deps.db.select({ status: cashOuts.status }).from(cashOuts).where(eq(cashOuts.id, id)).get();
    if (!existing) throw fail.notFound("cash_out");
    throw fail.conflict("cash_out_decided", { status: existing.status });
  }
  if (input.decision === "refused") await moveBenefits(deps, { userId: row.userId, delta: row.amount, reason: "cash-out-refused", reference: id });
  return (await deps.db.select(cashOutColumns).from(cashOuts).where(eq(cashOuts.id, id)).get())!;
}
