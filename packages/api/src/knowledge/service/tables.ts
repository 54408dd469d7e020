import { eq } from "drizzle-orm";
import { knowledgeFiles } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { estimateTokens } from "../../platform/llm/tokens";
import { createImportedFile, fileView, type KnowledgeFileRow } from "./files";
import { checkSomeImported, checkUpload, type ImportReport, reportOf, type UploadInput } from "./imports";
import { loadKnowledgeBase } from "./knowledge-bases";
import { chunkOfRecord, type PreparedRecord } from "./prepared";
import {
  type ChunkRow,
  checkEditable,
  checkRoomFor,
  chunksOfFileRows,
  deleteChunk,
  loadChunkOf,
  loadRecordFile,
  metadataOf,
  nextOrdinal,
  optionsOf,
  pageOfChunks,
  pendingRecords,
  reloadChunk,
  saveOptions,
  savePendingRecords,
  storeRecords,
} from "./records";
import { CELL_MAX_CHARACTERS, checkFields, checkSameColumns, tableRecord, tableRowsOf, type TableValues, tableValuesOf } from "./sources/table";
import { readSheet, tabularExtensions } from "./sources/tabular";

/** What a table file keeps in its options. */
export interface TableOptions {
  extension: string;
  fields: string[];
  /** The field rows are looked up by; fixed once set (spec §5). */
  indexColumn: string;
  report?: ImportReport;
}

/** The table settings of a table file. */
export function tableOptionsOf(file: KnowledgeFileRow): TableOptions {
  const options = optionsOf(file);
  const fields = Array.isArray(options.fields) ? options.fields.filter((field): field is string => typeof field === "string") : [];
  const indexColumn = typeof options.indexColumn === "string" ? options.indexColumn : (fields[0] ?? "");
  return { ...(options as object), extension: typeof options.extension === "string" ? options.extension : "csv", fields, indexColumn } as TableOptions;
}

/** The contract view of a table's layout. */
function tableView(file: KnowledgeFileRow, options: TableOptions, rowCount: number) {
  return { fileId: file.id, fields: options.fields, indexColumn: options.indexColumn, rowCount, status: file.status };
}

/** The contract view of a row. */
function rowView(chunk: ChunkRow) {
  return {
    id: chunk.id,
    ordinal: chunk.ordinal,
    values: tableValuesOf(metadataOf(chunk)),
    enabled: chunk.enabled,
    tokens: chunk.tokens,
    updatedAt: chunk.updatedAt,
  };
}

/**
 * Imports a table from a CSV (UTF-8) or xlsx file: the first row names the fields, which must be
 * unique; every other row becomes one record. The index column (default: the first field) is
 * kept in the file's options and cannot change afterwards. Rows with an empty index cell, or with
 * more cells than the header, are counted as failed.
 */
export async function importTable(
  deps: Pick<Deps, "db" | "files" | "now">,
  auth: Auth,
  knowledgeBaseId: string,
  input: UploadInput & { indexColumn?: string },
) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const { name, extension } = checkUpload(input, tabularExtensions);
  const sheet = await readSheet(extension, input.bytes);
  const fields = checkFields(sheet.header);
  const indexColumn = input.indexColumn?.trim() || fields[0]!;
  if (!fields.includes(indexColumn)) throw fail.invalid("table_index_column_unknown", "indexColumn", { column: indexColumn });
  const table = tableRowsOf(sheet, fields, indexColumn);
  checkSomeImported(table.rows.length, table.failures);
  const report = reportOf(table.rows.length, table.failures);
  const options: TableOptions = { extension, fields, indexColumn, report };
  const file = await createImportedFile(deps, auth, base.id, {
    type: "table",
    name,
    source: input.fileName,
    sizeBytes: input.bytes.byteLength,
    mimeType: extension === "csv" ? "text/csv" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    original: { bytes: input.bytes, extension },
    prepared: { kind: "records", records: table.rows.map((row) => tableRecord(fields, indexColumn, row.values)) },
    options: options as unknown as Record<string, unknown>,
  });
  return { file, report };
}

/**
 * Appends the rows of another CSV or xlsx to a table file. Its columns must be exactly the
 * table's fields (any order); a mismatch is a 400 naming the missing and unexpected columns.
 * A pending file grows its prepared rows; an effective one stores and indexes them at once.
 */
export async function appendTableImport(deps: Pick<Deps, "db" | "files" | "knowledge" | "now">, auth: Auth, fileId: string, input: UploadInput) {
  const file = await loadRecordFile(deps, auth, fileId, "table");
  const state = checkEditable(file);
  const { extension } = checkUpload({ ...input, name: file.name }, tabularExtensions);
  const options = tableOptionsOf(file);
  const sheet = await readSheet(extension, input.bytes);
  checkSameColumns(sheet.header, options.fields);
  const table = tableRowsOf(sheet, options.fields, options.indexColumn);
  checkSomeImported(table.rows.length, table.failures);
  const records = table.rows.map((row) => tableRecord(options.fields, options.indexColumn, row.values));
  if (state === "pending") {
    await savePendingRecords(deps, file, [...(await pendingRecords(deps, file)), ...records]);
  } else {
    await checkRoomFor(
      deps,
      file,
      records.reduce((total, record) => total + estimateTokens(record.content), 0),
    );
    const start = await nextOrdinal(deps, file.id);
    await storeRecords(
      deps,
      file,
      records.map((record, index) => chunkOfRecord(record, start + index)),
    );
  }
  const report = reportOf(table.rows.length, table.failures);
  await deps.db
    .update(knowledgeFiles)
    .set({ sizeBytes: file.sizeBytes + input.bytes.byteLength, updatedAt: deps.now().toISOString() })
    .where(eq(knowledgeFiles.id, file.id));
  const updated = await loadRecordFile(deps, auth, fileId, "table");
  return { file: fileView(updated), report };
}

async function rowCountOf(deps: Pick<Deps, "db" | "files">, file: KnowledgeFileRow): Promise<number> {
  if (file.status === "pending") return (await pendingRecords(deps, file)).length;
  return (await pageOfChunks(deps, file.id, { pageNo: 1, pageSize: 1 })).total;
}

/** A table file's fields, index column and row count. */
export async function getTable(deps: Pick<Deps, "db" | "files">, auth: Auth, fileId: string) {
  const file = await loadRecordFile(deps, auth, fileId, "table");
  return tableView(file, tableOptionsOf(file), await rowCountOf(deps, file));
}

/**
 * Renames a table's fields: `fields` lists the new names in the table's order, one per field,
 * still unique. The index column stays the same column (renaming it is fine); naming another
 * column as index is a 409. Every row is rewritten and, when effective, re-indexed.
 */
export async function editTableColumns(
  deps: Pick<Deps, "db" | "files" | "knowledge" | "now">,
  auth: Auth,
  fileId: string,
  input: { fields: string[]; indexColumn?: string },
) {
  const file = await loadRecordFile(deps, auth, fileId, "table");
  const state = checkEditable(file);
  const options = tableOptionsOf(file);
  if (input.fields.length !== options.fields.length) throw fail.invalid("table_fields_count", "fields", { count: options.fields.length });
  const fields = checkFields(input.fields, "fields");
  const indexAt = options.fields.indexOf(options.indexColumn);
  const indexColumn = fields[indexAt]!;
  if (input.indexColumn !== undefined && input.indexColumn.trim() !== indexColumn) {
    throw new ServiceError("conflict", "table_index_column_fixed", { column: options.indexColumn });
  }
  const rename = (values: TableValues): TableValues => Object.fromEntries(options.fields.map((old, index) => [fields[index]!, values[old] ?? ""]));
  if (state === "pending") {
    const records = await pendingRecords(deps, file);
    await savePendingRecords(
      deps,
      file,
      records.map((record) => tableRecord(fields, indexColumn, rename(tableValuesOf(record.metadata ?? {})))),
    );
  } else {
    const chunks = await chunksOfFileRows(deps, file.id);
    await storeRecords(
      deps,
      file,
      chunks.map((chunk) => chunkOfRecord(tableRecord(fields, indexColumn, rename(tableValuesOf(metadataOf(chunk)))), chunk.ordinal)),
    );
  }
  const next: TableOptions = { ...options, fields, indexColumn };
  await saveOptions(deps, file, next as unknown as Record<string, unknown>);
  return tableView(file, next, await rowCountOf(deps, file));
}

/** A page of a table's rows in order; a pending table's rows have no id yet. */
export async function listTableRows(deps: Pick<Deps, "db" | "files">, auth: Auth, fileId: string, page: { pageNo: number; pageSize: number }) {
  const file = await loadRecordFile(deps, auth, fileId, "table");
  const options = tableOptionsOf(file);
  const layout = { fields: options.fields, indexColumn: options.indexColumn, pageNo: page.pageNo, pageSize: page.pageSize };
  if (file.status === "pending") {
    const records = await pendingRecords(deps, file);
    const slice = records.slice((page.pageNo - 1) * page.pageSize, page.pageNo * page.pageSize);
    return {
      ...layout,
      total: records.length,
      items: slice.map((record: PreparedRecord, index) => ({
        id: null,
        ordinal: (page.pageNo - 1) * page.pageSize + index,
        values: tableValuesOf(record.metadata ?? {}),
        enabled: true,
        tokens: estimateTokens(record.content),
        updatedAt: file.updatedAt,
      })),
    };
  }
  const { rows, total } = await pageOfChunks(deps, file.id, page);
  return { ...layout, total, items: rows.map(rowView) };
}

function checkValues(options: TableOptions, values: Record<string, string>): void {
  for (const [field, value] of Object.entries(values)) {
    if (!options.fields.includes(field)) throw fail.invalid("table_field_unknown", "values", { field });
    if (value.length > CELL_MAX_CHARACTERS) throw fail.invalid("validation_failed", "values", { field, reason: `at most ${CELL_MAX_CHARACTERS} characters` });
  }
}

function checkIndexValue(options: TableOptions, values: TableValues): void {
  if (!(values[options.indexColumn] ?? "").trim()) throw fail.invalid("table_index_value_empty", "values", { column: options.indexColumn });
}

/** Adds a row at the end of an effective table; searchable at once. Missing fields are empty. */
export async function addTableRow(deps: Pick<Deps, "db" | "knowledge" | "now">, auth: Auth, fileId: string, input: { values: Record<string, string> }) {
  const file = await loadRecordFile(deps, auth, fileId, "table");
  checkEditable(file, false);
  const options = tableOptionsOf(file);
  checkValues(options, input.values);
  const values = Object.fromEntries(options.fields.map((field) => [field, (input.values[field] ?? "").trim()]));
  checkIndexValue(options, values);
  const record = tableRecord(options.fields, options.indexColumn, values);
  await checkRoomFor(deps, file, estimateTokens(record.content));
  const [id] = await storeRecords(deps, file, [chunkOfRecord(record, await nextOrdinal(deps, file.id))]);
  return rowView(await reloadChunk(deps, id!));
}

/** Changes some values of a row of an effective table; the row is re-indexed at once. */
export async function updateTableRow(
  deps: Pick<Deps, "db" | "knowledge" | "now">,
  auth: Auth,
  fileId: string,
  rowId: string,
  input: { values: Record<string, string> },
) {
  const file = await loadRecordFile(deps, auth, fileId, "table");
  checkEditable(file, false);
  const options = tableOptionsOf(file);
  const chunk = await loadChunkOf(deps, file, rowId, "table_row");
  checkValues(options, input.values);
  const current = tableValuesOf(metadataOf(chunk));
  const values = Object.fromEntries(options.fields.map((field) => [field, (input.values[field] ?? current[field] ?? "").trim()]));
  checkIndexValue(options, values);
  await storeRecords(deps, file, [chunkOfRecord(tableRecord(options.fields, options.indexColumn, values), chunk.ordinal)]);
  return rowView(await reloadChunk(deps, chunk.id));
}

/** Deletes a row of an effective table. */
export async function deleteTableRow(deps: Pick<Deps, "db" | "knowledge" | "now">, auth: Auth, fileId: string, rowId: string) {
  const file = await loadRecordFile(deps, auth, fileId, "table");
  checkEditable(file, false);
  const chunk = await loadChunkOf(deps, file, rowId, "table_row");
  await deleteChunk(deps, file, chunk);
  return { id: chunk.id, deleted: true as const };
}

/** The current rows of a table file (its chunks once indexed, else its prepared rows), for export. */
export async function currentTableRows(deps: Pick<Deps, "db" | "files">, file: KnowledgeFileRow): Promise<TableValues[]> {
  const chunks = file.status === "pending" ? [] : await chunksOfFileRows(deps, file.id);
  if (chunks.length > 0) return chunks.map((chunk) => tableValuesOf(metadataOf(chunk)));
  return (await pendingRecords(deps, file)).map((record) => tableValuesOf(record.metadata ?? {}));
}
