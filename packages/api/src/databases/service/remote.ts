import { and, eq, notInArray } from "drizzle-orm";
import type { RangeCaller } from "../../access/follow";
import { newId } from "../../crypto";
import type { Db } from "../../db/client";
import { type databases, databaseTables } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { openValue } from "../../platform/sealed";
import { RemoteDatabaseError } from "../remote/errors";
import { openRemoteDatabase, remoteDatabasePolicy } from "../remote/registry";
import type { RemoteConnection, RemoteDatabase, TableSchema } from "../remote/types";
import { type DatabaseInput, loadDatabase } from "./databases";

type DatabaseRow = typeof databases.$inferSelect;

/** How long one online call (test, list, describe) may take before the answer says so. */
const ONLINE_TIMEOUT_MS = 10_000;

/**
 * A remote database's failure as the HTTP edge answers it: a refused address names `host`, a
 * refused login `password`, an unknown database `databaseName` (all 400, the settings are
 * wrong); a server that is down, slow or busy is `external` (502). The message is built from
 * the host, port, user and the driver's text with the password cut out, never the password.
 */
export function remoteServiceError(error: unknown): unknown {
  if (!(error instanceof RemoteDatabaseError)) return error;
  const params = error.params;
  switch (error.code) {
    case "refused_address":
      return new ServiceError("validation", error.messageId, params, { field: "host" });
    case "auth_failed":
      return new ServiceError("validation", error.messageId, params, { field: "password" });
    case "unknown_database":
      return new ServiceError("validation", error.messageId, params, { field: "databaseName" });
    default:
      return new ServiceError("external", error.messageId, params);
  }
}

async function online<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw remoteServiceError(error);
  }
}

/** The connection a stored remote database describes, its sealed values opened. */
export function connectionOf(deps: Pick<Deps, "secrets">, row: DatabaseRow): RemoteConnection {
  return {
    kind: row.dialect === "postgres" ? "postgresql" : "mysql",
    host: openValue(deps.secrets, row.host),
    port: row.port ?? 0,
    user: openValue(deps.secrets, row.username),
    password: openValue(deps.secrets, row.password),
    database: row.databaseName,
  };
}

/**
 * The pool of a stored remote database, opened on first use and kept per settings version
 * (`updatedAt`): an edit gets a new pool and the old one is closed.
 */
export function remoteDatabaseOf(deps: Pick<Deps, "secrets" | "remoteDatabases">, row: DatabaseRow): RemoteDatabase {
  return deps.remoteDatabases.get(row.id, row.updatedAt, connectionOf(deps, row));
}

function requireRemote(row: DatabaseRow): void {
  if (row.type !== "remote") throw fail.invalid("remote_db_not_remote", "databaseId");
}

/** Settings to test: unsaved ones (all required, spec §5), or a saved database with fields replaced. */
export type ConnectionTestInput = Pick<DatabaseInput, "dialect" | "host" | "port" | "username" | "databaseName"> & {
  databaseId?: string | undefined;
  /** Empty or absent with `databaseId` tests the stored password. */
  password?: string | undefined;
};

/** What a successful connection test found. */
export interface ConnectionTestResult {
  ok: true;
  latencyMs: number;
  serverVersion: string;
}

async function testedConnection(deps: Pick<Deps, "db" | "secrets">, auth: RangeCaller, input: ConnectionTestInput): Promise<RemoteConnection> {
  let stored: RemoteConnection | undefined;
  if (input.databaseId) {
    const row = await loadDatabase(deps, auth, input.databaseId);
    requireRemote(row);
    stored = connectionOf(deps, row);
  }
  const connection = {
    kind: input.dialect ? (input.dialect === "postgres" ? "postgresql" : "mysql") : stored?.kind,
    host: input.host?.trim() || stored?.host || "",
    port: input.port ?? stored?.port,
    user: input.username?.trim() || stored?.user || "",
    password: input.password || stored?.password || "",
    database: input.databaseName?.trim() || stored?.database || "",
  };
  const missing = (
    [
      ["dialect", connection.kind],
      ["host", connection.host],
      ["port", connection.port],
      ["username", connection.user],
      ["password", connection.password],
      ["databaseName", connection.database],
    ] as const
  ).find(([, value]) => value === undefined || value === "" || value === 0);
  if (missing) throw fail.invalid("database_remote_field_required", missing[0], { field: missing[0] });
  return connection as RemoteConnection;
}

/**
 * Connects with the given settings (or a saved database's, with any field replaced, e.g. a new
 * password being typed) on a pool of its own that is closed afterwards, and answers the time
 * the round trip took and the server's version. Nothing is stored.
 */
export async function testConnection(
  deps: Pick<Deps, "db" | "secrets" | "config">,
  auth: RangeCaller,
  input: ConnectionTestInput,
): Promise<ConnectionTestResult> {
  const connection = await testedConnection(deps, auth, input);
  const database = openRemoteDatabase(connection, { policy: remoteDatabasePolicy(deps.config), limits: { maxConnections: 1 } });
  try {
    const began = performance.now();
    await online(database.test());
    const latencyMs = Math.max(0, Math.round(performance.now() - began));
    const probe = connection.kind === "postgresql" ? "SELECT current_setting('server_version') AS version" : "SELECT VERSION() AS version";
    const answer = await online(database.query(probe, { maxRows: 1, timeoutMs: ONLINE_TIMEOUT_MS }));
    return { ok: true, latencyMs, serverVersion: String(answer.rows[0]?.[0] ?? "") };
  } finally {
    await database.close().catch(() => {});
  }
}

/** A column of an online table, with the description saved for it. */
export interface OnlineColumnView {
  name: string;
  type: string;
  nullable: boolean;
  comment: string;
  description: string;
}

/** A table of the remote server, whether it is chosen and what was saved for it. */
export interface OnlineTableView {
  name: string;
  comment: string;
  rowsEstimate: number | null;
  chosen: boolean;
  /** The id of the saved table when chosen. */
  tableId: string | null;
  description: string;
  primaryKey: string[];
  columns: OnlineColumnView[];
}

type SavedColumn = { name: string; type: string; nullable?: boolean; description?: string };

/**
 * The tables the remote server offers now (online tables), with their comments and row
 * estimates, their columns, and which are chosen with the descriptions saved for them.
 */
export async function listOnlineTables(
  deps: Pick<Deps, "db" | "secrets" | "remoteDatabases">,
  auth: RangeCaller,
  databaseId: string,
): Promise<OnlineTableView[]> {
  const row = await loadDatabase(deps, auth, databaseId);
  requireRemote(row);
  const remote = remoteDatabaseOf(deps, row);
  const tables = await online(remote.listTables());
  const described = new Map((await online(remote.describe(tables.map((table) => table.name)))).map((schema) => [schema.name, schema]));
  const saved = new Map(
    (await deps.db.select().from(databaseTables).where(eq(databaseTables.databaseId, row.id))).map((table) => [table.name, table] as const),
  );
  return tables.map((table) => {
    const chosen = saved.get(table.name);
    const savedColumns = new Map(((chosen ? JSON.parse(chosen.schemaJson) : []) as SavedColumn[]).map((column) => [column.name, column]));
    const schema = described.get(table.name);
    return {
      name: table.name,
      comment: table.comment ?? "",
      rowsEstimate: table.rowsEstimate ?? null,
      chosen: Boolean(chosen?.chosen),
      tableId: chosen?.id ?? null,
      description: chosen?.description ?? "",
      primaryKey: schema?.primaryKey ?? [],
      columns: (schema?.columns ?? []).map((column) => ({
        name: column.name,
        type: column.type,
        nullable: column.nullable,
        comment: column.comment ?? "",
        description: savedColumns.get(column.name)?.description ?? "",
      })),
    };
  });
}

/** A chosen table as the online table save takes it. */
export interface OnlineTableChoice {
  name: string;
  description?: string | undefined;
  columns?: Array<{ name: string; description?: string | undefined }> | undefined;
}

// The schema the model reads: every live column, the user's description, else the server's comment.
function savedSchema(schema: TableSchema, choice: OnlineTableChoice): SavedColumn[] {
  const descriptions = new Map((choice.columns ?? []).map((column) => [column.name, column.description?.trim() ?? ""]));
  return schema.columns.map((column) => ({
    name: column.name,
    type: column.type,
    nullable: column.nullable,
    description: descriptions.get(column.name) || column.comment || "",
  }));
}

/**
 * Statements run in one transaction of Parley's store, on either driver: better-sqlite3's
 * transactions are synchronous (a callback returning a promise is refused), libsql's are not.
 */
async function atomically(db: Db, statements: (tx: Db) => Array<{ run(): unknown }>): Promise<void> {
  await db.transaction((tx) => {
    const results = statements(tx as unknown as Db).map((statement) => statement.run());
    return (results.some((result) => result instanceof Promise) ? Promise.all(results) : undefined) as never;
  });
}

/**
 * Saves the chosen online tables (online table save): the live schema is read again
 * (`describe`), so what the model sees is what the server has; each chosen table is stored
 * with its columns' names, types, nullability and descriptions, and tables no longer chosen
 * are removed — in one transaction. A table or column that no longer exists is refused by name
 * and nothing changes.
 */
export async function saveOnlineTables(
  deps: Pick<Deps, "db" | "secrets" | "remoteDatabases" | "now">,
  auth: Auth,
  databaseId: string,
  choices: OnlineTableChoice[],
): Promise<OnlineTableView[]> {
  const row = await loadDatabase(deps, auth, databaseId);
  requireRemote(row);
  const seen = new Set<string>();
  choices.forEach((choice, index) => {
    if (seen.has(choice.name)) throw fail.invalid("remote_db_table_duplicate", `tables.${index}.name`, { name: choice.name });
    seen.add(choice.name);
  });
  const remote = remoteDatabaseOf(deps, row);
  const schemas = new Map((await online(remote.describe(choices.map((choice) => choice.name)))).map((schema) => [schema.name, schema]));
  choices.forEach((choice, index) => {
    const schema = schemas.get(choice.name);
    if (!schema) throw fail.invalid("remote_db_table_missing", `tables.${index}.name`, { name: choice.name });
    const names = new Set(schema.columns.map((column) => column.name));
    (choice.columns ?? []).forEach((column, at) => {
      if (!names.has(column.name))
        throw fail.invalid("remote_db_column_missing", `tables.${index}.columns.${at}.name`, { table: choice.name, name: column.name });
    });
  });
  const now = deps.now().toISOString();
  const kept = choices.map((choice) => choice.name);
  await atomically(deps.db, (tx) => [
    tx.delete(databaseTables).where(and(eq(databaseTables.databaseId, row.id), ...(kept.length ? [notInArray(databaseTables.name, kept)] : []))),
    ...choices.map((choice) => {
      const schema = schemas.get(choice.name)!;
      const values = {
        description: choice.description?.trim() || schema.comment || "",
        chosen: true,
        schemaJson: JSON.stringify(savedSchema(schema, choice)),
        updatedAt: now,
      };
      return tx
        .insert(databaseTables)
        .values({ id: newId("dbt"), databaseId: row.id, spaceId: row.spaceId, name: choice.name, createdBy: auth.userId, rowCount: 0, ...values })
        .onConflictDoUpdate({ target: [databaseTables.databaseId, databaseTables.name], set: values });
    }),
  ]);
  return listOnlineTables(deps, auth, row.id);
}
