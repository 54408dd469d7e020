import { and, asc, count, eq, max } from "drizzle-orm";
import { knowledgeChunks, knowledgeFiles } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import type { Thing } from "../../i18n/catalogue";
import { type ChunkInput, storeChunks } from "../retrieval/indexing";
import { type KnowledgeFileRow, loadFile } from "./files";
import { refreshFileTotals } from "./indexing";
import { appsBinding, checkTokenLimit, loadKnowledgeBase, tokensOf } from "./knowledge-bases";
import { loadPrepared, type PreparedRecord, savePrepared } from "./prepared";
import { deleteIndexed, embedderOf, vectorTableOf } from "./vectors";

/** A stored chunk row. */
export type ChunkRow = typeof knowledgeChunks.$inferSelect;

/**
 * Record-shaped files (Q&A, tables) keep one chunk per record. These helpers edit those records
 * where they live: in the prepared content while the file is pending, in its chunks (full text and
 * vectors re-indexed at once) once it is effective. A file being indexed cannot be edited.
 */

/** A file of the caller's space of the given kind; another kind is a 409 naming the kind needed. */
export async function loadRecordFile(deps: Pick<Deps, "db">, auth: Auth, fileId: string, type: "qa" | "table"): Promise<KnowledgeFileRow> {
  const file = await loadFile(deps, auth, fileId);
  if (file.type !== type) throw new ServiceError("conflict", "file_kind_required", { kind: type === "qa" ? "Q&A" : "table" });
  return file;
}

/** Refuses edits of a file being indexed (409) or one that failed; answers whether it is still pending. */
export function checkEditable(file: KnowledgeFileRow, allowPending = true): "pending" | "effective" {
  if (file.status === "processing") throw new ServiceError("conflict", "knowledge_base_updating");
  if (file.status === "effective") return "effective";
  if (file.status === "pending" && allowPending) return "pending";
  throw new ServiceError("conflict", "file_not_confirmable", { status: file.status });
}

/** The options JSON of a file. */
export function optionsOf(file: KnowledgeFileRow): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(file.options);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Replaces a file's options. */
export async function saveOptions(deps: Pick<Deps, "db" | "now">, file: KnowledgeFileRow, options: Record<string, unknown>): Promise<void> {
  await deps.db
    .update(knowledgeFiles)
    .set({ options: JSON.stringify(options), updatedAt: deps.now().toISOString() })
    .where(eq(knowledgeFiles.id, file.id));
}

/** A chunk's metadata JSON. */
export function metadataOf(row: Pick<ChunkRow, "metadata">): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(row.metadata);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The records of a pending file, as prepared at import. */
export async function pendingRecords(deps: Pick<Deps, "files">, file: KnowledgeFileRow): Promise<PreparedRecord[]> {
  const prepared = await loadPrepared(deps, file.knowledgeBaseId, file.id);
  return prepared?.kind === "records" ? prepared.records : [];
}

/** Replaces the records of a pending file. */
export async function savePendingRecords(deps: Pick<Deps, "files">, file: KnowledgeFileRow, records: PreparedRecord[]): Promise<void> {
  await savePrepared(deps, file.knowledgeBaseId, file.id, { kind: "records", records });
}

/** Every chunk of a file, in order. */
export async function chunksOfFileRows(deps: Pick<Deps, "db">, fileId: string): Promise<ChunkRow[]> {
  return await deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId)).orderBy(asc(knowledgeChunks.ordinal)).all();
}

/** A page of a file's chunks in order, with the total. */
export async function pageOfChunks(deps: Pick<Deps, "db">, fileId: string, page: { pageNo: number; pageSize: number }) {
  const rows = await deps.db
    .select()
    .from(knowledgeChunks)
    .where(eq(knowledgeChunks.fileId, fileId))
    .orderBy(asc(knowledgeChunks.ordinal))
    .limit(page.pageSize)
    .offset((page.pageNo - 1) * page.pageSize)
    .all();
  const total = await deps.db.select({ n: count() }).from(knowledgeChunks).where(eq(knowledgeChunks.fileId, fileId)).get();
  return { rows, total: total?.n ?? 0 };
}

/** One chunk of a file; a chunk of another file (or space) is not found. */
export async function loadChunkOf(deps: Pick<Deps, "db">, file: KnowledgeFileRow, chunkId: string, what: Thing): Promise<ChunkRow> {
  const row = await deps.db
    .select()
    .from(knowledgeChunks)
    .where(and(eq(knowledgeChunks.id, chunkId), eq(knowledgeChunks.fileId, file.id), eq(knowledgeChunks.spaceId, file.spaceId)))
    .get();
  if (!row) throw fail.notFound(what);
  return row;
}

async function indexingOf(deps: Pick<Deps, "db" | "knowledge" | "now">, file: KnowledgeFileRow) {
  const base = await loadKnowledgeBase(deps, file.spaceId, file.knowledgeBaseId);
  const embedder = embedderOf(deps, base);
  const vectors = vectorTableOf(deps, base);
  if (!embedder || !vectors) throw new ServiceError("conflict", "embedding_model_unavailable");
  return { db: deps.db, embedder, vectors, text: deps.knowledge.text, now: deps.now };
}

/** Refuses when adding `tokens` would put an app binding this knowledge base over the limit. */
export async function checkRoomFor(deps: Pick<Deps, "db">, file: KnowledgeFileRow, tokens: number): Promise<void> {
  if (tokens <= 0) return;
  for (const app of await appsBinding(deps, file.spaceId, file.knowledgeBaseId)) {
    checkTokenLimit((await tokensOf(deps, app.knowledgeBaseIds)) + tokens);
  }
}

/**
 * Stores records as chunks of an effective file (rows, full text and vectors), at the given
 * ordinals, then recounts the file. Answers the stored chunk ids in order.
 */
export async function storeRecords(deps: Pick<Deps, "db" | "knowledge" | "now">, file: KnowledgeFileRow, chunks: ChunkInput[]): Promise<string[]> {
  if (chunks.length === 0) return [];
  const ids = await storeChunks(await indexingOf(deps, file), { spaceId: file.spaceId, knowledgeBaseId: file.knowledgeBaseId, fileId: file.id }, chunks);
  await refreshFileTotals(deps, file.id);
  return ids;
}

/** The ordinal after a file's last chunk. */
export async function nextOrdinal(deps: Pick<Deps, "db">, fileId: string): Promise<number> {
  const last = await deps.db
    .select({ ordinal: max(knowledgeChunks.ordinal) })
    .from(knowledgeChunks)
    .where(eq(knowledgeChunks.fileId, fileId))
    .get();
  return (last?.ordinal ?? -1) + 1;
}

/** Deletes one chunk of a file with its vector, and recounts the file. */
export async function deleteChunk(deps: Pick<Deps, "db" | "knowledge" | "now">, file: KnowledgeFileRow, chunk: ChunkRow): Promise<void> {
  await deps.db.delete(knowledgeChunks).where(eq(knowledgeChunks.id, chunk.id));
  const base = await loadKnowledgeBase(deps, file.spaceId, file.knowledgeBaseId);
  await deleteIndexed(deps, base, { chunkIds: [chunk.id] });
  await refreshFileTotals(deps, file.id);
}

/** Reads one chunk back after a write. */
export async function reloadChunk(deps: Pick<Deps, "db">, chunkId: string): Promise<ChunkRow> {
  return (await deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.id, chunkId)).get())!;
}
