import { type Reranker, RerankError, type RerankFormat, type RerankScore } from "./types";

/** Settings of a reranker behind `POST {baseUrl}/rerank`. */
export interface RemoteRerankerOptions {
  /** API root, e.g. `https://api.jina.ai/v1`, `https://api.cohere.com/v2` or a TEI server's root. */
  baseUrl: string;
  model: string;
  /** Which request body the server takes (the answer is read in either shape). */
  format: RerankFormat;
  apiKey?: string;
  /** Per-call timeout in milliseconds (default 15 000): an answer must not wait long on it. */
  timeoutMs?: number;
  fetch?: typeof globalThis.fetch;
}

/**
 * Reads a rerank answer: TEI's bare `[{ index, score }]` or Cohere's and Jina's
 * `{ results: [{ index, relevance_score }] }`. Every index must be one of the `count` passages
 * sent, each at most once, and every score a finite number.
 */
export function decodeRerankAnswer(body: unknown, count: number): RerankScore[] {
  const rows = Array.isArray(body) ? body : (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(rows)) throw new RerankError("rerank answer is neither a list nor an object with results");
  const seen = new Set<number>();
  const scores: RerankScore[] = [];
  for (const row of rows as Array<{ index?: unknown; score?: unknown; relevance_score?: unknown } | null>) {
    const index = row?.index;
    const score = row?.relevance_score ?? row?.score;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= count || seen.has(index)) {
      throw new RerankError(`rerank answer holds an index outside the ${count} passages sent or twice`);
    }
    if (typeof score !== "number" || !Number.isFinite(score)) throw new RerankError("rerank answer holds a non-numeric score");
    seen.add(index);
    scores.push({ index, score });
  }
  return scores.sort((left, right) => right.score - left.score);
}

/**
 * A reranker over `POST {baseUrl}/rerank`, the wire format TEI, Jina and Cohere-compatible
 * servers share: `{ model, query, documents, top_n }` (Cohere, Jina) or `{ query, texts }`
 * (TEI, which serves the one model it was started with), with the key as a bearer token when one is set.
 */
export function createRemoteReranker(options: RemoteRerankerOptions): Reranker {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const url = `${options.baseUrl.replace(/\/+$/, "")}/rerank`;
  return {
    model: options.model,
    async rerank({ query, documents, signal }) {
      if (documents.length === 0) return { scores: [] };
      const body = options.format === "tei" ? { query, texts: documents } : { model: options.model, query, documents, top_n: documents.length };
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
      let response: Response;
      try {
        response = await fetchImpl(url, {
          method: "POST",
          headers: { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
          body: JSON.stringify(body),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        const reason = error instanceof Error && error.name === "TimeoutError" ? "timed out" : error instanceof Error ? error.message : String(error);
        throw new RerankError(`rerank request to ${url} failed: ${reason}`);
      }
      if (!response.ok) {
        const detail = (await response.text().catch(() => "")).slice(0, 300);
        throw new RerankError(`rerank request to ${url} answered ${response.status}: ${detail}`, response.status);
      }
      const answer: unknown = await response.json().catch(() => {
        throw new RerankError(`rerank answer of ${url} is not JSON`);
      });
      return { scores: decodeRerankAnswer(answer, documents.length) };
    },
  };
}
