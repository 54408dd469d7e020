import { and, count, eq, gte, sum } from "drizzle-orm";
import { knowledgeChunks, knowledgeFiles } from "../../db/schema/index";
import type { Deps } from "../../kernel";
import type { JobHandler } from "../../jobs/worker";
import type { JobRow } from "../../jobs/queue";
import { storeChunks } from "../retrieval/indexing";
import { chunksOfFile, type KnowledgeFileRow } from "./files";
import { loadKnowledgeBase } from "./knowledge-bases";
import { deleteIndexed, embedderOf, vectorTableOf } from "./vectors";

/** What indexing a file needs. */
export type IndexFileDeps = Pick<Deps, "db" | "config" | "now" | "knowledge" | "files">;

/** Chunks embedded and written per step; progress and the job lease are refreshed after each. */
export const INDEX_BATCH = 200;

/**
 * Indexes a confirmed file: cuts its prepared content into chunks, stores them (rows, full
 * text and vectors) in batches, then marks it effective. Safe to run again after a crash at any
 * point: chunks are keyed by `(file_id, ordinal)`, so a resumed run rewrites what was stored and
 * adds what is missing, never a duplicate. A file that is gone or no longer processing is skipped.
 */
export async function indexFile(deps: IndexFileDeps, fileId: string, heartbeat: () => Promise<void> = async () => {}) {
  const file = await deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, fileId)).get();
  if (file?.status !== "processing") return;
  const base = await loadKnowledgeBase(deps as Deps, file.spaceId, file.knowledgeBaseId);
  const embedder = embedderOf(deps, base);
  const vectors = vectorTableOf(deps, base);
  if (!embedder || !vectors) {
    await refreshFileTotals(deps, file.id, { status: "failed", failureReason: "embedding_model_unavailable" });
    return;
  }
  const chunks = await chunksOfFile(deps, file);
  const target = { spaceId: file.spaceId, knowledgeBaseId: file.knowledgeBaseId, fileId: file.id };
  for (let start = 0; start < chunks.length; start += INDEX_BATCH) {
    const batch = chunks.slice(start, start + INDEX_BATCH);
    await storeChunks({ db: deps.db, embedder, vectors, text: deps.knowledge.text, now: deps.now }, target, batch);
    const progress = Math.min(99, Math.floor(((start + batch.length) / chunks.length) * 100));
    await deps.db.update(knowledgeFiles).set({ progress, updatedAt: deps.now().toISOString() }).where(eq(knowledgeFiles.id, file.id));
    await heartbeat();
    // The embedded driver and the offline embedder never wait on I/O: without this a large file
    // would hold the event loop, and every request, until it is done.
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Chunks past the end can only come from an earlier run with other settings.
  const stale = await deps.db
    .delete(knowledgeChunks)
    .where(and(eq(knowledgeChunks.fileId, file.id), gte(knowledgeChunks.ordinal, chunks.length)))
    .returning({ id: knowledgeChunks.id });
  if (stale.length > 0) await deleteIndexed(deps, base, { chunkIds: stale.map((row) => row.id) });
  await refreshFileTotals(deps, file.id, { status: "effective", progress: 100 });
}

/** Recounts a file's chunks and tokens from its stored chunks, optionally setting its status. */
export async function refreshFileTotals(
  deps: Pick<Deps, "db" | "now">,
  fileId: string,
  set: Partial<Pick<KnowledgeFileRow, "status" | "progress" | "failureReason">> = {},
) {
  const totals = await deps.db
    .select({ chunks: count(), tokens: sum(knowledgeChunks.tokens) })
    .from(knowledgeChunks)
    .where(eq(knowledgeChunks.fileId, fileId))
    .get();
  await deps.db
    .update(knowledgeFiles)
    .set({ chunkCount: totals?.chunks ?? 0, tokenCount: Number(totals?.tokens ?? 0), updatedAt: deps.now().toISOString(), ...set })
    .where(eq(knowledgeFiles.id, fileId));
}

/** The job handler that runs {@link indexFile}. */
export function indexFileHandler(deps: IndexFileDeps): JobHandler {
  return async ({ payload, heartbeat }) => {
    const { fileId } = payload as { fileId: string };
    await indexFile(deps, fileId, heartbeat);
  };
}

/** When indexing has failed for the last time, the file shows as failed with the reason. */
export async function markIndexingFailed(deps: Pick<Deps, "db" | "now">, job: JobRow): Promise<void> {
  const { fileId } = JSON.parse(job.payload) as { fileId?: string };
  if (!fileId) return;
  await deps.db
    .update(knowledgeFiles)
    .set({ status: "failed", failureReason: "indexing_failed", updatedAt: deps.now().toISOString() })
    .where(and(eq(knowledgeFiles.id, fileId), eq(knowledgeFiles.status, "processing")));
}
