import { and, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { newId, newSecret, sha256 } from "../../crypto";
import { spaceInvitations, spaceMembers, spaceRoles, spaces, users } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Language } from "../../i18n/language";
import type { Auth, Deps } from "../../kernel";
import { openValue, sealValue } from "../../platform/sealed";
import { withQuota } from "../../plans/service/quotas";
import { assertGrantable, findRole, roleNameOf } from "./members";

/** The prefix of a team invitation's `inviteParam`; any other value is a referral code (benefits). */
export const TEAM_INVITE_PREFIX = "tm_";

const DEFAULT_EXPIRY_DAYS = 7;
const DAY_MS = 86_400_000;

type InvitationRow = typeof spaceInvitations.$inferSelect;

/** Whether an `inviteParam` is a team invitation (`tm_…`) rather than a referral code. */
export function isTeamInvite(inviteParam: string | undefined): inviteParam is string {
  return inviteParam?.trim().startsWith(TEAM_INVITE_PREFIX) === true;
}

/** The console address an invitation opens. */
export function invitationLink(deps: Pick<Deps, "config">, inviteParam: string): string {
  return `${deps.config.publicUrl}/console/agents?inviteParam=${encodeURIComponent(inviteParam)}`;
}

function statusOf(row: InvitationRow, now: string): "active" | "expired" | "revoked" | "used_up" {
  if (row.revokedAt) return "revoked";
  if (row.expiresAt <= now) return "expired";
  if (row.maxUses !== null && row.uses >= row.maxUses) return "used_up";
  return "active";
}

const creator = alias(users, "creator");

/** The invitation links of the space the request acts in, newest first. */
export async function listInvitations(deps: Pick<Deps, "config" | "db" | "now" | "secrets">, auth: Auth, language: Language) {
  const rows = await deps.db
    .select({ invitation: spaceInvitations, customName: spaceRoles.name, createdByName: creator.name })
    .from(spaceInvitations)
    .leftJoin(spaceRoles, and(eq(spaceRoles.id, spaceInvitations.roleId), eq(spaceRoles.spaceId, spaceInvitations.spaceId)))
    .leftJoin(creator, eq(creator.id, spaceInvitations.createdBy))
    .where(eq(spaceInvitations.spaceId, auth.spaceId))
    .orderBy(desc(spaceInvitations.createdAt), desc(spaceInvitations.id))
    .all();
  const now = deps.now().toISOString();
  return rows.map((row) => invitationView(deps, row.invitation, roleNameOf(language, row.invitation.roleId, row.customName), row.createdByName, now));
}

function invitationView(deps: Pick<Deps, "config" | "secrets">, row: InvitationRow, roleName: string, createdByName: string | null, now: string) {
  const inviteParam = openValue(deps.secrets, row.tokenSealed);
  return {
    id: row.id,
    roleId: row.roleId,
    roleName,
    inviteParam,
    link: inviteParam ? invitationLink(deps, inviteParam) : "",
    status: statusOf(row, now),
    createdBy: row.createdBy,
    createdByName,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    revokedAt: row.revokedAt,
    maxUses: row.maxUses,
    uses: row.uses,
  };
}

/**
 * Makes an invitation link to the team space the request acts in (inviteMember). The role is
 * checked as when giving it to a member: nothing the caller could not give directly.
 */
export async function createInvitation(
  deps: Pick<Deps, "config" | "db" | "now" | "secrets">,
  auth: Auth,
  input: { roleId?: string | undefined; expiresInDays?: number | undefined; maxUses?: number | undefined },
  language: Language,
) {
  const space = await deps.db.select({ kind: spaces.kind }).from(spaces).where(eq(spaces.id, auth.spaceId)).get();
  if (!space) throw fail.notFound("space");
  if (space.kind !== "team") throw fail.conflict("team_personal_space");
  const role = await assertGrantable(deps, auth, input.roleId ?? "viewer");
  const token = newSecret(TEAM_INVITE_PREFIX.slice(0, -1), 24);
  const now = deps.now();
  const row = {
    id: newId("tin"),
    spaceId: auth.spaceId,
    tokenHash: sha256(token),
    tokenSealed: sealValue(deps.secrets, token),
    roleId: role.roleId,
    createdBy: auth.userId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + (input.expiresInDays ?? DEFAULT_EXPIRY_DAYS) * DAY_MS).toISOString(),
    maxUses: input.maxUses ?? null,
    uses: 0,
    revokedAt: null,
  };
  await deps.db.insert(spaceInvitations).values(row);
  const me = await deps.db.select({ name: users.name }).from(users).where(eq(users.id, auth.userId)).get();
  return invitationView(deps, row, roleNameOf(language, role.roleId, role.customName), me?.name ?? null, row.createdAt);
}

/** Revokes a link of the space the request acts in; revoking twice changes nothing. */
export async function revokeInvitation(deps: Pick<Deps, "config" | "db" | "now" | "secrets">, auth: Auth, invitationId: string, language: Language) {
  const found = await deps.db
    .select({ id: spaceInvitations.id })
    .from(spaceInvitations)
    .where(and(eq(spaceInvitations.id, invitationId), eq(spaceInvitations.spaceId, auth.spaceId)))
    .get();
  if (!found) throw fail.notFound("team_invitation");
  await deps.db
    .update(spaceInvitations)
    .set({ revokedAt: deps.now().toISOString() })
    .where(and(eq(spaceInvitations.id, invitationId), isNull(spaceInvitations.revokedAt)));
  return (await listInvitations(deps, auth, language)).find((item) => item.id === invitationId)!;
}

/** Why a link cannot be used, as the error its reader sees. */
function refusal(status: "expired" | "revoked" | "used_up"): ServiceError {
  return new ServiceError("not_found", `team_invitation_${status}`);
}

/** The invitation an `inviteParam` names if it can still be used; otherwise a clear 404 naming why. */
async function usableInvitation(deps: Pick<Deps, "db" | "now">, inviteParam: string) {
  const token = inviteParam.trim();
  if (!token.startsWith(TEAM_INVITE_PREFIX)) throw new ServiceError("not_found", "team_invitation_unknown");
  const row = await deps.db
    .select({ invitation: spaceInvitations, spaceName: spaces.name, spaceCode: spaces.code, spaceKind: spaces.kind })
    .from(spaceInvitations)
    .innerJoin(spaces, eq(spaces.id, spaceInvitations.spaceId))
    .where(eq(spaceInvitations.tokenHash, sha256(token)))
    .get();
  if (row?.spaceKind !== "team") throw new ServiceError("not_found", "team_invitation_unknown");
  const status = statusOf(row.invitation, deps.now().toISOString());
  if (status !== "active") throw refusal(status);
  return row;
}

/** What a link opens, for the join dialog (getCompanyByInviteParam); public. */
export async function resolveInvitation(deps: Pick<Deps, "db" | "now">, inviteParam: string, language: Language) {
  const row = await usableInvitation(deps, inviteParam);
  const role = await findRole(deps, row.invitation.spaceId, row.invitation.roleId);
  return {
    companyName: row.spaceName,
    companyCode: row.spaceCode,
    roleName: roleNameOf(language, row.invitation.roleId, role?.customName),
    expiresAt: row.invitation.expiresAt,
  };
}

/**
 * Joins a user to the space a link opens (agreeEnterCompany), with the link's role, and makes it
 * their current space. The member quota is checked and the link's use claimed by one conditional
 * UPDATE, so a link's last use goes to exactly one of two people accepting at once; a refusal
 * changes nothing.
 */
export async function joinByInvitation(deps: Pick<Deps, "db" | "now">, userId: string, inviteParam: string): Promise<{ spaceId: string }> {
  const row = await usableInvitation(deps, inviteParam);
  const { invitation } = row;
  const already = await deps.db
    .select({ userId: spaceMembers.userId })
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, invitation.spaceId), eq(spaceMembers.userId, userId)))
    .get();
  if (already) throw fail.conflict("team_already_member", { space: row.spaceName });
  const role = await findRole(deps, invitation.spaceId, invitation.roleId);
  // A custom role deleted after the link was made: the newcomer starts as a viewer.
  const roleId = role ? invitation.roleId : "viewer";
  const tier = role?.tier === "admin" ? "admin" : "member";
  await withQuota(deps, invitation.spaceId, { members: 1 }, async () => {
    const now = deps.now().toISOString();
    const claimed = await deps.db
      .update(spaceInvitations)
      .set({ uses: sql`${spaceInvitations.uses} + 1` })
      .where(
        and(
          eq(spaceInvitations.id, invitation.id),
          isNull(spaceInvitations.revokedAt),
          gt(spaceInvitations.expiresAt, now),
          or(isNull(spaceInvitations.maxUses), lt(spaceInvitations.uses, spaceInvitations.maxUses)),
        ),
      )
      .returning({ uses: spaceInvitations.uses });
    if (claimed.length === 0) throw refusal("used_up");
    const joined = await deps.db
      .insert(spaceMembers)
      .values({ spaceId: invitation.spaceId, userId, role: tier, roleId, invitedBy: invitation.createdBy, joinedAt: now })
      .onConflictDoNothing()
      .returning({ userId: spaceMembers.userId });
    if (joined.length === 0) {
      // The same person accepting twice at once: the second gives its use back.
      await deps.db
        .update(spaceInvitations)
        .set({ uses: sql`${spaceInvitations.uses} - 1` })
        .where(eq(spaceInvitations.id, invitation.id));
      throw fail.conflict("team_already_member", { space: row.spaceName });
    }
  });
  await deps.db.update(users).set({ currentSpaceId: invitation.spaceId, updatedAt: deps.now().toISOString() }).where(eq(users.id, userId));
  return { spaceId: invitation.spaceId };
}

/** Accepts a link as the signed-in caller; their open consoles and the space's hear of it. */
export async function acceptInvitation(deps: Pick<Deps, "db" | "now" | "realtime">, auth: Auth, inviteParam: string) {
  const joined = await joinByInvitation(deps, auth.userId, inviteParam);
  deps.realtime.toSpace(joined.spaceId, "access.changed", { reason: "member", userIds: [auth.userId] });
  return joined;
}
