/**
 * Retrieval quality and speed on a BEIR-layout corpus, through the production import flow
 * (file with prepared text, confirm, the durable indexing job: chunker, segmenter, embedder,
 * full text and vector store) and the production search service.
 *
 *   npm run bench:retrieval -- --corpus ../shared/data/scifact --qrels ../shared/data/scifact/qrels/train.tsv [--mode hybrid] [--threshold 0.75] [--vectors lancedb|memory]
 *
 * Mode and similarity threshold default to what a new app gets (decision 0010); the first line
 * says which were used.
 *
 * Prints import_files_per_s, ingest_chunks_per_s, query_p50_ms, query_p95_ms, then ndcg@10 and
 * recall@10 last. Each corpus document becomes one knowledge file of one knowledge base.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { count, eq } from "drizzle-orm";
import { defaultAppSettings } from "../packages/api/src/apps/service/rules";
import { loadConfig } from "../packages/api/src/config";
import { newId } from "../packages/api/src/crypto";
import { openDatabase } from "../packages/api/src/db/client";
import { knowledgeChunks, knowledgeFiles, spaces } from "../packages/api/src/db/schema/index";
import type { Auth, Deps } from "../packages/api/src/http/context";
import { createMemoryThrottle } from "../packages/api/src/http/throttle";
import { type RetrievalMode, retrievalModes } from "../packages/api/src/knowledge/retrieval/search";
import { confirmFile, createImportedFile } from "../packages/api/src/knowledge/service/files";
import { createKnowledgeBase } from "../packages/api/src/knowledge/service/knowledge-bases";
import { searchKnowledgeBases } from "../packages/api/src/knowledge/service/retrieval";
import { createKnowledgeWorker } from "../packages/api/src/knowledge/worker";
import { createLogger } from "../packages/api/src/logger";
import { createProviders } from "../packages/api/src/platform/providers";

const appDefaults = defaultAppSettings();
const { values } = parseArgs({
  options: {
    corpus: { type: "string" },
    qrels: { type: "string" },
    mode: { type: "string", default: appDefaults.retrievalMode },
    /** Calibrated similarity threshold of semantic hits (0–1), as an app's. */
    threshold: { type: "string", default: String(appDefaults.similarityThreshold) },
    driver: { type: "string", default: "better-sqlite3" },
    /** Vector store: lancedb (the default, as the server) or memory. */
    vectors: { type: "string" },
  },
});
if (!values.corpus || !values.qrels) throw new Error("usage: --corpus DIR --qrels FILE [--mode semantic|fulltext|hybrid] [--threshold 0..1]");
const threshold = Number(values.threshold);
if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1) throw new Error("--threshold must be a number from 0 to 1");
const mode = values.mode as RetrievalMode;
if (!retrievalModes.includes(mode)) throw new Error(`--mode must be one of ${retrievalModes.join(", ")}`);
const driver = values.driver === "libsql" ? "libsql" : "better-sqlite3";

function readJsonl<T>(file: string): T[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as T);
}

const corpus = readJsonl<{ _id: string; title?: string; text: string }>(path.join(values.corpus, "corpus.jsonl"));
const queries = new Map(readJsonl<{ _id: string; text: string }>(path.join(values.corpus, "queries.jsonl")).map((query) => [query._id, query.text]));
const qrels = new Map<string, Map<string, number>>();
for (const line of fs.readFileSync(values.qrels, "utf8").split("\n").slice(1)) {
  const [queryId, docId, grade] = line.trim().split("\t");
  if (!queryId || !docId || grade === undefined) continue;
  if (!qrels.has(queryId)) qrels.set(queryId, new Map());
  qrels.get(queryId)!.set(docId, Number(grade));
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-retrieval-"));
const config = loadConfig({
  PARLEY_DATA_DIR: dataDir,
  PARLEY_DATABASE_DRIVER: driver,
  PARLEY_LOG_LEVEL: "silent",
  ...(values.vectors ? { PARLEY_VECTOR_STORE: values.vectors } : {}),
  // PARLEY_FULLTEXT_INDEX_THRESHOLD=1 measures the LanceDB full-text index on a small corpus.
  ...(process.env.PARLEY_FULLTEXT_INDEX_THRESHOLD ? { PARLEY_FULLTEXT_INDEX_THRESHOLD: process.env.PARLEY_FULLTEXT_INDEX_THRESHOLD } : {}),
});
const database = await openDatabase(config.database);
const { db } = database;
const logger = createLogger("silent");
// The server's own dependencies: the configured embedder (offline lexical by default) and vector store.
const deps: Deps = { config, db, logger, ...createProviders(config, db, logger), throttle: createMemoryThrottle(), now: () => new Date() };
const now = new Date().toISOString();
const spaceId = newId("spc");
const auth: Auth = { userId: "usr_bench", spaceId, role: "owner", via: "api-key" };
await db.insert(spaces).values({ id: spaceId, code: "bench", name: "bench", kind: "team", ownerUserId: auth.userId, updatedAt: now });
const base = await createKnowledgeBase(deps, auth, { name: "bench" });
const embedder = deps.knowledge.embedder(base.embeddingModel)!;

// The import flow of the console: each document becomes a file (prepared text), is confirmed,
// and the durable indexing job stores its chunks, full text and vectors.
const docByFile = new Map<string, string>();
const ingestStart = performance.now();
for (const [index, doc] of corpus.entries()) {
  const text = doc.title ? `${doc.title}\n\n${doc.text}` : doc.text;
  const file = await createImportedFile(deps, auth, base.id, {
    type: "document",
    name: `doc-${index}`,
    source: doc._id,
    sizeBytes: Buffer.byteLength(text),
    prepared: { kind: "text", text },
  });
  await confirmFile(deps, auth, file.id);
  docByFile.set(file.id, doc._id);
}
const importSeconds = (performance.now() - ingestStart) / 1000;
await createKnowledgeWorker(deps, { idleMs: 0 }).drain();
await deps.knowledge.text?.whenIdle();
const ingestSeconds = (performance.now() - ingestStart) / 1000;
const chunkCount = (await db.select({ n: count() }).from(knowledgeChunks).where(eq(knowledgeChunks.knowledgeBaseId, base.id)).get())?.n ?? 0;
const failed = (await db.select({ n: count() }).from(knowledgeFiles).where(eq(knowledgeFiles.status, "failed")).get())?.n ?? 0;
if (failed > 0) throw new Error(`${failed} files failed to index`);

const latencies: number[] = [];
let ndcgSum = 0;
let recallSum = 0;
let evaluated = 0;
for (const [queryId, relevant] of qrels) {
  const query = queries.get(queryId);
  if (query === undefined) continue;
  const started = performance.now();
  // Long documents may give several chunks; ask for more and keep each document's best chunk.
  const hits = await searchKnowledgeBases(deps, spaceId, [base.id], { mode, query, limit: 30, similarityThreshold: threshold });
  latencies.push(performance.now() - started);
  const ranked: string[] = [];
  for (const hit of hits) {
    const docId = docByFile.get(hit.fileId)!;
    if (!ranked.includes(docId)) ranked.push(docId);
    if (ranked.length === 10) break;
  }
  let dcg = 0;
  ranked.forEach((docId, rank) => {
    dcg += (relevant.get(docId) ?? 0) / Math.log2(rank + 2);
  });
  const ideal = [...relevant.values()]
    .filter((grade) => grade > 0)
    .sort((left, right) => right - left)
    .slice(0, 10);
  const idcg = ideal.reduce((sum, grade, rank) => sum + grade / Math.log2(rank + 2), 0);
  const relevantCount = [...relevant.values()].filter((grade) => grade > 0).length;
  ndcgSum += idcg > 0 ? dcg / idcg : 0;
  recallSum += relevantCount > 0 ? ranked.filter((docId) => (relevant.get(docId) ?? 0) > 0).length / relevantCount : 0;
  evaluated += 1;
}

latencies.sort((left, right) => left - right);
const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
await deps.knowledge.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });

console.log(
  `corpus=${path.basename(path.resolve(values.corpus))} mode=${mode} threshold=${threshold} docs=${corpus.length} chunks=${chunkCount} queries=${evaluated} embedder=${embedder.id} vectors=${config.knowledge.vectorStore} driver=${driver}`,
);
console.log(`import_files_per_s=${(corpus.length / importSeconds).toFixed(0)}`);
console.log(`ingest_chunks_per_s=${(chunkCount / ingestSeconds).toFixed(0)}`);
console.log(`query_p50_ms=${percentile(50).toFixed(2)}`);
console.log(`query_p95_ms=${percentile(95).toFixed(2)}`);
console.log(`ndcg@10=${(ndcgSum / evaluated).toFixed(4)}`);
console.log(`recall@10=${(recallSum / evaluated).toFixed(4)}`);
