import { and, eq, gt, isNull } from "drizzle-orm";
import type { ChatApp } from "../../apps/service/index";
import { newId } from "../../crypto";
import { conversations, databaseWriteConfirmations } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Language } from "../../i18n/language";
import type { Deps } from "../../kernel";
import type { ToolDefinition } from "../../platform/llm/types";
import {
  loadStatementTargets,
  outcomeMessage,
  runStatement,
  schemaLines,
  type StatementOutcome,
  type StatementTarget,
} from "../../databases/service/statements";

/** The tool's name as the model sees it. */
export const DATABASE_TOOL = "query_database";

/** Rows a read answers at most (to the model and to the table of the event). */
export const DATABASE_MAX_ROWS = 50;
/** Time a statement may run. */
export const DATABASE_TIMEOUT_MS = 10_000;
/** How long a write waits for its confirmation. */
export const CONFIRMATION_TTL_MS = 15 * 60_000;
const MAX_RESULT_CHARS = 6_000;
const MAX_CELL_CHARS = 200;
const MAX_DESCRIPTION_CHARS = 12_000;

/** A cell as the events carry it. */
export type Cell = string | number | boolean | null;

/** What the tool came to, for the engine. */
export interface DatabaseToolResult {
  ok: boolean;
  content: string;
  table?: { columns: string[]; rows: Cell[][]; truncated: boolean };
  confirmation?: { id: string; databaseName: string; kind: "insert" | "update" | "delete"; sql: string; expiresAt: string };
  /** One line of the usage record. */
  record: Record<string, unknown>;
}

/** Databases the app's chat may query: the database setting is on and databases are bound. */
export async function databaseTargetsFor(deps: Pick<Deps, "db">, app: ChatApp): Promise<StatementTarget[]> {
  if (!app.advancedConfig.database.enabled || app.databaseIds.length === 0) return [];
  return loadStatementTargets(deps, app.spaceId, app.databaseIds);
}

/** The tool the model is offered: the databases, their chosen tables and columns with descriptions, the dialect, permissions and guidance. */
export function databaseTool(targets: StatementTarget[]): ToolDefinition {
  const lines: string[] = [
    "Runs ONE SQL statement on a database bound to this app and answers its result. Use it to answer questions from the data.",
    `Rules: write exactly one statement in the database's dialect, without comments; only the tables listed below are in reach; always double-quote table and column names that contain non-ASCII characters (for example "价格"); add LIMIT to reads (at most ${DATABASE_MAX_ROWS} rows come back); only the statement kinds the database permits run (query = SELECT, add = INSERT, edit = UPDATE, delete = DELETE); UPDATE and DELETE need a WHERE condition.`,
    "Databases:",
  ];
  for (const target of targets) lines.push(...schemaLines(target));
  const description = lines.join("\n");
  return {
    name: DATABASE_TOOL,
    description: description.length > MAX_DESCRIPTION_CHARS ? `${description.slice(0, MAX_DESCRIPTION_CHARS)}…` : description,
    parameters: {
      type: "object",
      properties: {
        database: { type: "string", description: "The database's name or id (may be left out when only one is bound)" },
        sql: { type: "string", description: "One SQL statement" },
      },
      required: ["sql"],
    },
  };
}

function cellOf(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === "number" || typeof value === "boolean") return value;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > MAX_CELL_CHARS ? `${text.slice(0, MAX_CELL_CHARS)}…` : text;
}

/** A read's result as compact text for the model: a header line, then one line per row, cut at a size. */
export function compactTable(columns: string[], rows: Cell[][], truncated: boolean): string {
  const lines = [columns.join(" | ")];
  let size = lines[0]!.length;
  let shown = 0;
  for (const row of rows) {
    const line = row.map((cell) => (cell === null ? "NULL" : String(cell).replace(/\s+/g, " "))).join(" | ");
    if (size + line.length > MAX_RESULT_CHARS) break;
    lines.push(line);
    size += line.length + 1;
    shown += 1;
  }
  const more = truncated || shown < rows.length ? `\n(${shown} rows shown; more rows exist — narrow the statement or aggregate)` : `\n(${shown} rows)`;
  return lines.join("\n") + more;
}

function pickTarget(targets: StatementTarget[], database: unknown): StatementTarget | undefined {
  if (typeof database !== "string" || database.trim() === "") return targets.length === 1 ? targets[0] : undefined;
  const wanted = database.trim();
  return (
    targets.find((target) => target.id === wanted) ??
    targets.find((target) => target.name === wanted) ??
    targets.find((target) => target.name.toLowerCase() === wanted.toLowerCase())
  );
}

/**
 * Runs the model's call: the statement goes through `runStatement` under the database's
 * permissions. A write waits for the user when the app confirms writes: it is stored, checked,
 * as a confirmation bound to the conversation, and the model is told it has not run.
 */
export async function executeDatabaseTool(
  deps: Pick<Deps, "db" | "config" | "secrets" | "logger" | "now" | "remoteDatabases">,
  input: { app: ChatApp; conversationId: string; targets: StatementTarget[]; arguments: string; language: Language },
): Promise<DatabaseToolResult> {
  let args: { database?: unknown; sql?: unknown };
  try {
    args = JSON.parse(input.arguments || "{}") as typeof args;
  } catch {
    args = {};
  }
  const sql = typeof args.sql === "string" ? args.sql : "";
  const target = pickTarget(input.targets, args.database);
  if (!target) {
    const names = input.targets.map((item) => `"${item.name}"`).join(", ");
    return {
      ok: false,
      content: `Unknown database ${JSON.stringify(args.database ?? "")}; use one of ${names}.`,
      record: { database: String(args.database ?? ""), sql, status: "refused", code: "database_unknown" },
    };
  }
  const confirm = input.app.advancedConfig.database.confirmWrites;
  const outcome: StatementOutcome = await runStatement(
    deps,
    { spaceId: input.app.spaceId, databaseId: target.id, sql, maxRows: DATABASE_MAX_ROWS, timeoutMs: DATABASE_TIMEOUT_MS, allowWrite: !confirm },
    target,
  );
  const base = { databaseId: target.id, database: target.name };
  if (outcome.status === "refused" || outcome.status === "failed") {
    return {
      ok: false,
      content: `${outcome.status === "refused" ? "Refused" : "Failed"}: ${outcome.message}. Nothing was changed.`,
      record: { ...base, sql: outcome.sql, status: outcome.status, code: outcome.code, message: outcomeMessage(outcome, input.language) },
    };
  }
  if (outcome.status === "pending") {
    const id = newId("dbw");
    const kind = outcome.kind as "insert" | "update" | "delete";
    const expiresAt = new Date(deps.now().getTime() + CONFIRMATION_TTL_MS).toISOString();
    await deps.db.insert(databaseWriteConfirmations).values({
      id,
      spaceId: input.app.spaceId,
      conversationId: input.conversationId,
      appId: input.app.id,
      databaseId: target.id,
      sql: outcome.sql,
      kind,
      expiresAt,
    });
    return {
      ok: true,
      content: "The write has NOT run: it awaits the user's confirmation, shown to them now.",
      confirmation: { id, databaseName: target.name, kind, sql: outcome.sql, expiresAt },
      record: { ...base, sql: outcome.sql, status: "awaiting_confirmation", confirmationId: id },
    };
  }
  if (outcome.kind !== "select") {
    return {
      ok: true,
      content: `${outcome.affectedRows ?? 0} rows affected.`,
      record: { ...base, sql: outcome.sql, status: "ran", affectedRows: outcome.affectedRows },
    };
  }
  const rows = outcome.rows.slice(0, DATABASE_MAX_ROWS).map((row) => row.map(cellOf));
  const truncated = outcome.truncated || outcome.rows.length > DATABASE_MAX_ROWS;
  return {
    ok: true,
    content: compactTable(outcome.columns, rows, truncated),
    table: { columns: outcome.columns, rows, truncated },
    record: { ...base, sql: outcome.sql, status: "ran", rows: rows.length, truncated },
  };
}

/**
 * Runs a write the user confirmed: the stored statement of this conversation, once. The claim
 * (`usedAt`) and the check that it has not expired are one UPDATE, so two clicks run it once.
 * The statement is checked again under the database's permissions now (they may have changed).
 */
export async function confirmDatabaseWrite(
  deps: Pick<Deps, "db" | "config" | "secrets" | "logger" | "now" | "remoteDatabases">,
  input: { id: string; language: Language } & ({ endUserId: string } | { conversationId: string }),
): Promise<{ affectedRows: number; sql: string }> {
  const owner = "conversationId" in input ? eq(databaseWriteConfirmations.conversationId, input.conversationId) : eq(conversations.endUserId, input.endUserId);
  const owned = await deps.db
    .select({ id: databaseWriteConfirmations.id })
    .from(databaseWriteConfirmations)
    .innerJoin(conversations, eq(conversations.id, databaseWriteConfirmations.conversationId))
    .where(and(eq(databaseWriteConfirmations.id, input.id), owner))
    .get();
  if (!owned) throw fail.notFound("database_write");
  const now = deps.now().toISOString();
  const claimed = await deps.db
    .update(databaseWriteConfirmations)
    .set({ usedAt: now })
    .where(and(eq(databaseWriteConfirmations.id, input.id), isNull(databaseWriteConfirmations.usedAt), gt(databaseWriteConfirmations.expiresAt, now)))
    .returning()
    .get();
  if (!claimed) throw fail.conflict("chat_database_write_gone");
  const outcome = await runStatement(deps, {
    spaceId: claimed.spaceId,
    databaseId: claimed.databaseId,
    sql: claimed.sql,
    maxRows: DATABASE_MAX_ROWS,
    timeoutMs: DATABASE_TIMEOUT_MS,
    allowWrite: true,
  });
  await deps.db
    .update(databaseWriteConfirmations)
    .set({ result: JSON.stringify(outcome) })
    .where(eq(databaseWriteConfirmations.id, claimed.id));
  if (outcome.status === "refused" || outcome.status === "failed")
    throw fail.invalid("database_statement_failed", "sql", { reason: outcomeMessage(outcome, input.language) });
  if (outcome.status !== "ran") throw fail.conflict("chat_database_write_gone");
  return { affectedRows: outcome.affectedRows ?? 0, sql: outcome.sql };
}
