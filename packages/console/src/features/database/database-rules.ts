import type { DatabaseField, DatabasePermissions, DatabasePreParse, FieldType } from "../../lib/api/databases";

/** Limits the server holds a database, table and field to (packages/api/src/databases). */
export const DATABASE_LIMITS = {
  nameMax: 50,
  descriptionMax: 500,
  fieldNameMax: 64,
  textMax: 1000,
  hostMax: 255,
  usernameMax: 128,
  passwordMax: 256,
  databaseNameMax: 128,
} as const;

/** Field types in the order the console offers them (spec §3). */
export const FIELD_TYPES: readonly FieldType[] = ["integer", "decimal", "text", "datetime", "longtext"];

/** The permission keys, in the order they are shown. */
export const PERMISSION_KEYS = ["query", "add", "edit", "delete"] as const;

/** The default port of each remote dialect. */
export const DEFAULT_PORTS = { mysql: 3306, postgres: 5432 } as const;

/** An i18n key naming what is wrong, or undefined when the value passes. */
export type RuleResult = string | undefined;

/** The permissions chosen as checkbox values, as the server's object. */
export function permissionsOf(chosen: readonly string[] | undefined): DatabasePermissions {
  const set = new Set(chosen ?? []);
  return { query: set.has("query"), add: set.has("add"), edit: set.has("edit"), delete: set.has("delete") };
}

/** The server's permissions as checkbox values. */
export function chosenPermissions(permissions: DatabasePermissions): string[] {
  return PERMISSION_KEYS.filter((key) => permissions[key]);
}

/** Spec §5: at least one permission. */
export function checkPermissions(chosen: readonly string[] | undefined): RuleResult {
  return (chosen ?? []).length === 0 ? "database.rules.permissionRequired" : undefined;
}

const NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;
const RESERVED = /^(rowid|_rowid_|oid|sqlite_.*)$/i;

/** A table or field name as the server takes it: letters, digits, underscore, not starting with a digit, not reserved. */
export function checkIdentifier(value: string | undefined): RuleResult {
  const name = (value ?? "").trim();
  if (!name) return "database.rules.nameRequired";
  if (name.length > DATABASE_LIMITS.fieldNameMax) return "database.rules.identifierTooLong";
  if (!NAME.test(name) || RESERVED.test(name)) return "database.rules.identifier";
  return undefined;
}

/** Field names that repeat (case-insensitively, as the server compares), each once, as typed first. */
export function duplicateNames(names: readonly (string | undefined)[]): string[] {
  const seen = new Map<string, string>();
  const repeated = new Set<string>();
  for (const raw of names) {
    const name = (raw ?? "").trim();
    if (!name) continue;
    const key = name.toLowerCase();
    if (seen.has(key)) repeated.add(seen.get(key)!);
    else seen.set(key, name);
  }
  return [...repeated];
}

/** A remote port: a whole number 1–65535. */
export function checkPort(value: unknown): RuleResult {
  if (value === null || value === undefined || value === "") return "database.rules.portRequired";
  return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 65535 ? undefined : "database.rules.port";
}

/** The column matching of an import: a file column's title → the field it fills, or null to skip it. */
export type ColumnMatching = Record<string, string | null>;

/** The matching the server suggested, as the wizard's editable state. */
export function initialMatching(preParse: Pick<DatabasePreParse, "mapping">): ColumnMatching {
  return Object.fromEntries(preParse.mapping.map((entry) => [entry.column, entry.fieldName]));
}

/**
 * Sets one column's field. A field fills one column at most: a column that had it before lets it go.
 */
export function matchColumn(matching: ColumnMatching, column: string, fieldName: string | null): ColumnMatching {
  const next: ColumnMatching = {};
  for (const [key, value] of Object.entries(matching)) next[key] = fieldName !== null && value === fieldName && key !== column ? null : value;
  next[column] = fieldName;
  return next;
}

/** What the import sends: only the columns matched to a field. */
export function mappingBody(matching: ColumnMatching): Record<string, string> {
  return Object.fromEntries(Object.entries(matching).filter((entry): entry is [string, string] => entry[1] !== null));
}

/** Fields no column fills (they stay empty on import). */
export function unmatchedFields(matching: ColumnMatching, fields: readonly Pick<DatabaseField, "name">[]): string[] {
  const used = new Set(Object.values(matching));
  return fields.map((field) => field.name).filter((name) => !used.has(name));
}

/** Files above this size go through the fast import (the plain import takes at most 10 MB). */
export const FAST_IMPORT_FROM_BYTES = 5 * 1024 * 1024;

/** Whether a file should use the fast import. */
export function prefersFastImport(size: number): boolean {
  return size > FAST_IMPORT_FROM_BYTES;
}

/** Filter operators the rows call takes. */
export const FILTER_OPS = ["eq", "ne", "gt", "gte", "lt", "lte", "contains", "empty", "notEmpty"] as const;
/** One filter operator. */
export type FilterOp = (typeof FILTER_OPS)[number];
/** A filter row of the preview. */
export interface RowFilterInput {
  field: string;
  op: FilterOp;
  value?: string;
}

/** The operators that make sense for a field type (contains is for text). */
export function opsFor(type: FieldType): FilterOp[] {
  return type === "text" || type === "longtext" ? ["eq", "ne", "contains", "empty", "notEmpty"] : ["eq", "ne", "gt", "gte", "lt", "lte", "empty", "notEmpty"];
}

/** The filters as the rows call's JSON; numbers typed into number fields go as numbers; half-filled filters are left out. */
export function filtersParam(filters: readonly RowFilterInput[], fields: readonly Pick<DatabaseField, "name" | "type">[]): string | undefined {
  const types = new Map(fields.map((field) => [field.name, field.type]));
  const complete = filters.flatMap((filter): { field: string; op: FilterOp; value?: string | number }[] => {
    const type = types.get(filter.field);
    if (!type) return [];
    if (filter.op === "empty" || filter.op === "notEmpty") return [{ field: filter.field, op: filter.op }];
    const raw = (filter.value ?? "").trim();
    if (!raw) return [];
    const numeric = (type === "integer" || type === "decimal") && Number.isFinite(Number(raw));
    return [{ field: filter.field, op: filter.op, value: numeric ? Number(raw) : raw }];
  });
  return complete.length > 0 ? JSON.stringify(complete) : undefined;
}

/**
 * Keyset paging state: the cursors of the pages seen so far. `cursors[i]` is the `after` of page
 * i (undefined for the first), so Previous needs no cursor from the server.
 */
export interface PageCursor {
  cursors: (number | undefined)[];
}

/** The first page. */
export const FIRST_PAGE: PageCursor = { cursors: [undefined] };
/** The `after` of the page shown. */
export const currentAfter = (state: PageCursor) => state.cursors[state.cursors.length - 1];
/** Moves to the page after `nextAfter` (the server's cursor). */
export const nextPage = (state: PageCursor, nextAfter: number): PageCursor => ({ cursors: [...state.cursors, nextAfter] });
/** Moves back one page; the first page stays. */
export const previousPage = (state: PageCursor): PageCursor => (state.cursors.length > 1 ? { cursors: state.cursors.slice(0, -1) } : state);
/** The 1-based number of the page shown. */
export const pageNumber = (state: PageCursor) => state.cursors.length;

/** A stored datetime ("YYYY-MM-DD HH:mm:ss") for a date-time picker's text, and back. */
export const DATETIME_FORMAT = "YYYY-MM-DD HH:mm:ss";

/**
 * A row form's values as the server takes them: empty inputs are null, numbers stay numbers,
 * date-times go as their text; fields left untouched on edit are not sent.
 */
export function rowValuesBody(
  values: Record<string, unknown>,
  fields: readonly Pick<DatabaseField, "name" | "type">[],
  original?: Record<string, string | number | null>,
): Record<string, string | number | null> {
  const body: Record<string, string | number | null> = {};
  for (const field of fields) {
    const raw = values[field.name];
    let value: string | number | null;
    if (raw === undefined || raw === null || raw === "") value = null;
    else if (typeof raw === "number") value = raw;
    else if (typeof raw === "string") value = raw;
    else if (typeof raw === "object" && raw !== null && "format" in raw && typeof (raw as { format: unknown }).format === "function")
      value = (raw as { format: (pattern: string) => string }).format(DATETIME_FORMAT);
    else value = String(raw);
    if (original && (original[field.name] ?? null) === value) continue;
    body[field.name] = value;
  }
  return body;
}
