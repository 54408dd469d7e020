import type { ChatApp } from "../../apps/service/index";
import type { Deps } from "../../kernel";
import { MAX_RETRIEVED, type RetrievedChunk } from "../../knowledge/retrieval/search";
import { retrieveFromKnowledgeBases } from "../../knowledge/service/retrieval";
import type { RerankDeps } from "../../knowledge/service/rerank";
import { estimatePromptTokens, estimateTokens } from "../../platform/llm/tokens";
import type { ModelMessage, ModelRequest } from "../../platform/llm/types";
import type { MessageCitation } from "../../conversation/store";
import { messageText } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";

/** A message this short (in tokens) with an earlier question before it reads as a follow-up. */
export const FOLLOW_UP_MAX_TOKENS = 12;

/** At most this many sources are shown as citations (spec §9). */
export const MAX_CITATIONS = 10;

/** Characters of a segment a citation shows. */
const CITATION_EXCERPT = 300;

/** Tokens kept free for the answer when the reference section is fitted into the context window. */
const ANSWER_RESERVE_TOKENS = 1024;

/** The reference section never shrinks below this, whatever the window says: one useful segment. */
const MIN_REFERENCE_TOKENS = 256;

/** A retrieved chunk as the turn uses it: numbered [index] and possibly cut to the budget. */
export interface KnowledgeSource {
  index: number;
  chunk: RetrievedChunk;
  /** The text handed to the model: the chunk's content, cut when it alone exceeds the budget. */
  content: string;
}

/** What retrieval found for one turn. */
export interface TurnKnowledge {
  /** Chunks found after the similarity threshold (before the length budget); none means no hit. */
  hits: RetrievedChunk[];
  /** The hits that fit the retrieval length, numbered from 1. */
  sources: KnowledgeSource[];
}

/** Whether an app answers from knowledge: any chat app (not a workflow) with bound knowledge bases. */
export function usesKnowledge(app: ChatApp): boolean {
  return app.type !== "WORKFLOW" && app.knowledgeBaseIds.length > 0;
}

/**
 * How many chunks one retrieval may return with the app's settings: the counts of its mode,
 * clamped to 10 with the semantic count taking priority (spec §5 Knowledge), as retrieval does.
 */
export function retrievalLimit(app: Pick<ChatApp, "retrievalMode" | "semanticCount" | "fullTextCount">): number {
  const semantic = app.retrievalMode === "fulltext" ? 0 : Math.max(0, Math.min(Math.floor(app.semanticCount), MAX_RETRIEVED));
  const fullText = app.retrievalMode === "semantic" ? 0 : Math.max(0, Math.min(Math.floor(app.fullTextCount), MAX_RETRIEVED - semantic));
  return semantic + fullText;
}

/**
 * Retrieves for one turn with the app's settings (mode, counts, similarity threshold), from the
 * app's space only: ids of other spaces in `knowledgeBaseIds` are ignored by retrieval itself.
 * A short message after an earlier question is treated as a possible follow-up: when the message
 * alone leaves free slots, the earlier question and the message together fill them, after the
 * message's own hits (so a new topic is not drowned by the old one).
 */
export async function retrieveForTurn(
  deps: Pick<Deps, "db" | "knowledge" | "logger"> & Partial<RerankDeps>,
  app: ChatApp,
  input: { text: string; previousText?: string | undefined },
): Promise<RetrievedChunk[]> {
  const settings = {
    mode: app.retrievalMode,
    semanticCount: app.semanticCount,
    fullTextCount: app.fullTextCount,
    similarityThreshold: app.similarityThreshold,
    // Each retrieval of the turn (the follow-up's too) is one rerank call, charged to the app's space.
    rerank: app.rerankModel ? { model: app.rerankModel, threshold: app.rerankThreshold, appId: app.id } : undefined,
  };
  const hits = await retrieveFromKnowledgeBases(deps, app.spaceId, app.knowledgeBaseIds, { query: input.text, ...settings });
  const limit = retrievalLimit(app);
  const previous = input.previousText?.trim();
  if (!previous || hits.length >= limit || estimateTokens(input.text) > FOLLOW_UP_MAX_TOKENS) return hits;
  const more = await retrieveFromKnowledgeBases(deps, app.spaceId, app.knowledgeBaseIds, { query: `${previous}\n${input.text}`, ...settings });
  const seen = new Set(hits.map((chunk) => chunk.chunkId));
  // Scores of the longer query are not comparable with the message's own: capped at the lowest
  // own score, a follow-up hit never outranks them where hits are ranked by score (the offline
  // responder answers with the best).
  const floor = Math.min(...hits.map((chunk) => chunk.score));
  const extra = more.filter((chunk) => !seen.has(chunk.chunkId)).map((chunk) => (chunk.score > floor ? { ...chunk, score: floor } : chunk));
  return [...hits, ...extra].slice(0, limit);
}

/** Cuts a text to at most `budget` estimated tokens, at a character boundary (an ellipsis marks the cut). */
export function cutToTokens(text: string, budget: number): string {
  if (estimateTokens(text) <= budget) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (estimateTokens(text.slice(0, middle)) <= budget) low = middle;
    else high = middle - 1;
  }
  return `${text.slice(0, low).trimEnd()}…`;
}

/**
 * Keeps hits, best first, while their content fits `budgetTokens`: a hit that does not fit is
 * skipped (a smaller later one may still fit); when even the first does not fit, it is cut to the
 * budget so the answer keeps its best source. Sources are numbered from 1 in the kept order.
 */
export function fitToBudget(hits: readonly RetrievedChunk[], budgetTokens: number): KnowledgeSource[] {
  const sources: KnowledgeSource[] = [];
  let used = 0;
  for (const chunk of hits) {
    const tokens = estimateTokens(chunk.content);
    if (used + tokens <= budgetTokens) {
      sources.push({ index: sources.length + 1, chunk, content: chunk.content });
      used += tokens;
    } else if (sources.length === 0 && budgetTokens > 0) {
      sources.push({ index: 1, chunk, content: cutToTokens(chunk.content, budgetTokens) });
      used = budgetTokens;
    }
  }
  return sources;
}

/**
 * The tokens the reference section may use: the app's retrieval length, lowered so that the
 * prompt, the references and room for the answer fit the model's context window.
 */
export function referenceBudget(retrievalLength: number, contextWindow: number, prompt: readonly ModelMessage[]): number {
  const room = contextWindow - estimatePromptTokens(prompt) - ANSWER_RESERVE_TOKENS;
  return Math.max(1, Math.min(retrievalLength, Math.max(MIN_REFERENCE_TOKENS, room)));
}

const instructions: Record<Language, string> = {
  en:
    "Knowledge base references for this question follow, between <references> and </references>, each numbered [n]. " +
    "Answer from these references. After each statement taken from a reference, cite it as [n] with its number. " +
    "If the references do not contain the answer, say so plainly instead of guessing.",
  "zh-CN":
    "以下 <references> 与 </references> 之间是与本问题相关的知识库参考资料，每条编号为 [n]。" +
    "请依据这些资料回答；引用某条资料的内容时，在该句后用 [n] 标注其编号。" +
    "如果资料中没有答案，请直接说明，不要猜测。",
};

/** A segment's text made safe inside the reference block: it cannot close the block early. */
function fenced(text: string): string {
  return text.replace(/<\/?references>/gi, (tag) => tag.replace("<", "‹"));
}

/**
 * The reference section appended to the system prompt: an instruction to answer from the
 * sources and cite them as [n], then the sources, numbered, each with its file name, inside a
 * clearly delimited block.
 */
export function referenceSection(sources: readonly KnowledgeSource[], language: Language): string {
  const blocks = sources.map((source) => `[${source.index}] ${fenced(source.chunk.fileName)}\n${fenced(source.content.trim())}`);
  return `${instructions[language]}\n\n<references>\n${blocks.join("\n\n")}\n</references>`;
}

function excerpt(text: string): string {
  const flat = text.trim();
  return flat.length > CITATION_EXCERPT ? `${flat.slice(0, CITATION_EXCERPT).trimEnd()}…` : flat;
}

/**
 * The sources an answer cites, when the app shows citations: a semantic hit when its cosine
 * similarity reaches the citation threshold; a full-text-only hit (no similarity: BM25 scores
 * cannot be compared with the threshold) by being found at all. At most 10, in source order.
 */
export function citationsOf(app: Pick<ChatApp, "citationEnabled" | "citationThreshold">, sources: readonly KnowledgeSource[]): MessageCitation[] {
  if (!app.citationEnabled) return [];
  return sources
    .filter((source) => source.chunk.similarity === undefined || source.chunk.similarity >= app.citationThreshold)
    .slice(0, MAX_CITATIONS)
    .map((source) => ({
      index: source.index,
      source: source.chunk.fileName,
      content: excerpt(source.content),
      ...(source.chunk.similarity !== undefined ? { score: Math.round(source.chunk.similarity * 10_000) / 10_000 } : {}),
    }));
}

/** The answer of a Q&A chunk (`metadata.question` and `metadata.answer`), if it is one. */
export function qaAnswerOf(chunk: RetrievedChunk): string | undefined {
  const { question, answer } = chunk.metadata;
  return typeof question === "string" && typeof answer === "string" && answer.trim() !== "" ? answer : undefined;
}

/** The sources as the model port's `knowledge` (the offline responder answers from it). */
export function knowledgeForModel(sources: readonly KnowledgeSource[]): NonNullable<ModelRequest["knowledge"]> {
  return sources.map((source) => {
    const answer = qaAnswerOf(source.chunk);
    return {
      content: source.content,
      source: source.chunk.fileName,
      score: source.chunk.score,
      index: source.index,
      ...(answer !== undefined ? { answer } : {}),
    };
  });
}

/** The usage record's `knowledgeHits`: which chunks the answer used, with their scores. */
export function knowledgeHitsRecord(sources: readonly KnowledgeSource[]): string {
  return JSON.stringify(
    sources.map((source) => ({
      index: source.index,
      chunkId: source.chunk.chunkId,
      knowledgeBaseId: source.chunk.knowledgeBaseId,
      fileId: source.chunk.fileId,
      fileName: source.chunk.fileName,
      score: source.chunk.score,
      ...(source.chunk.similarity !== undefined ? { similarity: source.chunk.similarity } : {}),
      ...(source.chunk.textScore !== undefined ? { textScore: source.chunk.textScore } : {}),
    })),
  );
}

/**
 * The reply when nothing was found and the app does not answer freely: its fixed text, or for a
 * transfer to a person the handover's default reply when set, else a notice in the reader's
 * language.
 */
export function noHitReply(app: ChatApp, language: Language): { text: string; handover: boolean } {
  if (app.noHitStrategy === "fixed") return { text: app.noHitText ?? "", handover: false };
  const configured = app.advancedConfig.manualService.defaultReply?.trim();
  return { text: configured || messageText(language, "chat_handover_notice"), handover: true };
}

/** The text of the last user message before the current one, for follow-up retrieval. */
export function previousUserText(messages: readonly ModelMessage[]): string | undefined {
  let seenCurrent = false;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "user") continue;
    if (seenCurrent) return message.content;
    seenCurrent = true;
  }
  return undefined;
}
