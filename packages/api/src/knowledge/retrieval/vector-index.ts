import { dot } from "../../platform/embeddings/types";

/** A chunk's vector as stored: the knowledge base and file let searches and deletes scope it. */
export interface VectorRow {
  chunkId: string;
  knowledgeBaseId: string;
  fileId: string;
  /** Unit length (embedders normalise), so the dot product is the cosine similarity. */
  vector: Float32Array;
}

/** A vector search hit. */
export interface VectorHit {
  chunkId: string;
  knowledgeBaseId: string;
  fileId: string;
  /** Cosine similarity, -1..1. */
  similarity: number;
}

/** Which rows a delete removes; rows matching any given list go. */
export interface VectorDeleteFilter {
  chunkIds?: readonly string[];
  fileIds?: readonly string[];
  knowledgeBaseIds?: readonly string[];
}

/**
 * One table of vectors made by one embedding model (LanceDB keeps one table per model the
 * same way): rows keyed by chunk id, searched with a prefilter on knowledge bases.
 */
export interface VectorIndex {
  readonly model: string;
  readonly dimensions: number;
  /** Inserts rows, replacing any row with the same chunk id. */
  upsert(rows: readonly VectorRow[]): Promise<void>;
  /** The `limit` rows most similar to `vector` among the given knowledge bases, best first. */
  search(vector: Float32Array, options: { knowledgeBaseIds: readonly string[]; limit: number }): Promise<VectorHit[]>;
  delete(filter: VectorDeleteFilter): Promise<void>;
  count(): Promise<number>;
}

/** Opens (creating on first use) the vector table of an embedding model. */
export interface VectorStore {
  table(model: string, dimensions: number): VectorIndex;
  /** Waits for pending writes and background work, then releases the store. */
  close?(): Promise<void>;
}

interface Partition {
  ids: string[];
  fileIds: string[];
  vectors: Float32Array;
}

/**
 * An exact (flat) vector index in memory, partitioned by knowledge base so a scoped search
 * scans only its own rows. Fine for tests and tens of thousands of rows; it is not durable,
 * and LanceDB replaces it for production storage.
 */
export function createMemoryVectorIndex(model: string, dimensions: number): VectorIndex {
  const partitions = new Map<string, Partition>();
  const where = new Map<string, { knowledgeBaseId: string; slot: number }>();
  const remove = (chunkId: string) => {
    const location = where.get(chunkId);
    if (!location) return;
    const partition = partitions.get(location.knowledgeBaseId)!;
    const last = partition.ids.length - 1;
    // Swap the last row into the freed slot so rows stay contiguous.
    if (location.slot !== last) {
      const movedId = partition.ids[last]!;
      partition.ids[location.slot] = movedId;
      partition.fileIds[location.slot] = partition.fileIds[last]!;
      partition.vectors.copyWithin(location.slot * dimensions, last * dimensions, (last + 1) * dimensions);
      where.set(movedId, { knowledgeBaseId: location.knowledgeBaseId, slot: location.slot });
    }
    partition.ids.pop();
    partition.fileIds.pop();
    where.delete(chunkId);
  };
  return {
    model,
    dimensions,
    async upsert(rows) {
      for (const row of rows) {
        if (row.vector.length !== dimensions) throw new Error(`vector of ${row.vector.length} dimensions in a ${dimensions}-d table`);
        remove(row.chunkId);
        let partition = partitions.get(row.knowledgeBaseId);
        if (!partition) {
          partition = { ids: [], fileIds: [], vectors: new Float32Array(dimensions * 64) };
          partitions.set(row.knowledgeBaseId, partition);
        }
        const slot = partition.ids.length;
        if ((slot + 1) * dimensions > partition.vectors.length) {
          const grown = new Float32Array(partition.vectors.length * 2);
          grown.set(partition.vectors);
          partition.vectors = grown;
        }
        partition.vectors.set(row.vector, slot * dimensions);
        partition.ids.push(row.chunkId);
        partition.fileIds.push(row.fileId);
        where.set(row.chunkId, { knowledgeBaseId: row.knowledgeBaseId, slot });
      }
    },
    async search(vector, { knowledgeBaseIds, limit }) {
      const best: VectorHit[] = [];
      if (limit <= 0) return best;
      for (const knowledgeBaseId of new Set(knowledgeBaseIds)) {
        const partition = partitions.get(knowledgeBaseId);
        if (!partition) continue;
        for (let slot = 0; slot < partition.ids.length; slot += 1) {
          const row = partition.vectors.subarray(slot * dimensions, (slot + 1) * dimensions);
          const similarity = dot(vector, row);
          if (best.length === limit && similarity <= best[best.length - 1]!.similarity) continue;
          // Insertion into a short sorted list beats sorting every row.
          let position = best.length;
          while (position > 0 && best[position - 1]!.similarity < similarity) position -= 1;
          best.splice(position, 0, { chunkId: partition.ids[slot]!, knowledgeBaseId, fileId: partition.fileIds[slot]!, similarity });
          if (best.length > limit) best.pop();
        }
      }
      return best;
    },
    async delete(filter) {
      const chunkIds = new Set(filter.chunkIds ?? []);
      const fileIds = new Set(filter.fileIds ?? []);
      const knowledgeBaseIds = new Set(filter.knowledgeBaseIds ?? []);
      for (const chunkId of [...where.keys()]) {
        // Earlier removals move rows between slots, so look each location up afresh.
        const location = where.get(chunkId)!;
        const partition = partitions.get(location.knowledgeBaseId)!;
        if (chunkIds.has(chunkId) || knowledgeBaseIds.has(location.knowledgeBaseId) || fileIds.has(partition.fileIds[location.slot]!)) remove(chunkId);
      }
    },
    async count() {
      return where.size;
    },
  };
}

/** A store of in-memory vector tables, one per embedding model. */
export function createMemoryVectorStore(): VectorStore {
  const tables = new Map<string, VectorIndex>();
  return {
    table(model, dimensions) {
      let table = tables.get(model);
      if (!table) {
        table = createMemoryVectorIndex(model, dimensions);
        tables.set(model, table);
      }
      if (table.dimensions !== dimensions) throw new Error(`vector table ${model} holds ${table.dimensions}-d vectors, not ${dimensions}-d`);
      return table;
    },
  };
}
