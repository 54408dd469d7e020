import { estimateTokens } from "../../platform/llm/tokens";
import { chunkText } from "../retrieval/chunker";
import { segmentForSearch } from "../retrieval/text";

/**
 * The seam between the import pipeline and the retrieval core: how text becomes segments, how
 * tokens are counted and what FTS5 indexes. Each delegates to the retrieval core, so preview,
 * indexing and segment edits all cut and index text exactly as retrieval expects.
 */

/** Segmenting options of a knowledge base. */
export interface SegmentOptions {
  chunkTokens: number;
  chunkOverlap: number;
}

/** Estimated tokens of a text, as the rest of the platform counts them. */
export function countTokens(text: string): number {
  return estimateTokens(text);
}

/** The text FTS5 indexes for a segment: its segmented search terms (Chinese words included). */
export function searchTextOf(content: string): string {
  return segmentForSearch(content);
}

/** Splits text into segments by headings, paragraphs and sentences, with overlap. */
export function splitIntoSegments(text: string, options: SegmentOptions): string[] {
  return chunkText(text, { maxTokens: options.chunkTokens, overlapTokens: options.chunkOverlap }).map((chunk) => chunk.content);
}
