import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { eq } from "drizzle-orm";
import { databaseTables } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Deps } from "../../kernel";
import { storeOf } from "./databases";
import { recountRows } from "./tables";
import type { StoredValue } from "./values";

/** What a read answers: the columns, at most `maxRows` rows, and whether more were left. */
export interface ReadResult {
  columns: string[];
  rows: StoredValue[][];
  truncated: boolean;
}
/** What a write answers. */
export interface WriteResult {
  affectedRows: number;
}

/** Caps of a free statement: rows a read answers at most, and how long it may run. */
export interface StatementCaps {
  maxRows: number;
  timeoutMs: number;
}

// The worker opens the file read-only and walks the rows one by one, stopping after maxRows + 1
// or when the time is up between rows. Eval'd source, so it runs the same from src and dist.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const open = new Map();
parentPort.on("message", ({ id, file, sql, params, maxRows, deadline }) => {
  try {
    let db = open.get(file);
    if (!db) {
      db = new Database(file, { readonly: true, fileMustExist: true });
      open.set(file, db);
      if (open.size > 8) { const [first, handle] = open.entries().next().value; handle.close(); open.delete(first); }
    }
    const statement = db.prepare(sql).raw(true);
    const columns = statement.columns().map((column) => column.name);
    const rows = [];
    let truncated = false;
    for (const row of statement.iterate(...params)) {
      if (rows.length === maxRows) { truncated = true; break; }
      if (Date.now() > deadline) { parentPort.postMessage({ id, timeout: true }); return; }
      rows.push(row.map((value) => (typeof value === "bigint" ? Number(value) : Buffer.isBuffer(value) ? value.toString("base64") : value)));
    }
    parentPort.postMessage({ id, columns, rows, truncated });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

interface Pending {
  resolve(result: ReadResult): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout;
}

let worker: Worker | undefined;
let sequence = 0;
const pending = new Map<number, Pending>();

function readWorker(): Worker {
  if (worker) return worker;
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  const created = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver } });
  created.unref();
  created.on("message", (message: { id: number; timeout?: boolean; error?: string } & Partial<ReadResult>) => {
    const waiting = pending.get(message.id);
    if (!waiting) return;
    pending.delete(message.id);
    clearTimeout(waiting.timer);
    if (message.timeout) waiting.reject(new ServiceError("validation", "database_statement_timeout", { ms: "?" }));
    else if (message.error !== undefined) waiting.reject(fail.invalid("database_statement_failed", "sql", { reason: message.error }));
    else waiting.resolve({ columns: message.columns!, rows: message.rows!, truncated: message.truncated! });
  });
  const lost = (error: unknown) => {
    if (worker === created) worker = undefined;
    for (const [id, waiting] of pending) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
      pending.delete(id);
    }
  };
  // Reads queued behind one that was stopped are refused the same way, never left waiting.
  const stopped = () => fail.invalid("database_statement_failed", "sql", { reason: "the read was stopped with a statement that ran too long" });
  created.on("error", () => lost(stopped()));
  created.on("exit", () => lost(stopped()));
  worker = created;
  return created;
}

function timedOut(timeoutMs: number) {
  return new ServiceError("validation", "database_statement_timeout", { ms: timeoutMs });
}

/** Whether a statement only reads (the checker has already allowed it; this picks the path). */
function isRead(sql: string): boolean {
  return /^\s*(select|with)\b/i.test(sql) && !/\b(insert|update|delete)\b/i.test(sql.replace(/'(?:[^']|'')*'/g, "''"));
}

/**
 * Runs one statement on a built-in database, for the free-SQL paths (the chat tool, the workflow
 * database node) AFTER the statement checker (databases/sql) has allowed it under the database's
 * permissions: this function does not check what the statement does.
 *
 * Reads run in a worker thread on a read-only connection and stop at `maxRows` (answering
 * `truncated`). better-sqlite3 offers no interrupt or progress handler, so the time cap is kept
 * twice: the worker checks the clock between rows, and a timer answers the caller at `timeoutMs`
 * whatever the worker is doing; a worker stuck inside one step (an aggregate over a huge join)
 * is terminated and replaced, so the next statement never waits behind it.
 *
 * Writes run on the database's connection (they are single statements on tables with no
 * triggers, bounded by the rows they name) and the row counts are taken again afterwards.
 */
export async function runBuiltinStatement(
  deps: Pick<Deps, "db" | "config">,
  databaseId: string,
  sql: string,
  params: readonly unknown[],
  caps: StatementCaps,
): Promise<ReadResult | WriteResult> {
  if (isRead(sql)) {
    const file = storeOf(deps).locate(databaseId);
    // Opening creates the file (and its WAL) when no table was ever made, so the read-only side finds it.
    storeOf(deps).open(databaseId);
    const target = readWorker();
    const id = ++sequence;
    return new Promise<ReadResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(timedOut(caps.timeoutMs));
        // The worker may be inside one long step: replace it rather than queue behind it.
        if (worker === target) worker = undefined;
        void target.terminate();
      }, caps.timeoutMs);
      pending.set(id, {
        resolve,
        reject: (error) => reject(error instanceof ServiceError && error.messageId === "database_statement_timeout" ? timedOut(caps.timeoutMs) : error),
        timer,
      });
      target.postMessage({ id, file, sql, params, maxRows: caps.maxRows, deadline: Date.now() + caps.timeoutMs });
    });
  }
  let affectedRows: number;
  try {
    affectedRows = storeOf(deps).open(databaseId).run(sql, params).changes;
  } catch (error) {
    throw fail.invalid("database_statement_failed", "sql", { reason: error instanceof Error ? error.message : String(error) });
  }
  const tables = await deps.db.select().from(databaseTables).where(eq(databaseTables.databaseId, databaseId));
  for (const table of tables) await recountRows(deps, { id: databaseId }, table);
  return { affectedRows };
}
