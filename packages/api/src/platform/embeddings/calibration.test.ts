import { describe, expect, it } from "vitest";
import { anchorsOf, calibrateSimilarity, LEXICAL_ANCHORS, SEMANTIC_MODEL_ANCHORS } from "./calibration";
import { createHashingEmbedder } from "./hashing";

describe("similarity calibration (decision 0010)", () => {
  it("maps each embedder's loose and strict cosines to the spec's 0.7 and 0.8 hints", () => {
    for (const anchors of [LEXICAL_ANCHORS, SEMANTIC_MODEL_ANCHORS]) {
      expect(calibrateSimilarity(anchors.loose, anchors)).toBeCloseTo(0.7, 10);
      expect(calibrateSimilarity(anchors.strict, anchors)).toBeCloseTo(0.8, 10);
      expect(calibrateSimilarity(0, anchors)).toBe(0);
      expect(calibrateSimilarity(-0.3, anchors)).toBe(0);
      expect(calibrateSimilarity(1, anchors)).toBe(1);
    }
  });

  it("never changes a ranking: the map increases strictly over 0–1", () => {
    for (const anchors of [LEXICAL_ANCHORS, SEMANTIC_MODEL_ANCHORS]) {
      let previous = -1;
      for (let cosine = 0.001; cosine <= 1; cosine += 0.001) {
        const calibrated = calibrateSimilarity(cosine, anchors);
        expect(calibrated).toBeGreaterThan(previous);
        previous = calibrated;
      }
    }
  });

  it("lets an app's default threshold (0.75) keep what each embedder scores as a typical good match", () => {
    // The offline embedder's best hit in the newcomer case (issue 12) scored 0.52; all-MiniLM-L6-v2 scores relevant passages 0.4–0.7.
    expect(calibrateSimilarity(0.52, anchorsOf(createHashingEmbedder()))).toBeGreaterThan(0.8);
    expect(calibrateSimilarity(0.24, LEXICAL_ANCHORS)).toBeLessThan(0.75);
    expect(calibrateSimilarity(0.41, anchorsOf({}))).toBeGreaterThan(0.75);
    expect(calibrateSimilarity(0.2, anchorsOf({}))).toBeLessThan(0.7);
  });
});
