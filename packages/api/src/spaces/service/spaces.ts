import { and, asc, eq } from "drizzle-orm";
import { newId, newShortCode } from "../../crypto";
import { effectiveGrade } from "../../billing/service/plans";
import { accessOf } from "../../access/member-access";
import { spaceMembers, spacePlans, spaceRoles, spaces, users } from "../../db/schema/index";
import type { Language } from "../../i18n/language";
import { roleNameOf } from "../../roles/service/names";
import { entitlementOf } from "../../plans/service/quotas";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { ADMINISTRATOR_GRADE, computePrivileges, type MemberGrade, type PlanQuotas, type Privileges, type QuotaOverrides } from "./privileges";

type SpaceRow = typeof spaces.$inferSelect;
type MemberRow = typeof spaceMembers.$inferSelect;
/** The member's custom role row, when their role is one. */
type CustomRole = { name: string; grants: string; dataRange: string | null } | null;

const customRoleColumns = { name: spaceRoles.name, grants: spaceRoles.grants, dataRange: spaceRoles.dataRange };
const customRoleJoin = and(eq(spaceRoles.id, spaceMembers.roleId), eq(spaceRoles.spaceId, spaceMembers.spaceId));

function parseJson<T>(value: string | null): T | null {
  if (!value) return null;
  try {
    return JSON.parse(value) as T;
  } catch {
    return null;
  }
}

/** Reads stored quota overrides; anything unreadable counts as none. */
export function parseQuotaOverrides(value: string | null): QuotaOverrides | null {
  return parseJson<QuotaOverrides>(value);
}

/**
 * Privileges of one member in one space from their role (decision 0019); `instanceAdmin` adds
 * the instance entry. `planQuotas` are the space's quotas from the catalogue as edited here
 * ({@link entitlementOf}).
 */
export function privilegesOf(space: SpaceRow, member: MemberRow, customRole: CustomRole, instanceAdmin = false, planQuotas?: PlanQuotas): Privileges {
  return computePrivileges({
    grade: space.memberGrade as MemberGrade,
    kind: space.kind,
    overrides: parseJson<QuotaOverrides>(space.quotaOverrides),
    ...(planQuotas ? { planQuotas } : {}),
    grants: accessOf(member.roleId, customRole).grants,
    instanceAdmin,
  });
}

/** The language a stored preference names; anything else is English. */
function languageOf(value: string | null | undefined): Language {
  return value === "zh-CN" ? "zh-CN" : "en";
}

async function languageOfUser(deps: Pick<Deps, "db">, userId: string): Promise<Language> {
  const user = await deps.db.select({ language: users.language }).from(users).where(eq(users.id, userId)).get();
  return languageOf(user?.language);
}

/** Inserts a space and its owner membership. */
export async function insertSpace(
  deps: Pick<Deps, "db" | "now">,
  input: { name: string; kind: "personal" | "team"; ownerUserId: string; id?: string },
): Promise<SpaceRow> {
  const now = deps.now().toISOString();
  const owner = await deps.db.select({ admin: users.isInstanceOwner }).from(users).where(eq(users.id, input.ownerUserId)).get();
  for (let attempt = 0; ; attempt++) {
    const row = {
      id: input.id ?? newId("spc"),
      code: newShortCode(8),
      name: input.name,
      kind: input.kind,
      ownerUserId: input.ownerUserId,
      // Until plans are sold, the administrator's spaces have every capability.
      ...(owner?.admin ? { memberGrade: ADMINISTRATOR_GRADE } : {}),
      createdAt: now,
      updatedAt: now,
    };
    try {
      await deps.db.insert(spaces).values(row);
    } catch (error) {
      // A code collision (1 in 10^12) gets a new code; anything else is real.
      if (attempt < 3 && String(error).includes("spaces_code_unique")) continue;
      throw error;
    }
    await deps.db.insert(spaceMembers).values({ spaceId: row.id, userId: input.ownerUserId, role: "owner", roleId: "owner", joinedAt: now });
    return (await deps.db.select().from(spaces).where(eq(spaces.id, row.id)).get())!;
  }
}

/** The space row as readers see it: a plan past its end reads as Free (decision 0018). */
function withEffectiveGrade(deps: Pick<Deps, "now">, row: { space: SpaceRow; member: MemberRow; plan: { expiresAt: string } | null; customRole: CustomRole }) {
  const memberGrade = effectiveGrade(row.space.memberGrade, row.plan, deps.now().toISOString());
  return { space: memberGrade === row.space.memberGrade ? row.space : { ...row.space, memberGrade }, member: row.member, customRole: row.customRole };
}

/** Loads a space the user belongs to, or answers not found: other spaces do not exist for them. */
export async function loadMembership(
  deps: Pick<Deps, "db" | "now">,
  userId: string,
  spaceId: string,
): Promise<{ space: SpaceRow; member: MemberRow; customRole: CustomRole }> {
  const row = await deps.db
    .select({ space: spaces, member: spaceMembers, plan: { expiresAt: spacePlans.expiresAt }, customRole: customRoleColumns })
    .from(spaceMembers)
    .innerJoin(spaces, eq(spaces.id, spaceMembers.spaceId))
    .leftJoin(spacePlans, eq(spacePlans.spaceId, spaces.id))
    .leftJoin(spaceRoles, customRoleJoin)
    .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId)))
    .get();
  if (!row) throw fail.notFound("space");
  return withEffectiveGrade(deps, row);
}

/** The space as clients see it, with the member's role by id and by name (in `language`). */
export function spaceView(space: SpaceRow, member: MemberRow, currentSpaceId: string, customRole: CustomRole, language: Language) {
  return {
    spaceId: space.id,
    companyCode: space.code,
    companyName: space.name,
    kind: space.kind,
    role: member.role,
    roleId: member.roleId,
    roleName: roleNameOf(member.roleId, customRole?.name, language),
    memberGrade: space.memberGrade as MemberGrade,
    companyTabIconUrl: space.tabIconUrl,
    companyTabTitle: space.tabTitle,
    companyIconWordUrl: space.iconWordUrl,
    current: space.id === currentSpaceId,
    createdAt: space.createdAt,
  };
}

/** The spec's userList: every space the user belongs to. */
export async function listSpaces(deps: Pick<Deps, "db" | "now">, userId: string) {
  const user = await deps.db.select({ currentSpaceId: users.currentSpaceId, language: users.language }).from(users).where(eq(users.id, userId)).get();
  if (!user) throw fail.notFound("user");
  const rows = await deps.db
    .select({ space: spaces, member: spaceMembers, plan: { expiresAt: spacePlans.expiresAt }, customRole: customRoleColumns })
    .from(spaceMembers)
    .innerJoin(spaces, eq(spaces.id, spaceMembers.spaceId))
    .leftJoin(spacePlans, eq(spacePlans.spaceId, spaces.id))
    .leftJoin(spaceRoles, customRoleJoin)
    .where(eq(spaceMembers.userId, userId))
    .orderBy(asc(spaces.createdAt));
  const language = languageOf(user.language);
  return rows
    .map((row) => withEffectiveGrade(deps, row))
    .map(({ space, member, customRole }) => spaceView(space, member, user.currentSpaceId, customRole, language));
}

/** The signed-in user with every field of spec §3, in the space the request acts in. */
export async function userView(deps: Pick<Deps, "db" | "now">, userId: string, spaceId: string) {
  const user = await deps.db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw fail.notFound("user");
  const { space, member, customRole } = await loadMembership(deps, userId, spaceId);
  const privileges = privilegesOf(space, member, customRole, user.isInstanceOwner, (await entitlementOf(deps, space.id)).quotas);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    phone: user.phone,
    avatarUrl: user.avatarUrl,
    language: user.language === "zh-CN" ? ("zh-CN" as const) : ("en" as const),
    spaceId: space.id,
    companyCode: space.code,
    companyName: space.name,
    companyOwner: space.ownerUserId === user.id,
    memberGrade: privileges.memberGrade,
    authorizedRoute: privileges.authorizedRoute,
    authorizedRouteList: privileges.authorizedRouteList,
    customerAdmin: privileges.customerAdmin,
    clientManage: privileges.clientManage,
    customerManage: privileges.customerManage,
    memberNumber: privileges.memberNumber,
    companyTabIconUrl: space.tabIconUrl,
    companyTabTitle: space.tabTitle,
    companyIconWordUrl: space.iconWordUrl,
    role: member.role,
    roleId: member.roleId,
    roleName: roleNameOf(member.roleId, customRole?.name, languageOf(user.language)),
    hasPassword: user.passwordHash !== null,
    isInstanceOwner: user.isInstanceOwner,
    createdAt: user.createdAt,
  };
}

/** Creates a team space owned by the caller and makes it current. */
export async function createTeamSpace(deps: Pick<Deps, "db" | "now">, auth: Auth, input: { companyName: string }) {
  const name = input.companyName.trim();
  if (!name) throw fail.invalid("company_name_required", "companyName");
  const space = await insertSpace(deps, { name, kind: "team", ownerUserId: auth.userId });
  await deps.db.update(users).set({ currentSpaceId: space.id, updatedAt: deps.now().toISOString() }).where(eq(users.id, auth.userId));
  const { member } = await loadMembership(deps, auth.userId, space.id);
  return spaceView(space, member, space.id, null, await languageOfUser(deps, auth.userId));
}

/** One space the caller belongs to. */
export async function getSpace(deps: Pick<Deps, "db" | "now">, auth: Auth, spaceId: string) {
  const { space, member, customRole } = await loadMembership(deps, auth.userId, spaceId);
  const user = await deps.db.select({ currentSpaceId: users.currentSpaceId, language: users.language }).from(users).where(eq(users.id, auth.userId)).get();
  return spaceView(space, member, user?.currentSpaceId ?? "", customRole, languageOf(user?.language));
}

/** Renames or re-brands a space; owner or admin only. */
export async function updateSpace(
  deps: Pick<Deps, "db" | "now">,
  auth: Auth,
  spaceId: string,
  input: { companyName?: string; companyTabIconUrl?: string | null; companyTabTitle?: string | null; companyIconWordUrl?: string | null },
) {
  const { member } = await loadMembership(deps, auth.userId, spaceId);
  if (member.role === "member") throw fail.forbidden("space_admin_only");
  const name = input.companyName?.trim();
  if (input.companyName !== undefined && !name) throw fail.invalid("company_name_required", "companyName");
  await deps.db
    .update(spaces)
    .set({
      ...(name ? { name } : {}),
      ...(input.companyTabIconUrl !== undefined ? { tabIconUrl: input.companyTabIconUrl } : {}),
      ...(input.companyTabTitle !== undefined ? { tabTitle: input.companyTabTitle } : {}),
      ...(input.companyIconWordUrl !== undefined ? { iconWordUrl: input.companyIconWordUrl } : {}),
      updatedAt: deps.now().toISOString(),
    })
    .where(eq(spaces.id, spaceId));
  return getSpace(deps, auth, spaceId);
}

/** Makes a space the caller's current one (the spec's nowSelect). */
export async function selectSpace(deps: Pick<Deps, "db" | "now">, auth: Auth, spaceId: string) {
  await loadMembership(deps, auth.userId, spaceId);
  await deps.db.update(users).set({ currentSpaceId: spaceId, updatedAt: deps.now().toISOString() }).where(eq(users.id, auth.userId));
  return userView(deps, auth.userId, spaceId);
}

/** Privileges of the caller in the space the request acts in. */
export async function getPrivileges(deps: Pick<Deps, "db" | "now">, auth: Auth): Promise<Privileges> {
  const { space, member, customRole } = await loadMembership(deps, auth.userId, auth.spaceId);
  const user = await deps.db.select({ admin: users.isInstanceOwner }).from(users).where(eq(users.id, auth.userId)).get();
  return privilegesOf(space, member, customRole, user?.admin === true, (await entitlementOf(deps, space.id)).quotas);
}
