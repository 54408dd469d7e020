/**
 * The seam between the import pipeline and the retrieval core: how text becomes segments, how
 * tokens are counted and what FTS5 indexes. These are deliberately simple stand-ins until the
 * retrieval core (knowledge/retrieval/) provides its chunker and word segmentation; then these
 * three functions delegate to it and nothing else in the pipeline changes.
 */

/** Segmenting options of a knowledge base. */
export interface SegmentOptions {
  chunkTokens: number;
  chunkOverlap: number;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff\u3040-\u30ff\uac00-\ud7af]/g;

/** Approximate token count: one per CJK character, one per four other characters. */
export function countTokens(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  return cjk + Math.ceil((text.length - cjk) / 4);
}

/** The text FTS5 indexes for a segment. For now: the content lowercased. */
export function searchTextOf(content: string): string {
  return content.toLowerCase();
}

/**
 * Splits text into segments of about `chunkTokens`: paragraphs are kept together when they fit,
 * long paragraphs are cut at sentence ends (Chinese punctuation included), and each segment
 * after the first starts with about `chunkOverlap` tokens of the one before.
 */
export function splitIntoSegments(text: string, options: SegmentOptions): string[] {
  const pieces: string[] = [];
  for (const paragraph of text.replace(/\r\n?/g, "\n").split(/\n\s*\n/)) {
    const trimmed = paragraph.trim();
    if (!trimmed) continue;
    if (countTokens(trimmed) <= options.chunkTokens) pieces.push(trimmed);
    else pieces.push(...splitLong(trimmed, options.chunkTokens));
  }
  const segments: string[] = [];
  let current = "";
  for (const piece of pieces) {
    const joined = current ? `${current}\n\n${piece}` : piece;
    if (current && countTokens(joined) > options.chunkTokens) {
      segments.push(current);
      const overlap = tail(current, options.chunkOverlap);
      current = overlap && countTokens(`${overlap} ${piece}`) <= options.chunkTokens ? `${overlap} ${piece}` : piece;
    } else {
      current = joined;
    }
  }
  if (current) segments.push(current);
  return segments;
}

function splitLong(paragraph: string, limit: number): string[] {
  const sentences = paragraph.match(/[^。！？!?.;；\n]+[。！？!?.;；\n]*/g) ?? [paragraph];
  const out: string[] = [];
  let current = "";
  for (const sentence of sentences) {
    if (countTokens(sentence) > limit) {
      if (current) out.push(current.trim());
      current = "";
      // A sentence longer than a whole segment is cut by characters.
      const step = Math.max(1, limit * 2);
      for (let at = 0; at < sentence.length; at += step) out.push(sentence.slice(at, at + step).trim());
      continue;
    }
    if (current && countTokens(current + sentence) > limit) {
      out.push(current.trim());
      current = sentence;
    } else {
      current += sentence;
    }
  }
  if (current.trim()) out.push(current.trim());
  return out.filter(Boolean);
}

function tail(text: string, tokens: number): string {
  if (tokens <= 0) return "";
  let start = text.length;
  while (start > 0 && countTokens(text.slice(start - 1)) <= tokens) start -= 1;
  return text.slice(start).trim();
}
