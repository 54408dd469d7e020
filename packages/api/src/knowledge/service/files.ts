import fs from "node:fs/promises";
import path from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { newId } from "../../crypto";
import { knowledgeFiles } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../http/context";
import { enqueueJob } from "../../jobs/queue";
import { appsBinding, checkTokenLimit, loadKnowledgeBase, tokensOf } from "./knowledge-bases";
import { DocumentParseError, type DocumentExtension, documentExtensions, extractDocumentText } from "./parse";
import { extractedTextPath, knowledgeDirectory, writeAtomically } from "./storage";
import { estimateTokens } from "../../platform/llm/tokens";
import { chunkText } from "../retrieval/chunker";

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

/** One file of the caller's space; another space's file does not exist for the caller. */
export async function loadFile(deps: Deps, spaceId: string, fileId: string): Promise<KnowledgeFileRow> {
  const row = await deps.db
    .select()
    .from(knowledgeFiles)
    .where(and(eq(knowledgeFiles.id, fileId), eq(knowledgeFiles.spaceId, spaceId)))
    .get();
  if (!row) throw fail.notFound("knowledge_file");
  return row;
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
export async function listFiles(deps: Deps, auth: Auth, knowledgeBaseId: string) {
  const base = await loadKnowledgeBase(deps, auth.spaceId, knowledgeBaseId);
  const rows = await deps.db
    .select()
    .from(knowledgeFiles)
    .where(eq(knowledgeFiles.knowledgeBaseId, base.id))
    .orderBy(desc(knowledgeFiles.createdAt), desc(knowledgeFiles.id))
    .all();
  return rows.map(fileView);
}

/**
 * Stores an uploaded document and extracts its text (step "upload" of the import flow). A text
 * file that is not UTF-8 is refused; a PDF or docx that cannot be read is kept as a failed file
 * with its reason. The file stays pending until confirmed.
 */
export async function uploadDocument(
  deps: Deps,
  auth: Auth,
  knowledgeBaseId: string,
  input: { fileName: string; bytes: Uint8Array; mimeType?: string; name?: string },
) {
  const base = await loadKnowledgeBase(deps, auth.spaceId, knowledgeBaseId);
  const { stem, extension } = checkFileName(input.name ? `${input.name}.${input.fileName.split(".").pop() ?? ""}` : input.fileName);
  if (input.bytes.byteLength === 0) throw fail.invalid("file_empty", "file");
  if (input.bytes.byteLength > DOCUMENT_MAX_BYTES) {
    throw fail.invalid("file_too_large", "file", { megabytes: DOCUMENT_MAX_BYTES / 1024 / 1024 });
  }
  let text: string | undefined;
  let failureReason: string | null = null;
  try {
    text = await extractDocumentText(extension, input.bytes);
  } catch (error) {
    if (error instanceof DocumentParseError) failureReason = error.messageId;
    else throw error;
  }
  if (text !== undefined && text.trim() === "") failureReason = "document_empty";
  const now = deps.now().toISOString();
  const id = newId("kf");
  const directory = knowledgeDirectory(deps, base.id);
  const storagePath = path.join(directory, `${id}.${extension}`);
  await writeAtomically(storagePath, input.bytes);
  if (failureReason === null && text !== undefined) await writeAtomically(extractedTextPath(deps, base.id, id), text);
  const row: KnowledgeFileRow = {
    id,
    spaceId: auth.spaceId,
    knowledgeBaseId: base.id,
    name: stem,
    type: "document",
    source: input.fileName,
    mimeType: input.mimeType ?? null,
    sizeBytes: input.bytes.byteLength,
    status: failureReason ? "failed" : "pending",
    failureReason,
    chunkCount: 0,
    tokenCount: 0,
    progress: 0,
    storagePath,
    options: JSON.stringify({ extension }),
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(knowledgeFiles).values(row);
  return fileView(row);
}

async function readExtracted(deps: Deps, file: KnowledgeFileRow): Promise<string> {
  try {
    return await fs.readFile(extractedTextPath(deps, file.knowledgeBaseId, file.id), "utf8");
  } catch {
    throw new ServiceError("conflict", "file_not_previewable");
  }
}

/** Segments a file would be cut into with its knowledge base's settings. */
export async function segmentsOfFile(deps: Deps, file: KnowledgeFileRow): Promise<string[]> {
  const base = await loadKnowledgeBase(deps, file.spaceId, file.knowledgeBaseId);
  return chunkText(await readExtracted(deps, file), { maxTokens: base.chunkTokens, overlapTokens: base.chunkOverlap }).map((chunk) => chunk.content);
}

/** The first 50 segments of an uploaded file, before it is confirmed (spec §4). */
export async function previewFile(deps: Deps, auth: Auth, fileId: string) {
  const file = await loadFile(deps, auth.spaceId, fileId);
  if (file.status !== "pending") throw new ServiceError("conflict", "file_not_previewable");
  const segments = await segmentsOfFile(deps, file);
  return {
    fileId: file.id,
    totalSegments: segments.length,
    tokenCount: segments.reduce((total, segment) => total + estimateTokens(segment), 0),
    segments: segments.slice(0, PREVIEW_SEGMENTS).map((content, ordinal) => ({ ordinal, content, tokens: estimateTokens(content) })),
  };
}

/**
 * Confirms an uploaded file: it becomes processing and an indexing job is queued. Refused when
 * an app binding this knowledge base would then hold more than the token limit.
 */
export async function confirmFile(deps: Deps, auth: Auth, fileId: string) {
  const file = await loadFile(deps, auth.spaceId, fileId);
  if (file.status !== "pending") throw new ServiceError("conflict", "file_not_confirmable", { status: file.status });
  const segments = await segmentsOfFile(deps, file);
  const tokens = segments.reduce((total, segment) => total + estimateTokens(segment), 0);
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
  await enqueueJob(deps.db, now, INDEX_FILE_JOB, { fileId: file.id });
  return fileView(updated[0]);
}

/** Renames a file (the same name rule as upload, without extension). */
export async function renameFile(deps: Deps, auth: Auth, fileId: string, name: string) {
  const file = await loadFile(deps, auth.spaceId, fileId);
  if (!FILE_NAME_PATTERN.test(name)) throw fail.invalid("file_name_invalid", "name");
  const updated = await deps.db
    .update(knowledgeFiles)
    .set({ name, updatedAt: deps.now().toISOString() })
    .where(eq(knowledgeFiles.id, file.id))
    .returning();
  return fileView(updated[0]!);
}

/** Deletes a file with its chunks and stored original; the rest of the knowledge base is untouched. */
export async function deleteFile(deps: Deps, auth: Auth, fileId: string) {
  const file = await loadFile(deps, auth.spaceId, fileId);
  await deps.db.delete(knowledgeFiles).where(eq(knowledgeFiles.id, file.id));
  if (file.storagePath) await fs.rm(file.storagePath, { force: true });
  await fs.rm(extractedTextPath(deps, file.knowledgeBaseId, file.id), { force: true });
  return { id: file.id, deleted: true as const };
}
