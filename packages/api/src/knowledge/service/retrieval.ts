import { and, eq, inArray } from "drizzle-orm";
import { knowledgeBases } from "../../db/schema/index";
import { defaultAppSettings } from "../../apps/service/rules";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import {
  MAX_RETRIEVED,
  type RetrievalDeps,
  type RetrievalMode,
  type RetrievalSettings,
  type RetrievedChunk,
  retrievalTest,
  retrieve,
  searchChunks,
} from "../retrieval/search";
import { loadKnowledgeBase } from "./knowledge-bases";
import { embedderOf } from "./vectors";

/** Knowledge bases that share an embedding model, with what searching them needs. */
interface SearchGroup {
  deps: RetrievalDeps;
  knowledgeBaseIds: string[];
}

/**
 * Groups knowledge bases of one space by embedding model. Ids of other spaces, unknown ids and
 * knowledge bases whose model is no longer configured are left out: they cannot be searched.
 */
async function searchGroups(deps: Pick<Deps, "db" | "knowledge" | "logger">, spaceId: string, knowledgeBaseIds: readonly string[]): Promise<SearchGroup[]> {
  if (knowledgeBaseIds.length === 0) return [];
  const rows = await deps.db
    .select({ id: knowledgeBases.id, embeddingModel: knowledgeBases.embeddingModel })
    .from(knowledgeBases)
    .where(and(eq(knowledgeBases.spaceId, spaceId), inArray(knowledgeBases.id, [...new Set(knowledgeBaseIds)])))
    .all();
  const groups = new Map<string, SearchGroup>();
  for (const row of rows) {
    const embedder = embedderOf(deps, row);
    if (!embedder) {
      deps.logger.warn("knowledge base skipped: its embedding model is not configured", { knowledgeBaseId: row.id, model: row.embeddingModel });
      continue;
    }
    let group = groups.get(embedder.id);
    if (!group) {
      group = {
        deps: {
          db: deps.db,
          embedder,
          vectors: deps.knowledge.vectors.table(embedder.id, embedder.dimensions),
          ...(deps.knowledge.text ? { text: deps.knowledge.text } : {}),
        },
        knowledgeBaseIds: [],
      };
      groups.set(embedder.id, group);
    }
    group.knowledgeBaseIds.push(row.id);
  }
  return [...groups.values()];
}

/**
 * The chunks an answer uses from a set of knowledge bases of a space, by the app's retrieval
 * settings (counts, threshold, mode; spec §3). Knowledge bases with different embedding models
 * are searched apart and their results merged by score, still at most the requested counts.
 */
export async function retrieveFromKnowledgeBases(
  deps: Pick<Deps, "db" | "knowledge" | "logger">,
  spaceId: string,
  knowledgeBaseIds: readonly string[],
  request: { query: string } & RetrievalSettings,
): Promise<RetrievedChunk[]> {
  const groups = await searchGroups(deps, spaceId, knowledgeBaseIds);
  if (groups.length === 0 || request.query.trim() === "") return [];
  if (groups.length === 1) return retrieve(groups[0]!.deps, { ...request, knowledgeBaseIds: groups[0]!.knowledgeBaseIds });
  const lists = await Promise.all(groups.map((group) => retrieve(group.deps, { ...request, knowledgeBaseIds: group.knowledgeBaseIds })));
  const semanticCount = request.mode === "fulltext" ? 0 : (request.semanticCount ?? 3);
  const fullTextCount = request.mode === "semantic" ? 0 : (request.fullTextCount ?? 1);
  return lists
    .flat()
    .sort((left, right) => right.score - left.score)
    .slice(0, Math.min(MAX_RETRIEVED, semanticCount + fullTextCount));
}

/**
 * A ranked search in one mode over knowledge bases of a space, `limit` results best first: the
 * entry point of the retrieval benchmark. Knowledge bases with different embedding models are
 * searched apart and merged by score.
 */
export async function searchKnowledgeBases(
  deps: Pick<Deps, "db" | "knowledge" | "logger">,
  spaceId: string,
  knowledgeBaseIds: readonly string[],
  request: { query: string; mode: RetrievalMode; limit: number; similarityThreshold?: number },
): Promise<RetrievedChunk[]> {
  const groups = await searchGroups(deps, spaceId, knowledgeBaseIds);
  const lists = await Promise.all(groups.map((group) => searchChunks(group.deps, { ...request, knowledgeBaseIds: group.knowledgeBaseIds })));
  if (lists.length === 1) return lists[0]!;
  return lists
    .flat()
    .sort((left, right) => right.score - left.score)
    .slice(0, request.limit);
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
  const [group] = await searchGroups(deps, auth.spaceId, [base.id]);
  const query = input.query.trim();
  if (!group) throw new ServiceError("conflict", "embedding_model_unavailable");
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
  const scope = { query, knowledgeBaseIds: group.knowledgeBaseIds };
  const [result, app] = await Promise.all([
    retrievalTest(group.deps, { ...scope, similarityThreshold: settings.similarityThreshold }),
    retrieve(group.deps, { ...scope, ...settings }),
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
    embeddingModel: group.deps.embedder.label,
    lexicalEmbedder: group.deps.embedder.lexical === true,
    elapsedMs: Math.round((performance.now() - started) * 10) / 10,
    settings,
    semantic: result.semantic.map(view),
    fullText: result.fullText.map(view),
    hybrid: result.hybrid.map(view),
    app: app.map(view),
  };
}
