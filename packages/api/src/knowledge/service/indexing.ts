import { and, count, eq, gte, sum } from "drizzle-orm";
import { newId } from "../../crypto";
import { knowledgeChunks, knowledgeFiles } from "../../db/schema/index";
import type { Deps } from "../../http/context";
import type { JobHandler } from "../../jobs/worker";
import type { JobRow } from "../../jobs/queue";
import { type KnowledgeFileRow, segmentsOfFile } from "./files";
import { estimateTokens } from "../../platform/llm/tokens";
import { segmentForSearch } from "../retrieval/text";

/** Chunks written per statement; progress and the job lease are refreshed after each batch. */
export const INDEX_BATCH = 200;

/**
 * Indexes a confirmed file: cuts its text into segments and stores them as chunks, then marks
 * it effective. Safe to run again after a crash at any point: chunks are keyed by
 * `(file_id, ordinal)` and an ordinal already stored is left as it is, so a resumed run adds
 * only what is missing and never a duplicate. A file that is gone or no longer processing is
 * skipped.
 */
export async function indexFile(deps: Pick<Deps, "db" | "config" | "now">, fileId: string, heartbeat: () => Promise<void> = async () => {}) {
  const file = await deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.id, fileId)).get();
  if (!file || file.status !== "processing") return;
  const segments = await segmentsOfFile(deps as Deps, file);
  for (let start = 0; start < segments.length; start += INDEX_BATCH) {
    const now = deps.now().toISOString();
    const batch = segments.slice(start, start + INDEX_BATCH).map((content, offset) => ({
      id: newId("kc"),
      spaceId: file.spaceId,
      knowledgeBaseId: file.knowledgeBaseId,
      fileId: file.id,
      ordinal: start + offset,
      content,
      searchText: segmentForSearch(content),
      tokens: estimateTokens(content),
      metadata: "{}",
      enabled: true,
      createdAt: now,
      updatedAt: now,
    }));
    await deps.db.insert(knowledgeChunks).values(batch).onConflictDoNothing({ target: [knowledgeChunks.fileId, knowledgeChunks.ordinal] });
    const progress = Math.min(99, Math.floor(((start + batch.length) / segments.length) * 100));
    await deps.db.update(knowledgeFiles).set({ progress, updatedAt: now }).where(eq(knowledgeFiles.id, file.id));
    await heartbeat();
  }
  // Chunks past the end can only come from an earlier run with other settings.
  await deps.db.delete(knowledgeChunks).where(and(eq(knowledgeChunks.fileId, file.id), gte(knowledgeChunks.ordinal, segments.length)));
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
export function indexFileHandler(deps: Pick<Deps, "db" | "config" | "now">): JobHandler {
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
