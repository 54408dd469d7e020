import { and, asc, desc, eq, inArray, ne, sql } from "drizzle-orm";
import { rangeCondition, inRange } from "../../access/range";
import type { RangeCaller } from "../../access/follow";
import { loadApp } from "../../apps/service/load";
import { newId } from "../../crypto";
import { apps, databases, databaseTables, users } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { openValue, sealValue } from "../../platform/sealed";
import { checkFeature, registerQuotaCounter } from "../../plans/service/quotas";
import { diskBuiltinStore } from "./store";

type DatabaseRow = typeof databases.$inferSelect;

/** Statement kinds a database allows (spec §3 Database permissions). */
export interface DatabasePermissions {
  query: boolean;
  add: boolean;
  edit: boolean;
  delete: boolean;
}

/** A database as answered: the remote password is never in it. */
export interface DatabaseView {
  id: string;
  type: "builtin" | "remote";
  name: string;
  description: string;
  permissions: DatabasePermissions;
  remote: { dialect: "mysql" | "postgres"; host: string; port: number; username: string; databaseName: string; passwordSet: boolean } | null;
  tableCount: number;
  rowCount: number;
  /** The space's apps that answer from the database. */
  boundApps: Array<{ id: string; name: string }>;
  createdBy: string;
  creatorName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What creating or editing a database takes. */
export interface DatabaseInput {
  type?: "builtin" | "remote" | undefined;
  name?: string | undefined;
  description?: string | undefined;
  permissions?: DatabasePermissions | undefined;
  dialect?: "mysql" | "postgres" | undefined;
  host?: string | undefined;
  port?: number | undefined;
  username?: string | undefined;
  /** Empty or absent on edit keeps the stored password. */
  password?: string | undefined;
  databaseName?: string | undefined;
}

// Database rows count against the plan's databaseRows quota: the rows of every built-in table of the space.
registerQuotaCounter("databaseRows", async (deps, spaceId) => {
  const row = await deps.db
    .select({ value: sql<number>`coalesce(sum(${databaseTables.rowCount}), 0)` })
    .from(databaseTables)
    .where(eq(databaseTables.spaceId, spaceId))
    .get();
  return Number(row?.value ?? 0);
});

/** The built-in store of this instance's data directory. */
export function storeOf(deps: Pick<Deps, "config">) {
  return diskBuiltinStore(deps.config.dataDir);
}

function viewOf(
  deps: Pick<Deps, "secrets">,
  row: DatabaseRow & { creatorName: string | null; tableCount: number; rowCount: number },
  boundApps: Array<{ id: string; name: string }>,
): DatabaseView {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    description: row.description,
    permissions: { query: row.allowQuery, add: row.allowAdd, edit: row.allowEdit, delete: row.allowDelete },
    remote:
      row.type === "remote"
        ? {
            dialect: row.dialect ?? "mysql",
            host: openValue(deps.secrets, row.host),
            port: row.port ?? 0,
            username: openValue(deps.secrets, row.username),
            databaseName: row.databaseName,
            passwordSet: row.password !== "",
          }
        : null,
    tableCount: Number(row.tableCount),
    rowCount: Number(row.rowCount),
    boundApps,
    createdBy: row.createdBy,
    creatorName: row.creatorName,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const selection = {
  row: databases,
  creatorName: users.name,
  tableCount: sql<number>`(select count(*) from ${databaseTables} where ${databaseTables.databaseId} = ${databases.id})`,
  rowCount: sql<number>`(select coalesce(sum(${databaseTables.rowCount}), 0) from ${databaseTables} where ${databaseTables.databaseId} = ${databases.id})`,
};

/** Databases of the space the caller reaches (those they created, unless their range is all), newest first. */
export async function listDatabases(deps: Pick<Deps, "db" | "secrets">, auth: RangeCaller, filter: { type?: "builtin" | "remote" | undefined } = {}) {
  const rows = await deps.db
    .select(selection)
    .from(databases)
    .leftJoin(users, eq(users.id, databases.createdBy))
    .where(and(eq(databases.spaceId, auth.spaceId), rangeCondition(auth, null, databases), ...(filter.type ? [eq(databases.type, filter.type)] : [])))
    .orderBy(desc(databases.createdAt), desc(databases.id));
  // The apps of the space (in the caller's range) with each database they bind, in one pass over their JSON lists.
  const bindings = await deps.db.all<{ id: string; name: string; databaseId: string }>(
    sql`SELECT ${apps.id} AS id, ${apps.name} AS name, j.value AS databaseId FROM ${apps}, json_each(${apps.databaseIds}) j
        WHERE ${and(eq(apps.spaceId, auth.spaceId), rangeCondition(auth, "app", apps))} ORDER BY ${apps.name}`,
  );
  const boundTo = new Map<string, Array<{ id: string; name: string }>>();
  for (const binding of bindings) {
    const list = boundTo.get(binding.databaseId) ?? [];
    list.push({ id: binding.id, name: binding.name });
    boundTo.set(binding.databaseId, list);
  }
  return rows.map(({ row, ...rest }) => viewOf(deps, { ...row, ...rest }, boundTo.get(row.id) ?? []));
}

/** A database of the caller's space and range; anything else answers 404 as if it did not exist. */
export async function loadDatabase(deps: Pick<Deps, "db">, auth: RangeCaller, databaseId: string): Promise<DatabaseRow> {
  const row = await deps.db
    .select()
    .from(databases)
    .where(and(eq(databases.id, databaseId), eq(databases.spaceId, auth.spaceId)))
    .get();
  if (!row || !inRange(auth, null, row)) throw fail.notFound("database");
  return row;
}

/** One database as answered. */
export async function getDatabase(deps: Pick<Deps, "db" | "secrets">, auth: RangeCaller, databaseId: string): Promise<DatabaseView> {
  await loadDatabase(deps, auth, databaseId);
  const row = await deps.db.select(selection).from(databases).leftJoin(users, eq(users.id, databases.createdBy)).where(eq(databases.id, databaseId)).get();
  const bound = await appsBindingDatabase(deps, auth.spaceId, databaseId, auth);
  return viewOf(deps, { ...row!.row, creatorName: row!.creatorName, tableCount: row!.tableCount, rowCount: row!.rowCount }, bound);
}

function checkPermissions(permissions: DatabasePermissions) {
  if (!permissions.query && !permissions.add && !permissions.edit && !permissions.delete) throw fail.invalid("database_permission_required", "permissions");
}

async function nameFree(deps: Pick<Deps, "db">, spaceId: string, name: string, except?: string) {
  const clash = await deps.db
    .select({ id: databases.id })
    .from(databases)
    .where(and(eq(databases.spaceId, spaceId), eq(databases.name, name), ...(except ? [ne(databases.id, except)] : [])))
    .get();
  if (clash) throw fail.conflict("database_name_taken", { name });
}

/** The remote connection fields, every one required (spec §5), host and username sealed like the password. */
function remoteColumns(deps: Pick<Deps, "secrets">, input: DatabaseInput, current?: DatabaseRow) {
  const host = input.host?.trim() ?? (current ? openValue(deps.secrets, current.host) : "");
  const username = input.username?.trim() ?? (current ? openValue(deps.secrets, current.username) : "");
  const databaseName = input.databaseName?.trim() ?? current?.databaseName ?? "";
  const port = input.port ?? current?.port ?? undefined;
  const dialect = input.dialect ?? current?.dialect ?? undefined;
  const password = input.password ? sealValue(deps.secrets, input.password) : (current?.password ?? "");
  const missing = (
    [
      ["dialect", dialect],
      ["host", host],
      ["port", port],
      ["username", username],
      ["password", password],
      ["databaseName", databaseName],
    ] as const
  ).find(([, value]) => value === undefined || value === "");
  if (missing) throw fail.invalid("database_remote_field_required", missing[0], { field: missing[0] });
  return { dialect, host: sealValue(deps.secrets, host), port, username: sealValue(deps.secrets, username), password, databaseName };
}

/**
 * Creates a database. A remote one needs the plan's customer service (spec §6) and every
 * connection field (§5); its password is sealed and never answered. Connecting is not tried here:
 * the connection test is its own operation.
 */
export async function createDatabase(
  deps: Pick<Deps, "db" | "now" | "secrets">,
  auth: Auth,
  input: DatabaseInput & { type: "builtin" | "remote"; name: string },
) {
  const name = input.name.trim();
  if (!name) throw fail.invalid("field_required", "name", { field: "name" });
  const permissions = input.permissions ?? { query: true, add: false, edit: false, delete: false };
  checkPermissions(permissions);
  if (input.type === "remote") await checkFeature(deps, auth.spaceId, "remoteDatabase");
  const remote = input.type === "remote" ? remoteColumns(deps, input) : undefined;
  await nameFree(deps, auth.spaceId, name);
  const id = newId("db");
  const now = deps.now().toISOString();
  await deps.db.insert(databases).values({
    id,
    spaceId: auth.spaceId,
    type: input.type,
    name,
    description: input.description?.trim() ?? "",
    allowQuery: permissions.query,
    allowAdd: permissions.add,
    allowEdit: permissions.edit,
    allowDelete: permissions.delete,
    ...(remote ?? {}),
    createdBy: auth.userId,
    updatedAt: now,
  });
  return getDatabase(deps, auth, id);
}

/** Edits a database's name, description, permissions and (remote) connection; the type never changes. */
export async function updateDatabase(deps: Pick<Deps, "db" | "now" | "secrets" | "remoteDatabases">, auth: Auth, databaseId: string, input: DatabaseInput) {
  const row = await loadDatabase(deps, auth, databaseId);
  if (input.type !== undefined && input.type !== row.type)
    throw fail.invalid("validation_failed", "type", { field: "type", reason: "the type of a database cannot change" });
  const name = input.name?.trim();
  if (name !== undefined) {
    if (!name) throw fail.invalid("field_required", "name", { field: "name" });
    await nameFree(deps, auth.spaceId, name, row.id);
  }
  if (input.permissions) checkPermissions(input.permissions);
  const remote = row.type === "remote" ? remoteColumns(deps, input, row) : undefined;
  await deps.db
    .update(databases)
    .set({
      ...(name !== undefined ? { name } : {}),
      ...(input.description !== undefined ? { description: input.description.trim() } : {}),
      ...(input.permissions
        ? { allowQuery: input.permissions.query, allowAdd: input.permissions.add, allowEdit: input.permissions.edit, allowDelete: input.permissions.delete }
        : {}),
      ...(remote ?? {}),
      updatedAt: deps.now().toISOString(),
    })
    .where(eq(databases.id, row.id));
  // The pool was opened with the old settings (a changed host or password): close it now.
  if (row.type === "remote") await deps.remoteDatabases.drop(row.id);
  return getDatabase(deps, auth, row.id);
}

/** Apps of a space that bind a database. */
export async function appsBindingDatabase(deps: Pick<Deps, "db">, spaceId: string, databaseId: string, caller?: RangeCaller) {
  const rows = await deps.db
    .select({ id: apps.id, name: apps.name })
    .from(apps)
    .where(
      and(
        eq(apps.spaceId, spaceId),
        sql`exists (select 1 from json_each(${apps.databaseIds}) where value = ${databaseId})`,
        caller ? rangeCondition(caller, "app", apps) : undefined,
      ),
    )
    .orderBy(asc(apps.name));
  return rows;
}

/**
 * Deletes a database with its tables and, for a built-in one, its file. A database apps still
 * answer from is refused (naming them), so no app silently loses the data it was built on.
 */
export async function deleteDatabase(deps: Pick<Deps, "db" | "config" | "remoteDatabases">, auth: Auth, databaseId: string) {
  const row = await loadDatabase(deps, auth, databaseId);
  const bound = await appsBindingDatabase(deps, auth.spaceId, row.id);
  if (bound.length > 0) {
    throw fail.conflict("database_bound_to_apps", {
      count: bound.length,
      names: bound
        .slice(0, 5)
        .map((app) => app.name)
        .join(", "),
    });
  }
  await deps.db.delete(databases).where(eq(databases.id, row.id));
  if (row.type === "builtin") storeOf(deps).drop(row.id);
  else await deps.remoteDatabases.drop(row.id);
  return { deleted: true as const };
}

/** Binds databases of the caller's space and range to an app (relation add); the app keeps those it had. */
export async function bindDatabases(deps: Pick<Deps, "db" | "now">, auth: Auth, appId: string, databaseIds: string[]) {
  const app = await loadApp(deps, auth, appId);
  const wanted = [...new Set(databaseIds)];
  for (const id of wanted) {
    try {
      await loadDatabase(deps, auth, id);
    } catch {
      throw fail.invalid("app_database_unknown", "databaseIds", { id });
    }
  }
  const bound = [...new Set([...(JSON.parse(app.databaseIds) as string[]), ...wanted])];
  await deps.db
    .update(apps)
    .set({ databaseIds: JSON.stringify(bound), updatedAt: deps.now().toISOString() })
    .where(eq(apps.id, app.id));
  return { appId: app.id, databaseIds: bound };
}

/** Which of `ids` are databases of the space the caller reaches. */
export async function knownDatabaseIds(deps: Pick<Deps, "db">, auth: RangeCaller, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await deps.db
    .select({ id: databases.id })
    .from(databases)
    .where(and(eq(databases.spaceId, auth.spaceId), inArray(databases.id, ids), rangeCondition(auth, null, databases)));
  return new Set(rows.map((row) => row.id));
}
