import { and, desc, eq } from "drizzle-orm";
import { newId } from "../../crypto";
import { knowledgeFiles } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { followsKnowledgeBase, type RangeCaller } from "../../access/follow";
import { jobsOf } from "../../kernel/jobs";
import { appsBinding, checkTokenLimit, loadKnowledgeBase, tokensOf } from "./knowledge-bases";
import { DocumentParseError, type DocumentExtension, documentExtensions, extractDocumentText } from "./parse";
import { keyOfStored, knowledgeKeys, storeObject } from "./storage";
import type { ChunkInput } from "../retrieval/indexing";
import { chunksOfPrepared, loadPrepared, type PreparedContent, removePrepared, savePrepared } from "./prepared";
import { deleteIndexed } from "./vectors";
import { withQuota } from "../../plans/service/quotas";
import { estimateTokens } from "../../platform/llm/tokens";

/** A stored knowledge file row. */
export type KnowledgeFileRow = typeof knowledgeFiles.$inferSelect;

/** Largest document a knowledge upload accepts (spec §5 Files). */
export const DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;

/** How many segments a preview shows (spec §4). */
export const PREVIEW_SEGMENTS = 50;

/** The job kind that indexes a confirmed file. */
export const INDEX_FILE_JOB = "knowledge.index-file";

/** A file name without its extension: letters, digits, underscore, hyphen; at most 50 (spec §5). */
export const FILE_NAME_PATTERN = /^[A-Za-z0-9_-]{1,50}$/;

/** The contract view of a file; `failureReason` is a message id the route translates. */
export function fileView(row: KnowledgeFileRow) {
  return {
    id: row.id,
    knowledgeBaseId: row.knowledgeBaseId,
    name: row.name,
    type: row.type,
    source: row.source,
    sizeBytes: row.sizeBytes,
    sizeKb: Math.ceil(row.sizeBytes / 1024),
    status: row.status,
    progress: row.progress,
    chunkCount: row.chunkCount,
    tokenCount: row.tokenCount,
    failureReason: row.failureReason,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * One file of the caller's space; another space's file does not exist for the caller, nor (when a
 * member's access is given instead of a space id) one of a knowledge base outside their data range.
 */
export async function loadFile(deps: Pick<Deps, "db">, scope: string | RangeCaller, fileId: string): Promise<KnowledgeFileRow> {
  const spaceId = typeof scope === "string" ? scope : scope.spaceId;
  const row = await deps.db
    .select()
    .from(knowledgeFiles)
    .where(
      and(
        eq(knowledgeFiles.id, fileId),
        eq(knowledgeFiles.spaceId, spaceId),
        typeof scope === "string" ? undefined : followsKnowledgeBase(scope, knowledgeFiles.knowledgeBaseId),
      ),
    )
    .get();
  if (!row) throw fail.notFound("knowledge_file");
  return row;
}

/** The file-store key of a file's uploaded original (recorded in `storagePath`). */
export function originalKey(file: Pick<KnowledgeFileRow, "knowledgeBaseId" | "storagePath">): string {
  return keyOfStored(knowledgeKeys.base(file.knowledgeBaseId), file.storagePath ?? "");
}

/** Splits `report.pdf` into its checked stem and extension, or says which rule it breaks. */
export function checkFileName(name: string): { stem: string; extension: DocumentExtension } {
  const dot = name.lastIndexOf(".");
  const extension = (dot > 0 ? name.slice(dot + 1) : "").toLowerCase();
  if (!(documentExtensions as readonly string[]).includes(extension)) {
    throw fail.invalid("file_type_unsupported", "file", { types: documentExtensions.join(", ") });
  }
  const stem = name.slice(0, dot);
  if (!FILE_NAME_PATTERN.test(stem)) throw fail.invalid("file_name_invalid", "name");
  return { stem, extension: extension as DocumentExtension };
}

/** The files of a knowledge base, newest first. */
export async function listFiles(deps: Pick<Deps, "db">, auth: Auth, knowledgeBaseId: string) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const rows = await deps.db
    .select()
    .from(knowledgeFiles)
    .where(eq(knowledgeFiles.knowledgeBaseId, base.id))
    .orderBy(desc(knowledgeFiles.createdAt), desc(knowledgeFiles.id))
    .all();
  return rows.map(fileView);
}

/** What an import hands over to become a pending (or failed) file. */
export interface ImportedFileInput {
  type: KnowledgeFileRow["type"];
  /** Display name, already checked against {@link FILE_NAME_PATTERN}. */
  name: string;
  /** The uploaded file's name, the URL, or the document token. */
  source: string;
  sizeBytes: number;
  mimeType?: string;
  /** The original as received, kept beside the prepared content (export reads it). */
  original?: { bytes: Uint8Array; extension: string };
  /** Content ready to preview and index; absent when the import failed. */
  prepared?: PreparedContent;
  /** Message id of why the import failed; the file is then kept as failed. */
  failureReason?: string | null;
  /** Per-type options (Q&A search method, table fields and index column, Feishu document). */
  options?: Record<string, unknown>;
}

/**
 * Records an imported source as a file of a knowledge base: pending with its prepared content,
 * or failed with its reason. Every import type (documents, Q&A, tables, websites, Feishu) ends
 * here; confirm and indexing do not care where the content came from.
 */
export async function createImportedFile(deps: Pick<Deps, "db" | "files" | "now">, auth: Auth, knowledgeBaseId: string, input: ImportedFileInput) {
  const tokens = input.prepared && !input.failureReason ? preparedTokens(input.prepared) : 0;
  return withQuota(deps, auth.spaceId, { knowledgeEntries: 1, knowledgeTokens: tokens }, () => insertImportedFile(deps, auth, knowledgeBaseId, input));
}

/** Tokens a prepared file is expected to hold once indexed, for the capacity quota. */
function preparedTokens(prepared: PreparedContent): number {
  if (prepared.kind === "text") return estimateTokens(prepared.text);
  return prepared.records.reduce((sum, record) => sum + estimateTokens(JSON.stringify(record)), 0);
}

async function insertImportedFile(deps: Pick<Deps, "db" | "files" | "now">, auth: Auth, knowledgeBaseId: string, input: ImportedFileInput) {
  const now = deps.now().toISOString();
  const id = newId("kf");
  let failureReason = input.failureReason ?? null;
  if (!failureReason && !input.prepared) failureReason = "document_empty";
  let storagePath: string | null = null;
  if (input.original) {
    storagePath = await storeObject(deps, knowledgeKeys.original(knowledgeBaseId, id, input.original.extension), input.original.bytes);
  }
  if (!failureReason && input.prepared) await savePrepared(deps, knowledgeBaseId, id, input.prepared);
  const row: KnowledgeFileRow = {
    id,
    spaceId: auth.spaceId,
    knowledgeBaseId,
    name: input.name,
    type: input.type,
    source: input.source,
    mimeType: input.mimeType ?? null,
    sizeBytes: input.sizeBytes,
    status: failureReason ? "failed" : "pending",
    failureReason,
    chunkCount: 0,
    tokenCount: 0,
    progress: 0,
    storagePath,
    options: JSON.stringify(input.options ?? {}),
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(knowledgeFiles).values(row);
  return fileView(row);
}

/**
 * Stores an uploaded document and extracts its text (step "upload" of the import flow). A text
 * file that is not UTF-8 is refused; a PDF or docx that cannot be read is kept as a failed file
 * with its reason. The file stays pending until confirmed.
 */
export async function uploadDocument(
  deps: Pick<Deps, "db" | "files" | "now">,
  auth: Auth,
  knowledgeBaseId: string,
  input: { fileName: string; bytes: Uint8Array; mimeType?: string; name?: string; maxBytes?: number },
) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const { stem, extension } = checkFileName(input.name ? `${input.name}.${input.fileName.split(".").pop() ?? ""}` : input.fileName);
  if (input.bytes.byteLength === 0) throw fail.invalid("file_empty", "file");
  const maxBytes = input.maxBytes ?? DOCUMENT_MAX_BYTES;
  if (input.bytes.byteLength > maxBytes) throw fail.invalid("file_too_large", "file", { megabytes: maxBytes / 1024 / 1024 });
  let text: string | undefined;
  let failureReason: string | null = null;
  try {
    text = await extractDocumentText(extension, input.bytes);
  } catch (error) {
    if (error instanceof DocumentParseError) failureReason = error.messageId;
    else throw error;
  }
  if (text !== undefined && text.trim() === "") failureReason = "document_empty";
  return createImportedFile(deps, auth, base.id, {
    type: "document",
    name: stem,
    source: input.fileName,
    sizeBytes: input.bytes.byteLength,
    ...(input.mimeType ? { mimeType: input.mimeType } : {}),
    original: { bytes: input.bytes, extension },
    ...(failureReason === null && text !== undefined ? { prepared: { kind: "text" as const, text } } : {}),
    failureReason,
    options: { extension },
  });
}

/** The chunks a file is cut into with its knowledge base's current settings. */
export async function chunksOfFile(deps: Pick<Deps, "db" | "config" | "files">, file: KnowledgeFileRow): Promise<ChunkInput[]> {
  const base = await loadKnowledgeBase(deps as Deps, file.spaceId, file.knowledgeBaseId);
  const prepared = await loadPrepared(deps, file.knowledgeBaseId, file.id);
  if (!prepared) throw new ServiceError("conflict", "file_not_previewable");
  return chunksOfPrepared(prepared, base);
}

/** The first 50 segments (or rows) of an uploaded file, before it is confirmed (spec §4). */
export async function previewFile(deps: Pick<Deps, "config" | "db" | "files">, auth: Auth, fileId: string) {
  const file = await loadFile(deps, auth, fileId);
  if (file.status !== "pending") throw new ServiceError("conflict", "file_not_previewable");
  const chunks = await chunksOfFile(deps, file);
  return {
    fileId: file.id,
    type: file.type,
    totalSegments: chunks.length,
    tokenCount: chunks.reduce((total, chunk) => total + chunk.tokens, 0),
    segments: chunks.slice(0, PREVIEW_SEGMENTS).map((chunk) => ({
      ordinal: chunk.ordinal,
      content: chunk.content,
      tokens: chunk.tokens,
      ...(chunk.metadata ? { metadata: chunk.metadata } : {}),
    })),
  };
}

/**
 * Confirms an uploaded file: it becomes processing and an indexing job is queued. Refused when
 * an app binding this knowledge base would then hold more than the token limit.
 */
export async function confirmFile(deps: Pick<Deps, "config" | "db" | "files" | "now">, auth: Auth, fileId: string) {
  const file = await loadFile(deps, auth, fileId);
  if (file.status !== "pending") throw new ServiceError("conflict", "file_not_confirmable", { status: file.status });
  const chunks = await chunksOfFile(deps, file);
  const tokens = chunks.reduce((total, chunk) => total + chunk.tokens, 0);
  for (const app of await appsBinding(deps, auth.spaceId, file.knowledgeBaseId)) {
    checkTokenLimit((await tokensOf(deps, app.knowledgeBaseIds)) + tokens);
  }
  const now = deps.now();
  const updated = await deps.db
    .update(knowledgeFiles)
    .set({ status: "processing", progress: 0, tokenCount: tokens, failureReason: null, updatedAt: now.toISOString() })
    .where(and(eq(knowledgeFiles.id, file.id), eq(knowledgeFiles.status, "pending")))
    .returning();
  if (!updated[0]) throw new ServiceError("conflict", "file_not_confirmable", { status: "processing" });
  try {
    await jobsOf(deps).enqueue(INDEX_FILE_JOB, { fileId: file.id }, { spaceId: file.spaceId });
  } catch (error) {
    // Not queued (the queue's Redis is away): the file goes back to pending, to be confirmed again.
    await deps.db.update(knowledgeFiles).set({ status: "pending", updatedAt: now.toISOString() }).where(eq(knowledgeFiles.id, file.id));
    throw error;
  }
  return fileView(updated[0]);
}

/** Renames a file (the same name rule as upload, without extension). */
export async function renameFile(deps: Pick<Deps, "db" | "now">, auth: Auth, fileId: string, name: string) {
  const file = await loadFile(deps, auth, fileId);
  if (!FILE_NAME_PATTERN.test(name)) throw fail.invalid("file_name_invalid", "name");
  const updated = await deps.db.update(knowledgeFiles).set({ name, updatedAt: deps.now().toISOString() }).where(eq(knowledgeFiles.id, file.id)).returning();
  return fileView(updated[0]!);
}

/** Deletes a file with its chunks and stored original; the rest of the knowledge base is untouched. */
export async function deleteFile(deps: Pick<Deps, "db" | "files" | "knowledge">, auth: Auth, fileId: string) {
  const file = await loadFile(deps, auth, fileId);
  const base = await loadKnowledgeBase(deps, auth, file.knowledgeBaseId);
  await deps.db.delete(knowledgeFiles).where(eq(knowledgeFiles.id, file.id));
  await deleteIndexed(deps, base, { fileIds: [file.id] });
  if (file.storagePath) await deps.files.delete(originalKey(file));
  await removePrepared(deps, file.knowledgeBaseId, file.id);
  return { id: file.id, deleted: true as const };
}
