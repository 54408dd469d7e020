import { and, eq, inArray } from "drizzle-orm";
import { knowledgeBases } from "../../db/schema/index";
import { defaultAppSettings } from "../../apps/service/rules";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import {
  DEFAULT_FULL_TEXT_COUNT,
  DEFAULT_SEMANTIC_COUNT,
  MAX_RETRIEVED,
  type RetrievalMode,
  type RetrievalScope,
  type RetrievalSettings,
  type RetrievedChunk,
  retrievalTest,
  retrieveIn,
  type SemanticSource,
  searchScope,
} from "../retrieval/search";
import { rerankPoolCounts } from "../retrieval/rerank";
import { loadKnowledgeBase } from "./knowledge-bases";
import { type RerankDeps, type RerankRequest, rerankForSpace } from "./rerank";
import { embedderOf } from "./vectors";

/**
 * The scope of a search over knowledge bases of a space: one semantic source per embedding
 * model. Ids of other spaces, unknown ids and knowledge bases whose model is no longer
 * configured are left out: they cannot be searched.
 */
async function scopeOf(deps: Pick<Deps, "db" | "knowledge" | "logger">, spaceId: string, knowledgeBaseIds: readonly string[]): Promise<RetrievalScope> {
  if (knowledgeBaseIds.length === 0) return { db: deps.db, sources: [] };
  const rows = await deps.db
    .select({ id: knowledgeBases.id, embeddingModel: knowledgeBases.embeddingModel })
    .from(knowledgeBases)
    .where(and(eq(knowledgeBases.spaceId, spaceId), inArray(knowledgeBases.id, [...new Set(knowledgeBaseIds)])))
    .all();
  const sources = new Map<string, SemanticSource & { knowledgeBaseIds: string[] }>();
  for (const row of rows) {
    const embedder = embedderOf(deps, row);
    if (!embedder) {
      deps.logger.warn("knowledge base skipped: its embedding model is not configured", { knowledgeBaseId: row.id, model: row.embeddingModel });
      continue;
    }
    let source = sources.get(embedder.id);
    if (!source) {
      source = { embedder, vectors: deps.knowledge.vectors.table(embedder.id, embedder.dimensions), knowledgeBaseIds: [] };
      sources.set(embedder.id, source);
    }
    source.knowledgeBaseIds.push(row.id);
  }
  return { db: deps.db, sources: [...sources.values()], text: deps.knowledge.text };
}

/**
 * The chunks an answer uses from a set of knowledge bases of a space, by the app's retrieval
 * settings (counts, threshold, mode; spec §3). Knowledge bases of different embedding models are
 * searched apart and fused once (decision 0023), still at most the requested counts.
 * With `rerank` (and the deps it needs), fusion gathers a larger pool (knowledge/retrieval/rerank.ts)
 * that the app's rerank model reorders and cuts by its threshold to the same counts; when
 * reranking cannot be done the fused result is answered as without it.
 */
export async function retrieveFromKnowledgeBases(
  deps: Pick<Deps, "db" | "knowledge" | "logger"> & Partial<RerankDeps>,
  spaceId: string,
  knowledgeBaseIds: readonly string[],
  request: { query: string; rerank?: RerankRequest | undefined } & RetrievalSettings,
): Promise<RetrievedChunk[]> {
  const { rerank, ...settings } = request;
  if (!rerank) return fusedRetrieval(deps, spaceId, knowledgeBaseIds, settings);
  const rerankDeps = rerankDepsOf(deps);
  if (!rerankDeps) {
    deps.logger.warn("rerank skipped: the caller has no model catalogue", { spaceId });
    return fusedRetrieval(deps, spaceId, knowledgeBaseIds, settings);
  }
  const counts = {
    semanticCount: settings.mode === "fulltext" ? 0 : Math.max(0, Math.min(Math.floor(settings.semanticCount ?? DEFAULT_SEMANTIC_COUNT), MAX_RETRIEVED)),
    fullTextCount: settings.mode === "semantic" ? 0 : Math.max(0, Math.floor(settings.fullTextCount ?? DEFAULT_FULL_TEXT_COUNT)),
  };
  const limit = Math.min(MAX_RETRIEVED, counts.semanticCount + counts.fullTextCount);
  const pool = await fusedRetrieval(deps, spaceId, knowledgeBaseIds, { ...settings, ...rerankPoolCounts(counts) });
  const reranked = await rerankForSpace(rerankDeps, spaceId, { ...rerank, query: settings.query, chunks: pool, limit });
  // The app's own counts, as if it did not rerank: a pool cut to them could differ in its mix.
  return reranked ?? fusedRetrieval(deps, spaceId, knowledgeBaseIds, settings);
}

function rerankDepsOf(deps: Partial<RerankDeps>): RerankDeps | undefined {
  const { config, db, logger, mail, models, now, sms } = deps;
  return config && db && logger && mail && models && now && sms ? { config, db, logger, mail, models, now, sms } : undefined;
}

async function fusedRetrieval(
  deps: Pick<Deps, "db" | "knowledge" | "logger">,
  spaceId: string,
  knowledgeBaseIds: readonly string[],
  request: { query: string; maxTotal?: number } & RetrievalSettings,
): Promise<RetrievedChunk[]> {
  const scope = await scopeOf(deps, spaceId, knowledgeBaseIds);
  if (scope.sources.length === 0) return [];
  return retrieveIn(scope, request);
}

/**
 * A ranked search in one mode over knowledge bases of a space, `limit` results best first: the
 * entry point of the retrieval benchmark and of evaluations.
 */
export async function searchKnowledgeBases(
  deps: Pick<Deps, "db" | "knowledge" | "logger">,
  spaceId: string,
  knowledgeBaseIds: readonly string[],
  request: { query: string; mode: RetrievalMode; limit: number; similarityThreshold?: number; semanticWeight?: number },
): Promise<RetrievedChunk[]> {
  const scope = await scopeOf(deps, spaceId, knowledgeBaseIds);
  if (scope.sources.length === 0) return [];
  return searchScope(scope, request);
}

/**
 * The retrieval test of one knowledge base (spec §3/§9): the query in all three modes, 10
 * results of each kind with their scores and sources.
 */
export async function testRetrieval(
  deps: Pick<Deps, "db" | "knowledge" | "logger">,
  auth: Auth,
  knowledgeBaseId: string,
  input: {
    query: string;
    similarityThreshold?: number | undefined;
    mode?: RetrievalMode | undefined;
    semanticCount?: number | undefined;
    fullTextCount?: number | undefined;
  },
) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const scope = await scopeOf(deps, auth.spaceId, [base.id]);
  const source = scope.sources[0];
  const query = input.query.trim();
  if (!source) throw new ServiceError("conflict", "embedding_model_unavailable");
  if (query === "") throw fail.invalid("field_required", "query", { field: "query" });
  // What a new app gets, so the screen and chat mean the same thing by the same numbers.
  const defaults = defaultAppSettings();
  const settings = {
    mode: input.mode ?? defaults.retrievalMode,
    similarityThreshold: input.similarityThreshold ?? defaults.similarityThreshold,
    semanticCount: input.semanticCount ?? defaults.semanticCount,
    fullTextCount: input.fullTextCount ?? defaults.fullTextCount,
  };
  if (settings.semanticCount + settings.fullTextCount > MAX_RETRIEVED) {
    throw fail.invalid("app_retrieval_counts_total", "fullTextCount", { max: MAX_RETRIEVED });
  }
  const started = performance.now();
  const [result, app] = await Promise.all([
    retrievalTest(scope, { query, similarityThreshold: settings.similarityThreshold }),
    retrieveIn(scope, { query, ...settings }),
  ]);
  const view = (chunk: RetrievedChunk) => ({
    chunkId: chunk.chunkId,
    fileId: chunk.fileId,
    fileName: chunk.fileName,
    content: chunk.content,
    score: chunk.score,
    similarity: chunk.similarity ?? null,
    cosine: chunk.cosine ?? null,
    textScore: chunk.textScore ?? null,
    textMatch: chunk.textMatch ?? null,
    metadata: chunk.metadata,
  });
  return {
    query,
    embeddingModel: source.embedder.label,
    lexicalEmbedder: source.embedder.lexical === true,
    elapsedMs: Math.round((performance.now() - started) * 10) / 10,
    settings,
    semantic: result.semantic.map(view),
    fullText: result.fullText.map(view),
    hybrid: result.hybrid.map(view),
    app: app.map(view),
  };
}
