import { eq, sql } from "drizzle-orm";
import { databaseTables } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { checkQuota } from "../../plans/service/quotas";
import type { RangeCaller } from "../../access/follow";
import { storeOf } from "./databases";
import { type LoadedTable, loadBuiltinTable } from "./tables";
import { coerceValue, quoted, type StoredValue } from "./values";

/** A row as answered: its rowid and the value of each field by name. */
export interface RowView {
  rowId: number;
  values: Record<string, StoredValue>;
}

/** Comparisons a filter may make. */
export const filterOps = ["eq", "ne", "gt", "gte", "lt", "lte", "contains", "empty", "notEmpty"] as const;
/** One filter on a field. */
export interface RowFilter {
  field: string;
  op: (typeof filterOps)[number];
  value?: string | number | null | undefined;
}

/** The most rows one page holds. */
export const PAGE_MAX = 200;

const COMPARE: Record<string, string> = { eq: "=", ne: "!=", gt: ">", gte: ">=", lt: "<", lte: "<=" };

/** The WHERE clause and parameters of a set of filters, each value checked against its field's type. */
function whereOf(loaded: LoadedTable, filters: RowFilter[]): { clauses: string[]; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const filter of filters) {
    const field = loaded.fields.find((candidate) => candidate.name === filter.field);
    if (!field) throw fail.invalid("database_filter_unknown_field", "filters", { field: filter.field });
    const column = quoted(field.name);
    if (filter.op === "empty") clauses.push(`(${column} IS NULL OR ${column} = '')`);
    else if (filter.op === "notEmpty") clauses.push(`(${column} IS NOT NULL AND ${column} != '')`);
    else if (filter.op === "contains") {
      clauses.push(`instr(CAST(${column} AS TEXT), ?) > 0`);
      params.push(String(filter.value ?? ""));
    } else {
      const value = coerceValue(field, filter.value);
      if (value === null) throw fail.invalid("field_required", "filters", { field: `filters.${field.name}.value` });
      clauses.push(`${column} ${COMPARE[filter.op]} ?`);
      params.push(value);
    }
  }
  return { clauses, params };
}

function rowOf(loaded: LoadedTable, raw: Record<string, unknown>): RowView {
  const values: Record<string, StoredValue> = {};
  for (const field of loaded.fields) values[field.name] = (raw[field.name] ?? null) as StoredValue;
  return { rowId: Number(raw.__rowid), values };
}

/**
 * A page of a built-in table's rows (data): in rowid order after the cursor (keyset paging, so
 * page 5,000 costs what page 1 does), with filters per field. `total` is the table's row count
 * without filters; with filters it is not counted (that would scan the table on every page).
 */
export async function listRows(
  deps: Pick<Deps, "db" | "config">,
  auth: RangeCaller,
  tableId: string,
  query: { limit: number; after?: number | undefined; filters?: RowFilter[] | undefined },
) {
  const loaded = await loadBuiltinTable(deps, auth, tableId);
  return pageOf(deps, loaded, query);
}

/** A page of rows of a loaded table (the bench calls it the way the route does). */
export function pageOf(
  deps: Pick<Deps, "config">,
  loaded: LoadedTable,
  query: { limit: number; after?: number | undefined; filters?: RowFilter[] | undefined },
) {
  const limit = Math.min(Math.max(1, query.limit), PAGE_MAX);
  const { clauses, params } = whereOf(loaded, query.filters ?? []);
  if (query.after !== undefined) {
    clauses.push("rowid > ?");
    params.push(query.after);
  }
  const columns = loaded.fields.map((field) => quoted(field.name)).join(", ");
  const rows = storeOf(deps)
    .open(loaded.database.id)
    .all<Record<string, unknown>>(
      `SELECT rowid AS __rowid, ${columns} FROM ${quoted(loaded.table.name)}${clauses.length ? ` WHERE ${clauses.join(" AND ")}` : ""} ORDER BY rowid LIMIT ?`,
      [...params, limit + 1],
    );
  const page = rows.slice(0, limit).map((row) => rowOf(loaded, row));
  return {
    items: page,
    nextAfter: rows.length > limit ? page.at(-1)!.rowId : null,
    total: query.filters?.length ? null : loaded.table.rowCount,
  };
}

/** Checks a row's values: every key a field of the table, every value of its field's type. */
export function valuesOf(loaded: LoadedTable, input: Record<string, unknown>, requireOne = true): Map<string, StoredValue> {
  const values = new Map<string, StoredValue>();
  for (const [name, raw] of Object.entries(input)) {
    const field = loaded.fields.find((candidate) => candidate.name === name);
    if (!field) throw fail.invalid("database_value_unknown_field", name, { field: name });
    values.set(field.name, coerceValue(field, raw));
  }
  if (requireOne && values.size === 0) throw fail.invalid("database_values_empty", "values");
  return values;
}

async function addToCount(deps: Pick<Deps, "db">, tableId: string, delta: number) {
  if (delta === 0) return;
  await deps.db
    .update(databaseTables)
    .set({ rowCount: sql`max(0, ${databaseTables.rowCount} + ${delta})` })
    .where(eq(databaseTables.id, tableId));
}

function readRow(deps: Pick<Deps, "config">, loaded: LoadedTable, rowId: number): RowView {
  const columns = loaded.fields.map((field) => quoted(field.name)).join(", ");
  const [row] = storeOf(deps)
    .open(loaded.database.id)
    .all<Record<string, unknown>>(`SELECT rowid AS __rowid, ${columns} FROM ${quoted(loaded.table.name)} WHERE rowid = ?`, [rowId]);
  if (!row) throw fail.notFound("database_row");
  return rowOf(loaded, row);
}

/** Adds a row (add_data); the space's databaseRows quota counts it. */
export async function addRow(deps: Pick<Deps, "db" | "config" | "now">, auth: Auth, tableId: string, input: Record<string, unknown>): Promise<RowView> {
  const loaded = await loadBuiltinTable(deps, auth, tableId);
  const values = valuesOf(loaded, input);
  await checkQuota(deps, auth.spaceId, "databaseRows", 1);
  const names = [...values.keys()];
  const result = storeOf(deps)
    .open(loaded.database.id)
    .run(`INSERT INTO ${quoted(loaded.table.name)} (${names.map(quoted).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`, [...values.values()]);
  await addToCount(deps, loaded.table.id, 1);
  return readRow(deps, loaded, result.lastInsertRowid);
}

/** Edits the given fields of a row (edit_data); the others keep their values. */
export async function editRow(deps: Pick<Deps, "db" | "config">, auth: Auth, tableId: string, rowId: number, input: Record<string, unknown>): Promise<RowView> {
  const loaded = await loadBuiltinTable(deps, auth, tableId);
  const values = valuesOf(loaded, input);
  readRow(deps, loaded, rowId);
  storeOf(deps)
    .open(loaded.database.id)
    .run(`UPDATE ${quoted(loaded.table.name)} SET ${[...values.keys()].map((name) => `${quoted(name)} = ?`).join(", ")} WHERE rowid = ?`, [
      ...values.values(),
      rowId,
    ]);
  return readRow(deps, loaded, rowId);
}

/** Deletes rows by rowid (delete_data), all in one statement; answers how many went. */
export async function deleteRows(deps: Pick<Deps, "db" | "config">, auth: Auth, tableId: string, rowIds: number[]) {
  const loaded = await loadBuiltinTable(deps, auth, tableId);
  const ids = [...new Set(rowIds)];
  const handle = storeOf(deps).open(loaded.database.id);
  const deleted = handle.transaction(() => {
    let changes = 0;
    // Chunks stay below SQLite's variable limit.
    for (let start = 0; start < ids.length; start += 500) {
      const chunk = ids.slice(start, start + 500);
      changes += handle.run(`DELETE FROM ${quoted(loaded.table.name)} WHERE rowid IN (${chunk.map(() => "?").join(", ")})`, chunk).changes;
    }
    return changes;
  });
  await addToCount(deps, loaded.table.id, -deleted);
  return { deleted };
}
