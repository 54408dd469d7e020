import { fail } from "../../../errors";
import type { PreparedRecord } from "../prepared";
import type { RecordFailure } from "./qa";
import { csvOf, type Sheet } from "./tabular";

/** Most fields a knowledge table may have. */
export const TABLE_MAX_FIELDS = 200;

/** Longest field name. */
export const FIELD_MAX_CHARACTERS = 100;

/** Longest cell value kept. */
export const CELL_MAX_CHARACTERS = 10_000;

/** A row's values by field name. */
export type TableValues = Record<string, string>;

/** A table as read from a sheet: its fields and the rows that could be kept. */
export interface TableImport {
  fields: string[];
  rows: Array<{ line: number; values: TableValues }>;
  failures: RecordFailure[];
}

/**
 * Checks a header as field names: none empty, none longer than {@link FIELD_MAX_CHARACTERS},
 * at most {@link TABLE_MAX_FIELDS}, and all different (spec §5). Each refusal is a 400 naming the
 * offending column or names.
 */
export function checkFields(names: string[], field = "file"): string[] {
  const fields = names.map((name) => name.trim());
  if (fields.length === 0) throw fail.invalid("file_empty", field);
  if (fields.length > TABLE_MAX_FIELDS) throw fail.invalid("table_too_many_fields", field, { max: TABLE_MAX_FIELDS });
  fields.forEach((name, index) => {
    if (name === "") throw fail.invalid("table_field_empty", field, { column: index + 1 });
    if (name.length > FIELD_MAX_CHARACTERS) throw fail.invalid("table_field_too_long", field, { max: FIELD_MAX_CHARACTERS });
  });
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of fields) {
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  if (repeated.size > 0) throw fail.invalid("table_fields_duplicate", field, { fields: [...repeated].join(", ") });
  return fields;
}

/**
 * Reads a sheet's rows as values of the given fields, the sheet's columns matched by name (so an
 * appended import may order its columns differently). A row with more cells than the header, or
 * with an empty index column, is counted as failed.
 */
export function tableRowsOf(sheet: Sheet, fields: string[], indexColumn: string): TableImport {
  const positions = new Map(sheet.header.map((name, index) => [name.trim(), index]));
  const rows: TableImport["rows"] = [];
  const failures: RecordFailure[] = [];
  for (const row of sheet.rows) {
    if (row.cells.length > sheet.header.length) {
      failures.push({ row: row.line, reason: "table_row_too_long" });
      continue;
    }
    const values: TableValues = {};
    for (const field of fields) values[field] = (row.cells[positions.get(field) ?? -1] ?? "").slice(0, CELL_MAX_CHARACTERS);
    if (!values[indexColumn]) {
      failures.push({ row: row.line, reason: "table_index_value_empty", params: { column: indexColumn } });
      continue;
    }
    rows.push({ line: row.line, values });
  }
  return { fields, rows, failures };
}

/** Checks that an appended sheet's columns are exactly the table's fields, naming what differs. */
export function checkSameColumns(header: string[], fields: string[]): void {
  const given = header.map((name) => name.trim());
  const missing = fields.filter((field) => !given.includes(field));
  const unexpected = given.filter((name) => !fields.includes(name));
  if (missing.length > 0 || unexpected.length > 0 || given.length !== fields.length) {
    throw fail.invalid("table_columns_mismatch", "file", { missing: missing.join(", ") || "-", unexpected: unexpected.join(", ") || "-" });
  }
}

/** How a row reads as a segment: one `field: value` line per field, in the table's order. */
export function tableContent(fields: string[], values: TableValues): string {
  return fields.map((field) => `${field}: ${values[field] ?? ""}`).join("\n");
}

/**
 * A row as a record: shown as its `field: value` lines, found by all of them with the index
 * column first, the row itself in the metadata.
 */
export function tableRecord(fields: string[], indexColumn: string, values: TableValues): PreparedRecord {
  const row: TableValues = {};
  for (const field of fields) row[field] = values[field] ?? "";
  const ordered = [indexColumn, ...fields.filter((field) => field !== indexColumn)];
  return { content: tableContent(fields, row), indexText: tableContent(ordered, row), metadata: { row } };
}

/** Reads a row back from a chunk's metadata. */
export function tableValuesOf(metadata: Record<string, unknown>): TableValues {
  const row = metadata.row;
  if (!row || typeof row !== "object") return {};
  return Object.fromEntries(
    Object.entries(row as Record<string, unknown>).map(([key, value]) => [key, typeof value === "string" ? value : String(value ?? "")]),
  );
}

/** A table as CSV (with BOM): the fields as header, then each row. */
export function tableCsvOf(fields: string[], rows: TableValues[]): string {
  return csvOf([fields, ...rows.map((row) => fields.map((field) => row[field] ?? ""))]);
}
