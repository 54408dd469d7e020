import type { Deps } from "../../kernel";
import type { Embedder } from "../../platform/embeddings/types";
import type { VectorDeleteFilter, VectorIndex } from "../retrieval/vector-index";

/** The part of a knowledge base row that decides where its vectors live. */
interface EmbeddedBase {
  embeddingModel: string;
}

/** The embedder a knowledge base's vectors were made with, or undefined when it is no longer configured. */
export function embedderOf(deps: Pick<Deps, "knowledge">, base: EmbeddedBase): Embedder | undefined {
  return deps.knowledge.embedder(base.embeddingModel);
}

/** The vector table of a knowledge base's embedding model, or undefined when that model is not configured. */
export function vectorTableOf(deps: Pick<Deps, "knowledge">, base: EmbeddedBase): VectorIndex | undefined {
  const embedder = embedderOf(deps, base);
  return embedder ? deps.knowledge.vectors.table(embedder.id, embedder.dimensions) : undefined;
}

/** Removes chunks' rows from the knowledge base's vector table and from the full-text copy (decision 0024). */
export async function deleteIndexed(deps: Pick<Deps, "knowledge">, base: EmbeddedBase, filter: VectorDeleteFilter): Promise<void> {
  await Promise.all([vectorTableOf(deps, base)?.delete(filter), deps.knowledge.text?.delete(filter)]);
}
