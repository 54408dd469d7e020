import type { Reranker } from "../../platform/rerank/types";
import { MAX_RETRIEVED, type RetrievedChunk } from "./search";

/** How many times an app's counts the reranker is given as candidates, before the cap. */
export const RERANK_POOL_FACTOR = 3;

/** Most candidates a rerank model is given: three times the largest answer. */
export const RERANK_POOL_MAX = 3 * MAX_RETRIEVED;

/**
 * The candidate counts handed to fusion when an app reranks: its counts times
 * {@link RERANK_POOL_FACTOR}, the total capped at {@link RERANK_POOL_MAX} (the semantic count
 * keeps its priority there).
 */
export function rerankPoolCounts(counts: { semanticCount: number; fullTextCount: number }): { semanticCount: number; fullTextCount: number; maxTotal: number } {
  const semanticCount = Math.min(RERANK_POOL_MAX, Math.max(0, Math.floor(counts.semanticCount)) * RERANK_POOL_FACTOR);
  const fullTextCount = Math.min(RERANK_POOL_MAX - semanticCount, Math.max(0, Math.floor(counts.fullTextCount)) * RERANK_POOL_FACTOR);
  return { semanticCount, fullTextCount, maxTotal: RERANK_POOL_MAX };
}

/**
 * Reorders fused candidates by a rerank model: each chunk gets the model's relevance as its
 * `score` and `rerankScore`, chunks scored under `threshold` (or left out by the model) are
 * dropped, and the best `limit` are kept, best first. Throws what the reranker throws.
 */
export async function rerankChunks(
  reranker: Reranker,
  request: { query: string; chunks: readonly RetrievedChunk[]; threshold: number; limit: number; signal?: AbortSignal },
): Promise<RetrievedChunk[]> {
  if (request.chunks.length === 0 || request.limit <= 0) return [];
  const { scores } = await reranker.rerank({
    query: request.query,
    documents: request.chunks.map((chunk) => chunk.content),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  return scores
    .filter((entry) => entry.score >= request.threshold)
    .slice(0, request.limit)
    .map((entry) => ({ ...request.chunks[entry.index]!, score: entry.score, rerankScore: entry.score }));
}
