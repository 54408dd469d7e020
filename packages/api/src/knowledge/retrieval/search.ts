import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { anchorsOf, calibrateSimilarity } from "../../platform/embeddings/calibration";
import type { Embedder } from "../../platform/embeddings/types";
import type { TextIndex } from "./lance-text";
import { ftsMatchOf, queryTerms } from "./text";
import type { VectorIndex } from "./vector-index";

/** Retrieval modes of an app (spec §3): semantic, full text, or both fused ("enhanced"). */
export const retrievalModes = ["semantic", "fulltext", "hybrid"] as const;
/** One of `retrievalModes`. */
export type RetrievalMode = (typeof retrievalModes)[number];

/** What retrieval needs: the database, and the embedder and vector table of the knowledge bases searched. */
export interface RetrievalDeps {
  db: Db;
  embedder: Embedder;
  vectors: VectorIndex;
  /** The early-terminating full-text index of large knowledge bases; FTS5 alone when absent. */
  text?: TextIndex;
}

/** A retrieved chunk with its source file and the score of the list it came from. */
export interface RetrievedChunk {
  chunkId: string;
  knowledgeBaseId: string;
  fileId: string;
  fileName: string;
  content: string;
  metadata: Record<string, unknown>;
  /**
   * Higher is better: calibrated similarity (semantic), negated BM25 (full text), or the RRF
   * score as a share of the best possible one, first in every list (hybrid, 0–1).
   */
  score: number;
  /**
   * Calibrated similarity (0–1, decision 0010), when the chunk was found by semantic search: the
   * value similarity and citation thresholds are compared with, whatever the embedder.
   */
  similarity?: number;
  /** The embedder's raw cosine similarity, when found by semantic search. */
  cosine?: number;
  /** Full-text relevance (negated BM25, higher is better), when found by full text. */
  textScore?: number;
  /**
   * Share of the query's search terms the chunk holds (0–1), when found by full text: readable
   * where BM25 is not (a knowledge base of a few chunks gives every term a BM25 weight near 0).
   */
  textMatch?: number;
}

/** Scope and size of one search. */
export interface SearchRequest {
  query: string;
  knowledgeBaseIds: readonly string[];
  limit: number;
}

/** The fusion constant of reciprocal rank fusion; 60 is the published default. */
export const RRF_K = 60;

interface ChunkRow {
  id: string;
  knowledge_base_id: string;
  file_id: string;
  file_name: string;
  content: string;
  metadata: string;
  search_text?: string;
  rank?: number;
}

function inList(values: readonly string[]) {
  return sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );
}

function toChunk(row: ChunkRow, score: number): RetrievedChunk {
  let metadata: Record<string, unknown> = {};
  try {
    metadata = JSON.parse(row.metadata) as Record<string, unknown>;
  } catch {
    // A malformed metadata cell must not hide the chunk itself.
  }
  return { chunkId: row.id, knowledgeBaseId: row.knowledge_base_id, fileId: row.file_id, fileName: row.file_name, content: row.content, metadata, score };
}

/** A query term held by more than this share of all chunks is left out of full-text matching. */
export const COMMON_TERM_SHARE = 0.5;

/** How long a database's chunk total is reused before it is counted again. */
const TOTAL_TTL_MS = 5_000;
const totals = new WeakMap<Db, { count: number; at: number }>();

async function chunkTotal(db: Db): Promise<number> {
  const cached = totals.get(db);
  if (cached && Date.now() - cached.at < TOTAL_TTL_MS) return cached.count;
  const [row] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM knowledge_chunks`);
  const count = Number(row?.n ?? 0);
  totals.set(db, { count, at: Date.now() });
  return count;
}

/**
 * The query terms worth matching: those held by more than half of all chunks are dropped (bm25
 * gives them a weight of about zero, yet each makes FTS5 score nearly every row: at 100k
 * chunks an English query's OR matched a median 81% of them). The rarest term is kept if all
 * are common. Terms are looked up as FTS5 stores them (lower case, no diacritics).
 */
async function selectiveTerms(db: Db, terms: readonly string[]): Promise<string[]> {
  if (terms.length <= 1) return [...terms];
  const total = await chunkTotal(db);
  if (total < 100) return [...terms];
  const keys = terms.map((term) => term.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, ""));
  const rows = await db.all<{ term: string; doc: number }>(sql`SELECT term, doc FROM knowledge_chunks_fts_vocab WHERE term IN (${inList([...new Set(keys)])})`);
  const frequency = new Map(rows.map((row) => [row.term, Number(row.doc)]));
  const documentsOf = (index: number) => frequency.get(keys[index]!) ?? 0;
  const kept = terms.filter((_, index) => documentsOf(index) <= total * COMMON_TERM_SHARE);
  if (kept.length > 0) return kept;
  let rarest = 0;
  terms.forEach((_, index) => {
    if (documentsOf(index) < documentsOf(rarest)) rarest = index;
  });
  return [terms[rarest]!];
}

/**
 * Full-text search: the query's terms (segmented like the stored text, common ones left out)
 * OR-ed in an FTS5 MATCH over `knowledge_chunks_fts`, ranked by BM25, restricted to enabled
 * chunks of the given knowledge bases. Ranking reads only ids and scores; the text and source of
 * the chunks kept is fetched afterwards. `score` and `textScore` are the negated BM25 value
 * (higher is better).
 */
export async function fullTextSearch(db: Db, request: SearchRequest, text?: TextIndex): Promise<RetrievedChunk[]> {
  if (request.knowledgeBaseIds.length === 0 || request.limit <= 0) return [];
  const allTerms = queryTerms(request.query);
  if (text && allTerms.length > 0) {
    const indexed = await indexedFullTextSearch(db, request, text, allTerms);
    if (indexed) return indexed;
  }
  const terms = await selectiveTerms(db, allTerms);
  const match = ftsMatchOf(terms);
  if (match.length === 0) return [];
  const ranked = await db.all<{ id: string; rank: number }>(sql`
    SELECT c.id, bm25(knowledge_chunks_fts) AS rank
    FROM knowledge_chunks_fts
    JOIN knowledge_chunks c ON c.rowid = knowledge_chunks_fts.rowid
    WHERE knowledge_chunks_fts MATCH ${match}
      AND c.knowledge_base_id IN (${inList(request.knowledgeBaseIds)})
      AND c.enabled = 1
    ORDER BY rank
    LIMIT ${request.limit}`);
  if (ranked.length === 0) return [];
  const rows = new Map(
    (
      await chunksById(
        db,
        ranked.map((row) => row.id),
      )
    ).map((row) => [row.id, row]),
  );
  const result: RetrievedChunk[] = [];
  for (const { id, rank } of ranked) {
    const row = rows.get(id);
    if (row) result.push({ ...toChunk(row, -rank), textScore: -rank, textMatch: termShare(allTerms, row.search_text ?? "") });
  }
  return result;
}

/**
 * Full text through the early-terminating index (BM25 over the same segmented words, all query
 * terms: block-max WAND skips what common terms cannot lift into the top). Hits are checked
 * against SQLite, the source of truth: a chunk deleted or disabled there is dropped, and when that
 * leaves the page short, or the index cannot answer, undefined sends the caller to FTS5.
 */
async function indexedFullTextSearch(db: Db, request: SearchRequest, text: TextIndex, terms: readonly string[]): Promise<RetrievedChunk[] | undefined> {
  // Disabled chunks stay in the index; a few more hits than asked keep the page full.
  const asked = request.limit + 10;
  let hits: Awaited<ReturnType<TextIndex["search"]>>;
  try {
    hits = await text.search(terms, { knowledgeBaseIds: request.knowledgeBaseIds, limit: asked });
  } catch {
    return undefined;
  }
  if (!hits) return undefined;
  if (hits.length === 0) return [];
  const rows = new Map(
    (
      await chunksById(
        db,
        hits.map((hit) => hit.chunkId),
      )
    ).map((row) => [row.id, row]),
  );
  const result: RetrievedChunk[] = [];
  for (const hit of hits) {
    const row = rows.get(hit.chunkId);
    if (!row) continue;
    result.push({ ...toChunk(row, hit.score), textScore: hit.score, textMatch: termShare(terms, row.search_text ?? "") });
    if (result.length === request.limit) return result;
  }
  return hits.length < asked ? result : undefined;
}

/** The share of `terms` found among a chunk's stored search terms (FTS5 folds case and diacritics, so this does too). */
function termShare(terms: readonly string[], searchText: string): number {
  if (terms.length === 0) return 0;
  const fold = (term: string) => term.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
  const held = new Set(searchText.split(" ").map(fold));
  return Math.round((terms.filter((term) => held.has(fold(term))).length / terms.length) * 10_000) / 10_000;
}

/**
 * Semantic search: the query embedded as a query, the nearest vectors among the given
 * knowledge bases, kept when their calibrated similarity (decision 0010) reaches
 * `similarityThreshold` (0 when absent) and their chunk is still enabled. `score` and
 * `similarity` are the calibrated similarity, `cosine` the raw one.
 */
export async function semanticSearch(deps: RetrievalDeps, request: SearchRequest & { similarityThreshold?: number }): Promise<RetrievedChunk[]> {
  if (request.query.trim().length === 0 || request.knowledgeBaseIds.length === 0 || request.limit <= 0) return [];
  const [vector] = await deps.embedder.embed([request.query], { kind: "query" });
  // Disabled chunks keep their vectors; ask for a few more so filtering them rarely leaves gaps.
  const hits = await deps.vectors.search(vector!, { knowledgeBaseIds: request.knowledgeBaseIds, limit: request.limit + 10 });
  const threshold = request.similarityThreshold ?? 0;
  const anchors = anchorsOf(deps.embedder);
  const kept = hits.map((hit) => ({ ...hit, calibrated: calibrateSimilarity(hit.similarity, anchors) })).filter((hit) => hit.calibrated >= threshold);
  if (kept.length === 0) return [];
  const rows = await chunksById(
    deps.db,
    kept.map((hit) => hit.chunkId),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const result: RetrievedChunk[] = [];
  for (const hit of kept) {
    const row = byId.get(hit.chunkId);
    if (!row) continue;
    result.push({ ...toChunk(row, hit.calibrated), similarity: hit.calibrated, cosine: hit.similarity });
    if (result.length === request.limit) break;
  }
  return result;
}

async function chunksById(db: Db, ids: readonly string[]): Promise<ChunkRow[]> {
  return db.all<ChunkRow>(sql`
    SELECT c.id, c.knowledge_base_id, c.file_id, f.name AS file_name, c.content, c.metadata, c.search_text
    FROM knowledge_chunks c JOIN knowledge_files f ON f.id = c.file_id
    WHERE c.id IN (${inList(ids)}) AND c.enabled = 1`);
}

/**
 * Reciprocal rank fusion: each list adds weight / (k + rank) to a chunk's score (rank from 1,
 * weight 1 unless given per list),
 * duplicates merge by chunk id, best fused score first. The similarity and text scores of
 * the inputs are kept on the merged chunk.
 */
export function reciprocalRankFusion(lists: ReadonlyArray<readonly RetrievedChunk[]>, k: number = RRF_K, weights: readonly number[] = []): RetrievedChunk[] {
  const fused = new Map<string, RetrievedChunk>();
  for (const [listIndex, list] of lists.entries()) {
    const weight = weights[listIndex] ?? 1;
    list.forEach((chunk, index) => {
      const contribution = weight / (k + index + 1);
      const existing = fused.get(chunk.chunkId);
      if (existing) {
        existing.score += contribution;
        if (chunk.similarity !== undefined) existing.similarity = chunk.similarity;
        if (chunk.cosine !== undefined) existing.cosine = chunk.cosine;
        if (chunk.textScore !== undefined) existing.textScore = chunk.textScore;
        if (chunk.textMatch !== undefined) existing.textMatch = chunk.textMatch;
      } else {
        fused.set(chunk.chunkId, { ...chunk, score: contribution });
      }
    });
  }
  return [...fused.values()].sort((left, right) => right.score - left.score);
}

/**
 * Reciprocal rank fusion with the fused score as a share (0–1) of the best one possible, a chunk
 * first in every list: comparable between searches, and readable in the retrieval test.
 */
export function fuseRanked(lists: ReadonlyArray<readonly RetrievedChunk[]>, weights: readonly number[]): RetrievedChunk[] {
  const best = lists.reduce((sum, _, index) => sum + (weights[index] ?? 1) / (RRF_K + 1), 0);
  return reciprocalRankFusion(lists, RRF_K, weights).map((chunk) => ({ ...chunk, score: best > 0 ? chunk.score / best : 0 }));
}

/**
 * The weight of the semantic list in fusion: 1 for a semantic model; lower for a lexical
 * embedder, whose "semantic" list repeats what BM25 ranks better (measured in bench:retrieval).
 */
export function defaultSemanticWeight(embedder: Embedder): number {
  return embedder.lexical ? LEXICAL_SEMANTIC_WEIGHT : 1;
}

/**
 * Fusion weight of the offline lexical embedder's list. Measured hybrid nDCG@10 (SciFact train /
 * CMRC dev) at weight 1: 0.58 / 0.89; 0.5: 0.62 / 0.92; 0.2: 0.66 / 0.95; 0.1: 0.68 / 0.96, all
 * still under full text alone (0.70 / 0.98): with this embedder, full-text mode is the better choice.
 */
export const LEXICAL_SEMANTIC_WEIGHT = 0.1;

/** Candidates each list contributes to fusion: enough that a chunk ranked well by one list still counts. */
const FUSION_DEPTH = 50;

/**
 * Hybrid search: semantic hits (at or above the similarity threshold) and full-text hits,
 * `FUSION_DEPTH` of each, fused by RRF; the first `limit` fused chunks.
 */
export async function hybridSearch(
  deps: RetrievalDeps,
  request: SearchRequest & { similarityThreshold?: number; semanticWeight?: number },
): Promise<RetrievedChunk[]> {
  const depth = Math.max(FUSION_DEPTH, request.limit);
  const [semantic, fullText] = await Promise.all([
    semanticSearch(deps, { ...request, limit: depth }),
    fullTextSearch(deps.db, { ...request, limit: depth }, deps.text),
  ]);
  return fuseRanked([semantic, fullText], [request.semanticWeight ?? defaultSemanticWeight(deps.embedder), 1]).slice(0, request.limit);
}

/** Ranked search in one mode: the entry point benchmarks and the retrieval test share. */
export async function searchChunks(
  deps: RetrievalDeps,
  request: SearchRequest & { mode: RetrievalMode; similarityThreshold?: number; semanticWeight?: number },
): Promise<RetrievedChunk[]> {
  if (request.mode === "semantic") return semanticSearch(deps, request);
  if (request.mode === "fulltext") return fullTextSearch(deps.db, request, deps.text);
  return hybridSearch(deps, request);
}

/** An app's retrieval settings (spec §3, App retrieval fields). */
export interface RetrievalSettings {
  mode: RetrievalMode;
  /** Chunks from semantic search (default 3). */
  semanticCount?: number;
  /** Chunks from full-text search (default 1). */
  fullTextCount?: number;
  /** Minimum calibrated similarity of semantic hits (default 0, decision 0010); never applied to full-text scores. */
  similarityThreshold?: number;
}

/** Most chunks one retrieval returns, whatever the counts (spec §3). */
export const MAX_RETRIEVED = 10;

/**
 * The chunks an app's answer uses (spec §3 rules): semantic mode takes `semanticCount`
 * (default 3) semantic hits at or above the similarity threshold; full-text mode takes
 * `fullTextCount` (default 1) full-text hits; hybrid takes both, semantic first, a full-text hit
 * already chosen by semantic search being replaced by the next one (semantic hits missing
 * under the threshold are not made up by full text). At most 10 in total, the
 * semantic count taking priority when the two counts exceed it. Hybrid results are ordered by
 * their RRF score over both lists.
 */
export async function retrieve(
  deps: RetrievalDeps,
  request: { query: string; knowledgeBaseIds: readonly string[] } & RetrievalSettings,
): Promise<RetrievedChunk[]> {
  const semanticCount = request.mode === "fulltext" ? 0 : clampCount(request.semanticCount ?? 3, MAX_RETRIEVED);
  const fullTextCount = request.mode === "semantic" ? 0 : clampCount(request.fullTextCount ?? 1, MAX_RETRIEVED - semanticCount);
  const scope = { query: request.query, knowledgeBaseIds: request.knowledgeBaseIds };
  const [semantic, fullText] = await Promise.all([
    semanticCount > 0
      ? semanticSearch(deps, { ...scope, limit: Math.max(semanticCount, FUSION_DEPTH), similarityThreshold: request.similarityThreshold ?? 0 })
      : [],
    fullTextCount > 0 ? fullTextSearch(deps.db, { ...scope, limit: Math.max(fullTextCount + semanticCount, FUSION_DEPTH) }, deps.text) : [],
  ]);
  if (request.mode === "semantic") return semantic.slice(0, semanticCount);
  if (request.mode === "fulltext") return fullText.slice(0, fullTextCount);
  const chosen = new Set(semantic.slice(0, semanticCount).map((chunk) => chunk.chunkId));
  let added = 0;
  for (const chunk of fullText) {
    if (added === fullTextCount) break;
    if (chosen.has(chunk.chunkId)) continue;
    chosen.add(chunk.chunkId);
    added += 1;
  }
  return fuseRanked([semantic, fullText], [defaultSemanticWeight(deps.embedder), 1]).filter((chunk) => chosen.has(chunk.chunkId));
}

function clampCount(value: number, max: number): number {
  return Math.max(0, Math.min(Math.floor(value), max));
}

/** The retrieval test screen's answer: up to 10 chunks of each kind, with their scores. */
export interface RetrievalTestResult {
  semantic: RetrievedChunk[];
  fullText: RetrievedChunk[];
  hybrid: RetrievedChunk[];
}

/**
 * The retrieval test (spec §3/§9): the query run in all three modes over the given knowledge
 * bases, 10 results each; the similarity threshold filters the semantic list only.
 */
export async function retrievalTest(
  deps: RetrievalDeps,
  request: { query: string; knowledgeBaseIds: readonly string[]; similarityThreshold?: number },
): Promise<RetrievalTestResult> {
  const base = { ...request, limit: MAX_RETRIEVED };
  const [semantic, fullText, hybrid] = await Promise.all([semanticSearch(deps, base), fullTextSearch(deps.db, base, deps.text), hybridSearch(deps, base)]);
  return { semantic, fullText, hybrid };
}
