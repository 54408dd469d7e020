import { asc, count, eq, sql } from "drizzle-orm";
import { keywordMatch } from "../../db/query-helpers";
import { alias } from "drizzle-orm/sqlite-core";
import type { z } from "@hono/zod-openapi";
import { effectiveGrade, type Plan, planCatalogue, planOfGrade } from "../../billing/service/plans";
import { spaceMembers, spacePlans, spaces, users } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { type MemberGrade, planQuotasFor, type QuotaOverrides, sessionQuotas } from "../../spaces/service/privileges";
import { parseQuotaOverrides } from "../../spaces/service/spaces";
import { INSTANCE_PAGE_SIZE, INSTANCE_PAGE_SIZE_MAX, type instanceSpaceSchema, type instanceUserSchema, type updateInstanceSpaceBody } from "../schemas";

type InstanceUser = z.infer<typeof instanceUserSchema>;
type InstanceSpace = z.infer<typeof instanceSpaceSchema>;
type SpaceRow = typeof spaces.$inferSelect;
/** Paging and search of the instance lists. */
export interface ListQuery {
  pageNo?: number;
  pageSize?: number;
  keyword?: string;
}

/**
 * Only the instance administrator (the first owner, users.isInstanceOwner) administers the
 * instance, signed in or with one of their own API keys.
 */
export async function requireInstanceAdmin(deps: Pick<Deps, "db">, auth: Auth): Promise<void> {
  const user = await deps.db.select({ admin: users.isInstanceOwner }).from(users).where(eq(users.id, auth.userId)).get();
  if (!user?.admin) throw fail.forbidden("instance_admin_only");
}

function paging(query: ListQuery) {
  const pageNo = query.pageNo ?? 1;
  const pageSize = Math.min(query.pageSize ?? INSTANCE_PAGE_SIZE, INSTANCE_PAGE_SIZE_MAX);
  return { pageNo, pageSize, offset: (pageNo - 1) * pageSize };
}

const personal = alias(spaces, "personal_space");
const personalPlan = alias(spacePlans, "personal_plan");

const userColumns = {
  userId: users.id,
  name: users.name,
  email: users.email,
  phone: users.phone,
  isInstanceOwner: users.isInstanceOwner,
  memberGrade: personal.memberGrade,
  planExpiresAt: personalPlan.expiresAt,
  personalSpaceId: users.personalSpaceId,
  createdAt: users.createdAt,
};

/** Every user of the instance, oldest first; a user's grade is their personal space's. */
export async function listInstanceUsers(deps: Pick<Deps, "db" | "now">, query: ListQuery) {
  const { pageNo, pageSize, offset } = paging(query);
  const where = keywordMatch([users.name, users.email, users.phone], query.keyword);
  const [items, total] = await Promise.all([
    deps.db
      .select(userColumns)
      .from(users)
      .innerJoin(personal, eq(personal.id, users.personalSpaceId))
      .leftJoin(personalPlan, eq(personalPlan.spaceId, personal.id))
      .where(where)
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(pageSize)
      .offset(offset)
      .all(),
    deps.db.select({ value: count() }).from(users).where(where).get(),
  ]);
  return { items: items.map((row) => userView(deps, row)), total: total?.value ?? 0, pageNo, pageSize };
}

/** A user row as shown: the grade is the effective one (Free once a plan has ended). */
function userView(deps: Pick<Deps, "now">, row: { memberGrade: string; planExpiresAt: string | null } & Omit<InstanceUser, "memberGrade">): InstanceUser {
  const { planExpiresAt, ...rest } = row;
  return { ...rest, memberGrade: effectiveGrade(row.memberGrade, planExpiresAt ? { expiresAt: planExpiresAt } : null, deps.now().toISOString()) };
}

async function instanceUser(deps: Pick<Deps, "db" | "now">, userId: string): Promise<InstanceUser> {
  const row = await deps.db
    .select(userColumns)
    .from(users)
    .innerJoin(personal, eq(personal.id, users.personalSpaceId))
    .leftJoin(personalPlan, eq(personalPlan.spaceId, personal.id))
    .where(eq(users.id, userId))
    .get();
  if (!row) throw fail.notFound("user");
  return userView(deps, row);
}

/**
 * Sets a space's grade with no end: a plan period the space ran on is dropped, so the grade the
 * administrator chose stands instead of falling back to Free when that period ends.
 */
async function setGrade(deps: Pick<Deps, "db" | "now">, spaceId: string, memberGrade: MemberGrade): Promise<void> {
  await deps.db.delete(spacePlans).where(eq(spacePlans.spaceId, spaceId));
  await deps.db.update(spaces).set({ memberGrade, updatedAt: deps.now().toISOString() }).where(eq(spaces.id, spaceId));
}

/** Sets a user's grade, which is the grade of their personal space; quota overrides stay. */
export async function setUserGrade(deps: Pick<Deps, "db" | "now">, userId: string, memberGrade: MemberGrade): Promise<InstanceUser> {
  const user = await deps.db.select({ personalSpaceId: users.personalSpaceId }).from(users).where(eq(users.id, userId)).get();
  if (!user) throw fail.notFound("user");
  await setGrade(deps, user.personalSpaceId, memberGrade);
  return instanceUser(deps, userId);
}

const memberCount = sql<number>`(select count(*) from ${spaceMembers} where ${spaceMembers.spaceId} = ${spaces.id})`.mapWith(Number);

function spaceView(
  deps: Pick<Deps, "now">,
  catalogue: Plan[],
  row: { space: SpaceRow; ownerName: string; ownerEmail: string | null; memberCount: number; plan: { planCode: string; expiresAt: string } | null },
): InstanceSpace {
  const { space } = row;
  const overrides = parseQuotaOverrides(space.quotaOverrides);
  const now = deps.now().toISOString();
  const grade = effectiveGrade(space.memberGrade, row.plan, now);
  const code = row.plan && row.plan.expiresAt > now ? row.plan.planCode : planOfGrade(grade);
  const planQuotas = catalogue.find((plan) => plan.code === code)?.quotas;
  const quotas = planQuotasFor({ grade, kind: space.kind, overrides, ...(planQuotas ? { planQuotas } : {}) });
  return {
    spaceId: space.id,
    companyCode: space.code,
    companyName: space.name,
    kind: space.kind,
    ownerUserId: space.ownerUserId,
    ownerName: row.ownerName,
    ownerEmail: row.ownerEmail,
    memberGrade: grade,
    quotaOverrides: overrides,
    quotas: { ...sessionQuotas(quotas), ...quotas },
    planCode: code as InstanceSpace["planCode"],
    planExpiresAt: row.plan && row.plan.expiresAt > now ? row.plan.expiresAt : null,
    memberCount: row.memberCount,
    createdAt: space.createdAt,
  };
}

const spaceColumns = {
  space: spaces,
  ownerName: users.name,
  ownerEmail: users.email,
  memberCount,
  plan: { planCode: spacePlans.planCode, expiresAt: spacePlans.expiresAt },
};

/** Every space of the instance, oldest first, with its owner and the quotas it has. */
export async function listInstanceSpaces(deps: Pick<Deps, "db" | "now">, query: ListQuery) {
  const { pageNo, pageSize, offset } = paging(query);
  const where = keywordMatch([spaces.name, spaces.code, users.name, users.email], query.keyword);
  const [rows, total] = await Promise.all([
    deps.db
      .select(spaceColumns)
      .from(spaces)
      .innerJoin(users, eq(users.id, spaces.ownerUserId))
      .leftJoin(spacePlans, eq(spacePlans.spaceId, spaces.id))
      .where(where)
      .orderBy(asc(spaces.createdAt), asc(spaces.id))
      .limit(pageSize)
      .offset(offset)
      .all(),
    deps.db.select({ value: count() }).from(spaces).innerJoin(users, eq(users.id, spaces.ownerUserId)).where(where).get(),
  ]);
  const catalogue = await planCatalogue(deps);
  return { items: rows.map((row) => spaceView(deps, catalogue, row)), total: total?.value ?? 0, pageNo, pageSize };
}

async function instanceSpace(deps: Pick<Deps, "db" | "now">, spaceId: string): Promise<InstanceSpace> {
  const row = await deps.db
    .select(spaceColumns)
    .from(spaces)
    .innerJoin(users, eq(users.id, spaces.ownerUserId))
    .leftJoin(spacePlans, eq(spacePlans.spaceId, spaces.id))
    .where(eq(spaces.id, spaceId))
    .get();
  if (!row) throw fail.notFound("space");
  return spaceView(deps, await planCatalogue(deps), row);
}

/**
 * Sets a space's grade and/or its quota overrides. `quotas` replaces the stored overrides
 * (an omitted quota follows the grade); null or an empty object removes them.
 */
export async function setSpaceCapabilities(
  deps: Pick<Deps, "db" | "now">,
  spaceId: string,
  input: z.infer<typeof updateInstanceSpaceBody>,
): Promise<InstanceSpace> {
  const exists = await deps.db.select({ id: spaces.id }).from(spaces).where(eq(spaces.id, spaceId)).get();
  if (!exists) throw fail.notFound("space");
  let quotaOverrides: string | null | undefined;
  if (input.quotas !== undefined) {
    const entries = Object.entries(input.quotas ?? {}).filter(([, value]) => value !== undefined);
    quotaOverrides = entries.length > 0 ? JSON.stringify(Object.fromEntries(entries) as QuotaOverrides) : null;
  }
  if (input.memberGrade) await setGrade(deps, spaceId, input.memberGrade);
  await deps.db
    .update(spaces)
    .set({
      ...(quotaOverrides !== undefined ? { quotaOverrides } : {}),
      updatedAt: deps.now().toISOString(),
    })
    .where(eq(spaces.id, spaceId));
  return instanceSpace(deps, spaceId);
}
