import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import os from "node:os";
import type { Connection, Table } from "@lancedb/lancedb";
import type { VectorDeleteFilter, VectorHit, VectorIndex, VectorRow, VectorStore } from "./vector-index";

/** Where LanceDB reports what it does in the background (index builds, maintenance). */
export interface LanceStoreLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** Options of the LanceDB vector store. */
export interface LanceStoreOptions {
  /** Directory holding the tables; created on first write, found again after a restart. */
  directory: string;
  /** Rows at which a table gets its ANN (IVF_HNSW_SQ) index, built in the background (default 100,000). */
  annThreshold?: number;
  logger?: LanceStoreLogger;
}

/** The LanceDB store, with what shutdown and tests need beyond `VectorStore`. */
export interface LanceVectorStore extends VectorStore {
  /** Waits for queued writes, then closes the connection; later calls fail. */
  close(): Promise<void>;
  /** Resolves once no write, index build or maintenance is pending in any table. */
  whenIdle(): Promise<void>;
}

/** Published default: past ~100k rows a flat scan costs tens of milliseconds per query. */
export const DEFAULT_ANN_THRESHOLD = 100_000;
/** Rows per IVF partition of the ANN index. */
const ROWS_PER_PARTITION = 100_000;
/**
 * ANN search settings, measured on the bench's 100k rows of the offline lexical embedder
 * (decision 0024): hashed word features are a hard case for HNSW (the best hit's cosine is
 * ~0.46, the 60th's ~0.39, and every passage has near-identical copies), so the graph search
 * width `ef`, not the refine factor, decides recall: at limit 60, ef 600 found 0.84 of the exact
 * top 60, ef 1,200 0.93, ef 2,000 0.96, ef 3,000 0.98, with refine 2 and 5 alike; the refine
 * step reads full vectors and cost 4–6 ms more at 5 than at 2. Refine 2 stays: without it the
 * 8-bit scalar quantization misorders near copies (ef 3,000: 0.94 at refine 1, 0.98 at 2).
 * What a search returns is the hybrid top 10, which ef 600 and ef 1,200 at the hybrid's depth 60
 * both kept identical to an exact search (ties counted) on all 300 bench queries, while ef 600
 * answers 2–3 ms sooner (issue 20: 13.5 against 16 ms p50 for the LanceDB query alone).
 */
const ANN_EF_MIN = 500;
const ANN_EF_PER_RESULT = 10;
const ANN_REFINE_FACTOR = 2;

/**
 * The HNSW search width and refine factor for a search of `limit` results: ef grows with the
 * limit (500 up to limit 50, 600 at the hybrid's 60) and is never below the candidates the
 * refine step asks for, which HNSW refuses.
 */
export function annSearchSettings(limit: number): { ef: number; refineFactor: number } {
  const candidates = Math.max(1, Math.floor(limit)) * ANN_REFINE_FACTOR;
  return { ef: Math.max(ANN_EF_MIN, ANN_EF_PER_RESULT * Math.floor(limit), candidates), refineFactor: ANN_REFINE_FACTOR };
}
/**
 * Each write adds a fragment; flat scans slow down with hundreds of them, so tables without
 * an ANN index are compacted in-process after this many writes (about 0.5 s at 100k rows).
 */
const COMPACT_EVERY_WRITES = 64;
/** With an ANN index, a background optimize also runs after this many writes (one fragment each). */
const MAINTAIN_EVERY_WRITES = 256;
/** Unindexed rows, as a share of the indexed ones, at which a background optimize folds them in. */
const REINDEX_SHARE = 0.1;
const REINDEX_MIN_ROWS = 1_000;
/** Old versions are kept this long so that no search still reading one loses its files. */
const KEEP_VERSIONS_MS = 60 * 60 * 1000;
/** Ids per IN list of a delete: keeps each predicate a reasonable size. */
const DELETE_BATCH = 1_000;
const VECTOR_INDEX = "vector_idx";

type LanceModule = typeof import("@lancedb/lancedb");
type ArrowModule = typeof import("apache-arrow");

let modules: Promise<{ lance: LanceModule; arrow: ArrowModule }> | undefined;

// Loaded on first use: the native library is large and not every process needs it.
/** LanceDB and Arrow, imported once on first use. */
export function loadModules() {
  modules ??= Promise.all([import("@lancedb/lancedb"), import("apache-arrow")]).then(([lance, arrow]) => ({ lance, arrow }));
  return modules;
}

/** A table name LanceDB accepts, readable, and distinct for distinct model ids. */
export function lanceTableName(model: string, dimensions: number): string {
  const slug = model
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 60);
  const digest = createHash("sha256").update(model).digest("hex").slice(0, 8);
  return `vectors_${slug}_${digest}_${dimensions}`;
}

/** A string literal of a LanceDB filter. */
export function quote(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** A LanceDB `column IN (...)` filter. */
/** The LanceDB filters a delete runs: one per column and batch of ids (rows matching any go). */
export function deletePredicates(filter: VectorDeleteFilter): string[] {
  const predicates: string[] = [];
  for (const [column, values] of [
    ["chunk_id", filter.chunkIds],
    ["file_id", filter.fileIds],
    ["kb_id", filter.knowledgeBaseIds],
  ] as const) {
    const unique = [...new Set(values ?? [])];
    for (let start = 0; start < unique.length; start += DELETE_BATCH) predicates.push(inList(column, unique.slice(start, start + DELETE_BATCH)));
  }
  return predicates;
}

export function inList(column: string, values: readonly string[]): string {
  return `${column} IN (${values.map(quote).join(", ")})`;
}

/** The message of a thrown value. */
/** Name of the knowledge-base index of a LanceDB table (vectors and full text alike). */
export const KB_INDEX = "kb_id_idx";

/**
 * Whether a table's indices include the knowledge-base index of today's kind. That index is a
 * BITMAP: every search prefilters on `kb_id`, and where a scope holds most of a table a BTREE
 * lookup gathers its row ids one block at a time (at 100k rows in one knowledge base it took
 * the ANN search from ~13 to ~20 ms and full text from ~4 to ~10 ms; a bitmap hands the set over
 * whole: ~17 and ~7.5 ms, same machine, same load). Tables indexed before get it rebuilt.
 */
export function hasKbIndex(indices: readonly { name: string; indexType: string }[]): boolean {
  return indices.some((index) => index.name === KB_INDEX && index.indexType.toLowerCase() === "bitmap");
}

/** Builds (or replaces) the knowledge-base index of a table. */
export async function createKbIndex(table: Table): Promise<void> {
  await table.createIndex("kb_id", { config: (await loadModules()).lance.Index.bitmap(), name: KB_INDEX, replace: true });
}

export function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// The child process runs one LanceDB call (index build or optimize) on its own threads, so
// the CPU-bound work cannot starve this process's LanceDB thread pool: in-process, a 100k-row
// HNSW build held every write for its whole duration (measured: minutes on 2 cores).
const CHILD_SCRIPT = `
const [modulePath, directory, tableName, task] = process.argv.slice(1);
const lancedb = require(modulePath);
const job = JSON.parse(task);
(async () => {
  const connection = await lancedb.connect(directory);
  const table = await connection.openTable(tableName);
  if (job.kind === "index") {
    await table.createIndex("vector", { config: lancedb.Index.hnswSq(job.options), name: ${JSON.stringify(VECTOR_INDEX)}, replace: true });
  } else if (job.kind === "fts") {
    await table.createIndex(job.column, { config: lancedb.Index.fts(job.options), name: job.name, replace: true });
  } else {
    await table.optimize({ cleanupOlderThan: new Date(Date.now() - job.keepMs) });
  }
})().catch((error) => {
  process.stderr.write("\\nPARLEY_LANCE_ERROR " + String((error && error.message) || error).split("\\n")[0] + "\\n");
  process.exit(1);
});
`;

/** One LanceDB call run in a child process (see `CHILD_SCRIPT`). */
export type ChildJob =
  | { kind: "index"; options: { distanceType: "dot"; numPartitions: number } }
  | { kind: "fts"; column: string; name: string; options: Record<string, unknown> }
  | { kind: "optimize"; keepMs: number };

/** Runs one index build or optimize of `tableName` in a child process at lowered priority. */
export function runChild(directory: string, tableName: string, job: ChildJob): Promise<void> {
  const modulePath = createRequire(import.meta.url).resolve("@lancedb/lancedb");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", CHILD_SCRIPT, modulePath, directory, tableName, JSON.stringify(job)], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    // Background work yields to requests; failing to lower the priority is harmless.
    if (child.pid !== undefined) {
      try {
        os.setPriority(child.pid, 10);
      } catch {}
    }
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => {
      stderr = (stderr + data.toString()).slice(-4_000);
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) return resolve();
      const reported = /PARLEY_LANCE_ERROR (.*)/.exec(stderr)?.[1];
      reject(new Error(reported ?? `exited with ${signal ?? `code ${code}`}: ${stderr.trim().slice(-500)}`));
    });
  });
}

interface TableContext {
  directory: string;
  connect: () => Promise<Connection>;
  annThreshold: number;
  logger?: LanceStoreLogger;
  isClosed: () => boolean;
}

/** One model's LanceDB table, with its write queue and background index state. */
class LanceTable implements VectorIndex {
  readonly name: string;
  private opening: Promise<Table | undefined> | undefined;
  private table: Table | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private background: Promise<void> | undefined;
  private hasKbIndex = false;
  private hasVectorIndex = false;
  private indexedRows = 0;
  private unindexedRows = 0;
  private writesSinceCompaction = 0;
  private rows = 0;

  constructor(
    readonly model: string,
    readonly dimensions: number,
    private readonly context: TableContext,
  ) {
    this.name = lanceTableName(model, dimensions);
  }

  async upsert(rows: readonly VectorRow[]): Promise<void> {
    for (const row of rows) this.checkVector(row.vector, `chunk ${row.chunkId}`);
    if (rows.length === 0) return;
    // A source with one key twice makes the merge ambiguous: the last row wins, as in memory.
    const unique = [...new Map(rows.map((row) => [row.chunkId, row])).values()];
    await this.write(async (table) => {
      const data = await this.toArrow(unique);
      const result = await table.mergeInsert("chunk_id").whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data);
      this.rows += result.numInsertedRows;
      this.unindexedRows += result.numInsertedRows + result.numUpdatedRows;
    }, true);
  }

  async search(vector: Float32Array, options: { knowledgeBaseIds: readonly string[]; limit: number }): Promise<VectorHit[]> {
    this.checkVector(vector, "query");
    const limit = Math.floor(options.limit);
    if (options.knowledgeBaseIds.length === 0 || limit <= 0) return [];
    const table = await this.open(false);
    if (!table) return [];
    let query = table
      .vectorSearch(vector)
      .distanceType("dot")
      .where(inList("kb_id", [...new Set(options.knowledgeBaseIds)]))
      .select(["chunk_id", "kb_id", "file_id", "_distance"])
      .limit(limit);
    if (this.hasVectorIndex) {
      const settings = annSearchSettings(limit);
      query = query.ef(settings.ef).refineFactor(settings.refineFactor);
    }
    let rows: Array<{ chunk_id: string; kb_id: string; file_id: string; _distance: number }>;
    try {
      rows = await query.toArray();
    } catch (error) {
      throw new Error(`LanceDB search in ${this.name} failed: ${message(error)}`);
    }
    // LanceDB's dot distance is 1 − dot; vectors are unit length, so dot is the cosine.
    return rows.map((row) => ({ chunkId: row.chunk_id, knowledgeBaseId: row.kb_id, fileId: row.file_id, similarity: 1 - row._distance }));
  }

  async delete(filter: VectorDeleteFilter): Promise<void> {
    const predicates = deletePredicates(filter);
    if (predicates.length === 0) return;
    await this.write(async (table) => {
      for (const predicate of predicates) await table.delete(predicate);
      this.rows = await table.countRows();
    }, false);
  }

  async count(): Promise<number> {
    const table = await this.open(false);
    return table ? table.countRows() : 0;
  }

  /** Resolves when the queue is empty and no background job runs. */
  async whenIdle(): Promise<void> {
    for (;;) {
      const queue = this.queue;
      const background = this.background;
      await queue.catch(() => {});
      await background?.catch(() => {});
      if (queue === this.queue && background === this.background) return;
    }
  }

  private checkVector(vector: Float32Array, what: string) {
    if (vector.length !== this.dimensions) {
      throw new Error(`vector of ${vector.length} dimensions for ${what} in the ${this.dimensions}-d vector table of ${this.model}`);
    }
  }

  /** Runs `task` after every earlier write: concurrent commits to one table conflict. */
  private write(task: (table: Table) => Promise<void>, create: boolean): Promise<void> {
    return this.inQueue(async () => {
      const table = await this.open(create);
      if (!table) return;
      try {
        await task(table);
      } catch (error) {
        throw new Error(`LanceDB write to ${this.name} failed: ${message(error)}`);
      }
      this.writesSinceCompaction += 1;
      this.afterWrite();
    });
  }

  private inQueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task);
    this.queue = run.catch(() => {});
    return run;
  }

  /** Queues housekeeping behind the writes without making any caller wait for it. */
  private enqueue(what: string, task: () => Promise<void>) {
    this.inQueue(task).catch((error: unknown) => this.context.logger?.warn({ table: this.name, error: message(error) }, `LanceDB ${what} failed`));
  }

  private afterWrite() {
    if (!this.hasKbIndex && this.rows > 0) this.enqueue("kb_id index", () => this.createKbIndex());
    if (this.background) return;
    if (!this.hasVectorIndex) {
      if (this.rows >= this.context.annThreshold) this.startIndexBuild();
      else if (this.writesSinceCompaction >= COMPACT_EVERY_WRITES) this.enqueue("compaction", () => this.compact());
    } else if (this.unindexedRows >= Math.max(REINDEX_MIN_ROWS, this.indexedRows * REINDEX_SHARE) || this.writesSinceCompaction >= MAINTAIN_EVERY_WRITES) {
      this.startBackground("background optimize", async () => {
        this.writesSinceCompaction = 0;
        await runChild(this.context.directory, this.name, { kind: "optimize", keepMs: KEEP_VERSIONS_MS });
      });
    }
  }

  private async createKbIndex() {
    if (this.hasKbIndex || !this.table) return;
    await createKbIndex(this.table);
    this.hasKbIndex = true;
  }

  /** Merges small fragments and brings the scalar index up to date; in-process, so only without an ANN index. */
  private async compact() {
    this.writesSinceCompaction = 0;
    await this.table?.optimize({ cleanupOlderThan: new Date(Date.now() - KEEP_VERSIONS_MS) });
  }

  /**
   * Compacts the table first (an index over a few large fragments with an up-to-date kb_id
   * index searched in half the time: 14 ms against 27 ms at 100k rows over 54 fragments),
   * then builds the ANN index in a child process.
   */
  private startIndexBuild() {
    this.startBackground("ANN index build", async () => {
      await this.inQueue(() => this.compact()).catch((error: unknown) =>
        this.context.logger?.warn({ table: this.name, error: message(error) }, "LanceDB compaction failed"),
      );
      const numPartitions = Math.max(1, Math.round(this.rows / ROWS_PER_PARTITION));
      await runChild(this.context.directory, this.name, { kind: "index", options: { distanceType: "dot", numPartitions } });
    });
  }

  /**
   * Runs a background job (never two at once per table; the compaction it may queue waits
   * for earlier writes, later writes do not wait for it). On success the table is reopened
   * inside the write queue so searches see the new index; failures are logged, and retried
   * only once as many rows again have been written, so a lasting failure cannot loop.
   */
  private startBackground(action: string, job: () => Promise<void>) {
    const started = performance.now();
    const unindexedAtStart = this.unindexedRows;
    const rowsAtStart = this.rows;
    this.context.logger?.info({ table: this.name, rows: rowsAtStart }, `LanceDB ${action} started`);
    this.background = job()
      .then(async () => {
        const seconds = (performance.now() - started) / 1000;
        this.context.logger?.info({ table: this.name, rows: rowsAtStart, seconds: Number(seconds.toFixed(1)) }, `LanceDB ${action} finished`);
        await this.inQueue(() => this.reopen());
        this.hasVectorIndex = true;
        this.indexedRows = rowsAtStart;
        this.unindexedRows = Math.max(0, this.unindexedRows - unindexedAtStart);
      })
      .catch((error: unknown) => {
        this.unindexedRows = Math.max(0, this.unindexedRows - unindexedAtStart);
        if (!this.hasVectorIndex) this.context.annThreshold = rowsAtStart + Math.max(REINDEX_MIN_ROWS, Math.round(rowsAtStart * REINDEX_SHARE));
        this.context.logger?.warn({ table: this.name, error: message(error) }, `LanceDB ${action} failed`);
      })
      .finally(() => {
        this.background = undefined;
      });
  }

  private async reopen() {
    if (this.context.isClosed()) return;
    const connection = await this.context.connect();
    this.table = await connection.openTable(this.name);
  }

  /** The table, opened once; with `create`, made on first use. Undefined while it does not exist. */
  private async open(create: boolean): Promise<Table | undefined> {
    if (this.context.isClosed()) throw new Error(`LanceDB vector store in ${this.context.directory} is closed`);
    if (this.table) return this.table;
    this.opening ??= this.openOrCreate(create).finally(() => {
      this.opening = undefined;
    });
    const table = await this.opening;
    // A read that found no table must not stop a later write from creating it.
    return table ?? (create ? this.open(create) : undefined);
  }

  private async openOrCreate(create: boolean): Promise<Table | undefined> {
    try {
      const connection = await this.context.connect();
      const exists = (await connection.tableNames()).includes(this.name);
      if (!exists && !create) return undefined;
      const table = exists
        ? await connection.openTable(this.name)
        : await connection.createEmptyTable(this.name, await this.schema(), { mode: "create", existOk: true });
      await this.checkSchema(table);
      await this.loadState(table);
      this.table = table;
      // A restart may find a table that grew past the threshold before its index was built.
      if (this.rows > 0) this.afterOpen();
      return table;
    } catch (error) {
      throw new Error(`LanceDB cannot open vector table ${this.name} in ${this.context.directory}: ${message(error)}`);
    }
  }

  private afterOpen() {
    if (!this.hasKbIndex) this.enqueue("kb_id index", () => this.createKbIndex());
    if (!this.hasVectorIndex && this.rows >= this.context.annThreshold && !this.background) this.startIndexBuild();
  }

  private async checkSchema(table: Table) {
    const field = (await table.schema()).fields.find((candidate) => candidate.name === "vector");
    const size = (field?.type as { listSize?: number } | undefined)?.listSize;
    if (size !== this.dimensions) throw new Error(`the table holds ${size ?? "no"}-d vectors, not ${this.dimensions}-d`);
  }

  private async loadState(table: Table) {
    this.rows = await table.countRows();
    const indices = await table.listIndices();
    this.hasKbIndex = hasKbIndex(indices);
    for (const index of indices) {
      if (index.columns.includes("vector")) {
        this.hasVectorIndex = true;
        const stats = await table.indexStats(index.name);
        this.indexedRows = stats?.numIndexedRows ?? this.rows;
        this.unindexedRows = stats?.numUnindexedRows ?? 0;
      }
    }
  }

  private async schema() {
    const { arrow } = await loadModules();
    return new arrow.Schema([
      new arrow.Field("chunk_id", new arrow.Utf8(), false),
      new arrow.Field("kb_id", new arrow.Utf8(), false),
      new arrow.Field("file_id", new arrow.Utf8(), false),
      new arrow.Field("vector", new arrow.FixedSizeList(this.dimensions, new arrow.Field("item", new arrow.Float32(), true)), false),
    ]);
  }

  /** Rows as one Arrow record batch, the vectors copied into one contiguous buffer. */
  private async toArrow(rows: readonly VectorRow[]) {
    const { arrow } = await loadModules();
    const schema = await this.schema();
    const flat = new Float32Array(rows.length * this.dimensions);
    rows.forEach((row, index) => flat.set(row.vector, index * this.dimensions));
    const strings = (values: string[]) => arrow.vectorFromArray(values, new arrow.Utf8()).data[0]!;
    const vectors = arrow.makeData({
      type: schema.fields[3]!.type as InstanceType<ArrowModule["FixedSizeList"]>,
      length: rows.length,
      nullCount: 0,
      child: arrow.makeData({ type: new arrow.Float32(), length: flat.length, data: flat }),
    });
    const columns = arrow.makeData({
      type: new arrow.Struct(schema.fields),
      length: rows.length,
      nullCount: 0,
      children: [strings(rows.map((row) => row.chunkId)), strings(rows.map((row) => row.knowledgeBaseId)), strings(rows.map((row) => row.fileId)), vectors],
    });
    return new arrow.Table(schema, new arrow.RecordBatch(schema, columns));
  }
}

/**
 * Durable vector storage in LanceDB under `directory`: one table per embedding model and
 * dimension (`chunk_id`, `kb_id`, `file_id`, `vector`), a BTREE index on `kb_id` for the
 * knowledge-base prefilter, and an IVF_HNSW_SQ index built in a background process once a
 * table reaches `annThreshold` rows. Writes to one table are serialized in-process; searches
 * run alongside them. The connection opens on first use.
 */
export function createLanceVectorStore(options: LanceStoreOptions): LanceVectorStore {
  const tables = new Map<string, LanceTable>();
  let connection: Promise<Connection> | undefined;
  let closed = false;
  const context = (): TableContext => ({
    directory: options.directory,
    annThreshold: options.annThreshold ?? DEFAULT_ANN_THRESHOLD,
    ...(options.logger ? { logger: options.logger } : {}),
    isClosed: () => closed,
    connect: () => {
      connection ??= loadModules()
        .then(({ lance }) => lance.connect(options.directory))
        .catch((error: unknown) => {
          connection = undefined;
          throw new Error(`LanceDB cannot open ${options.directory}: ${message(error)}`);
        });
      return connection;
    },
  });
  const whenIdle = async () => {
    await Promise.all([...tables.values()].map((table) => table.whenIdle()));
  };
  return {
    table(model, dimensions) {
      if (closed) throw new Error(`LanceDB vector store in ${options.directory} is closed`);
      if (!Number.isInteger(dimensions) || dimensions <= 0)
        throw new Error(`vector table ${model} needs a positive whole number of dimensions, not ${dimensions}`);
      let table = tables.get(model);
      if (!table) {
        table = new LanceTable(model, dimensions, context());
        tables.set(model, table);
      }
      if (table.dimensions !== dimensions) throw new Error(`vector table ${model} holds ${table.dimensions}-d vectors, not ${dimensions}-d`);
      return table;
    },
    whenIdle,
    async close() {
      if (closed) return;
      await whenIdle();
      closed = true;
      const open = connection;
      connection = undefined;
      if (open) (await open.catch(() => undefined))?.close();
    },
  };
}
