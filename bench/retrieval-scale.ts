/**
 * Retrieval latency at scale: a knowledge base of N chunks stored through the production
 * indexing code (SQLite rows + FTS5, LanceDB vectors with its background ANN index), then
 * ~300 real queries through the production search functions.
 *
 *   npm run bench:retrieval-scale [-- --chunks 100000 --queries 300 --ann-threshold 100000 --keep]
 *
 * Passages are the SciFact and CMRC2018 corpora (../shared/data), cut by the production
 * chunker and repeated with a varying suffix until N chunks; one file row per 1,000 chunks.
 * The embedder and the SQLite and ANN settings come from the environment exactly as the server
 * reads them (PARLEY_EMBEDDINGS_*, PARLEY_SQLITE_*, PARLEY_VECTOR_ANN_THRESHOLD), through the
 * server's providers: unset, the offline lexical embedder, so no time goes to a remote service.
 * `--keep` leaves the SQLite file and LanceDB directory in place (path printed) for profiling;
 * `--reuse <that path>` measures the searches again on it without ingesting (ingest and build
 * figures are then not printed), e.g. once the machine is quiet or after a search change.
 *
 * Prints chunks, ingest_chunks_per_s, ann_index_build_s, then p50/p95 per query in ms for
 * hybrid (limit 10), and for its two halves at the depth hybrid asks of them (50): semantic
 * (LanceDB + chunk rows) and fulltext (the LanceDB full-text index past its threshold, else
 * FTS5, + rows); fts5_* is the FTS5 path alone; lance_* is the LanceDB vector search alone;
 * semantic_recall_at_10 compares LanceDB's top 10 with an exact scan (ties count).
 * The query embedding is excluded from every timing: each query is embedded once before the
 * timed runs (query_embed_p50_ms reports what that took) and searches get the stored vector.
 * hybrid_top10_same_as_exact is the share of queries whose hybrid top 10 (ANN + early-terminating
 * full text) holds the same chunks as an exact one: exhaustive vector scan and exhaustive FTS5
 * BM25 over the same data, fused by the same function; _ties also counts a different chunk of
 * the same passage (the corpus repeats passages, whose copies tie) as the same. The exhaustive
 * BM25 is the LanceDB index asked for every row it matches (WAND then skips nothing);
 * hybrid_top10_same_as_fts5_flat_ties compares with today's engine (FTS5, flat vectors) instead.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import * as lancedb from "@lancedb/lancedb";
import { eq } from "drizzle-orm";
import { readJsonl } from "./beir";
import { newId } from "../packages/api/src/crypto";
import { openDatabase } from "../packages/api/src/db/client";
import { knowledgeBases, knowledgeFiles, spaces } from "../packages/api/src/db/schema/index";
import { chunkText } from "../packages/api/src/knowledge/retrieval/chunker";
import { type ChunkInput, storeChunks } from "../packages/api/src/knowledge/retrieval/indexing";
import { createLanceVectorStore } from "../packages/api/src/knowledge/retrieval/lance-store";
import { createLanceTextIndex, type TextIndex } from "../packages/api/src/knowledge/retrieval/lance-text";
import { fullTextSearch, hybridSearch, semanticSearch } from "../packages/api/src/knowledge/retrieval/search";
import { createMemoryVectorIndex, type VectorIndex, type VectorRow } from "../packages/api/src/knowledge/retrieval/vector-index";
import { loadConfig } from "../packages/api/src/config";
import { createLogger } from "../packages/api/src/logger";
import type { Embedder } from "../packages/api/src/platform/embeddings/types";
import { createProviders } from "../packages/api/src/platform/providers";

const { values } = parseArgs({
  options: {
    chunks: { type: "string", default: "100000" },
    queries: { type: "string", default: "300" },
    "ann-threshold": { type: "string" },
    "fulltext-threshold": { type: "string" },
    data: { type: "string", default: path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../shared/data") },
    driver: { type: "string", default: "better-sqlite3" },
    keep: { type: "boolean", default: false },
    reuse: { type: "string" },
  },
});
const chunkTarget = Number(values.chunks);
const queryTarget = Number(values.queries);
const annThresholdArgument = values["ann-threshold"] === undefined ? undefined : Number(values["ann-threshold"]);
if (!Number.isInteger(chunkTarget) || chunkTarget <= 0 || !Number.isInteger(queryTarget) || queryTarget <= 0)
  throw new Error("--chunks and --queries take positive integers");
const driver = values.driver === "libsql" ? "libsql" : "better-sqlite3";
const CORPORA = ["scifact", "cmrc2018-retrieval"];
const CHUNKS_PER_FILE = 1_000;
/** What hybrid search asks of each list (search.ts FUSION_DEPTH); the halves are timed at it. */
const HYBRID_DEPTH = 50;

function basePassages(): ChunkInput[] {
  const passages: ChunkInput[] = [];
  for (const corpus of CORPORA) {
    for (const doc of readJsonl<{ title?: string; text: string }>(path.join(values.data, corpus, "corpus.jsonl"))) {
      passages.push(...chunkText(doc.title ? `${doc.title}\n\n${doc.text}` : doc.text));
    }
  }
  return passages;
}

/** The i-th chunk: passages in turn, each round after the first with its own suffix. */
function chunkAt(passages: readonly ChunkInput[], index: number): ChunkInput {
  const passage = passages[index % passages.length]!;
  const round = Math.floor(index / passages.length);
  const content = round === 0 ? passage.content : `${passage.content}\n(variant ${round})`;
  return { ordinal: index % CHUNKS_PER_FILE, content, tokens: passage.tokens + (round === 0 ? 0 : 3), headings: passage.headings };
}

/** Queries taken evenly from each corpus, alternating languages. */
function benchQueries(): string[] {
  const lists = CORPORA.map((corpus) => readJsonl<{ text: string }>(path.join(values.data, corpus, "queries.jsonl")).map((query) => query.text));
  const perCorpus = Math.ceil(queryTarget / lists.length);
  const picked = lists.map((list) =>
    Array.from({ length: Math.min(perCorpus, list.length) }, (_, index) => list[Math.floor((index * list.length) / perCorpus)]!),
  );
  const queries: string[] = [];
  for (let index = 0; queries.length < queryTarget && index < perCorpus; index += 1) {
    for (const list of picked) if (index < list.length && queries.length < queryTarget) queries.push(list[index]!);
  }
  return queries;
}

/**
 * Writes go to LanceDB and to an exact in-memory index, so LanceDB's recall can be measured;
 * the time spent in LanceDB upserts is added to `writeMs`.
 */
function withExactCopy(lance: VectorIndex, exact: VectorIndex, writeMs: { total: number }): VectorIndex {
  return {
    model: lance.model,
    dimensions: lance.dimensions,
    async upsert(rows) {
      const started = performance.now();
      await lance.upsert(rows);
      writeMs.total += performance.now() - started;
      await exact.upsert(rows);
    },
    search: (vector, options) => lance.search(vector, options),
    delete: (filter) => Promise.all([lance.delete(filter), exact.delete(filter)]).then(() => undefined),
    count: () => lance.count(),
  };
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function timed<T>(samples: number[], run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await run();
  samples.push(performance.now() - started);
  return result;
}

const reused = values.reuse;
const dataDir = reused ? path.resolve(reused) : fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-retrieval-scale-"));
// The server's configuration from the same variables; only the data folder, database and log level are the bench's.
const config = loadConfig({
  ...process.env,
  PARLEY_DATA_DIR: dataDir,
  PARLEY_DATABASE_URL: undefined,
  PARLEY_DATABASE_DRIVER: driver,
  PARLEY_LOG_LEVEL: "silent",
});
const { cacheMb: sqliteCacheMb, mmapMb: sqliteMmapMb } = config.database;
const annThreshold = annThresholdArgument ?? config.knowledge.annThreshold;
const database = await openDatabase(config.database);
const { db } = database;
// The embedder new knowledge bases get on the server, built by the server's own providers.
const providers = createProviders(config, db, createLogger("silent"));
const embedder = providers.knowledge.defaultEmbedder;
let annBuildSeconds: number | undefined;
const store = createLanceVectorStore({
  // Its own directory: the providers' store (unused here, never opened) would be "vectors".
  directory: path.join(dataDir, "bench-vectors"),
  annThreshold,
  logger: {
    info(fields, message) {
      if (message === "LanceDB ANN index build finished") annBuildSeconds = (fields as { seconds: number }).seconds;
    },
    warn(fields, message) {
      console.error(`# ${message} ${JSON.stringify(fields)}`);
    },
  },
});
const lance = store.table(embedder.id, embedder.dimensions);
const text = createLanceTextIndex({
  directory: path.join(dataDir, "vectors"),
  ...(values["fulltext-threshold"] === undefined ? {} : { threshold: Number(values["fulltext-threshold"]) }),
  logger: {
    info() {},
    warn(fields, message) {
      console.error(`# ${message} ${JSON.stringify(fields)}`);
    },
  },
});
const exact = createMemoryVectorIndex(embedder.id, embedder.dimensions);
const vectorWriteMs = { total: 0 };
const vectors = withExactCopy(lance, exact, vectorWriteMs);

const passages = basePassages();
const fileCount = Math.ceil(chunkTarget / CHUNKS_PER_FILE);
let knowledgeBaseId: string;
let ingestSeconds: number | undefined;
let waitSeconds: number | undefined;
if (reused) {
  const [row] = await db.select({ id: knowledgeBases.id }).from(knowledgeBases).where(eq(knowledgeBases.code, "bench"));
  if (!row) throw new Error(`${reused} holds no bench knowledge base`);
  knowledgeBaseId = row.id;
  // The exact reference index gets the vectors LanceDB stores.
  await exact.upsert(await storedVectors(path.join(dataDir, "bench-vectors")));
  await Promise.all([store.whenIdle(), text.whenIdle()]);
} else {
  ({ knowledgeBaseId, ingestSeconds, waitSeconds } = await ingest());
}

/** Every row of the kept vector table, for the exact index of a reused run. */
async function storedVectors(directory: string): Promise<VectorRow[]> {
  const connection = await lancedb.connect(directory);
  const name = (await connection.tableNames()).find((candidate) => candidate.startsWith("vectors_"));
  if (!name) throw new Error(`no vector table in ${directory}`);
  const table = await connection.openTable(name);
  const rows = (await table.query().select(["chunk_id", "kb_id", "file_id", "vector"]).toArray()) as Array<{
    chunk_id: string;
    kb_id: string;
    file_id: string;
    vector: ArrayLike<number>;
  }>;
  connection.close();
  return rows.map((row) => ({ chunkId: row.chunk_id, knowledgeBaseId: row.kb_id, fileId: row.file_id, vector: Float32Array.from(row.vector) }));
}

async function ingest() {
  const now = new Date().toISOString();
  const spaceId = newId("spc");
  const knowledgeBaseId = newId("kb");
  await db.insert(spaces).values({ id: spaceId, code: "bench", name: "bench", kind: "team", ownerUserId: "usr_bench", updatedAt: now });
  await db
    .insert(knowledgeBases)
    .values({ id: knowledgeBaseId, spaceId, code: "bench", name: "bench", embeddingModel: embedder.id, createdBy: "usr_bench", updatedAt: now });

  const fileIds = Array.from({ length: fileCount }, () => newId("kf"));
  await db.insert(knowledgeFiles).values(
    fileIds.map((id, index) => ({
      id,
      spaceId,
      knowledgeBaseId,
      name: `part-${index}.txt`,
      type: "document" as const,
      source: `part-${index}.txt`,
      status: "processing" as const,
      updatedAt: now,
    })),
  );

  const ingestStart = performance.now();
  for (const [fileIndex, fileId] of fileIds.entries()) {
    const start = fileIndex * CHUNKS_PER_FILE;
    const chunks = Array.from({ length: Math.min(CHUNKS_PER_FILE, chunkTarget - start) }, (_, offset) => chunkAt(passages, start + offset));
    await storeChunks({ db, embedder, vectors, text }, { spaceId, knowledgeBaseId, fileId }, chunks);
  }
  const ingestSeconds = (performance.now() - ingestStart) / 1000;
  const waitStart = performance.now();
  await Promise.all([store.whenIdle(), text.whenIdle()]);
  const waitSeconds = (performance.now() - waitStart) / 1000;
  return { knowledgeBaseId, ingestSeconds, waitSeconds };
}

const queries = benchQueries();
// Each query is embedded once, untimed: the searches below get the stored vector.
const queryVectors = new Map<string, Float32Array>();
const embedTimes: number[] = [];
for (const query of queries) {
  const started = performance.now();
  const [vector] = await embedder.embed([query], { kind: "query" });
  embedTimes.push(performance.now() - started);
  queryVectors.set(query, vector!);
}
const embedded: Embedder = {
  ...embedder,
  embed: async (texts, options) => (options.kind === "query" ? texts.map((query) => queryVectors.get(query)!) : embedder.embed(texts, options)),
};
const deps = { db, embedder: embedded, vectors, text };
// The exact reference: a flat vector scan, and the same BM25 asked for every row it matches (no
// top-k to skip towards, so nothing is skipped), cut to the depth asked.
const exhaustiveText: TextIndex = {
  ...text,
  search: async (terms, options) => (await text.search(terms, { ...options, limit: chunkTarget }))?.slice(0, options.limit),
};
const exactDeps = { db, embedder: embedded, vectors: exact, text: exhaustiveText };
const fts5Deps = { db, embedder: embedded, vectors: exact };
const scope = [knowledgeBaseId];
// Warm-up: the first searches load the index and SQLite pages; steady state is what counts.
for (const query of queries.slice(0, 20)) await hybridSearch(deps, { query, knowledgeBaseIds: scope, limit: 10 });

const hybrid: number[] = [];
const semantic: number[] = [];
const fullText: number[] = [];
const lanceOnly: number[] = [];
const fts5Only: number[] = [];
let sameAsExact = 0;
let sameAsExactTies = 0;
let sameAsFts5 = 0;
const passageOf = (content: string) => content.replace(/\n\(variant \d+\)$/, "");
let recallSum = 0;
let recallCount = 0;
// Each timing is a pass of its own over all queries: the reference searches below (a flat scan of
// every vector, BM25 over every matching row) are the bench's instruments, not a server's load, and
// interleaved with the timed searches they evicted the caches those searches run from.
const fastResults = new Map<string, Awaited<ReturnType<typeof hybridSearch>>>();
for (const query of queries) fastResults.set(query, await timed(hybrid, () => hybridSearch(deps, { query, knowledgeBaseIds: scope, limit: 10 })));
for (const query of queries) await timed(semantic, () => semanticSearch(deps, { query, knowledgeBaseIds: scope, limit: HYBRID_DEPTH }));
for (const query of queries) await timed(fullText, () => fullTextSearch(db, { query, knowledgeBaseIds: scope, limit: HYBRID_DEPTH }, text));
for (const query of queries) await timed(lanceOnly, () => lance.search(queryVectors.get(query)!, { knowledgeBaseIds: scope, limit: HYBRID_DEPTH + 10 }));
for (const query of queries) await timed(fts5Only, () => fullTextSearch(db, { query, knowledgeBaseIds: scope, limit: HYBRID_DEPTH }));
for (const query of queries) {
  const fast = fastResults.get(query)!;
  const slow = await hybridSearch(exactDeps, { query, knowledgeBaseIds: scope, limit: 10 });
  const sameBy = (key: (chunk: (typeof fast)[number]) => string) => {
    const keys = (list: typeof fast) => list.map(key).sort().join("\u0000");
    return keys(fast) === keys(slow);
  };
  if (sameBy((chunk) => chunk.chunkId)) sameAsExact += 1;
  if (sameBy((chunk) => passageOf(chunk.content))) sameAsExactTies += 1;
  const fts5Exact = await hybridSearch(fts5Deps, { query, knowledgeBaseIds: scope, limit: 10 });
  if (
    fast
      .map((chunk) => passageOf(chunk.content))
      .sort()
      .join("\u0000") ===
    fts5Exact
      .map((chunk) => passageOf(chunk.content))
      .sort()
      .join("\u0000")
  )
    sameAsFts5 += 1;
  const vector = queryVectors.get(query);
  const expected = await exact.search(vector!, { knowledgeBaseIds: scope, limit: 10 });
  if (expected.length > 0) {
    // Repeated passages tie; any hit as similar as the exact 10th counts as found.
    const cutoff = expected[expected.length - 1]!.similarity - 1e-5;
    const found = (await lance.search(vector!, { knowledgeBaseIds: scope, limit: 10 })).filter((hit) => hit.similarity >= cutoff).length;
    recallSum += Math.min(found, expected.length) / expected.length;
    recallCount += 1;
  }
}

const stored = await lance.count();
await Promise.all([store.close(), text.close()]);
await providers.knowledge.close();
await database.close();
if (values.keep || reused) console.log(`# kept ${dataDir} (knowledge base ${knowledgeBaseId})`);
else fs.rmSync(dataDir, { recursive: true, force: true });

const ms = (value: number) => value.toFixed(2);
console.log(
  `# corpora=${CORPORA.join("+")} base_passages=${passages.length} files=${fileCount} queries=${queries.length} embedder=${embedder.id} ann_threshold=${annThreshold} driver=${driver} sqlite_cache_mb=${sqliteCacheMb} sqlite_mmap_mb=${sqliteMmapMb} cpus=${os.cpus().length}`,
);
console.log(`chunks=${stored}`);
if (ingestSeconds !== undefined && waitSeconds !== undefined) {
  console.log(`ingest_chunks_per_s=${(chunkTarget / ingestSeconds).toFixed(0)}`);
  console.log(`ingest_lance_share=${(vectorWriteMs.total / 1000 / ingestSeconds).toFixed(2)}`);
  console.log(`ann_index_build_s=${annBuildSeconds === undefined ? "none" : annBuildSeconds.toFixed(1)}`);
  console.log(`ann_index_wait_after_ingest_s=${waitSeconds.toFixed(1)}`);
}
console.log(`hybrid_p50_ms=${ms(percentile(hybrid, 50))}`);
console.log(`hybrid_p95_ms=${ms(percentile(hybrid, 95))}`);
console.log(`semantic_p50_ms=${ms(percentile(semantic, 50))}`);
console.log(`semantic_p95_ms=${ms(percentile(semantic, 95))}`);
console.log(`fulltext_p50_ms=${ms(percentile(fullText, 50))}`);
console.log(`fulltext_p95_ms=${ms(percentile(fullText, 95))}`);
console.log(`fts5_p50_ms=${ms(percentile(fts5Only, 50))}`);
console.log(`fts5_p95_ms=${ms(percentile(fts5Only, 95))}`);
console.log(`query_embed_p50_ms=${ms(percentile(embedTimes, 50))} (excluded from the timings above)`);
console.log(`lance_p50_ms=${ms(percentile(lanceOnly, 50))}`);
console.log(`lance_p95_ms=${ms(percentile(lanceOnly, 95))}`);
console.log(`semantic_recall_at_10=${(recallCount > 0 ? recallSum / recallCount : 0).toFixed(4)}`);
console.log(`hybrid_top10_same_as_exact=${(sameAsExact / queries.length).toFixed(4)}`);
console.log(`hybrid_top10_same_as_exact_ties=${(sameAsExactTies / queries.length).toFixed(4)}`);
console.log(`hybrid_top10_same_as_fts5_flat_ties=${(sameAsFts5 / queries.length).toFixed(4)} (engine change: FTS5's bm25 differs from LanceDB's)`);
console.log(
  `# load average at the end: ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(" ")}`,
);
