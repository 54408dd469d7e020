/**
 * Where an embedder's raw cosine similarities sit: `loose` is the cosine of a passage that just
 * starts to be about the question (calibrated to 0.7, the spec's "loose" hint), `strict` the
 * cosine of a clear answer (calibrated to 0.8, the "strict" hint).
 */
export interface SimilarityAnchors {
  loose: number;
  strict: number;
}

/** Whether a text is a search query or a stored document; some models embed them differently. */
export type EmbeddingKind = "query" | "document";

/** The embeddings port: turns texts into vectors of a fixed size, one per text, in order. */
export interface Embedder {
  /** Stable id of the model and its settings; vectors of different ids never mix. */
  readonly id: string;
  readonly dimensions: number;
  /** A human label; the offline default says it is lexical, not semantic. */
  readonly label: string;
  /** True when the vectors only measure word overlap (the offline fallback), not meaning. */
  readonly lexical?: boolean;
  /**
   * Raw cosine similarities of a loose and of a strict match for this embedder; scores are
   * calibrated with them so that a threshold means the same for every embedder (decision 0010).
   * Absent: a semantic model's usual band.
   */
  readonly similarityAnchors?: SimilarityAnchors;
  embed(texts: readonly string[], options: { kind: EmbeddingKind; signal?: AbortSignal }): Promise<Float32Array[]>;
}

/** Thrown when an embeddings provider fails or answers something malformed. */
export class EmbeddingError extends Error {
  override readonly name = "EmbeddingError";
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Scales a vector to unit length in place (a zero vector stays zero) and returns it. */
export function normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let index = 0; index < vector.length; index += 1) sum += vector[index]! * vector[index]!;
  if (sum > 0) {
    const scale = 1 / Math.sqrt(sum);
    for (let index = 0; index < vector.length; index += 1) vector[index]! *= scale;
  }
  return vector;
}

/** Dot product; for unit vectors this is the cosine similarity. */
export function dot(left: Float32Array, right: Float32Array): number {
  let sum = 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) sum += left[index]! * right[index]!;
  return sum;
}
