import { parse } from "csv-parse/sync";
import { fail } from "../../../errors";
import { checkZipSize, DocumentParseError, decodeUtf8 } from "../parse";

/** Spreadsheet formats a Q&A or table import reads. */
export const tabularExtensions = ["csv", "xlsx"] as const;

/** One of {@link tabularExtensions}. */
export type TabularExtension = (typeof tabularExtensions)[number];

/** Largest uncompressed size an xlsx may unpack to; bigger is treated as a zip bomb. */
export const XLSX_MAX_UNCOMPRESSED_BYTES = 100 * 1024 * 1024;

/** A sheet as read: the header row and the rows below it, each with its 1-based line (CSV) or row (xlsx) number. */
export interface Sheet {
  header: string[];
  rows: SheetRow[];
}

/** One row of a sheet: its 1-based line in the CSV (where the record starts) or row number in the sheet. */
export interface SheetRow {
  line: number;
  cells: string[];
}

/**
 * Reads a UTF-8 CSV (a BOM is dropped) into rows of cells. Bytes that are not UTF-8 (a CSV saved
 * as GBK, say) are the spec's encoding error on `file`; malformed quoting names the line.
 */
export function readCsv(bytes: Uint8Array): SheetRow[] {
  const text = decodeUtf8(bytes);
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false, info: true }) as unknown as typeof records;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw fail.invalid("csv_unreadable", "file", { reason });
  }
  let next = 1;
  return records.map(({ record, info }) => {
    const row = { line: next, cells: record };
    next = info.lines + 1;
    return row;
  });
}

/** Reads the first worksheet of an xlsx workbook into rows of cells, as the sheet displays them. */
export async function readXlsx(bytes: Uint8Array): Promise<SheetRow[]> {
  try {
    checkZipSize(bytes, XLSX_MAX_UNCOMPRESSED_BYTES);
  } catch (error) {
    if (error instanceof DocumentParseError) throw fail.invalid("table_unreadable", "file");
    throw error;
  }
  const XLSX = await import("@e965/xlsx");
  let rows: unknown[][];
  try {
    const workbook = XLSX.read(bytes, { type: "array", cellHTML: false, cellFormula: false, dense: true });
    const first = workbook.SheetNames[0];
    const sheet = first === undefined ? undefined : workbook.Sheets[first];
    if (!sheet) throw new Error("no worksheet");
    rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: "", blankrows: true });
  } catch {
    throw fail.invalid("table_unreadable", "file");
  }
  return rows.map((row, index) => ({ line: index + 1, cells: row.map((cell) => (cell === null || cell === undefined ? "" : String(cell))) }));
}

/**
 * Reads a sheet into its header (the first non-empty row) and the non-empty rows below it,
 * every cell trimmed.
 */
export function splitHeader(grid: SheetRow[]): Sheet {
  const cleaned = grid.map((row) => ({ line: row.line, cells: row.cells.map((cell) => cell.trim()) }));
  const headerAt = cleaned.findIndex((row) => row.cells.some((cell) => cell !== ""));
  if (headerAt < 0) throw fail.invalid("file_empty", "file");
  const header = [...cleaned[headerAt]!.cells];
  // Spreadsheets often carry blank cells to the right of the last real column.
  while (header.length > 0 && header[header.length - 1] === "") header.pop();
  const rows: SheetRow[] = [];
  for (const row of cleaned.slice(headerAt + 1)) {
    const cells = [...row.cells];
    while (cells.length > header.length && cells[cells.length - 1] === "") cells.pop();
    if (cells.every((cell) => cell === "")) continue;
    rows.push({ line: row.line, cells });
  }
  return { header, rows };
}

/** Reads a CSV or xlsx file into its header and non-empty rows. */
export async function readSheet(extension: TabularExtension, bytes: Uint8Array): Promise<Sheet> {
  return splitHeader(extension === "csv" ? readCsv(bytes) : await readXlsx(bytes));
}

/** Splits an uploaded name like `faq.csv` into stem and lower-cased extension. */
export function splitFileName(fileName: string): { stem: string; extension: string } {
  const dot = fileName.lastIndexOf(".");
  return dot > 0 ? { stem: fileName.slice(0, dot), extension: fileName.slice(dot + 1).toLowerCase() } : { stem: fileName, extension: "" };
}

/** A CSV cell, quoted when it holds a separator, quote or line break (RFC 4180). */
function csvCell(value: string): string {
  return /[",\r\n]/.test(value) || /^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Rows as CSV text with a UTF-8 BOM (so spreadsheet programs open it as UTF-8) and CRLF line ends. */
export function csvOf(rows: string[][]): string {
  return `\uFEFF${rows.map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}
