import { and, eq, ne, sql } from "drizzle-orm";
import { availableBalance, creditPosition, setMemberAllocation } from "../billing/service/holds";
import { planCatalogue, planCodes } from "../billing/service/plans";
import { creditLedger, spaceMembers, spaces, users } from "../db/schema/index";
import { fail, ServiceError } from "../errors";
import type { Auth, Deps } from "../kernel";
import { planView } from "../plans/service/catalogue";
import { entitlementOf } from "../plans/service/quotas";
import { TEAM_MINIMUM_MEMBERS } from "../spaces/service/privileges";

type CreditDeps = Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">;

async function spaceKind(deps: Pick<Deps, "db">, spaceId: string) {
  const row = await deps.db.select({ kind: spaces.kind }).from(spaces).where(eq(spaces.id, spaceId)).get();
  if (!row) throw fail.notFound("space");
  return row.kind;
}

async function requireTeamSpace(deps: Pick<Deps, "db">, spaceId: string) {
  if ((await spaceKind(deps, spaceId)) !== "team") throw fail.invalid("credits_team_only");
}

/** Credits each member's turns and runs were charged in a space (allocation and pool), by user id. */
async function spentTotals(deps: Pick<Deps, "db">, spaceId: string, userId?: string) {
  const rows = await deps.db
    .select({ userId: creditLedger.userId, total: sql<number>`COALESCE(SUM(-${creditLedger.delta}), 0)` })
    .from(creditLedger)
    .where(
      and(
        eq(creditLedger.spaceId, spaceId),
        eq(creditLedger.reason, "usage"),
        userId ? eq(creditLedger.userId, userId) : sql`${creditLedger.userId} IS NOT NULL`,
      ),
    )
    .groupBy(creditLedger.userId);
  return new Map(rows.map((row) => [row.userId ?? "", Number(row.total)]));
}

/** sumCompanyBalance: the space's balance, what is allocated and unallocated, and each member's allocation and spending. */
export async function getTeamCredits(deps: CreditDeps, auth: Auth) {
  await requireTeamSpace(deps, auth.spaceId);
  const position = await creditPosition(deps, auth.spaceId);
  const members = await deps.db
    .select({
      userId: spaceMembers.userId,
      name: users.name,
      email: users.email,
      phone: users.phone,
      role: spaceMembers.role,
      roleId: spaceMembers.roleId,
      allocation: spaceMembers.creditAllocation,
      spent: spaceMembers.creditsSpent,
      joinedAt: spaceMembers.joinedAt,
    })
    .from(spaceMembers)
    .innerJoin(users, eq(users.id, spaceMembers.userId))
    .where(eq(spaceMembers.spaceId, auth.spaceId))
    .orderBy(spaceMembers.joinedAt);
  const totals = await spentTotals(deps, auth.spaceId);
  return {
    ...position,
    allocated: members.reduce((sum, member) => sum + member.allocation, 0),
    members: members.map((member) => ({
      userId: member.userId,
      name: member.name,
      email: member.email,
      phone: member.phone,
      roleId: member.roleId,
      owner: member.role === "owner",
      allocation: member.allocation,
      spent: member.spent,
      spentTotal: totals.get(member.userId) ?? 0,
    })),
  };
}

/**
 * companyBalanceManage: sets a member's allocation to `amount` (not an increment). The owner
 * has none and nobody sets their own; raising it past what the pool holds is refused with the
 * most that could be allocated, and nothing changes.
 */
export async function setAllocation(deps: CreditDeps, auth: Auth, input: { userId: string; amount: number }) {
  await requireTeamSpace(deps, auth.spaceId);
  const member = await deps.db
    .select({ role: spaceMembers.role })
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, auth.spaceId), eq(spaceMembers.userId, input.userId)))
    .get();
  if (!member) throw fail.notFound("credit_member");
  if (member.role === "owner") throw fail.invalid("credits_owner_allocation", "userId");
  if (input.userId === auth.userId) throw new ServiceError("forbidden", "credits_own_allocation");
  const allocation = await setMemberAllocation(deps, { spaceId: auth.spaceId, userId: input.userId, amount: input.amount });
  if (allocation === null) {
    // Still a member (the row was read above), so the pool was short: say how much would fit.
    const available = Math.max(0, await availableBalance(deps, auth.spaceId, input.userId));
    const current = await deps.db
      .select({ allocation: spaceMembers.creditAllocation })
      .from(spaceMembers)
      .where(and(eq(spaceMembers.spaceId, auth.spaceId), eq(spaceMembers.userId, input.userId)))
      .get();
    if (!current) throw fail.notFound("credit_member");
    throw fail.conflict("credits_allocation_over_balance", { available: Math.max(current.allocation, available) });
  }
  return getTeamCredits(deps, auth);
}

/** The caller's own allocation and spending in the current space (their account page). */
export async function getMyCredits(deps: CreditDeps, auth: Auth) {
  const kind = await spaceKind(deps, auth.spaceId);
  const row = await deps.db
    .select({ allocation: spaceMembers.creditAllocation, spent: spaceMembers.creditsSpent })
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, auth.spaceId), eq(spaceMembers.userId, auth.userId)))
    .get();
  const totals = await spentTotals(deps, auth.spaceId, auth.userId);
  return {
    teamSpace: kind === "team",
    owner: auth.role === "owner",
    allocation: row?.allocation ?? 0,
    spent: row?.spent ?? 0,
    spentTotal: totals.get(auth.userId) ?? 0,
    available: Math.max(0, await availableBalance(deps, auth.spaceId, auth.userId)),
  };
}

async function membersUsed(deps: Pick<Deps, "db">, spaceId: string) {
  const row = await deps.db
    .select({ value: sql<number>`COUNT(*)` })
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, spaceId), ne(spaceMembers.role, "owner")))
    .get();
  return Number(row?.value ?? 0);
}

/** getUseMemberPrivilege: the plan's members quota, how much of it is used and whether one more fits. */
export async function getMemberPrivilege(deps: Pick<Deps, "db" | "now">, auth: Auth) {
  const [entitlement, used] = await Promise.all([entitlementOf(deps, auth.spaceId), membersUsed(deps, auth.spaceId)]);
  const limit = entitlement.quotas.members;
  return { planCode: entitlement.plan.code, limit, used, remaining: Math.max(0, limit - used), canAdd: used < limit };
}

/**
 * getUseMemberPrivilegeCost: more seats as the catalogue sells them. The catalogue has no price
 * per seat; seats come with plans, so the answer is the cheapest offered plan above the current
 * one that allows more members (a team space always has room for TEAM_MINIMUM_MEMBERS).
 */
export async function getMemberPrivilegeCost(deps: Pick<Deps, "db" | "now">, auth: Auth) {
  const [entitlement, kind, catalogue] = await Promise.all([entitlementOf(deps, auth.spaceId), spaceKind(deps, auth.spaceId), planCatalogue(deps)]);
  const limit = entitlement.quotas.members;
  const rank = planCodes.indexOf(entitlement.plan.code);
  const membersOf = (members: number) => (kind === "team" ? Math.max(members, TEAM_MINIMUM_MEMBERS) : members);
  const next = catalogue.find((plan) => plan.offered && planCodes.indexOf(plan.code) > rank && membersOf(plan.quotas.members) > limit);
  const view = next ? planView(next) : null;
  return {
    planCode: entitlement.plan.code,
    limit,
    seatPrices: null,
    upgrade: view ? { planCode: view.code, limit: membersOf(view.quotas.members), monthlyPrices: view.monthlyPrices, yearlyPrices: view.yearlyPrices } : null,
  };
}
