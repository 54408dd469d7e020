import path from "node:path";
import type { Config } from "../config";
import type { Logger } from "../logger";
import { createHashingEmbedder } from "../platform/embeddings/hashing";
import { createOllamaEmbedder, createOpenAiCompatibleEmbedder } from "../platform/embeddings/remote";
import type { Embedder } from "../platform/embeddings/types";
import { coalescingStore } from "./retrieval/coalescing-index";
import { createLanceVectorStore } from "./retrieval/lance-store";
import { createLanceTextIndex, type TextIndex } from "./retrieval/lance-text";
import { createMemoryVectorStore, type VectorStore } from "./retrieval/vector-index";

/** Model id recorded on knowledge bases made before the lexical embedder carried its full id. */
const LEGACY_LEXICAL_ID = "parley-lexical";

/** What indexing and retrieval need beyond the database: embedders and vector tables. */
export interface KnowledgeRuntime {
  /** The embedder new knowledge bases are created with. */
  readonly defaultEmbedder: Embedder;
  /** The embedder of a recorded model id, or undefined when that model is no longer configured. */
  embedder(modelId: string): Embedder | undefined;
  /** Vector tables, one per embedding model. */
  readonly vectors: VectorStore;
  /**
   * The early-terminating full-text copy of every chunk (with LanceDB; decision 0024), used past
   * its threshold; FTS5 answers alone when absent.
   */
  readonly text?: TextIndex;
  close(): Promise<void>;
}

/**
 * Builds the knowledge runtime from the configuration: the configured embeddings provider (or
 * the offline lexical embedder) and the vector store (LanceDB under the data directory, or
 * memory when asked).
 */
export function createKnowledgeRuntime(config: Config, logger: Logger, options: { vectors?: VectorStore } = {}): KnowledgeRuntime {
  const lexical = createHashingEmbedder();
  const configured = config.knowledge.embeddings;
  const remote = configured
    ? (configured.provider === "ollama" ? createOllamaEmbedder : createOpenAiCompatibleEmbedder)({
        baseUrl: configured.baseUrl,
        model: configured.model,
        dimensions: configured.dimensions,
        batchSize: configured.batchSize,
        concurrency: configured.concurrency,
        ...(configured.apiKey ? { apiKey: configured.apiKey } : {}),
        ...(configured.queryPrefix ? { queryPrefix: configured.queryPrefix } : {}),
        ...(configured.documentPrefix ? { documentPrefix: configured.documentPrefix } : {}),
      })
    : undefined;
  const vectors = coalescingStore(options.vectors ?? openVectorStore(config, logger));
  const text =
    config.knowledge.vectorStore === "lancedb"
      ? createLanceTextIndex({
          directory: path.join(config.dataDir, "vectors"),
          threshold: config.knowledge.fullTextIndexThreshold,
          logger: {
            info: (fields, message) => logger.info(message ?? "full-text index", fields as Record<string, unknown>),
            warn: (fields, message) => logger.warn(message ?? "full-text index", fields as Record<string, unknown>),
          },
        })
      : undefined;
  return {
    defaultEmbedder: remote ?? lexical,
    embedder(modelId) {
      if (modelId === lexical.id || modelId === LEGACY_LEXICAL_ID) return lexical;
      if (remote && modelId === remote.id) return remote;
      return undefined;
    },
    vectors,
    ...(text ? { text } : {}),
    async close() {
      await Promise.all([vectors.close?.(), text?.close()]);
    },
  };
}

function openVectorStore(config: Config, logger: Logger): VectorStore {
  if (config.knowledge.vectorStore === "memory") return createMemoryVectorStore();
  return createLanceVectorStore({
    directory: path.join(config.dataDir, "vectors"),
    annThreshold: config.knowledge.annThreshold,
    logger: {
      info: (fields, message) => logger.info(message ?? "vector store", fields as Record<string, unknown>),
      warn: (fields, message) => logger.warn(message ?? "vector store", fields as Record<string, unknown>),
    },
  });
}
