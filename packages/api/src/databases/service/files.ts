import { csvStream, xlsxStream } from "../../analysis/service/export";
import { ServiceError, fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { checkQuota } from "../../plans/service/quotas";
import { checkZipSize, DocumentParseError } from "../../knowledge/service/parse";
import { CsvError, csvBatches } from "./csv";
import { storeOf } from "./databases";
import { type LoadedTable, loadBuiltinTable, recountRows } from "./tables";
import { coerceValue, quoted, type StoredValue, ValueError } from "./values";

/** Largest file a (validated, all-in-memory) import or a pre-parse takes. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/** Largest file a fast import (streamed, batched) takes. */
export const FAST_IMPORT_MAX_BYTES = 100 * 1024 * 1024;
/** Most rows a (non-fast) import takes; more goes through fast import. */
export const IMPORT_MAX_ROWS = 100_000;
/** Rows a pre-parse shows. */
export const PREVIEW_ROWS = 10;
/** Rows a fast import inserts per batch (one prepared statement, one transaction overall). */
export const FAST_BATCH = 5_000;
/** Largest uncompressed size an XLSX may unpack to (a zip bomb is refused). */
const XLSX_MAX_UNCOMPRESSED = 400 * 1024 * 1024;

/** A file as uploaded. */
export interface UploadedFile {
  fileName: string;
  bytes: Uint8Array;
}

type Format = "csv" | "xlsx";

function formatOf(fileName: string): Format {
  const extension = fileName.toLowerCase().split(".").pop();
  if (extension === "csv" || extension === "xlsx") return extension;
  throw fail.invalid("file_type_unsupported", "file", { types: "CSV, XLSX" });
}

/**
 * Decodes a CSV's bytes: UTF-8 (a BOM dropped) when they are valid UTF-8, else GB18030 — the
 * superset of GBK that Chinese spreadsheet programs save — and says so.
 */
export function decodeCsv(bytes: Uint8Array): { text: string; encoding: "utf-8" | "gbk" } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes), encoding: "utf-8" };
  } catch {
    return { text: new TextDecoder("gb18030").decode(bytes), encoding: "gbk" };
  }
}

function unreadable(error: unknown): never {
  if (error instanceof CsvError) throw fail.invalid("csv_unreadable", "file", { reason: error.message });
  throw error;
}

/** The rows of a CSV (at most `to` of them), each with the line it starts on. */
function csvRows(text: string, to?: number): Array<{ line: number; cells: string[] }> {
  const rows: Array<{ line: number; cells: string[] }> = [];
  try {
    for (const batch of csvBatches(text, to ?? 10_000)) {
      rows.push(...batch);
      if (to && rows.length >= to) return rows.slice(0, to);
    }
  } catch (error) {
    unreadable(error);
  }
  return rows;
}

/** A sheet cell as text: a date as `YYYY-MM-DD HH:MM:SS` (the stored date-time form), anything else as written. */
function cellText(cell: unknown): string {
  if (cell === null || cell === undefined) return "";
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? "" : cell.toISOString().slice(0, 19).replace("T", " ");
  return String(cell).trim();
}

async function xlsxRows(bytes: Uint8Array, sheetRows?: number): Promise<Array<{ line: number; cells: string[] }>> {
  try {
    checkZipSize(bytes, XLSX_MAX_UNCOMPRESSED);
  } catch (error) {
    if (error instanceof DocumentParseError) throw fail.invalid("table_unreadable", "file");
    throw error;
  }
  const XLSX = await import("@e965/xlsx");
  try {
    // Dates as dates (in UTC, as the sheet shows them), numbers as numbers: not the cell's display format ("6/1/24", "1,234.5").
    const workbook = XLSX.read(bytes, {
      type: "array",
      cellHTML: false,
      cellFormula: false,
      dense: true,
      cellDates: true,
      UTC: true,
      ...(sheetRows ? { sheetRows } : {}),
    });
    const sheet = workbook.Sheets[workbook.SheetNames[0] ?? ""];
    if (!sheet) throw new Error("no worksheet");
    const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: "", blankrows: true, UTC: true });
    return rows.map((row, index) => ({ line: index + 1, cells: row.map(cellText) })).filter((row) => row.cells.some((cell) => cell !== ""));
  } catch {
    throw fail.invalid("table_unreadable", "file");
  }
}

function checkSize(file: UploadedFile, max: number, messageId: "database_import_too_large" | "database_fast_import_too_large") {
  if (file.bytes.length === 0) throw fail.invalid("file_empty", "file");
  if (file.bytes.length > max) {
    throw new ServiceError("payload_too_large", messageId, { size: (file.bytes.length / 1024 / 1024).toFixed(1), max: max / 1024 / 1024 }, { field: "file" });
  }
}

type Line = { line: number; cells: string[] };

/** The header (trimmed, blank trailing cells dropped) and the rows below it. */
function splitHeader(grid: Line[]): { header: string[]; rows: Line[] } {
  const [first, ...rows] = grid;
  if (!first) throw fail.invalid("file_empty", "file");
  const header = [...first.cells];
  while (header.length > 0 && header[header.length - 1] === "") header.pop();
  if (header.length === 0) throw fail.invalid("file_empty", "file");
  return { header, rows };
}

const normal = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "");

/**
 * Reads the head of an import file (pre_parse): its encoding (GBK detected and decoded), header,
 * the first rows and a suggested matching of each column to the field of the same name or
 * description.
 */
export async function preParse(deps: Pick<Deps, "db">, auth: Auth, tableId: string, file: UploadedFile) {
  const loaded = await loadBuiltinTable(deps, auth, tableId);
  checkSize(file, FAST_IMPORT_MAX_BYTES, "database_fast_import_too_large");
  const format = formatOf(file.fileName);
  let encoding: "utf-8" | "gbk" | null = null;
  let grid: Line[];
  if (format === "csv") {
    const decoded = decodeCsv(file.bytes);
    encoding = decoded.encoding;
    grid = csvRows(decoded.text, PREVIEW_ROWS + 1);
  } else grid = await xlsxRows(file.bytes, PREVIEW_ROWS + 1);
  const { header, rows } = splitHeader(grid);
  return {
    fileName: file.fileName,
    format,
    encoding,
    /** A note to show when the file was not UTF-8. */
    decodedFromGbk: encoding === "gbk",
    header,
    rows: rows.slice(0, PREVIEW_ROWS).map((row) => row.cells),
    mapping: header.map((column) => {
      const match =
        loaded.fields.find((field) => normal(field.name) === normal(column)) ??
        loaded.fields.find((field) => field.description !== "" && normal(field.description) === normal(column));
      return { column, fieldName: match?.name ?? null };
    }),
  };
}

/** Column matching: the file's column title → the field it fills. */
export type ColumnMapping = Record<string, string>;

interface Plan {
  /** Index of each matched column in a row, in field order. */
  indexes: number[];
  fields: LoadedTable["fields"];
  insert: string;
}

function planOf(loaded: LoadedTable, header: string[], mapping: ColumnMapping): Plan {
  const pairs = Object.entries(mapping).filter(([, fieldName]) => fieldName !== "");
  if (pairs.length === 0) throw fail.invalid("database_import_mapping_empty", "mapping");
  const indexes: number[] = [];
  const fields: LoadedTable["fields"] = [];
  const used = new Set<string>();
  for (const [column, fieldName] of pairs) {
    const index = header.indexOf(column);
    if (index < 0) throw fail.invalid("database_import_mapping_column", "mapping", { column });
    const field = loaded.fields.find((candidate) => candidate.name === fieldName);
    if (!field) throw fail.invalid("database_value_unknown_field", "mapping", { field: fieldName });
    if (used.has(field.name)) throw fail.invalid("database_field_duplicate", "mapping", { name: field.name });
    used.add(field.name);
    indexes.push(index);
    fields.push(field);
  }
  const insert = `INSERT INTO ${quoted(loaded.table.name)} (${fields.map((field) => quoted(field.name)).join(", ")}) VALUES (${fields.map(() => "?").join(", ")})`;
  return { indexes, fields, insert };
}

/** A row's values by the plan; a bad value names the file's line and the field. */
function rowValues(plan: Plan, cells: string[], line: number): StoredValue[] {
  return plan.fields.map((field, index) => {
    try {
      return coerceValue(field, cells[plan.indexes[index]!] ?? "");
    } catch (error) {
      if (error instanceof ValueError) {
        throw new ServiceError("validation", error.messageId, { ...error.params, field: `#${line} ${field.name}` }, { field: `rows.${line}.${field.name}` });
      }
      throw error;
    }
  });
}

/**
 * Imports a file with the given column matching (import_data): every row is checked first and
 * the rows go in one transaction, so a bad value (named by its line and field) writes nothing.
 * At most {@link IMPORT_MAX_BYTES} and {@link IMPORT_MAX_ROWS}; larger files use fast import.
 */
export async function importRows(deps: Pick<Deps, "db" | "config" | "now">, auth: Auth, tableId: string, file: UploadedFile, mapping: ColumnMapping) {
  const loaded = await loadBuiltinTable(deps, auth, tableId);
  checkSize(file, IMPORT_MAX_BYTES, "database_import_too_large");
  const format = formatOf(file.fileName);
  const decoded = format === "csv" ? decodeCsv(file.bytes) : null;
  const grid = decoded ? csvRows(decoded.text) : await xlsxRows(file.bytes);
  const { header, rows } = splitHeader(grid);
  if (rows.length === 0) throw fail.invalid("database_import_no_rows", "file");
  if (rows.length > IMPORT_MAX_ROWS) throw fail.invalid("database_import_too_many_rows", "file", { max: IMPORT_MAX_ROWS });
  const plan = planOf(loaded, header, mapping);
  // Rows are named by their line in the file (CSV) or row in the sheet, as a spreadsheet shows them.
  const values = rows.map((row) => rowValues(plan, row.cells, row.line));
  await checkQuota(deps, auth.spaceId, "databaseRows", values.length);
  const handle = storeOf(deps).open(loaded.database.id);
  handle.transaction(() => {
    for (const row of values) handle.run(plan.insert, row);
  });
  await recountRows(deps, loaded.database, loaded.table);
  return { importedRows: values.length, encoding: decoded?.encoding ?? null, decodedFromGbk: decoded?.encoding === "gbk" };
}

/** The file's rows in batches: a CSV read as it goes, an XLSX (read whole by the library) cut into batches. */
async function* batchesOf(decoded: { text: string } | null, bytes: Uint8Array): AsyncGenerator<Line[]> {
  if (decoded) {
    try {
      yield* csvBatches(decoded.text, FAST_BATCH);
    } catch (error) {
      unreadable(error);
    }
    return;
  }
  const rows = await xlsxRows(bytes);
  for (let start = 0; start < rows.length; start += FAST_BATCH) yield rows.slice(start, start + FAST_BATCH);
}

/**
 * Fast import (fast_import_data) for large files, up to {@link FAST_IMPORT_MAX_BYTES}: the CSV is
 * parsed as a stream and inserted in batches of {@link FAST_BATCH} with one prepared statement on
 * a connection of its own, inside one write transaction — a bad value or a quota refusal rolls
 * every row back. The event loop is given back between batches.
 */
export async function fastImportRows(deps: Pick<Deps, "db" | "config" | "now">, auth: Auth, tableId: string, file: UploadedFile, mapping: ColumnMapping) {
  const loaded = await loadBuiltinTable(deps, auth, tableId);
  checkSize(file, FAST_IMPORT_MAX_BYTES, "database_fast_import_too_large");
  const format = formatOf(file.fileName);
  const decoded = format === "csv" ? decodeCsv(file.bytes) : null;
  const session = storeOf(deps).session(loaded.database.id);
  let plan: Plan | undefined;
  let insert: { run(params: readonly unknown[]): void } | undefined;
  let imported = 0;
  try {
    session.exec("BEGIN IMMEDIATE");
    for await (const batch of batchesOf(decoded, file.bytes)) {
      let rows = batch;
      if (!plan) {
        plan = planOf(loaded, splitHeader(batch).header, mapping);
        insert = session.prepare(plan.insert);
        rows = batch.slice(1);
      }
      for (const row of rows) insert!.run(rowValues(plan, row.cells, row.line));
      imported += rows.length;
      // Give the event loop back between batches: other requests go on while a large file imports.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (!plan) throw fail.invalid("file_empty", "file");
    if (imported === 0) throw fail.invalid("database_import_no_rows", "file");
    await checkQuota(deps, auth.spaceId, "databaseRows", imported);
    session.exec("COMMIT");
  } catch (error) {
    session.exec("ROLLBACK");
    throw error;
  } finally {
    session.close();
  }
  await recountRows(deps, loaded.database, loaded.table);
  return { importedRows: imported, encoding: decoded?.encoding ?? null, decodedFromGbk: decoded?.encoding === "gbk" };
}

const EXPORT_PAGE = 2_000;
const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async function* pagesOf(deps: Pick<Deps, "config">, loaded: LoadedTable): AsyncGenerator<StoredValue[][]> {
  const handle = storeOf(deps).open(loaded.database.id);
  const columns = loaded.fields.map((field) => quoted(field.name)).join(", ");
  const query = `SELECT rowid AS __rowid, ${columns} FROM ${quoted(loaded.table.name)} WHERE rowid > ? ORDER BY rowid LIMIT ${EXPORT_PAGE}`;
  let after = 0;
  for (;;) {
    const rows = handle.all<Record<string, unknown>>(query, [after]);
    if (rows.length === 0) return;
    after = Number(rows.at(-1)!.__rowid);
    yield rows.map((row) => loaded.fields.map((field) => (row[field.name] ?? null) as StoredValue));
  }
}

/**
 * A table's rows as a file (table/export), written as the client reads it: pages of rows in
 * rowid order through the streamed CSV (UTF-8 with BOM) or XLSX writer, so memory stays flat.
 */
export async function exportTableFile(deps: Pick<Deps, "db" | "config" | "now">, auth: Auth, tableId: string, format: "csv" | "xlsx") {
  const loaded = await loadBuiltinTable(deps, auth, tableId);
  const table = { headers: loaded.fields.map((field) => field.name), pages: pagesOf(deps, loaded) };
  const stamp = deps.now().toISOString().slice(0, 10);
  return format === "csv"
    ? { body: csvStream(table), contentType: "text/csv; charset=utf-8", fileName: `${loaded.table.name}-${stamp}.csv` }
    : { body: xlsxStream(table), contentType: XLSX_TYPE, fileName: `${loaded.table.name}-${stamp}.xlsx` };
}

/** The import template (template_file): a file with the table's field names as its header. */
export async function templateFile(deps: Pick<Deps, "db">, auth: Auth, tableId: string, format: "csv" | "xlsx") {
  const loaded = await loadBuiltinTable(deps, auth, tableId);
  const table = {
    headers: loaded.fields.map((field) => field.name),
    pages: (async function* () {})(),
  };
  return format === "csv"
    ? { body: csvStream(table), contentType: "text/csv; charset=utf-8", fileName: `${loaded.table.name}-template.csv` }
    : { body: xlsxStream(table), contentType: XLSX_TYPE, fileName: `${loaded.table.name}-template.xlsx` };
}
