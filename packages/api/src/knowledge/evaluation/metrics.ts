/** What one question of an evaluation retrieved, against the passages that should answer it. */
export interface QuestionOutcome {
  /** Chunk ids that should be retrieved (relevant, binary). */
  expected: readonly string[];
  /** Chunk ids retrieved, best first. */
  retrieved: readonly string[];
}

/** The figures of one evaluation run, each a mean over its questions (0–1). */
export interface EvaluationFigures {
  /** Share of questions with at least one expected passage in the top k. */
  hitRate: number;
  /** Mean share of a question's expected passages found in the top k. */
  recall: number;
  /** Mean nDCG over the top 10 with binary relevance. */
  ndcg10: number;
  /** Mean reciprocal rank of the first expected passage (0 when none is retrieved). */
  mrr: number;
}

/** The 1-based rank of each expected passage in the retrieved list, or null when it is not there. */
export function ranksOf(outcome: QuestionOutcome): Array<number | null> {
  return outcome.expected.map((id) => {
    const index = outcome.retrieved.indexOf(id);
    return index < 0 ? null : index + 1;
  });
}

/** Whether any expected passage is in the top `k`. */
export function hitAt(outcome: QuestionOutcome, k: number): boolean {
  const top = new Set(outcome.retrieved.slice(0, k));
  return outcome.expected.some((id) => top.has(id));
}

/** Share of the expected passages in the top `k` (0 for a question without any). */
export function recallAt(outcome: QuestionOutcome, k: number): number {
  const expected = new Set(outcome.expected);
  if (expected.size === 0) return 0;
  const found = new Set(outcome.retrieved.slice(0, k).filter((id) => expected.has(id)));
  return found.size / expected.size;
}

/**
 * nDCG at `k` with binary relevance: the sum of 1/log2(rank+1) over relevant passages in the top
 * k, divided by the same sum for an ideal list (all relevant passages first, at most k of them).
 */
export function ndcgAt(outcome: QuestionOutcome, k: number): number {
  const expected = new Set(outcome.expected);
  if (expected.size === 0) return 0;
  const seen = new Set<string>();
  let dcg = 0;
  outcome.retrieved.slice(0, k).forEach((id, index) => {
    if (expected.has(id) && !seen.has(id)) {
      seen.add(id);
      dcg += 1 / Math.log2(index + 2);
    }
  });
  let ideal = 0;
  for (let index = 0; index < Math.min(expected.size, k); index += 1) ideal += 1 / Math.log2(index + 2);
  return dcg / ideal;
}

/** Reciprocal rank of the first expected passage retrieved; 0 when none is. */
export function reciprocalRank(outcome: QuestionOutcome): number {
  const expected = new Set(outcome.expected);
  const index = outcome.retrieved.findIndex((id) => expected.has(id));
  return index < 0 ? 0 : 1 / (index + 1);
}

/** The run's figures: hit rate and recall at `k`, nDCG at 10 and MRR, each a mean over the questions (0 when there are none). */
export function evaluationFigures(outcomes: readonly QuestionOutcome[], k: number): EvaluationFigures {
  if (outcomes.length === 0) return { hitRate: 0, recall: 0, ndcg10: 0, mrr: 0 };
  const mean = (value: (outcome: QuestionOutcome) => number) => outcomes.reduce((sum, outcome) => sum + value(outcome), 0) / outcomes.length;
  return {
    hitRate: mean((outcome) => (hitAt(outcome, k) ? 1 : 0)),
    recall: mean((outcome) => recallAt(outcome, k)),
    ndcg10: mean((outcome) => ndcgAt(outcome, 10)),
    mrr: mean(reciprocalRank),
  };
}
