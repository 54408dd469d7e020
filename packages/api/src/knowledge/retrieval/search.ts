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
   * Higher is better: calibrated similarity (semantic), negated BM25 (full text), or the fused
   * score (hybrid, 0–1, 1 = first in both lists; decision 0023).
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
  /** The rerank model's relevance (0–1), when the app reranked its hits (knowledge/retrieval/rerank.ts). */
  rerankScore?: number;
}

/**
 * A chunk as ranking and fusion see it: where it is and its scores, before its text is read.
 * Searches rank and fuse these, then read text, file name and metadata only for the chunks they
 * return (at 100k chunks reading 50 rows of each list cost more than the fusion itself).
 */
export type RankedChunk = Omit<RetrievedChunk, "fileName" | "content" | "metadata" | "textMatch">;

/** Scope and size of one search. */
export interface SearchRequest {
  query: string;
  knowledgeBaseIds: readonly string[];
  limit: number;
}

interface ChunkRow {
  id: string;
  knowledge_base_id: string;
  file_id: string;
  file_name: string;
  content: string;
  metadata: string;
  search_text?: string;
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
 * chunks of the given knowledge bases. `score` and `textScore` are the negated BM25 value
 * (higher is better); `textMatch` the share of the query's terms the chunk holds.
 */
export async function fullTextSearch(db: Db, request: SearchRequest, text?: TextIndex): Promise<RetrievedChunk[]> {
  return withText(db, request.query, await rankFullText(db, request, text));
}

/** {@link fullTextSearch} before the chunks' text is read. */
async function rankFullText(db: Db, request: SearchRequest, text?: TextIndex): Promise<RankedChunk[]> {
  if (request.knowledgeBaseIds.length === 0 || request.limit <= 0) return [];
  const allTerms = queryTerms(request.query);
  if (text && allTerms.length > 0) {
    const indexed = await indexedFullTextSearch(db, request, text, allTerms);
    if (indexed) return indexed;
  }
  const terms = await selectiveTerms(db, allTerms);
  const match = ftsMatchOf(terms);
  if (match.length === 0) return [];
  const ranked = await db.all<ChunkRef & { rank: number }>(sql`
    SELECT c.id, c.knowledge_base_id, c.file_id, bm25(knowledge_chunks_fts) AS rank
    FROM knowledge_chunks_fts
    JOIN knowledge_chunks c ON c.rowid = knowledge_chunks_fts.rowid
    WHERE knowledge_chunks_fts MATCH ${match}
      AND c.knowledge_base_id IN (${inList(request.knowledgeBaseIds)})
      AND c.enabled = 1
    ORDER BY rank
    LIMIT ${request.limit}`);
  return ranked.map((row) => ({ ...rankedOf(row, -row.rank), textScore: -row.rank }));
}

/**
 * Full text through the early-terminating index (BM25 over the same segmented words, all query
 * terms: block-max WAND skips what common terms cannot lift into the top). Hits are checked
 * against SQLite, the source of truth: a chunk deleted or disabled there is dropped, and when that
 * leaves the page short, or the index cannot answer, undefined sends the caller to FTS5.
 */
async function indexedFullTextSearch(db: Db, request: SearchRequest, text: TextIndex, terms: readonly string[]): Promise<RankedChunk[] | undefined> {
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
  const refs = await enabledChunks(
    db,
    hits.map((hit) => hit.chunkId),
  );
  const result: RankedChunk[] = [];
  for (const hit of hits) {
    const ref = refs.get(hit.chunkId);
    if (!ref) continue;
    result.push({ ...rankedOf(ref, hit.score), textScore: hit.score });
    if (result.length === request.limit) return result;
  }
  return hits.length < asked ? result : undefined;
}

const NON_ASCII = /[^\p{ASCII}]/u;

/** Case and diacritics folded as FTS5's `unicode61 remove_diacritics 2` folds them. */
function foldTerms(text: string): string {
  // ASCII has no marks to remove, and most stored text is ASCII.
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "");
}

/**
 * Measures the share of `terms` among a chunk's stored search terms (FTS5 folds case and
 * diacritics, so this does too). The query terms are folded once and each chunk's text once as a
 * whole (a search scores up to 60 chunks of hundreds of words each; folding word by word cost
 * several milliseconds per search at 100k chunks).
 */
function termShare(terms: readonly string[]): (searchText: string) => number {
  const wanted = terms.map((term) => ` ${foldTerms(term)} `);
  return (searchText) => {
    if (wanted.length === 0) return 0;
    const padded = ` ${foldTerms(searchText)} `;
    const held = wanted.filter((term) => padded.includes(term)).length;
    return Math.round((held / wanted.length) * 10_000) / 10_000;
  };
}

/**
 * Semantic search: the query embedded as a query, the nearest vectors among the given
 * knowledge bases, kept when their calibrated similarity (decision 0010) reaches
 * `similarityThreshold` (0 when absent) and their chunk is still enabled. `score` and
 * `similarity` are the calibrated similarity, `cosine` the raw one.
 */
export async function semanticSearch(deps: RetrievalDeps, request: SearchRequest & { similarityThreshold?: number }): Promise<RetrievedChunk[]> {
  return withText(deps.db, request.query, await rankSemantic(deps, request));
}

/** {@link semanticSearch} before the chunks' text is read. */
async function rankSemantic(deps: RetrievalDeps, request: SearchRequest & { similarityThreshold?: number }): Promise<RankedChunk[]> {
  if (request.query.trim().length === 0 || request.knowledgeBaseIds.length === 0 || request.limit <= 0) return [];
  const [vector] = await deps.embedder.embed([request.query], { kind: "query" });
  // Disabled chunks keep their vectors; ask for a few more so filtering them rarely leaves gaps.
  const hits = await deps.vectors.search(vector!, { knowledgeBaseIds: request.knowledgeBaseIds, limit: request.limit + 10 });
  const threshold = request.similarityThreshold ?? 0;
  const anchors = anchorsOf(deps.embedder);
  const kept = hits.map((hit) => ({ ...hit, calibrated: calibrateSimilarity(hit.similarity, anchors) })).filter((hit) => hit.calibrated >= threshold);
  if (kept.length === 0) return [];
  const refs = await enabledChunks(
    deps.db,
    kept.map((hit) => hit.chunkId),
  );
  const result: RankedChunk[] = [];
  for (const hit of kept) {
    const ref = refs.get(hit.chunkId);
    if (!ref) continue;
    result.push({ ...rankedOf(ref, hit.calibrated), similarity: hit.calibrated, cosine: hit.similarity });
    if (result.length === request.limit) break;
  }
  return result;
}

/** Where a chunk is: what ranking reads of it. */
interface ChunkRef {
  id: string;
  knowledge_base_id: string;
  file_id: string;
}

function rankedOf(ref: ChunkRef, score: number): RankedChunk {
  return { chunkId: ref.id, knowledgeBaseId: ref.knowledge_base_id, fileId: ref.file_id, score };
}

/** The chunks of `ids` that SQLite, the source of truth, still holds enabled (the indexes keep deleted and disabled ones a while). */
async function enabledChunks(db: Db, ids: readonly string[]): Promise<Map<string, ChunkRef>> {
  if (ids.length === 0) return new Map();
  const rows = await db.all<ChunkRef>(sql`SELECT id, knowledge_base_id, file_id FROM knowledge_chunks WHERE id IN (${inList(ids)}) AND enabled = 1`);
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Reads the text, file name and metadata of ranked chunks, in one query for all the lists given,
 * and measures `textMatch` for those full text found. A chunk deleted or disabled since it was
 * ranked is left out.
 */
async function withTextOfLists(db: Db, query: string, lists: readonly (readonly RankedChunk[])[]): Promise<RetrievedChunk[][]> {
  const ids = [...new Set(lists.flatMap((list) => list.map((chunk) => chunk.chunkId)))];
  if (ids.length === 0) return lists.map(() => []);
  const rows = new Map(
    (
      await db.all<ChunkRow>(sql`
        SELECT c.id, c.knowledge_base_id, c.file_id, f.name AS file_name, c.content, c.metadata, c.search_text
        FROM knowledge_chunks c JOIN knowledge_files f ON f.id = c.file_id
        WHERE c.id IN (${inList(ids)}) AND c.enabled = 1`)
    ).map((row) => [row.id, row]),
  );
  const share = termShare(queryTerms(query));
  const matches = new Map<string, number>();
  const matchOf = (row: ChunkRow) => {
    let value = matches.get(row.id);
    if (value === undefined) {
      value = share(row.search_text ?? "");
      matches.set(row.id, value);
    }
    return value;
  };
  return lists.map((list) =>
    list.flatMap((chunk) => {
      const row = rows.get(chunk.chunkId);
      if (!row) return [];
      const { fileName, content, metadata } = toChunk(row, chunk.score);
      return [{ ...chunk, fileName, content, metadata, ...(chunk.textScore !== undefined ? { textMatch: matchOf(row) } : {}) }];
    }),
  );
}

/** {@link withTextOfLists} of one list. */
async function withText(db: Db, query: string, list: readonly RankedChunk[]): Promise<RetrievedChunk[]> {
  const [result] = await withTextOfLists(db, query, [list]);
  return result ?? [];
}

/**
 * Knowledge bases indexed with one embedding model, with that model and its vector table: a
 * search over knowledge bases of several models has one source per model.
 */
export interface SemanticSource {
  embedder: Embedder;
  vectors: VectorIndex;
  knowledgeBaseIds: readonly string[];
}

/** What a search over several knowledge bases needs: the database (full text) and one semantic source per embedding model. */
export interface RetrievalScope {
  db: Db;
  sources: readonly SemanticSource[];
  /** The full-text index of large knowledge bases (decision 0024); FTS5 answers without it. */
  text?: TextIndex | undefined;
}

/** The scope of a search over knowledge bases sharing one embedding model. */
export function singleSource(deps: RetrievalDeps, knowledgeBaseIds: readonly string[]): RetrievalScope {
  return { db: deps.db, sources: [{ embedder: deps.embedder, vectors: deps.vectors, knowledgeBaseIds }], text: deps.text };
}

function allKnowledgeBases(scope: RetrievalScope): string[] {
  return scope.sources.flatMap((source) => [...source.knowledgeBaseIds]);
}

/** One source's semantic hits with the weight fusion gives them. */
export interface WeightedList<T extends RankedChunk = RetrievedChunk> {
  /** The knowledge bases the list searched: a chunk of theirs only full text found is weighed by this list's weight too. */
  knowledgeBaseIds: readonly string[];
  chunks: readonly T[];
  /** Share of a fused score this list decides (0–1); full text decides the rest. */
  weight: number;
}

/** Min-max scaling of a list's scores to 0–1 (a list of equal scores is all 1). */
function scaled(values: readonly number[]): number[] {
  if (values.length === 0) return [];
  const top = Math.max(...values);
  const bottom = Math.min(...values);
  return values.map((value) => (top > bottom ? (value - bottom) / (top - bottom) : 1));
}

/**
 * Score fusion (decision 0023): each list's scores are scaled to 0–1 over its candidates
 * (cosine for a semantic list, BM25 for full text), and a chunk's fused score is
 * `w · semantic + (1 − w) · fullText`, with `w` the weight of the semantic list of its knowledge
 * base and 0 for a list that did not find it. Unlike rank fusion, a flat, uninformative semantic
 * list moves little; with `w` under 0.5 the best full-text hit always outranks a chunk found by
 * semantic search alone. Best first; the similarity and text scores of the inputs stay on the
 * merged chunk, and `score` is the fused value (0–1, 1 = first in every list).
 */
export function fuseScores<T extends RankedChunk & { textMatch?: number }>(semantic: readonly WeightedList<T>[], fullText: readonly T[]): T[] {
  const weightOf = new Map<string, number>();
  for (const list of semantic) for (const id of list.knowledgeBaseIds) weightOf.set(id, list.weight);
  const fused = new Map<string, T>();
  for (const list of semantic) {
    const values = scaled(list.chunks.map((chunk) => chunk.cosine ?? chunk.score));
    list.chunks.forEach((chunk, index) => {
      if (!fused.has(chunk.chunkId)) fused.set(chunk.chunkId, { ...chunk, score: list.weight * values[index]! });
    });
  }
  const textValues = scaled(fullText.map((chunk) => chunk.textScore ?? chunk.score));
  fullText.forEach((chunk, index) => {
    const contribution = (1 - (weightOf.get(chunk.knowledgeBaseId) ?? 0)) * textValues[index]!;
    const existing = fused.get(chunk.chunkId);
    if (existing) {
      existing.score += contribution;
      existing.textScore = chunk.textScore;
      if (chunk.textMatch !== undefined) existing.textMatch = chunk.textMatch;
    } else {
      fused.set(chunk.chunkId, { ...chunk, score: contribution });
    }
  });
  return [...fused.values()].sort((left, right) => right.score - left.score);
}

/**
 * Fusion weight of a semantic model's list, chosen by the sweep of decision 0023 (best on SciFact
 * with all-MiniLM-L6-v2 among 0.1–0.6). Under 0.5, so full text's best hit stays first whatever a
 * model returns; the agreement factor lowers it further for a list full text does not confirm.
 */
export const MODEL_SEMANTIC_WEIGHT = 0.4;

/**
 * Fusion weight of the offline lexical embedder's list: its "semantic" list repeats what BM25
 * ranks better, so it only breaks ties (decision 0023: best on both data sets).
 */
export const LEXICAL_SEMANTIC_WEIGHT = 0.1;

/** The weight of an embedder's semantic list in fusion when the request sets none. */
export function defaultSemanticWeight(embedder: Pick<Embedder, "lexical">): number {
  return embedder.lexical ? LEXICAL_SEMANTIC_WEIGHT : MODEL_SEMANTIC_WEIGHT;
}

/** Candidates each list contributes to fusion: enough that a chunk ranked well by one list still counts. */
const FUSION_DEPTH = 50;

/** The two sides of a search: each source's semantic hits, and the full-text hits over every knowledge base in scope. */
interface Sides {
  semantic: { source: SemanticSource; chunks: RankedChunk[] }[];
  fullText: RankedChunk[];
}

async function searchSides(
  scope: RetrievalScope,
  request: { query: string; semanticDepth: number; fullTextDepth: number; similarityThreshold?: number | undefined },
): Promise<Sides> {
  const [semantic, fullText] = await Promise.all([
    Promise.all(
      scope.sources.map(async (source) => ({
        source,
        chunks:
          request.semanticDepth > 0
            ? await rankSemantic(
                { db: scope.db, embedder: source.embedder, vectors: source.vectors },
                {
                  query: request.query,
                  knowledgeBaseIds: source.knowledgeBaseIds,
                  limit: request.semanticDepth,
                  similarityThreshold: request.similarityThreshold ?? 0,
                },
              )
            : [],
      })),
    ),
    request.fullTextDepth > 0
      ? rankFullText(scope.db, { query: request.query, knowledgeBaseIds: allKnowledgeBases(scope), limit: request.fullTextDepth }, scope.text)
      : [],
  ]);
  return { semantic, fullText };
}

/** Semantic hits of several sources as one list, by calibrated similarity: the scale thresholds use, the same for every embedder. */
function mergedSemantic(sides: Sides): RankedChunk[] {
  if (sides.semantic.length === 1) return sides.semantic[0]!.chunks;
  return sides.semantic.flatMap((side) => side.chunks).sort((left, right) => right.score - left.score);
}

/** How many of each list's first hits are compared to tell whether the two lists agree. */
export const AGREEMENT_DEPTH = 10;

/** The share of full text's first hits the semantic list must also hold for its full weight (decision 0023). */
export const AGREEMENT_FOR_FULL_WEIGHT = 0.2;

/**
 * How far a semantic list is trusted for this query (0–1): the share of full text's first
 * `AGREEMENT_DEPTH` hits (of the same knowledge bases) that the semantic list's first ones also
 * hold, over `AGREEMENT_FOR_FULL_WEIGHT`. A model of the wrong language ranks passages almost at
 * random and shares none of them, so full text decides alone; a useful model shares a few and
 * gets its full weight. Trusted fully when full text has nothing to compare with.
 */
export function semanticAgreement(semantic: readonly RankedChunk[], fullText: readonly RankedChunk[]): number {
  const text = fullText.slice(0, AGREEMENT_DEPTH);
  if (text.length === 0) return 1;
  const top = new Set(semantic.slice(0, AGREEMENT_DEPTH).map((chunk) => chunk.chunkId));
  const shared = text.filter((chunk) => top.has(chunk.chunkId)).length / text.length;
  return Math.min(1, shared / AGREEMENT_FOR_FULL_WEIGHT);
}

/**
 * Fuses the two sides: each source's list weighs its embedder's weight (or the request's) times
 * its agreement with full text over the source's own knowledge bases.
 */
function fuseSides(sides: Sides, semanticWeight?: number): RankedChunk[] {
  return fuseScores(
    sides.semantic.map(({ source, chunks }) => {
      const own = new Set(source.knowledgeBaseIds);
      const text = sides.fullText.filter((chunk) => own.has(chunk.knowledgeBaseId));
      return {
        knowledgeBaseIds: source.knowledgeBaseIds,
        chunks,
        weight: (semanticWeight ?? defaultSemanticWeight(source.embedder)) * semanticAgreement(chunks, text),
      };
    }),
    sides.fullText,
  );
}

/** Options of a ranked search. */
export type ScopedSearch = { query: string; limit: number; similarityThreshold?: number | undefined; semanticWeight?: number | undefined };

/**
 * Hybrid search over a scope: semantic hits (at or above the similarity threshold) of each
 * source and full-text hits over all its knowledge bases, `FUSION_DEPTH` of each, fused by
 * score (decision 0023); the first `limit` chunks.
 */
export async function hybridSearchIn(scope: RetrievalScope, request: ScopedSearch): Promise<RetrievedChunk[]> {
  if (request.limit <= 0 || request.query.trim() === "") return [];
  const depth = Math.max(FUSION_DEPTH, request.limit);
  const sides = await searchSides(scope, { ...request, semanticDepth: depth, fullTextDepth: depth });
  return withText(scope.db, request.query, fuseSides(sides, request.semanticWeight).slice(0, request.limit));
}

/** {@link hybridSearchIn} over knowledge bases of one embedding model. */
export async function hybridSearch(
  deps: RetrievalDeps,
  request: SearchRequest & { similarityThreshold?: number; semanticWeight?: number },
): Promise<RetrievedChunk[]> {
  return hybridSearchIn(singleSource(deps, request.knowledgeBaseIds), request);
}

/** Ranked search in one mode over a scope: the entry point benchmarks, evaluations and the retrieval test share. */
export async function searchScope(scope: RetrievalScope, request: ScopedSearch & { mode: RetrievalMode }): Promise<RetrievedChunk[]> {
  if (request.mode === "hybrid") return hybridSearchIn(scope, request);
  const semantic = request.mode === "semantic";
  const sides = await searchSides(scope, { ...request, semanticDepth: semantic ? request.limit : 0, fullTextDepth: semantic ? 0 : request.limit });
  return withText(scope.db, request.query, (semantic ? mergedSemantic(sides) : sides.fullText).slice(0, request.limit));
}

/** {@link searchScope} over knowledge bases of one embedding model. */
export async function searchChunks(
  deps: RetrievalDeps,
  request: SearchRequest & { mode: RetrievalMode; similarityThreshold?: number; semanticWeight?: number },
): Promise<RetrievedChunk[]> {
  return searchScope(singleSource(deps, request.knowledgeBaseIds), request);
}

/** An app's retrieval settings (spec §3, App retrieval fields). */
export interface RetrievalSettings {
  mode: RetrievalMode;
  /** Chunks from semantic search (default 6). */
  semanticCount?: number;
  /** Chunks from full-text search (default 4). */
  fullTextCount?: number;
  /** Minimum calibrated similarity of semantic hits (default 0, decision 0010); never applied to full-text scores. */
  similarityThreshold?: number;
}

/** Most chunks one retrieval returns, whatever the counts (spec §3). */
export const MAX_RETRIEVED = 10;

/**
 * A new app's semantic and full-text counts (decision 0023): together the 10 the spec allows, the
 * semantic count the larger. With the fused walk of `retrieveIn` the app's chunks then lose at
 * most 0.008 nDCG@10 against the hybrid top 10 on SciFact and CMRC2018 with either embedder,
 * where 3 + 1 lost up to 0.045.
 */
export const DEFAULT_SEMANTIC_COUNT = 6;
/** See {@link DEFAULT_SEMANTIC_COUNT}. */
export const DEFAULT_FULL_TEXT_COUNT = 4;

/**
 * The chunks an app's answer uses (spec §3 rules): semantic mode takes `semanticCount`
 * (default 6) semantic hits at or above the similarity threshold; full-text mode takes
 * `fullTextCount` (default 4) full-text hits. Hybrid walks the fused list best first and takes a
 * chunk while a side that found it has room: the semantic count first, then the full-text count
 * (decision 0023: the answer gets the best fused chunks
 * the counts allow, where taking each side's own top hits let a weak side decide). Semantic hits
 * missing under the threshold are not made up by full text. At most 10 in total, the semantic
 * count taking priority when the two counts exceed it. Several embedding models are searched apart
 * and fused once, so their chunks compete on comparable scores.
 */
export async function retrieveIn(
  scope: RetrievalScope,
  request: { query: string /** A larger cap than 10, for a rerank model's candidate pool. */; maxTotal?: number | undefined } & RetrievalSettings,
): Promise<RetrievedChunk[]> {
  const cap = request.maxTotal ?? MAX_RETRIEVED;
  const semanticCount = request.mode === "fulltext" ? 0 : clampCount(request.semanticCount ?? DEFAULT_SEMANTIC_COUNT, cap);
  const fullTextCount = request.mode === "semantic" ? 0 : clampCount(request.fullTextCount ?? DEFAULT_FULL_TEXT_COUNT, cap - semanticCount);
  if (request.query.trim() === "" || semanticCount + fullTextCount === 0) return [];
  const sides = await searchSides(scope, {
    query: request.query,
    semanticDepth: semanticCount > 0 ? Math.max(semanticCount, FUSION_DEPTH) : 0,
    fullTextDepth: fullTextCount > 0 ? Math.max(fullTextCount + semanticCount, FUSION_DEPTH) : 0,
    similarityThreshold: request.similarityThreshold ?? 0,
  });
  if (request.mode === "semantic") return withText(scope.db, request.query, mergedSemantic(sides).slice(0, semanticCount));
  if (request.mode === "fulltext") return withText(scope.db, request.query, sides.fullText.slice(0, fullTextCount));
  const chosen: RankedChunk[] = [];
  let semanticTaken = 0;
  let textTaken = 0;
  for (const chunk of fuseSides(sides)) {
    if (chunk.similarity !== undefined && semanticTaken < semanticCount) semanticTaken += 1;
    else if (chunk.textScore !== undefined && textTaken < fullTextCount) textTaken += 1;
    else continue;
    chosen.push(chunk);
    if (semanticTaken === semanticCount && textTaken === fullTextCount) break;
  }
  return withText(scope.db, request.query, chosen);
}

/** {@link retrieveIn} over knowledge bases of one embedding model. */
export async function retrieve(
  deps: RetrievalDeps,
  request: { query: string; knowledgeBaseIds: readonly string[] } & RetrievalSettings,
): Promise<RetrievedChunk[]> {
  return retrieveIn(singleSource(deps, request.knowledgeBaseIds), request);
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
export async function retrievalTest(scope: RetrievalScope, request: { query: string; similarityThreshold?: number }): Promise<RetrievalTestResult> {
  const sides = await searchSides(scope, {
    query: request.query,
    semanticDepth: FUSION_DEPTH,
    fullTextDepth: FUSION_DEPTH,
    similarityThreshold: request.similarityThreshold,
  });
  const [semantic, fullText, hybrid] = await withTextOfLists(scope.db, request.query, [
    mergedSemantic(sides).slice(0, MAX_RETRIEVED),
    sides.fullText.slice(0, MAX_RETRIEVED),
    fuseSides(sides).slice(0, MAX_RETRIEVED),
  ]);
  return { semantic: semantic!, fullText: fullText!, hybrid: hybrid! };
}
