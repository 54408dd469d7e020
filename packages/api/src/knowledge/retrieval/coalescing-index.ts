import type { VectorIndex, VectorRow, VectorStore } from "./vector-index";

interface Pending {
  rows: VectorRow[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Wraps a vector table so that upserts arriving while one is being written are merged into the
 * next single write (group commit). Every caller's promise still settles only once its own rows
 * are stored, so durability is what the wrapped table gives; what changes is that many small
 * files indexed at once cost one commit instead of one each (a LanceDB commit is a new version
 * and fragment on disk). Searches read what is committed; deletes and counts first wait for the
 * writes queued before them, so a delete is never undone by an earlier upsert landing later.
 */
export function coalesceUpserts(index: VectorIndex): VectorIndex {
  let queued: Pending[] = [];
  let writing: Promise<void> | undefined;

  const flush = async (): Promise<void> => {
    while (queued.length > 0) {
      const batch = queued;
      queued = [];
      try {
        await index.upsert(batch.flatMap((pending) => pending.rows));
        for (const pending of batch) pending.resolve();
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    writing = undefined;
  };

  const settled = async () => {
    await writing;
  };

  return {
    model: index.model,
    dimensions: index.dimensions,
    upsert(rows) {
      if (rows.length === 0) return Promise.resolve();
      const done = new Promise<void>((resolve, reject) => queued.push({ rows: [...rows], resolve, reject }));
      writing ??= flush();
      return done;
    },
    search(vector, options) {
      return index.search(vector, options);
    },
    async delete(filter) {
      await settled();
      return index.delete(filter);
    },
    async count() {
      await settled();
      return index.count();
    },
  };
}

/** A vector store whose tables coalesce concurrent upserts (see {@link coalesceUpserts}). */
export function coalescingStore(store: VectorStore): VectorStore {
  const tables = new Map<string, VectorIndex>();
  return {
    table(model, dimensions) {
      const key = `${model}\u0000${dimensions}`;
      let table = tables.get(key);
      if (!table) {
        table = coalesceUpserts(store.table(model, dimensions));
        tables.set(key, table);
      }
      return table;
    },
    close: () => store.close?.() ?? Promise.resolve(),
  };
}
