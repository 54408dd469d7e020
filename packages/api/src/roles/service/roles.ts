import { and, asc, count, eq, inArray, isNull, notExists, sql } from "drizzle-orm";
import { operationAccess } from "../../access/operations";
import { accessLevels, functionResources, type Grant, isGrant, normalizeGrants, resourceRoutes } from "../../access/resources";
import { isSystemRole, parseDataRange, parseGrants, systemRoleKeys, systemRoles } from "../../access/roles";
import { newId } from "../../crypto";
import { apps, channelClients, knowledgeBases, spaceInvitations, spaceMembers, spaceRoles, spaces, webClients } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import { messageText } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";
import { languages } from "../../i18n/language";
import type { Auth, DataRange, Deps } from "../../kernel";
import { publishToSpace } from "../../realtime/events";
import { systemRoleDescription, systemRoleName } from "./names";

type RoleRow = typeof spaceRoles.$inferSelect;

/** A role as the Roles tab and the editor read it. */
export interface RoleView {
  id: string;
  name: string;
  description: string;
  system: boolean;
  grants: string[];
  dataRange: DataRange | null;
  memberCount: number;
}

async function memberCounts(deps: Pick<Deps, "db">, spaceId: string): Promise<Map<string, number>> {
  const rows = await deps.db
    .select({ roleId: spaceMembers.roleId, members: count() })
    .from(spaceMembers)
    .where(eq(spaceMembers.spaceId, spaceId))
    .groupBy(spaceMembers.roleId);
  return new Map(rows.map((row) => [row.roleId, row.members]));
}

function customView(row: RoleRow, memberCount: number): RoleView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    system: false,
    grants: parseGrants(row.grants),
    dataRange: row.dataRange === null ? null : parseDataRange(row.dataRange),
    memberCount,
  };
}

/** The space's roles: the system roles (named in `language`), then its custom roles, oldest first. */
export async function listRoles(deps: Pick<Deps, "db">, auth: Auth, language: Language): Promise<RoleView[]> {
  const counts = await memberCounts(deps, auth.spaceId);
  const system = systemRoleKeys.map(
    (key): RoleView => ({
      id: key,
      name: systemRoleName(key, language),
      description: systemRoleDescription(key, language),
      system: true,
      grants: [...systemRoles[key].grants],
      dataRange: { scope: "all" },
      memberCount: counts.get(key) ?? 0,
    }),
  );
  const custom = await deps.db.select().from(spaceRoles).where(eq(spaceRoles.spaceId, auth.spaceId)).orderBy(asc(spaceRoles.createdAt), asc(spaceRoles.id));
  return [...system, ...custom.map((row) => customView(row, counts.get(row.id) ?? 0))];
}

async function requireTeamSpace(deps: Pick<Deps, "db">, auth: Auth): Promise<void> {
  const space = await deps.db.select({ kind: spaces.kind }).from(spaces).where(eq(spaces.id, auth.spaceId)).get();
  if (!space) throw fail.notFound("space");
  if (space.kind !== "team") throw fail.conflict("roles_team_only");
}

/** A custom role of the caller's space; a system role is refused, anything else is not found. */
async function loadCustomRole(deps: Pick<Deps, "db">, auth: Auth, roleId: string): Promise<RoleRow> {
  if (isSystemRole(roleId)) throw fail.conflict("role_system_fixed");
  const row = await deps.db
    .select()
    .from(spaceRoles)
    .where(and(eq(spaceRoles.id, roleId), eq(spaceRoles.spaceId, auth.spaceId)))
    .get();
  if (!row) throw fail.notFound("teamRole");
  return row;
}

const systemNames = new Set(
  systemRoleKeys.flatMap((key) => [key, ...languages.map((language) => systemRoleName(key, language))].map((name) => name.toLowerCase())),
);

/** A role name that may be stored: trimmed, present, no system role's, free in the space. */
async function checkName(deps: Pick<Deps, "db">, auth: Auth, raw: string, exceptId?: string): Promise<string> {
  const name = raw.trim();
  if (!name) throw fail.invalid("role_name_required", "name");
  if (systemNames.has(name.toLowerCase())) throw fail.conflict("role_name_system", { name });
  const taken = await deps.db
    .select({ id: spaceRoles.id })
    .from(spaceRoles)
    .where(and(eq(spaceRoles.spaceId, auth.spaceId), eq(spaceRoles.name, name)))
    .get();
  if (taken && taken.id !== exceptId) throw fail.conflict("role_name_taken", { name });
  return name;
}

/** Tells the space's consoles that a role changed: their privileges are read again. */
function announce(deps: Pick<Deps, "realtime">, auth: Auth, roleId: string): void {
  publishToSpace(deps.realtime, auth.spaceId, "access.changed", { reason: "role", roleId });
}

async function viewOf(deps: Pick<Deps, "db">, auth: Auth, roleId: string): Promise<RoleView> {
  const row = await loadCustomRole(deps, auth, roleId);
  return customView(row, (await memberCounts(deps, auth.spaceId)).get(roleId) ?? 0);
}

/** Creates a custom role with no grants and no data range (team spaces only). */
export async function createRole(
  deps: Pick<Deps, "db" | "now" | "realtime">,
  auth: Auth,
  input: { name: string; description?: string | undefined },
): Promise<RoleView> {
  await requireTeamSpace(deps, auth);
  const name = await checkName(deps, auth, input.name);
  const now = deps.now().toISOString();
  const id = newId("role");
  try {
    await deps.db.insert(spaceRoles).values({
      id,
      spaceId: auth.spaceId,
      name,
      description: (input.description ?? "").trim(),
      grants: "[]",
      dataRange: null,
      createdBy: auth.userId,
      createdAt: now,
      updatedAt: now,
    });
  } catch (error) {
    // Two creations with one name at once: the unique index answers for the second.
    if (String(error).includes("UNIQUE")) throw fail.conflict("role_name_taken", { name });
    throw error;
  }
  announce(deps, auth, id);
  return viewOf(deps, auth, id);
}

/** Renames or re-describes a custom role. */
export async function updateRole(
  deps: Pick<Deps, "db" | "now" | "realtime">,
  auth: Auth,
  roleId: string,
  input: { name?: string | undefined; description?: string | undefined },
): Promise<RoleView> {
  const row = await loadCustomRole(deps, auth, roleId);
  const name = input.name === undefined ? row.name : await checkName(deps, auth, input.name, row.id);
  const description = input.description === undefined ? row.description : input.description.trim();
  await deps.db.update(spaceRoles).set({ name, description, updatedAt: deps.now().toISOString() }).where(eq(spaceRoles.id, row.id));
  announce(deps, auth, roleId);
  return viewOf(deps, auth, roleId);
}

/**
 * Step 1 of the role editor: a custom role's grants, stored canonical. Unknown grants are
 * refused by position; a caller may not add a grant their own role does not hold.
 */
export async function setRoleGrants(deps: Pick<Deps, "db" | "now" | "realtime">, auth: Auth, roleId: string, input: { grants: string[] }): Promise<RoleView> {
  input.grants.forEach((grant, index) => {
    if (!isGrant(grant)) throw fail.invalid("role_unknown_grant", `grants.${index}`, { grant });
  });
  const row = await loadCustomRole(deps, auth, roleId);
  const grants = normalizeGrants(input.grants);
  const before = new Set<string>(parseGrants(row.grants));
  const held = auth.access?.grants;
  if (held) {
    const lacking = grants.find((grant) => !before.has(grant) && !held.has(grant));
    if (lacking) {
      const index = input.grants.findIndex((grant) => normalizeGrants([grant]).includes(lacking));
      throw new ServiceError("forbidden", "role_grant_not_held", { grant: lacking }, { field: `grants.${Math.max(index, 0)}` });
    }
  }
  await deps.db
    .update(spaceRoles)
    .set({ grants: JSON.stringify(grants), updatedAt: deps.now().toISOString() })
    .where(eq(spaceRoles.id, row.id));
  announce(deps, auth, roleId);
  return viewOf(deps, auth, roleId);
}

/** Step 1's catalogue: each function resource, its menu, and the operations behind each level. */
export function functionResourceCatalogue(language: Language) {
  const byGrant = new Map<string, string[]>();
  for (const [operation, needed] of Object.entries(operationAccess)) {
    if (!needed.includes(".")) continue;
    byGrant.set(needed, [...(byGrant.get(needed) ?? []), operation]);
  }
  return functionResources.map((resource) => ({
    resource,
    name: messageText(language, `thing.resource.${resource}`),
    route: resourceRoutes[resource],
    levels: accessLevels.map((level) => {
      const grant: Grant = `${resource}.${level}`;
      return { level, grant, operations: byGrant.get(grant) ?? [] };
    }),
  }));
}

/** Step 2's choices: the space's apps, knowledge bases and clients (web and channel). */
export async function dataResources(deps: Pick<Deps, "db">, auth: Auth) {
  const [appRows, knowledgeRows, webRows, channelRows] = await Promise.all([
    deps.db.select({ id: apps.id, name: apps.name, type: apps.type }).from(apps).where(eq(apps.spaceId, auth.spaceId)).orderBy(asc(apps.name)),
    deps.db
      .select({ id: knowledgeBases.id, name: knowledgeBases.name })
      .from(knowledgeBases)
      .where(eq(knowledgeBases.spaceId, auth.spaceId))
      .orderBy(asc(knowledgeBases.name)),
    deps.db.select({ id: webClients.id, name: webClients.name }).from(webClients).where(eq(webClients.spaceId, auth.spaceId)).orderBy(asc(webClients.name)),
    deps.db
      .select({ id: channelClients.id, name: channelClients.name, kind: channelClients.kind })
      .from(channelClients)
      .where(eq(channelClients.spaceId, auth.spaceId))
      .orderBy(asc(channelClients.name)),
  ]);
  return {
    apps: appRows,
    knowledgeBases: knowledgeRows,
    clients: [...webRows.map((row) => ({ ...row, kind: "web" })), ...channelRows],
  };
}

/** Ids of `wanted` that are not in the space, as the first offending position. */
async function firstForeign(wanted: string[], found: (ids: string[]) => Promise<Array<{ id: string }>>): Promise<number> {
  if (wanted.length === 0) return -1;
  const known = new Set((await found([...new Set(wanted)])).map((row) => row.id));
  return wanted.findIndex((id) => !known.has(id));
}

/**
 * Step 2 of the role editor: a custom role's data range. Every listed id must belong to the
 * space; `chosen` needs at least one of them.
 */
export async function setRoleDataRange(
  deps: Pick<Deps, "db" | "now" | "realtime">,
  auth: Auth,
  roleId: string,
  input: { scope: DataRange["scope"]; appIds?: string[] | undefined; knowledgeBaseIds?: string[] | undefined; clientIds?: string[] | undefined },
): Promise<RoleView> {
  const row = await loadCustomRole(deps, auth, roleId);
  let range: DataRange;
  if (input.scope === "chosen") {
    const appIds = input.appIds ?? [];
    const knowledgeBaseIds = input.knowledgeBaseIds ?? [];
    const clientIds = input.clientIds ?? [];
    if (appIds.length + knowledgeBaseIds.length + clientIds.length === 0) throw fail.invalid("role_range_empty", "scope");
    const space = auth.spaceId;
    const checks = [
      {
        field: "appIds",
        what: "range.app",
        index: await firstForeign(appIds, (ids) =>
          deps.db
            .select({ id: apps.id })
            .from(apps)
            .where(and(eq(apps.spaceId, space), inArray(apps.id, ids))),
        ),
      },
      {
        field: "knowledgeBaseIds",
        what: "range.knowledgeBase",
        index: await firstForeign(knowledgeBaseIds, (ids) =>
          deps.db
            .select({ id: knowledgeBases.id })
            .from(knowledgeBases)
            .where(and(eq(knowledgeBases.spaceId, space), inArray(knowledgeBases.id, ids))),
        ),
      },
      {
        field: "clientIds",
        what: "range.client",
        index: await firstForeign(clientIds, async (ids) => [
          ...(await deps.db
            .select({ id: webClients.id })
            .from(webClients)
            .where(and(eq(webClients.spaceId, space), inArray(webClients.id, ids)))),
          ...(await deps.db
            .select({ id: channelClients.id })
            .from(channelClients)
            .where(and(eq(channelClients.spaceId, space), inArray(channelClients.id, ids)))),
        ]),
      },
    ];
    const foreign = checks.find((check) => check.index >= 0);
    if (foreign) throw fail.invalid("role_range_foreign", `${foreign.field}.${foreign.index}`, { what: foreign.what });
    range = { scope: "chosen", appIds: [...new Set(appIds)], knowledgeBaseIds: [...new Set(knowledgeBaseIds)], clientIds: [...new Set(clientIds)] };
  } else {
    range = { scope: input.scope };
  }
  await deps.db
    .update(spaceRoles)
    .set({ dataRange: JSON.stringify(range), updatedAt: deps.now().toISOString() })
    .where(eq(spaceRoles.id, row.id));
  announce(deps, auth, roleId);
  return viewOf(deps, auth, roleId);
}

/** Deletes a custom role no member holds (decision 0019: refused while any does). */
export async function deleteRole(deps: Pick<Deps, "db" | "now" | "realtime">, auth: Auth, roleId: string): Promise<{ deleted: true }> {
  const row = await loadCustomRole(deps, auth, roleId);
  const holders = (await memberCounts(deps, auth.spaceId)).get(row.id) ?? 0;
  if (holders > 0) throw fail.conflict("role_in_use", { count: holders });
  // Deleted only while nobody holds it: a member given the role since the count keeps it.
  const deleted = await deps.db
    .delete(spaceRoles)
    .where(
      and(
        eq(spaceRoles.id, row.id),
        notExists(
          deps.db
            .select({ one: sql`1` })
            .from(spaceMembers)
            .where(and(eq(spaceMembers.spaceId, auth.spaceId), eq(spaceMembers.roleId, row.id))),
        ),
      ),
    )
    .returning({ id: spaceRoles.id });
  if (deleted.length === 0) throw fail.conflict("role_in_use", { count: (await memberCounts(deps, auth.spaceId)).get(row.id) ?? 1 });
  // Links that would give the role are revoked with it, so nobody joins with a role that is gone.
  await deps.db
    .update(spaceInvitations)
    .set({ revokedAt: deps.now().toISOString() })
    .where(and(eq(spaceInvitations.spaceId, auth.spaceId), eq(spaceInvitations.roleId, row.id), isNull(spaceInvitations.revokedAt)));
  announce(deps, auth, roleId);
  return { deleted: true };
}
