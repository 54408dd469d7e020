import { and, asc, eq, inArray } from "drizzle-orm";
import { databaseFields, databases, databaseTables } from "../../db/schema/index";
import { ServiceError } from "../../errors";
import { type MessageParams, renderMessage } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";
import type { Deps } from "../../kernel";
import { RemoteDatabaseError } from "../remote/errors";
import { remoteDatabaseOf } from "./remote";
import { checkStatement, type SqlDialect, type SqlKind } from "../sql/check";
import { runBuiltinStatement } from "./statement";

type DatabaseRow = typeof databases.$inferSelect;

/** One column of a table as the model reads it. */
export interface ColumnSchema {
  name: string;
  type: string;
  description: string;
}

/** One table a statement may use, with what the model reads about it. */
export interface TableSchema {
  name: string;
  description: string;
  columns: ColumnSchema[];
}

/** A database ready for statements: its rules and the tables in reach. */
export interface StatementTarget {
  id: string;
  name: string;
  description: string;
  type: "builtin" | "remote";
  dialect: SqlDialect;
  permissions: { query: boolean; add: boolean; edit: boolean; delete: boolean };
  tables: TableSchema[];
  row: DatabaseRow;
}

/** What running a statement came to. `pending`: a write that passed the check and waits to be confirmed. */
export type StatementOutcome =
  | { status: "ran"; kind: SqlKind; sql: string; columns: string[]; rows: unknown[][]; truncated: boolean; affectedRows: number | null }
  | { status: "pending"; kind: SqlKind; sql: string }
  | { status: "refused"; sql: string; code: string; message: string; messageZh: string }
  | { status: "failed"; sql: string; code: string; message: string; messageZh: string };

/** Statement input: `allowWrite` false checks a write and answers `pending` instead of running it. */
export interface StatementInput {
  spaceId: string;
  databaseId: string;
  sql: string;
  maxRows: number;
  timeoutMs: number;
  allowWrite: boolean;
}

function parseColumns(json: string): ColumnSchema[] {
  try {
    const value: unknown = JSON.parse(json);
    if (!Array.isArray(value)) return [];
    return value
      .filter(
        (column): column is Record<string, unknown> => typeof column === "object" && column !== null && typeof (column as { name?: unknown }).name === "string",
      )
      .map((column) => ({
        name: String(column.name),
        type: typeof column.type === "string" ? column.type : "",
        description: [column.description, column.comment].filter((text) => typeof text === "string" && text.trim()).join(" — "),
      }));
  } catch {
    return [];
  }
}

/** Databases of a space with the tables their statements may use (built-in: all; remote: the chosen ones). Unknown ids are left out. */
export async function loadStatementTargets(deps: Pick<Deps, "db">, spaceId: string, databaseIds: readonly string[]): Promise<StatementTarget[]> {
  if (databaseIds.length === 0) return [];
  const rows = await deps.db
    .select()
    .from(databases)
    .where(and(eq(databases.spaceId, spaceId), inArray(databases.id, [...databaseIds])));
  if (rows.length === 0) return [];
  const tables = await deps.db
    .select()
    .from(databaseTables)
    .where(
      inArray(
        databaseTables.databaseId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(databaseTables.createdAt), asc(databaseTables.name));
  const builtinTableIds = tables.filter((table) => rows.find((row) => row.id === table.databaseId)?.type === "builtin").map((table) => table.id);
  const fields = builtinTableIds.length
    ? await deps.db.select().from(databaseFields).where(inArray(databaseFields.tableId, builtinTableIds)).orderBy(asc(databaseFields.position))
    : [];
  const ordered = databaseIds.map((id) => rows.find((row) => row.id === id)).filter((row): row is DatabaseRow => row !== undefined);
  return ordered.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    dialect: row.type === "builtin" ? "sqlite" : row.dialect === "postgres" ? "postgresql" : "mysql",
    permissions: { query: row.allowQuery, add: row.allowAdd, edit: row.allowEdit, delete: row.allowDelete },
    row,
    tables: tables
      .filter((table) => table.databaseId === row.id && (row.type === "builtin" || table.chosen))
      .map((table) => ({
        name: table.name,
        description: table.description,
        columns:
          row.type === "builtin"
            ? fields
                .filter((field) => field.tableId === table.id)
                .map((field) => ({
                  name: field.name,
                  type: field.type,
                  description: [field.description, field.comment].filter((text) => text.trim()).join(" — "),
                }))
            : parseColumns(table.schemaJson),
      })),
  }));
}

const DIALECT_NAMES: Record<SqlDialect, string> = { sqlite: "SQLite", mysql: "MySQL", postgresql: "PostgreSQL" };

/** A database as the model reads it: name, dialect, permissions, then its tables and columns with their descriptions. */
export function schemaLines(target: StatementTarget): string[] {
  const permitted = (["query", "add", "edit", "delete"] as const).filter((permission) => target.permissions[permission]);
  const lines = [
    `- "${target.name}" (id ${target.id}; dialect ${DIALECT_NAMES[target.dialect]}; permissions: ${permitted.join(", ")})${target.description ? `: ${target.description}` : ""}`,
  ];
  for (const table of target.tables) {
    lines.push(`  table "${table.name}"${table.description ? `: ${table.description}` : ""}`);
    for (const column of table.columns) lines.push(`    "${column.name}" ${column.type}${column.description ? ` — ${column.description}` : ""}`);
  }
  return lines;
}

/** A catalogue message in both languages, as an outcome carries it. */
function texts(id: string, params: MessageParams = {}): { message: string; messageZh: string } {
  return { message: renderMessage("en", id, params), messageZh: renderMessage("zh-CN", id, params) };
}

function failed(sql: string, code: string, id: string, params: MessageParams): StatementOutcome {
  return { status: "failed", sql, code, ...texts(id, params) };
}

/** A statement that ran: the rows of a read, or the count a write changed. */
function ran(kind: SqlKind, sql: string, result: { columns: string[]; rows: unknown[][]; truncated: boolean } | { affectedRows: number }): StatementOutcome {
  return "affectedRows" in result
    ? { status: "ran", kind, sql, columns: [], rows: [], truncated: false, affectedRows: result.affectedRows }
    : { status: "ran", kind, sql, columns: result.columns, rows: result.rows, truncated: result.truncated, affectedRows: null };
}

/** The outcome's message in a language (refusals and failures). */
export function outcomeMessage(outcome: Extract<StatementOutcome, { message: string }>, language: Language): string {
  return language === "zh-CN" ? outcome.messageZh : outcome.message;
}

/**
 * Runs one statement on a database of the space under its permissions: the statement checker
 * (with the database's dialect and tables) decides first, and only a statement it allowed runs —
 * built-in through `runBuiltinStatement`, remote through its pool (reads in a read-only
 * transaction, writes in their own). A refusal changes nothing and is logged; callers record
 * it with their turn or run. With `allowWrite` false a write that passes answers `pending`.
 */
export async function runStatement(
  deps: Pick<Deps, "db" | "config" | "secrets" | "logger" | "remoteDatabases">,
  input: StatementInput,
  loaded?: StatementTarget,
): Promise<StatementOutcome> {
  const target = loaded ?? (await loadStatementTargets(deps, input.spaceId, [input.databaseId]))[0];
  if (!target) return { status: "refused", sql: input.sql, code: "database_unknown", ...texts("database_not_bound") };
  const checked = checkStatement({
    sql: input.sql,
    dialect: target.dialect,
    permissions: target.permissions,
    tables: target.tables.map((table) => table.name),
    maxRows: input.maxRows,
  });
  if (!checked.ok) {
    deps.logger.warn("database statement refused", { databaseId: target.id, code: checked.code, detail: checked.detail, sql: input.sql.slice(0, 2000) });
    return {
      status: "refused",
      sql: input.sql,
      code: checked.code,
      ...texts(checked.code, checked.params),
    };
  }
  if (checked.kind !== "select" && !input.allowWrite) return { status: "pending", kind: checked.kind, sql: checked.sql };
  try {
    if (target.type === "builtin") {
      return ran(
        checked.kind,
        checked.sql,
        await runBuiltinStatement(deps, target.id, checked.sql, [], { maxRows: input.maxRows, timeoutMs: input.timeoutMs }),
      );
    }
    const remote = remoteDatabaseOf(deps, target.row);
    return ran(
      checked.kind,
      checked.sql,
      checked.kind === "select"
        ? await remote.query(checked.sql, { maxRows: input.maxRows, timeoutMs: input.timeoutMs })
        : await remote.execute(checked.sql, { timeoutMs: input.timeoutMs }),
    );
  } catch (error) {
    deps.logger.warn("database statement failed", { databaseId: target.id, error: String(error), sql: checked.sql.slice(0, 2000) });
    if (error instanceof RemoteDatabaseError) return failed(checked.sql, error.code, error.messageId, error.params);
    if (error instanceof ServiceError) return failed(checked.sql, error.messageId, error.messageId, error.params);
    return failed(checked.sql, "failed", "database_statement_failed", { reason: String(error) });
  }
}
