import { describe, expect, it } from "vitest";
import { evaluationFigures, hitAt, ndcgAt, ranksOf, recallAt, reciprocalRank } from "./metrics";

const log2 = Math.log2;

describe("evaluation metrics", () => {
  const one = { expected: ["a", "b"], retrieved: ["x", "a", "y", "b", "z"] };

  it("finds the rank of each expected passage", () => {
    expect(ranksOf(one)).toEqual([2, 4]);
    expect(ranksOf({ expected: ["a", "q"], retrieved: ["a"] })).toEqual([1, null]);
  });

  it("counts a hit when any expected passage is in the top k", () => {
    expect(hitAt(one, 1)).toBe(false);
    expect(hitAt(one, 2)).toBe(true);
  });

  it("measures recall as the share of expected passages in the top k", () => {
    expect(recallAt(one, 1)).toBe(0);
    expect(recallAt(one, 3)).toBe(0.5);
    expect(recallAt(one, 4)).toBe(1);
    expect(recallAt({ expected: [], retrieved: ["a"] }, 5)).toBe(0);
  });

  it("computes nDCG with binary relevance by hand", () => {
    // Relevant at ranks 2 and 4: DCG = 1/log2(3) + 1/log2(5); ideal = 1 + 1/log2(3).
    expect(ndcgAt(one, 10)).toBeCloseTo((1 / log2(3) + 1 / log2(5)) / (1 + 1 / log2(3)), 12);
    expect(ndcgAt(one, 10)).toBeCloseTo(0.6509209, 6);
    // Only rank 2 inside the top 3.
    expect(ndcgAt(one, 3)).toBeCloseTo(1 / log2(3) / (1 + 1 / log2(3)), 12);
    expect(ndcgAt({ expected: ["a"], retrieved: ["a", "b"] }, 10)).toBe(1);
    expect(ndcgAt({ expected: ["a"], retrieved: ["b", "c"] }, 10)).toBe(0);
    // A passage repeated in the list counts once.
    expect(ndcgAt({ expected: ["a"], retrieved: ["a", "a"] }, 10)).toBe(1);
  });

  it("computes the reciprocal rank of the first expected passage", () => {
    expect(reciprocalRank(one)).toBe(0.5);
    expect(reciprocalRank({ expected: ["a"], retrieved: [] })).toBe(0);
  });

  it("averages the figures over questions", () => {
    const outcomes = [one, { expected: ["c"], retrieved: ["c"] }, { expected: ["d"], retrieved: ["e", "f"] }];
    const figures = evaluationFigures(outcomes, 3);
    expect(figures.hitRate).toBeCloseTo(2 / 3, 12);
    expect(figures.recall).toBeCloseTo((0.5 + 1 + 0) / 3, 12);
    expect(figures.ndcg10).toBeCloseTo((0.6509209 + 1 + 0) / 3, 6);
    expect(figures.mrr).toBeCloseTo((0.5 + 1 + 0) / 3, 12);
    expect(evaluationFigures([], 5)).toEqual({ hitRate: 0, recall: 0, ndcg10: 0, mrr: 0 });
  });
});
