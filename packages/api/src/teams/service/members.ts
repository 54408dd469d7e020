import { and, asc, count, eq, inArray, isNotNull, or, type SQL, sql } from "drizzle-orm";
import { keywordMatch } from "../../db/query-helpers";
import { alias } from "drizzle-orm/sqlite-core";
import { type Grant, isSystemRole, parseGrants, systemRoles } from "../../access";
import { apiKeys, spaceMembers, spaceRoles, spaces, users } from "../../db/schema/index";
import { fail } from "../../errors";
import { messageText } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";
import type { Auth, Deps } from "../../kernel";

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

/** A role a member can hold in a space: its grants, tier and display name source. */
export interface SpaceRole {
  roleId: string;
  grants: readonly string[];
  tier: "owner" | "admin" | "member";
  /** A custom role's name; system roles are named by the catalogue. */
  customName?: string;
}

/** The name of a role in a language: a system role's from the catalogue, a custom role's its own. */
export function roleNameOf(language: Language, roleId: string, customName: string | null | undefined): string {
  if (isSystemRole(roleId)) return messageText(language, `role_name.${roleId}`);
  return customName ?? roleId;
}

/** A role of the space by id (a system key or a space_roles row of that space), or undefined. */
export async function findRole(deps: Pick<Deps, "db">, spaceId: string, roleId: string): Promise<SpaceRole | undefined> {
  if (isSystemRole(roleId)) {
    const role = systemRoles[roleId];
    return { roleId, grants: role.grants, tier: role.tier };
  }
  const row = await deps.db
    .select({ name: spaceRoles.name, grants: spaceRoles.grants })
    .from(spaceRoles)
    .where(and(eq(spaceRoles.id, roleId), eq(spaceRoles.spaceId, spaceId)))
    .get();
  return row ? { roleId, grants: parseGrants(row.grants), tier: "member", customName: row.name } : undefined;
}

/**
 * Refuses giving a role (to a member or through a link) the caller could not hold themselves:
 * `owner` (only a transfer makes one), a role the space does not have, an administrator unless
 * the caller owns the space, and any grant the caller's own role lacks.
 */
export async function assertGrantable(deps: Pick<Deps, "db">, auth: Auth, roleId: string): Promise<SpaceRole> {
  if (roleId === "owner") throw fail.invalid("team_owner_role_by_transfer", "roleId");
  const role = await findRole(deps, auth.spaceId, roleId);
  if (!role) throw fail.invalid("team_role_unknown", "roleId");
  if (role.tier === "admin" && auth.role !== "owner") throw fail.forbidden("team_admin_owner_only");
  const held = auth.access?.grants;
  if (held && role.grants.some((grant) => !held.has(grant as Grant))) throw fail.forbidden("team_grant_exceeds");
  return role;
}

const inviter = alias(users, "inviter");

const memberColumns = {
  userId: spaceMembers.userId,
  name: users.name,
  email: users.email,
  phone: users.phone,
  roleId: spaceMembers.roleId,
  tier: spaceMembers.role,
  customName: spaceRoles.name,
  creditAllocation: spaceMembers.creditAllocation,
  creditsSpent: spaceMembers.creditsSpent,
  joinedAt: spaceMembers.joinedAt,
  invitedBy: spaceMembers.invitedBy,
  invitedByName: inviter.name,
};

type MemberRow = {
  userId: string;
  name: string;
  email: string | null;
  phone: string | null;
  roleId: string;
  tier: "owner" | "admin" | "member";
  customName: string | null;
  creditAllocation: number;
  creditsSpent: number;
  joinedAt: string;
  invitedBy: string | null;
  invitedByName: string | null;
};

function memberView(language: Language, row: MemberRow) {
  return {
    userId: row.userId,
    name: row.name,
    email: row.email,
    phone: row.phone,
    roleId: row.roleId,
    roleName: roleNameOf(language, row.roleId, row.customName),
    owner: row.tier === "owner",
    creditAllocation: row.creditAllocation,
    creditsSpent: row.creditsSpent,
    joinedAt: row.joinedAt,
    invitedBy: row.invitedBy,
    invitedByName: row.invitedByName,
  };
}

function membersQuery(deps: Pick<Deps, "db">, where: SQL | undefined) {
  return deps.db
    .select(memberColumns)
    .from(spaceMembers)
    .innerJoin(users, eq(users.id, spaceMembers.userId))
    .leftJoin(spaceRoles, and(eq(spaceRoles.id, spaceMembers.roleId), eq(spaceRoles.spaceId, spaceMembers.spaceId)))
    .leftJoin(inviter, eq(inviter.id, spaceMembers.invitedBy))
    .where(where);
}

/** The members of the space the request acts in (getCompanyMember), owner first, then by joining time. */
export async function listMembers(
  deps: Pick<Deps, "db">,
  auth: Auth,
  query: { keyword?: string | undefined; pageNo?: number | undefined; pageSize?: number | undefined },
  language: Language,
) {
  const pageNo = query.pageNo ?? 1;
  const pageSize = Math.min(query.pageSize ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const where = and(eq(spaceMembers.spaceId, auth.spaceId), keywordMatch([users.name, users.email, users.phone], query.keyword));
  const [rows, total] = await Promise.all([
    membersQuery(deps, where)
      .orderBy(sql`CASE WHEN ${spaceMembers.role} = 'owner' THEN 0 ELSE 1 END`, asc(spaceMembers.joinedAt), asc(spaceMembers.userId))
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize)
      .all(),
    deps.db.select({ value: count() }).from(spaceMembers).innerJoin(users, eq(users.id, spaceMembers.userId)).where(where).get(),
  ]);
  return { items: rows.map((row) => memberView(language, row)), total: Number(total?.value ?? 0), pageNo, pageSize };
}

/** One member of the space the request acts in, or not found. */
export async function getMember(deps: Pick<Deps, "db">, spaceId: string, userId: string, language: Language) {
  const row = await membersQuery(deps, and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId))).get();
  if (!row) throw fail.notFound("team_member");
  return memberView(language, row);
}

/** Members handover notices can reach (getCompanyNotifyMember): those with an e-mail address or a phone. */
export async function listNotifyMembers(deps: Pick<Deps, "db">, auth: Auth, language: Language) {
  const rows = await membersQuery(deps, and(eq(spaceMembers.spaceId, auth.spaceId), or(isNotNull(users.email), isNotNull(users.phone))))
    .orderBy(asc(spaceMembers.joinedAt), asc(spaceMembers.userId))
    .all();
  return rows.map((row) => ({
    userId: row.userId,
    name: row.name,
    email: row.email,
    phone: row.phone,
    roleName: roleNameOf(language, row.roleId, row.customName),
  }));
}

async function memberRow(deps: Pick<Deps, "db">, spaceId: string, userId: string) {
  return deps.db
    .select()
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId)))
    .get();
}

/**
 * Gives a member another role (setCompanyMemberRole). Nobody changes their own role or the
 * owner's; the role must exist and hold nothing the caller lacks; administrators are the owner's
 * to make and unmake. The tier follows the role.
 */
export async function setMemberRole(deps: Pick<Deps, "db" | "realtime">, auth: Auth, userId: string, roleId: string, language: Language) {
  if (userId === auth.userId) throw fail.forbidden("team_own_role");
  const target = await memberRow(deps, auth.spaceId, userId);
  if (!target) throw fail.notFound("team_member");
  if (target.role === "owner") throw fail.forbidden("team_owner_role");
  const role = await assertGrantable(deps, auth, roleId);
  if (target.role === "admin" && auth.role !== "owner") throw fail.forbidden("team_admin_owner_only");
  await deps.db
    .update(spaceMembers)
    .set({ roleId, role: role.tier === "admin" ? "admin" : "member" })
    .where(and(eq(spaceMembers.spaceId, auth.spaceId), eq(spaceMembers.userId, userId)));
  deps.realtime.toSpace(auth.spaceId, "access.changed", { reason: "member", userIds: [userId] });
  return getMember(deps, auth.spaceId, userId, language);
}

/**
 * Takes a member out of a space at once: the membership (and the credits allocated with it), the
 * personal API keys made for that space, the space as their current one. Their open consoles are
 * told, and the socket server drops them from the space's room first.
 */
export async function dropMember(deps: Pick<Deps, "db" | "now" | "realtime">, spaceId: string, userId: string): Promise<void> {
  await deps.db.delete(spaceMembers).where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId)));
  await deps.db.delete(apiKeys).where(and(eq(apiKeys.spaceId, spaceId), eq(apiKeys.userId, userId)));
  await deps.db
    .update(users)
    .set({ currentSpaceId: sql`${users.personalSpaceId}`, updatedAt: deps.now().toISOString() })
    .where(and(eq(users.id, userId), eq(users.currentSpaceId, spaceId)));
  deps.realtime.toSpace(spaceId, "access.changed", { reason: "removed", userIds: [userId] });
}

/** Removes a member (deleteCompanyMember): never the owner, never oneself (exit instead), an administrator only by the owner. */
export async function removeMember(deps: Pick<Deps, "db" | "now" | "realtime">, auth: Auth, userId: string) {
  if (userId === auth.userId) throw fail.forbidden("team_remove_self");
  const target = await memberRow(deps, auth.spaceId, userId);
  if (!target) throw fail.notFound("team_member");
  if (target.role === "owner") throw fail.forbidden("team_remove_owner");
  if (target.role === "admin" && auth.role !== "owner") throw fail.forbidden("team_remove_admin_owner_only");
  await dropMember(deps, auth.spaceId, userId);
  return { userId };
}

/** Leaves the space the request acts in (exitCompany); the owner cannot. */
export async function exitSpace(deps: Pick<Deps, "db" | "now" | "realtime">, auth: Auth) {
  const space = await deps.db.select({ ownerUserId: spaces.ownerUserId }).from(spaces).where(eq(spaces.id, auth.spaceId)).get();
  if (!space) throw fail.notFound("space");
  if (space.ownerUserId === auth.userId || auth.role === "owner") throw fail.conflict("last_owner");
  await dropMember(deps, auth.spaceId, auth.userId);
  const user = await deps.db.select({ personalSpaceId: users.personalSpaceId }).from(users).where(eq(users.id, auth.userId)).get();
  return { spaceId: user?.personalSpaceId ?? "" };
}

/**
 * Hands the space to another member: they become owner, the former owner an administrator. The
 * space's owner moves first, conditionally, so of two transfers at once only one applies; both
 * membership rows then change in one statement.
 */
export async function transferOwnership(deps: Pick<Deps, "db" | "now" | "realtime">, auth: Auth, userId: string, language: Language) {
  const space = await deps.db.select({ ownerUserId: spaces.ownerUserId, kind: spaces.kind }).from(spaces).where(eq(spaces.id, auth.spaceId)).get();
  if (!space) throw fail.notFound("space");
  if (space.ownerUserId !== auth.userId) throw fail.forbidden("team_owner_only");
  if (userId === auth.userId) throw fail.invalid("team_transfer_self", "userId");
  if (space.kind === "personal") throw fail.conflict("team_personal_transfer");
  const target = await memberRow(deps, auth.spaceId, userId);
  if (!target) throw fail.notFound("team_member");
  const claimed = await deps.db
    .update(spaces)
    .set({ ownerUserId: userId, updatedAt: deps.now().toISOString() })
    .where(and(eq(spaces.id, auth.spaceId), eq(spaces.ownerUserId, auth.userId)))
    .returning({ id: spaces.id });
  if (claimed.length === 0) throw fail.forbidden("team_owner_only");
  await deps.db
    .update(spaceMembers)
    .set({
      role: sql`CASE WHEN ${spaceMembers.userId} = ${userId} THEN 'owner' ELSE 'admin' END`,
      roleId: sql`CASE WHEN ${spaceMembers.userId} = ${userId} THEN 'owner' ELSE 'admin' END`,
      // The owner spends the unallocated credits: what the new owner had set aside returns to them.
      creditAllocation: sql`CASE WHEN ${spaceMembers.userId} = ${userId} THEN 0 ELSE ${spaceMembers.creditAllocation} END`,
    })
    .where(and(eq(spaceMembers.spaceId, auth.spaceId), inArray(spaceMembers.userId, [userId, auth.userId])));
  deps.realtime.toSpace(auth.spaceId, "access.changed", { reason: "owner", userIds: [userId, auth.userId] });
  return getMember(deps, auth.spaceId, userId, language);
}
