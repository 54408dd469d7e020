import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { knowledgeChunks } from "../../db/schema/index";
import { newId } from "../../crypto";
import type { Embedder } from "../../platform/embeddings/types";
import type { TextChunk } from "./chunker";
import { segmentForSearch } from "./text";
import type { TextIndex } from "./lance-text";
import type { VectorIndex } from "./vector-index";

/** What indexing needs: the database, the knowledge base's embedder and its vector table. */
export interface IndexingDeps {
  db: Db;
  embedder: Embedder;
  vectors: VectorIndex;
  /** The early-terminating full-text copy, written after SQLite (its source of truth). */
  text?: TextIndex;
  now?: () => Date;
}

/** A chunk to store, with anything the import adds to its metadata (Q&A pair, table row). */
export interface ChunkInput extends TextChunk {
  metadata?: Record<string, unknown>;
  /** Text indexed instead of `content` (e.g. only the question of a Q&A pair); defaults to it. */
  indexText?: string;
}

/** Rows per INSERT: one statement is atomic on both drivers and stays far below SQLite's variable limit. */
const BATCH = 200;

/** The text a chunk is found by (and embedded as): its heading breadcrumb, then its own text. */
export function indexedText(chunk: ChunkInput): string {
  const body = chunk.indexText ?? chunk.content;
  return chunk.headings.length > 0 ? `${chunk.headings.join(" / ")}\n${body}` : body;
}

/**
 * Stores a file's chunks: rows in `knowledge_chunks` (their segmented `search_text` feeds the
 * FTS5 index through triggers) and vectors in the knowledge base's vector table. Rows go in
 * batches, each one INSERT; `(file_id, ordinal)` is unique, so rerunning after a crash cannot
 * store a chunk twice (a stored ordinal keeps its id and gets this run's text and vector). Returns the
 * ids of the stored chunks in ordinal order.
 */
export async function storeChunks(
  deps: IndexingDeps,
  target: { spaceId: string; knowledgeBaseId: string; fileId: string },
  chunks: readonly ChunkInput[],
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < chunks.length; start += BATCH) {
    const batch = chunks.slice(start, start + BATCH);
    const texts = batch.map(indexedText);
    const vectors = await deps.embedder.embed(texts, { kind: "document" });
    const updatedAt = (deps.now?.() ?? new Date()).toISOString();
    const rows = batch.map((chunk, index) => ({
      id: newId("kc"),
      spaceId: target.spaceId,
      knowledgeBaseId: target.knowledgeBaseId,
      fileId: target.fileId,
      ordinal: chunk.ordinal,
      content: chunk.content,
      searchText: segmentForSearch(texts[index]!),
      tokens: chunk.tokens,
      metadata: JSON.stringify({ ...(chunk.headings.length > 0 ? { headings: chunk.headings } : {}), ...chunk.metadata }),
      updatedAt,
    }));
    const stored = await deps.db
      .insert(knowledgeChunks)
      .values(rows)
      .onConflictDoUpdate({
        target: [knowledgeChunks.fileId, knowledgeChunks.ordinal],
        set: {
          content: sql`excluded.content`,
          searchText: sql`excluded.search_text`,
          tokens: sql`excluded.tokens`,
          metadata: sql`excluded.metadata`,
          updatedAt,
        },
      })
      .returning({ id: knowledgeChunks.id, ordinal: knowledgeChunks.ordinal });
    const idByOrdinal = new Map(stored.map((row) => [row.ordinal, row.id]));
    const batchIds = batch.map((chunk) => idByOrdinal.get(chunk.ordinal)!);
    await Promise.all([
      deps.vectors.upsert(
        batchIds.map((chunkId, index) => ({ chunkId, knowledgeBaseId: target.knowledgeBaseId, fileId: target.fileId, vector: vectors[index]! })),
      ),
      deps.text?.upsert(
        batchIds.map((chunkId, index) => ({ chunkId, knowledgeBaseId: target.knowledgeBaseId, fileId: target.fileId, searchText: rows[index]!.searchText })),
      ),
    ]);
    ids.push(...batchIds);
  }
  return ids;
}
