/**
 * The rerank port: scores how well each of some passages answers a query. Retrieval asks it to
 * reorder the fused candidates of an app's answer; implementations speak a vendor's wire format.
 */

/** The body a `/rerank` server expects: Cohere and Jina take `documents`, TEI takes `texts`. */
export const rerankFormats = ["cohere", "tei"] as const;

/** One of {@link rerankFormats}. */
export type RerankFormat = (typeof rerankFormats)[number];

/** One scored passage: its position in the request's list and its relevance (higher is better). */
export interface RerankScore {
  index: number;
  score: number;
}

/** What one rerank call returns: a score for every passage sent, best first. */
export interface RerankResult {
  scores: RerankScore[];
}

/** A model that reranks passages. */
export interface Reranker {
  /** The model id as apps name it. */
  readonly model: string;
  rerank(input: { query: string; documents: readonly string[]; signal?: AbortSignal }): Promise<RerankResult>;
}

/** A rerank call that failed: the server refused, timed out, or answered something unreadable. */
export class RerankError extends Error {
  override name = "RerankError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}
