import { describe, expect, it } from "vitest";
import { countsUsedBy, knowledgeRules, similarityApplies, similarityHintKey } from "./knowledge-settings-rules";

describe("knowledge settings rules (spec §5 Knowledge, §9 hints)", () => {
  it("semantic plus full-text counts at most 10, each a whole number from 0 to 10", () => {
    expect(knowledgeRules.countsTotal(7, 3)).toBeUndefined();
    expect(knowledgeRules.countsTotal(7, 4)).toBe("knowledgeSettings.validation.countsTotal");
    expect(knowledgeRules.count(11)).toBe("knowledgeSettings.validation.count");
    expect(knowledgeRules.count(2.5)).toBe("knowledgeSettings.validation.count");
    expect(knowledgeRules.count(0)).toBeUndefined();
  });

  it("thresholds lie within 0–1; the citation threshold is at least the similarity threshold while shown", () => {
    expect(knowledgeRules.threshold(1.2)).toBe("knowledgeSettings.validation.threshold");
    expect(knowledgeRules.threshold(null)).toBe("knowledgeSettings.validation.threshold");
    expect(knowledgeRules.threshold(0)).toBeUndefined();
    expect(knowledgeRules.citationThreshold(true, 0.7, 0.8)).toBe("knowledgeSettings.validation.citationLow");
    expect(knowledgeRules.citationThreshold(true, 0.8, 0.8)).toBeUndefined();
    expect(knowledgeRules.citationThreshold(false, 0.1, 0.8)).toBeUndefined();
    expect(knowledgeRules.citationThreshold(true, 1.5, 0.8)).toBe("knowledgeSettings.validation.threshold");
  });

  it("the retrieval length cannot be 0; the fixed reply needs its text", () => {
    expect(knowledgeRules.retrievalLength(0)).toBe("knowledgeSettings.validation.retrievalLength");
    expect(knowledgeRules.retrievalLength(4000)).toBeUndefined();
    expect(knowledgeRules.noHitText("fixed", "  ")).toBe("knowledgeSettings.validation.noHitTextRequired");
    expect(knowledgeRules.noHitText("default", "")).toBeUndefined();
    expect(knowledgeRules.noHitText("fixed", "x".repeat(2001))).toBe("knowledgeSettings.validation.noHitTextLong");
  });

  it("gives the 0.8 / 0.7 hints and knows which settings a mode uses", () => {
    expect(similarityHintKey(0.85)).toBe("knowledgeSettings.similarityHints.strict");
    expect(similarityHintKey(0.8)).toBe("knowledgeSettings.similarityHints.strict");
    expect(similarityHintKey(0.75)).toBe("knowledgeSettings.similarityHints.balanced");
    expect(similarityHintKey(0.7)).toBe("knowledgeSettings.similarityHints.loose");
    expect(countsUsedBy("fulltext")).toEqual({ semantic: false, fullText: true });
    expect(countsUsedBy("hybrid")).toEqual({ semantic: true, fullText: true });
    expect(similarityApplies("fulltext")).toBe(false);
  });
});
