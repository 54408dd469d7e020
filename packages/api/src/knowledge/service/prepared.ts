import type { Deps } from "../../kernel/deps";
import { estimateTokens } from "../../platform/llm/tokens";
import { chunkText } from "../retrieval/chunker";
import type { ChunkInput } from "../retrieval/indexing";
import { knowledgeKeys } from "./storage";

/**
 * One record of a record-shaped source: a Q&A pair or a table row becomes exactly one chunk.
 * `indexText` is what search finds it by when that differs from what is shown (a Q&A pair
 * searched by its question only).
 */
export interface PreparedRecord {
  content: string;
  indexText?: string;
  metadata?: Record<string, unknown>;
}

/**
 * What an import leaves for preview and indexing, whatever its source: plain text (documents,
 * web pages, Feishu documents), cut into chunks with the knowledge base's settings, or records
 * (Q&A pairs, table rows), one chunk each.
 */
export type PreparedContent = { kind: "text"; text: string } | { kind: "records"; records: PreparedRecord[] };

/** Stores a file's prepared content (whole or not at all). */
export async function savePrepared(deps: Pick<Deps, "files">, knowledgeBaseId: string, fileId: string, content: PreparedContent): Promise<void> {
  await deps.files.put(knowledgeKeys.prepared(knowledgeBaseId, fileId), JSON.stringify(content));
}

/** A file's prepared content, or undefined when none was kept (a failed import). */
export async function loadPrepared(deps: Pick<Deps, "files">, knowledgeBaseId: string, fileId: string): Promise<PreparedContent | undefined> {
  try {
    const bytes = await deps.files.read(knowledgeKeys.prepared(knowledgeBaseId, fileId));
    return bytes ? (JSON.parse(new TextDecoder().decode(bytes)) as PreparedContent) : undefined;
  } catch {
    return undefined;
  }
}

/** Removes a file's prepared content. */
export async function removePrepared(deps: Pick<Deps, "files">, knowledgeBaseId: string, fileId: string): Promise<void> {
  await deps.files.delete(knowledgeKeys.prepared(knowledgeBaseId, fileId));
}

/**
 * The chunks prepared content becomes: text through the chunker (headings, paragraphs,
 * sentences, overlap) with the given sizes, records one chunk each in order.
 */
export function chunksOfPrepared(content: PreparedContent, options: { chunkTokens: number; chunkOverlap: number }): ChunkInput[] {
  if (content.kind === "text") return chunkText(content.text, { maxTokens: options.chunkTokens, overlapTokens: options.chunkOverlap });
  return content.records.map(chunkOfRecord);
}

/** A record as the chunk stored at `ordinal`. */
export function chunkOfRecord(record: PreparedRecord, ordinal: number): ChunkInput {
  return {
    ordinal,
    content: record.content,
    tokens: estimateTokens(record.content),
    headings: [],
    ...(record.metadata ? { metadata: record.metadata } : {}),
    ...(record.indexText !== undefined ? { indexText: record.indexText } : {}),
  };
}
