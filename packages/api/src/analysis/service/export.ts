import { strToU8, Zip, ZipDeflate } from "fflate";
import type { Deps } from "../../kernel";
import { fail } from "../../errors";
import { messageText, type MessageId } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";
import type { RangeCaller } from "../../access/follow";
import { type AnalysisFilters, timeRangeOf } from "./filters";
import { countRecords, countTransfers, iterateRecords, iterateTransfers, type RecordRow, type TransferRow, topWords } from "./records";

/** The most rows one export may have; more is refused, naming the limit. */
export const EXPORT_ROW_LIMIT = 100_000;

/** What can be exported. */
export type ExportKind = "records" | "not-hit" | "transfers" | "words";
/** The file formats of an export. */
export type ExportFormat = "csv" | "xlsx";

type Cell = string | number | null;

/** A table to write out: column titles and the rows, page by page. */
interface Table {
  headers: string[];
  pages: AsyncIterable<Cell[][]>;
}

/** A file being written as it is read: its body stream, type and name. */
export interface ExportFile {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  fileName: string;
}

const recordHeaders: MessageId[] = [
  "analysis.col.time",
  "analysis.col.app",
  "analysis.col.channel",
  "analysis.col.user",
  "analysis.col.model",
  "analysis.col.question",
  "analysis.col.answer",
  "analysis.col.promptTokens",
  "analysis.col.completionTokens",
  "analysis.col.credits",
  "analysis.col.knowledgeHits",
];
const recordCells = (row: RecordRow): Cell[] => [
  row.createdAt,
  row.appName ?? row.appId,
  row.channel,
  row.endUserId,
  row.model,
  row.prompt,
  row.answer,
  row.promptTokens,
  row.completionTokens,
  row.credits,
  row.knowledgeHitCount,
];
const transferHeaders: MessageId[] = [
  "analysis.col.time",
  "analysis.col.app",
  "analysis.col.channel",
  "analysis.col.user",
  "analysis.col.conversation",
  "analysis.col.reason",
  "analysis.col.detail",
];
const transferCells = (row: TransferRow): Cell[] => [
  row.createdAt,
  row.appName ?? row.appId,
  row.channel,
  row.endUserId,
  row.conversationId,
  row.reason,
  row.detail,
];

async function* mapPages<T>(pages: AsyncIterable<T[]>, cells: (row: T) => Cell[]): AsyncGenerator<Cell[][]> {
  for await (const page of pages) yield page.map(cells);
}

/**
 * Starts an export: counts the rows first (over {@link EXPORT_ROW_LIMIT} is a 400 naming the
 * limit, before anything is written), then answers a stream that reads the rows a page at a
 * time as the client takes them, so memory stays flat whatever the size.
 */
export async function exportTable(
  deps: Pick<Deps, "db" | "now">,
  auth: RangeCaller,
  kind: ExportKind,
  input: { filters: AnalysisFilters; format: ExportFormat; language: Language },
): Promise<ExportFile> {
  const { filters, format, language } = input;
  const range = timeRangeOf(filters, deps.now());
  let table: Table;
  if (kind === "words") {
    const words = await topWords(deps, auth, range, filters, EXPORT_ROW_LIMIT);
    table = {
      headers: ["analysis.col.word", "analysis.col.count"].map((id) => messageText(language, id as MessageId)),
      pages: (async function* () {
        yield words.map((w) => [w.word, w.count]);
      })(),
    };
  } else {
    const total = kind === "transfers" ? await countTransfers(deps, auth, range, filters) : await countRecords(deps, auth, kind, range, filters);
    if (total > EXPORT_ROW_LIMIT) throw fail.invalid("analysis_export_too_large", "filters", { count: total, limit: EXPORT_ROW_LIMIT });
    table =
      kind === "transfers"
        ? { headers: transferHeaders.map((id) => messageText(language, id)), pages: mapPages(iterateTransfers(deps, auth, range, filters), transferCells) }
        : { headers: recordHeaders.map((id) => messageText(language, id)), pages: mapPages(iterateRecords(deps, auth, kind, range, filters), recordCells) };
  }
  const stamp = range.to.slice(0, 10);
  return format === "csv"
    ? { body: csvStream(table), contentType: "text/csv; charset=utf-8", fileName: `${kind}-${stamp}.csv` }
    : { body: xlsxStream(table), contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", fileName: `${kind}-${stamp}.xlsx` };
}

/** A pull stream over the table's pages: each pull reads one page and writes what it encodes to. */
function pullStream(table: Table, start: () => Uint8Array[], page: (rows: Cell[][]) => Uint8Array[], finish: () => Uint8Array[]): ReadableStream<Uint8Array> {
  const pages = table.pages[Symbol.asyncIterator]();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunks: Uint8Array[] = [];
      if (!started) {
        started = true;
        chunks.push(...start());
      }
      const next = await pages.next();
      chunks.push(...(next.done ? finish() : page(next.value)));
      for (const chunk of chunks) if (chunk.length > 0) controller.enqueue(chunk);
      if (next.done) controller.close();
    },
    async cancel() {
      await pages.return?.(undefined);
    },
  });
}

// Spreadsheets run text that starts with these as a formula: such text is written with a leading apostrophe.
const FORMULA_START = /^[=+\-@\t\r]/;

function csvField(cell: Cell): string {
  if (cell === null) return "";
  if (typeof cell === "number") return String(cell);
  const text = FORMULA_START.test(cell) ? `'${cell}` : cell;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvLine = (cells: Cell[]) => `${cells.map(csvField).join(",")}\r\n`;

/** CSV with a UTF-8 byte-order mark (so spreadsheet programs read Chinese right), CRLF lines. */
export function csvStream(table: Table): ReadableStream<Uint8Array> {
  return pullStream(
    table,
    () => [strToU8(`\uFEFF${csvLine(table.headers)}`)],
    (rows) => [strToU8(rows.map(csvLine).join(""))],
    () => [],
  );
}

// Characters XML 1.0 does not allow, and the most a spreadsheet cell holds.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what XML 1.0 forbids
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const CELL_MAX = 32_767;

function xmlText(text: string): string {
  return text.slice(0, CELL_MAX).replace(XML_INVALID, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function xlsxCell(cell: Cell): string {
  if (cell === null) return "<c/>";
  if (typeof cell === "number") return `<c t="n"><v>${cell}</v></c>`;
  return `<c t="inlineStr"><is><t xml:space="preserve">${xmlText(cell)}</t></is></c>`;
}

const xlsxRow = (cells: Cell[]) => `<row>${cells.map(xlsxCell).join("")}</row>`;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const STATIC_PARTS: Array<[string, string]> = [
  [
    "[Content_Types].xml",
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`,
  ],
  [
    "_rels/.rels",
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ],
  [
    "xl/workbook.xml",
    `${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ],
  [
    "xl/_rels/workbook.xml.rels",
    `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
  ],
];

/**
 * An XLSX workbook of one sheet, written as it is read: the sheet's XML goes row by row through
 * fflate's streaming zip (inline strings, so no shared-string table has to be held).
 */
export function xlsxStream(table: Table): ReadableStream<Uint8Array> {
  let out: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    out.push(chunk);
  });
  const take = () => {
    const chunks = out;
    out = [];
    return chunks;
  };
  const sheet = new ZipDeflate("xl/worksheets/sheet1.xml", { level: 3 });
  return pullStream(
    table,
    () => {
      for (const [name, content] of STATIC_PARTS) {
        const part = new ZipDeflate(name, { level: 3 });
        zip.add(part);
        part.push(strToU8(content), true);
      }
      zip.add(sheet);
      sheet.push(strToU8(`${XML_HEAD}<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${xlsxRow(table.headers)}`));
      return take();
    },
    (rows) => {
      sheet.push(strToU8(rows.map(xlsxRow).join("")));
      return take();
    },
    () => {
      sheet.push(strToU8("</sheetData></worksheet>"), true);
      zip.end();
      return take();
    },
  );
}
