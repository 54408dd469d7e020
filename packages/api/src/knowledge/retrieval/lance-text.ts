import type { Connection, Table } from "@lancedb/lancedb";
import { createKbIndex, deletePredicates, hasKbIndex, inList, type LanceStoreLogger, loadModules, message, runChild } from "./lance-store";
import type { VectorDeleteFilter } from "./vector-index";

/** A chunk's full-text row: its segmented `search_text` (the same text FTS5 indexes). */
export interface TextRow {
  chunkId: string;
  knowledgeBaseId: string;
  fileId: string;
  searchText: string;
}

/** A full-text hit: BM25 score, higher is better. */
export interface TextHit {
  chunkId: string;
  score: number;
}

/**
 * A full-text index that stops early (block-max WAND) for large knowledge bases. SQLite FTS5
 * stays the transactional source of truth; this copy is written after it, and `search` answers
 * `undefined` whenever the copy cannot answer (too few rows for an index to pay, index not built
 * yet, store closed), so the caller falls back to FTS5.
 */
export interface TextIndex {
  /** Inserts rows, replacing any row with the same chunk id. */
  upsert(rows: readonly TextRow[]): Promise<void>;
  delete(filter: VectorDeleteFilter): Promise<void>;
  /** The `limit` best chunks holding any of `terms` (OR, BM25) among the knowledge bases, or undefined. */
  search(terms: readonly string[], options: { knowledgeBaseIds: readonly string[]; limit: number }): Promise<TextHit[] | undefined>;
  /** Resolves once no write, index build or optimize is pending. */
  whenIdle(): Promise<void>;
  close(): Promise<void>;
}

/** Options of the LanceDB full-text index. */
export interface LanceTextOptions {
  /** Directory of the LanceDB database (the vector store's one: the table name cannot clash). */
  directory: string;
  /**
   * Rows at which the full-text index is built and used (default 20,000): below it FTS5 answers
   * in a few milliseconds and stays exact; above it FTS5 scores every row holding a query term.
   */
  threshold?: number;
  logger?: LanceStoreLogger;
}

/** Rows at which FTS5 (no early termination) passes ~30 ms per query on 2 cores. */
export const DEFAULT_FULLTEXT_THRESHOLD = 20_000;
const TABLE = "fulltext_chunks";
const FTS_INDEX = "search_text_idx";
/** Writes after which a background optimize folds appended rows into the index (they are searched unindexed meanwhile). */
const OPTIMIZE_EVERY_WRITES = 64;
/**
 * Quiet time after the last write at which appended rows are folded in anyway: an import that
 * ends between two periodic optimizes would otherwise leave its last writes searched without the
 * index until more writes came (a fresh 100k bench: up to 63 writes; at 30k, 4,200 unindexed rows
 * made one query 138 ms, 5.5 ms once optimized).
 */
const IDLE_OPTIMIZE_MS = 2_000;
const KEEP_VERSIONS_MS = 60 * 60 * 1000;
/**
 * `search_text` is already segmented and folded by `segmentForSearch`, words separated by single
 * spaces: split on whitespace only, lower-case and fold diacritics like FTS5's
 * `unicode61 remove_diacritics 2`, no stemming or stop words (both already decided upstream).
 */
const FTS_OPTIONS = {
  baseTokenizer: "whitespace",
  lowercase: true,
  asciiFolding: true,
  stem: false,
  removeStopWords: false,
  withPosition: false,
  maxTokenLength: 1_000,
};

/** The LanceDB full-text copy of `knowledge_chunks.search_text`, in its own table beside the vector tables. */
export function createLanceTextIndex(options: LanceTextOptions): TextIndex {
  const threshold = options.threshold ?? DEFAULT_FULLTEXT_THRESHOLD;
  let connection: Promise<Connection> | undefined;
  let table: Table | undefined;
  let opening: Promise<Table | undefined> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let background: Promise<void> | undefined;
  let indexed = false;
  let rows = 0;
  let writesSinceOptimize = 0;
  let closed = false;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let failedAt: number | undefined;
  // Group commit, as the vector tables do (coalescing-index.ts): rows arriving while a write runs
  // go into the next single write, so 16 files indexed at once cost one LanceDB commit, not 16.
  let waiting: Array<{ rows: readonly TextRow[]; resolve: () => void; reject: (error: unknown) => void }> = [];
  let flushing: Promise<void> | undefined;

  const warn = (what: string, error: unknown) => options.logger?.warn({ table: TABLE, error: message(error) }, `LanceDB ${what} failed`);
  const connect = () => {
    connection ??= loadModules().then(({ lance }) => lance.connect(options.directory));
    return connection;
  };

  async function open(create: boolean): Promise<Table | undefined> {
    if (closed) throw new Error(`LanceDB full-text index in ${options.directory} is closed`);
    if (table) return table;
    opening ??= (async () => {
      const db = await connect();
      if (!(await db.tableNames()).includes(TABLE)) {
        if (!create) return undefined;
        const { arrow } = await loadModules();
        const schema = new arrow.Schema(["chunk_id", "kb_id", "file_id", "search_text"].map((name) => new arrow.Field(name, new arrow.Utf8(), false)));
        table = await db.createEmptyTable(TABLE, schema, { mode: "create", existOk: true });
      } else {
        table = await db.openTable(TABLE);
      }
      rows = await table.countRows();
      const indices = await table.listIndices();
      indexed = indices.some((index) => index.name === FTS_INDEX);
      if (!hasKbIndex(indices)) enqueue("kb_id index", buildKbIndex);
      maybeBuild();
      return table;
    })().finally(() => {
      opening = undefined;
    });
    const opened = await opening;
    return opened ?? (create ? open(create) : undefined);
  }

  function inQueue<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(task);
    queue = run.catch(() => {});
    return run;
  }

  function enqueue(what: string, task: () => Promise<void>) {
    inQueue(task).catch((error: unknown) => warn(what, error));
  }

  async function buildKbIndex() {
    if (!table || rows === 0) return;
    await createKbIndex(table);
  }

  /** Index build and optimize run in a child process (CPU-bound), one at a time; the table is reopened after. */
  function startBackground(what: string, job: Parameters<typeof runChild>[2], after: () => void) {
    background = runChild(options.directory, TABLE, job)
      .then(async () => {
        await inQueue(async () => {
          if (closed) return;
          table = await (await connect()).openTable(TABLE);
        });
        after();
      })
      .catch((error: unknown) => {
        failedAt = rows;
        warn(what, error);
      })
      .finally(() => {
        background = undefined;
        // Writes that came while it ran (or a build that just finished) still need folding in.
        if (writesSinceOptimize > 0 && !closed) armIdleOptimize();
      });
  }

  function maybeBuild() {
    if (background || closed) return;
    // A failed build is retried only once as many rows again have been written.
    if (failedAt !== undefined && rows < failedAt * 2) return;
    if (!indexed && rows >= threshold) {
      startBackground("full-text index build", { kind: "fts", column: "search_text", name: FTS_INDEX, options: FTS_OPTIONS }, () => {
        indexed = true;
        options.logger?.info({ table: TABLE, rows }, "LanceDB full-text index built");
      });
    } else if (indexed && writesSinceOptimize >= OPTIMIZE_EVERY_WRITES) {
      optimizeNow();
    }
  }

  /** Folds appended rows into the full-text index in the background (when built and not already busy). */
  function optimizeNow() {
    if (background || closed || !indexed || writesSinceOptimize === 0) return;
    writesSinceOptimize = 0;
    startBackground("full-text optimize", { kind: "optimize", keepMs: KEEP_VERSIONS_MS }, () => {});
  }

  /** (Re)starts the quiet-time countdown after which appended rows are folded in. */
  function armIdleOptimize() {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      optimizeNow();
    }, IDLE_OPTIMIZE_MS);
    idleTimer.unref?.();
  }

  function write(task: (table: Table) => Promise<void>, create: boolean): Promise<void> {
    return inQueue(async () => {
      const target = await open(create);
      if (!target) return;
      try {
        await task(target);
      } catch (error) {
        throw new Error(`LanceDB write to ${TABLE} failed: ${message(error)}`);
      }
      writesSinceOptimize += 1;
      maybeBuild();
      armIdleOptimize();
    });
  }

  async function flush() {
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        await store(batch.flatMap((pending) => pending.rows));
        for (const pending of batch) pending.resolve();
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    flushing = undefined;
  }

  async function store(input: readonly TextRow[]) {
    // The last row of a chunk wins, as in a sequence of single writes.
    const unique = [...new Map(input.map((row) => [row.chunkId, row])).values()];
    await write(async (target) => {
      const data = unique.map((row) => ({ chunk_id: row.chunkId, kb_id: row.knowledgeBaseId, file_id: row.fileId, search_text: row.searchText }));
      const result = await target.mergeInsert("chunk_id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data);
      rows += result.numInsertedRows;
    }, true);
  }

  /** Waits until no write, flush or background job is pending; `optimize` first folds in rows a quiet-time optimize would. */
  async function settle(optimize: boolean) {
    for (;;) {
      if (optimize && idleTimer) {
        clearTimeout(idleTimer);
        idleTimer = undefined;
        optimizeNow();
      }
      const [pending, running] = [queue, background];
      await flushing;
      await pending.catch(() => {});
      await running?.catch(() => {});
      if (pending === queue && running === background && !(optimize && idleTimer)) return;
    }
  }

  return {
    upsert(input) {
      if (input.length === 0) return Promise.resolve();
      const done = new Promise<void>((resolve, reject) => waiting.push({ rows: input, resolve, reject }));
      flushing ??= flush();
      return done;
    },

    async delete(filter) {
      // A delete waits for the upserts queued before it, so none of them can bring its rows back.
      await flushing;
      const predicates = deletePredicates(filter);
      if (predicates.length === 0) return;
      await write(async (target) => {
        for (const predicate of predicates) await target.delete(predicate);
        rows = await target.countRows();
      }, false);
    },

    async search(terms, { knowledgeBaseIds, limit }) {
      if (closed || terms.length === 0 || knowledgeBaseIds.length === 0 || limit <= 0) return undefined;
      const target = await open(false);
      if (!target || !indexed) return undefined;
      const { lance } = await loadModules();
      const found = await target
        .query()
        .fullTextSearch(new lance.MatchQuery(terms.join(" "), "search_text"))
        .where(inList("kb_id", [...new Set(knowledgeBaseIds)]))
        .select(["chunk_id", "_score"])
        .limit(Math.floor(limit))
        .toArray();
      return (found as Array<{ chunk_id: string; _score: number }>).map((row) => ({ chunkId: row.chunk_id, score: row._score }));
    },

    async whenIdle() {
      await settle(true);
    },

    async close() {
      if (closed) return;
      // Closing does not start an optimize: what is left unindexed is folded in at the next open's writes.
      await settle(false);
      closed = true;
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = undefined;
      const open = connection;
      connection = undefined;
      table = undefined;
      if (open) (await open.catch(() => undefined))?.close();
    },
  };
}
