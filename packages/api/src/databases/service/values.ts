import { ServiceError } from "../../errors";

/** The field types of a built-in table (spec §3 Field). */
export const fieldTypes = ["integer", "decimal", "text", "datetime", "longtext"] as const;
/** One of {@link fieldTypes}. */
export type FieldType = (typeof fieldTypes)[number];

/** Text fields hold at most this many characters; more goes in a long text field (spec §3). */
export const TEXT_MAX = 1000;
/** Long text fields hold at most this many characters. */
export const LONGTEXT_MAX = 100_000;

/** The column type each field type is stored as (tables are STRICT, so SQLite enforces it too). */
export const storageType: Record<FieldType, "INTEGER" | "REAL" | "TEXT"> = {
  integer: "INTEGER",
  decimal: "REAL",
  text: "TEXT",
  datetime: "TEXT",
  longtext: "TEXT",
};

/** A stored value: null for an empty cell. */
export type StoredValue = string | number | null;

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATETIME = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** A refused value: the message and its parameters, for the caller to throw or to name a row with. */
export class ValueError extends ServiceError {
  constructor(messageId: ConstructorParameters<typeof ServiceError>[1], field: string, params: Record<string, string | number>) {
    super("validation", messageId, { field, ...params }, { field });
  }
}

const pad = (value: number | string) => String(value).padStart(2, "0");
// The stored form itself: checked by numbers alone, no Date made (large imports are mostly this).
const CANONICAL = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;
const daysIn = (year: number, month: number) =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

function canonical(text: string): boolean {
  const match = CANONICAL.exec(text);
  if (!match) return false;
  const month = Number(match[2]);
  const day = Number(match[3]);
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysIn(Number(match[1]), month) &&
    Number(match[4]) <= 23 &&
    Number(match[5]) <= 59 &&
    Number(match[6]) <= 59
  );
}

/**
 * Checks and converts one value for a field: integers and decimals from numbers or their text,
 * date-times to `YYYY-MM-DD HH:MM:SS` (what SQLite's date functions read), text up to
 * {@link TEXT_MAX} characters and long text up to {@link LONGTEXT_MAX}. Empty is null.
 */
export function coerceValue(field: { name: string; type: FieldType }, raw: unknown): StoredValue {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === "number") {
    if (!Number.isFinite(raw)) throw new ValueError("database_value_decimal", field.name, { value: String(raw) });
    if (field.type === "integer") {
      if (!Number.isSafeInteger(raw)) throw new ValueError("database_value_integer", field.name, { value: String(raw) });
      return raw;
    }
    if (field.type === "decimal") return raw;
  }
  if (typeof raw === "boolean") raw = raw ? "1" : "0";
  if (typeof raw !== "string" && typeof raw !== "number")
    throw new ValueError("database_value_decimal", field.name, { value: JSON.stringify(raw).slice(0, 40) });
  const text = String(raw);
  const trimmed = text.trim();
  if (trimmed === "") return null;
  switch (field.type) {
    case "integer": {
      const value = INTEGER.test(trimmed) ? Number(trimmed) : Number.NaN;
      if (!Number.isSafeInteger(value)) throw new ValueError("database_value_integer", field.name, { value: trimmed.slice(0, 40) });
      return value;
    }
    case "decimal": {
      const value = DECIMAL.test(trimmed) ? Number(trimmed) : Number.NaN;
      if (!Number.isFinite(value)) throw new ValueError("database_value_decimal", field.name, { value: trimmed.slice(0, 40) });
      return value;
    }
    case "datetime": {
      if (canonical(trimmed)) return trimmed;
      const match = DATETIME.exec(trimmed);
      const refuse = () => new ValueError("database_value_datetime", field.name, { value: trimmed.slice(0, 40) });
      if (!match) throw refuse();
      const [, y, mo, d, h = "0", mi = "0", s = "0", zone] = match;
      let date: Date;
      if (zone) {
        date = new Date(
          `${y}-${pad(mo!)}-${pad(d!)}T${pad(h)}:${mi}:${s}${zone === "Z" ? "Z" : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone}`,
        );
        if (Number.isNaN(date.getTime())) throw refuse();
        return date.toISOString().slice(0, 19).replace("T", " ");
      }
      date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
      // Date.UTC rolls 2024-02-30 over to March: a value that does not read back the same is refused.
      if (date.getUTCDate() !== Number(d) || date.getUTCMonth() !== Number(mo) - 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) throw refuse();
      return date.toISOString().slice(0, 19).replace("T", " ");
    }
    case "text":
      if (text.length > TEXT_MAX) throw new ValueError("database_value_too_long", field.name, { length: text.length, max: TEXT_MAX });
      return text;
    case "longtext":
      if (text.length > LONGTEXT_MAX) throw new ValueError("database_value_longtext_max", field.name, { max: LONGTEXT_MAX });
      return text;
  }
}

/**
 * Names of tables and fields: they are the names in the database's own file, which the model
 * writes SQL against, so they are plain identifiers: letters, digits, underscore and CJK
 * characters, not starting with a digit, and never SQLite's own (`sqlite_…`, `rowid`).
 */
export const NAME_MAX = 64;
const NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;
const RESERVED = /^(rowid|_rowid_|oid|sqlite_.*)$/i;

/** Whether a table or field name is usable. */
export function validName(name: string): boolean {
  return name.length <= NAME_MAX && NAME.test(name) && !RESERVED.test(name);
}

/** An identifier quoted for SQL; {@link validName} names hold no quote, so nothing needs escaping. */
export function quoted(name: string): string {
  if (name.includes('"')) throw new Error("A quote in a checked name");
  return `"${name}"`;
}
