/**
 * The knowledge and retrieval settings of an app (spec §3 App retrieval fields, §5 Knowledge,
 * §9 similarity hints) as the console checks and explains them before saving; the server checks
 * the same and names the field when it refuses. Each check answers an i18n key or undefined.
 */
import { APP_LIMITS, type RuleResult } from "./app-rules";

/** Retrieval modes, in the order the select offers them. */
export const RETRIEVAL_MODES = ["semantic", "fulltext", "hybrid"] as const;
/** One of {@link RETRIEVAL_MODES}. */
export type RetrievalMode = (typeof RETRIEVAL_MODES)[number];

/** No-hit strategies: answer freely, a fixed text, or transfer to a person. */
export const NO_HIT_STRATEGIES = ["default", "fixed", "manual"] as const;

/** Spec §9: 0.8 or more is a strict similarity threshold, 0.7 or less a loose one. */
export const SIMILARITY_HINTS = { strictFrom: 0.8, looseUpTo: 0.7 } as const;

/** Limits the server applies (APP_LIMITS there). */
export const KNOWLEDGE_LIMITS = { retrievalLength: { min: 1, max: 128_000 }, countsTotalMax: APP_LIMITS.retrievalCountsTotalMax, noHitTextMax: 2000 } as const;

/** Which counts a mode uses: semantic hits, full-text hits, or both. */
export function countsUsedBy(mode: RetrievalMode | undefined): { semantic: boolean; fullText: boolean } {
  return { semantic: mode !== "fulltext", fullText: mode !== "semantic" };
}

/** Whether the similarity threshold matters in a mode (it filters semantic hits only). */
export const similarityApplies = (mode: RetrievalMode | undefined) => mode !== "fulltext";

/** The spec §9 hint for a similarity threshold: strict, loose, or in between. */
export function similarityHintKey(value: number | null | undefined): string {
  if (typeof value !== "number" || Number.isNaN(value)) return "knowledgeSettings.similarityHints.none";
  if (value >= SIMILARITY_HINTS.strictFrom) return "knowledgeSettings.similarityHints.strict";
  if (value <= SIMILARITY_HINTS.looseUpTo) return "knowledgeSettings.similarityHints.loose";
  return "knowledgeSettings.similarityHints.balanced";
}

export const knowledgeRules = {
  /** Thresholds are between 0 and 1. */
  threshold: (value: number | null | undefined): RuleResult =>
    typeof value !== "number" || Number.isNaN(value) || value < 0 || value > 1 ? "knowledgeSettings.validation.threshold" : undefined,
  /** The retrieval length cannot be 0 (spec §5 App). */
  retrievalLength: (value: number | null | undefined): RuleResult =>
    typeof value !== "number" || !Number.isInteger(value) || value < KNOWLEDGE_LIMITS.retrievalLength.min || value > KNOWLEDGE_LIMITS.retrievalLength.max
      ? "knowledgeSettings.validation.retrievalLength"
      : undefined,
  /** A count is a whole number from 0 to 10. */
  count: (value: number | null | undefined): RuleResult =>
    typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > KNOWLEDGE_LIMITS.countsTotalMax
      ? "knowledgeSettings.validation.count"
      : undefined,
  /** Semantic plus full-text counts at most 10; the full-text count gives way (semantic takes priority). */
  countsTotal: (semantic: number | null | undefined, fullText: number | null | undefined): RuleResult =>
    (semantic ?? 0) + (fullText ?? 0) > KNOWLEDGE_LIMITS.countsTotalMax ? "knowledgeSettings.validation.countsTotal" : undefined,
  /** While citations are shown, their threshold is at least the similarity threshold. */
  citationThreshold: (enabled: boolean, citation: number | null | undefined, similarity: number | null | undefined): RuleResult => {
    if (!enabled) return undefined;
    const range = knowledgeRules.threshold(citation);
    if (range) return range;
    return (citation ?? 0) < (similarity ?? 0) ? "knowledgeSettings.validation.citationLow" : undefined;
  },
  /** The fixed no-hit strategy needs its text. */
  noHitText: (strategy: string | undefined, text: string | null | undefined): RuleResult => {
    const length = [...(text ?? "").trim()].length;
    if (strategy === "fixed" && length === 0) return "knowledgeSettings.validation.noHitTextRequired";
    if (length > KNOWLEDGE_LIMITS.noHitTextMax) return "knowledgeSettings.validation.noHitTextLong";
    return undefined;
  },
};
