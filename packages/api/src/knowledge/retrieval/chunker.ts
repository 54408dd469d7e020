import { estimateTokens } from "../../platform/llm/tokens";

/** How a text is cut into chunks. */
export interface ChunkOptions {
  /** Upper bound of a chunk's estimated tokens (default 500). */
  maxTokens?: number;
  /** Tokens the next chunk repeats from the end of the previous one (default 50). */
  overlapTokens?: number;
}

/** A chunk of a document, ready to be stored as a `knowledge_chunks` row. */
export interface TextChunk {
  /** Position within the document, from 0. */
  ordinal: number;
  content: string;
  /** Estimated tokens of `content`, as `estimateTokens` counts them. */
  tokens: number;
  /** Markdown headings the chunk sits under, outermost first. */
  headings: string[];
}

/** The defaults the spec and the knowledge base table use. */
export const DEFAULT_CHUNK_OPTIONS = { maxTokens: 500, overlapTokens: 50 } as const;

interface Section {
  headings: string[];
  text: string;
}

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t#]*$/;

/** Splits Markdown-ish text into sections at headings; each carries its breadcrumb. */
function sections(text: string): Section[] {
  const result: Section[] = [];
  const trail: Array<{ level: number; title: string }> = [];
  let lines: string[] = [];
  let headings: string[] = [];
  let fenced = false;
  const flush = () => {
    const body = lines.join("\n");
    if (body.trim().length > 0) result.push({ headings, text: body });
    lines = [];
  };
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : HEADING.exec(line);
    if (heading) {
      flush();
      const level = heading[1]!.length;
      while (trail.length > 0 && trail[trail.length - 1]!.level >= level) trail.pop();
      trail.push({ level, title: heading[2]! });
      headings = trail.map((entry) => entry.title);
    }
    lines.push(line);
  }
  flush();
  return result;
}

const CHINESE_END = new Set(["。", "！", "？", "；"]);
const LATIN_END = new Set([".", "!", "?", ";"]);
const CLOSERS = new Set(["”", "’", '"', "'", ")", "]", "）", "」", "』"]);

/**
 * Splits a paragraph into sentences, each keeping its end mark, closing quotes and trailing
 * space. A sentence ends at Chinese 。！？； and at . ! ? ; followed by space or the end, so
 * "3.14" and "e.g.x" stay whole. Joining the result gives the paragraph back.
 */
function sentences(paragraph: string): string[] {
  const parts: string[] = [];
  let start = 0;
  let index = 0;
  while (index < paragraph.length) {
    const character = paragraph[index]!;
    let end = -1;
    if (CHINESE_END.has(character)) {
      end = index + 1;
      while (end < paragraph.length && CHINESE_END.has(paragraph[end]!)) end += 1;
    } else if (LATIN_END.has(character)) {
      let after = index + 1;
      while (after < paragraph.length && LATIN_END.has(paragraph[after]!)) after += 1;
      while (after < paragraph.length && CLOSERS.has(paragraph[after]!)) after += 1;
      if (after >= paragraph.length || /\s/.test(paragraph[after]!)) end = after;
    }
    if (end === -1) {
      index += 1;
      continue;
    }
    while (end < paragraph.length && CLOSERS.has(paragraph[end]!)) end += 1;
    while (end < paragraph.length && /\s/.test(paragraph[end]!)) end += 1;
    parts.push(paragraph.slice(start, end));
    start = end;
    index = end;
  }
  if (start < paragraph.length) parts.push(paragraph.slice(start));
  return parts;
}

const WIDE_CHARACTER = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]/u;

/** Cuts a piece that alone exceeds the budget into slices under it, at spaces where possible. */
function hardSplit(piece: string, maxTokens: number): string[] {
  const slices: string[] = [];
  let start = 0;
  while (start < piece.length) {
    // Count as estimateTokens does (wide characters one each, the rest a quarter), incrementally.
    let wide = 0;
    let rest = 0;
    let end = start;
    while (end < piece.length) {
      const isWide = WIDE_CHARACTER.test(piece[end]!);
      const tokens = wide + (isWide ? 1 : 0) + Math.ceil((rest + (isWide ? 0 : 1)) / 4);
      if (tokens > maxTokens) break;
      if (isWide) wide += 1;
      else rest += 1;
      end += 1;
    }
    if (end === start) end = start + 1;
    if (end < piece.length) {
      const space = piece.lastIndexOf(" ", end);
      if (space > start + (end - start) / 2) end = space + 1;
    }
    slices.push(piece.slice(start, end));
    start = end;
  }
  return slices;
}

/** Contiguous slices of a section, each within the budget: paragraphs, else sentences, else cuts. */
function atoms(text: string, maxTokens: number): string[] {
  const result: string[] = [];
  // Keep each paragraph's trailing blank lines on it so that joining atoms restores the text.
  for (const paragraph of text.match(/[\s\S]*?(?:\n[ \t]*\n\s*|$)/g) ?? []) {
    if (paragraph.length === 0) continue;
    if (estimateTokens(paragraph) <= maxTokens) {
      result.push(paragraph);
      continue;
    }
    for (const sentence of sentences(paragraph)) {
      if (estimateTokens(sentence) <= maxTokens) result.push(sentence);
      else result.push(...hardSplit(sentence, maxTokens));
    }
  }
  return result;
}

/** The end of `text` worth about `tokens` tokens, starting at a word boundary where there is one. */
function tail(text: string, tokens: number): string {
  let start = text.length;
  while (start > 0 && estimateTokens(text.slice(start - 1)) <= tokens) start -= 1;
  const space = text.indexOf(" ", start);
  if (space !== -1 && space < text.length - 1 && start > 0 && /\S/.test(text[start - 1]!) && /[A-Za-z0-9]/.test(text[start]!)) {
    start = space + 1;
  }
  return text.slice(start);
}

/**
 * Cuts a document into chunks of at most `maxTokens` estimated tokens (the estimate of
 * `platform/llm/tokens`). Markdown headings start a new chunk and give the chunks after them
 * their breadcrumb; inside a section, whole paragraphs are packed together, a paragraph over
 * the budget is split into sentences (Chinese 。！？； and . ! ? ;), and a sentence over the
 * budget is cut. Each chunk after the first of a section repeats about `overlapTokens` tokens
 * from the end of the one before: whole trailing sentences when they fit, else a cut tail.
 */
export function chunkText(text: string, options: ChunkOptions = {}): TextChunk[] {
  const maxTokens = Math.max(1, options.maxTokens ?? DEFAULT_CHUNK_OPTIONS.maxTokens);
  const overlapTokens = Math.max(0, Math.min(options.overlapTokens ?? DEFAULT_CHUNK_OPTIONS.overlapTokens, Math.floor(maxTokens / 2)));
  const chunks: TextChunk[] = [];
  const emit = (content: string, headings: string[]) => {
    const trimmed = content.trim();
    if (trimmed.length > 0) chunks.push({ ordinal: chunks.length, content: trimmed, tokens: estimateTokens(trimmed), headings });
  };
  for (const section of sections(text)) {
    // Room for the overlap is kept free so a chunk never exceeds the budget once it is prefixed.
    const pieces = atoms(section.text, Math.max(1, maxTokens - overlapTokens));
    let current = "";
    let lastPieces: string[] = [];
    for (const piece of pieces) {
      if (lastPieces.length > 0 && estimateTokens(current + piece) > maxTokens) {
        emit(current, section.headings);
        current = overlapOf(lastPieces, overlapTokens);
        lastPieces = [];
        // Rounding in the estimate can push overlap + piece one token over: drop the overlap then.
        if (estimateTokens(current + piece) > maxTokens) current = "";
      }
      current += piece;
      lastPieces.push(piece);
    }
    emit(current, section.headings);
  }
  return chunks;
}

/** Whole trailing pieces within the overlap budget, else a cut tail of the last piece. */
function overlapOf(pieces: string[], overlapTokens: number): string {
  if (overlapTokens === 0 || pieces.length === 0) return "";
  let taken = "";
  for (let index = pieces.length - 1; index >= 0; index -= 1) {
    const candidate = pieces[index]! + taken;
    if (estimateTokens(candidate) > overlapTokens) break;
    taken = candidate;
  }
  if (taken.length > 0) return taken;
  return `${tail(pieces[pieces.length - 1]!.trimEnd(), overlapTokens)} `;
}
