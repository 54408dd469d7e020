import type { Embedder, SimilarityAnchors } from "./types";

export type { SimilarityAnchors };

/** The calibrated values the anchors map to: the spec's similarity hints (§9). */
export const CALIBRATED_LOOSE = 0.7;
/** See {@link CALIBRATED_LOOSE}. */
export const CALIBRATED_STRICT = 0.8;

/**
 * Anchors of a semantic embedding model when it declares none: all-MiniLM-L6-v2 scores a
 * relevant passage 0.4–0.7 and an unrelated one under ~0.3, so the default threshold (0.75)
 * is a raw 0.4; OpenAI's text-embedding-3 models sit in a similar band.
 */
export const SEMANTIC_MODEL_ANCHORS: SimilarityAnchors = { loose: 0.3, strict: 0.5 };

/**
 * Anchors of the offline lexical embedder, whose cosines are word overlap: the best relevant
 * chunk scores a median 0.36 on CMRC2018 (p10 0.22) and 0.47 on SciFact, with unrelated
 * chunks close behind, so its band sits lower and is narrower than a semantic model's.
 */
export const LEXICAL_ANCHORS: SimilarityAnchors = { loose: 0.15, strict: 0.35 };

/** The anchors an embedder's similarities are calibrated with. */
export function anchorsOf(embedder: Pick<Embedder, "similarityAnchors">): SimilarityAnchors {
  return embedder.similarityAnchors ?? SEMANTIC_MODEL_ANCHORS;
}

/**
 * Maps a raw cosine similarity to the calibrated 0–1 scale thresholds are written in: piecewise
 * linear through (0, 0), (loose, 0.7), (strict, 0.8) and (1, 1); negative cosines are 0. The map
 * is increasing, so it never changes a ranking, and a threshold means the same share of good
 * matches whatever the embedder.
 */
export function calibrateSimilarity(cosine: number, anchors: SimilarityAnchors): number {
  const { loose, strict } = anchors;
  if (!(cosine > 0)) return 0;
  if (cosine >= 1) return 1;
  if (cosine <= loose) return (cosine / loose) * CALIBRATED_LOOSE;
  if (cosine <= strict) return CALIBRATED_LOOSE + ((cosine - loose) / (strict - loose)) * (CALIBRATED_STRICT - CALIBRATED_LOOSE);
  return CALIBRATED_STRICT + ((cosine - strict) / (1 - strict)) * (1 - CALIBRATED_STRICT);
}
