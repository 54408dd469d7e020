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
 * The embedder and vector store come from the environment exactly as the server reads them
 * (PARLEY_EMBEDDINGS_*, PARLEY_VECTOR_*); only the data folder, database and log level are the bench's.
 *
 * Prints import_files_per_s, ingest_chunks_per_s beside embed_server_texts_per_s (the embedder's
 * own throughput, measured after ingestion by sending the same chunk texts straight to it in
 * batches of the configured size and concurrency), query_p50_ms, query_p95_ms (of --mode), then
 * nDCG@10 and recall@10 of every mode's top list (`fulltext_`, `semantic_`, `hybrid_`), of the
 * chunks an app with default settings retrieves (`app_`: counts, threshold and mode of a new app;
 * at most its counts, so fewer than 10), and of --mode again last (`ndcg@10`, `recall@10`). Each
 * corpus document becomes one knowledge file of one knowledge base.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { readBeir } from "./beir";
import { count, eq } from "drizzle-orm";
import { defaultAppSettings } from "../packages/api/src/apps/service/rules";
import { loadConfig } from "../packages/api/src/config";
import { newId } from "../packages/api/src/crypto";
import { openDatabase } from "../packages/api/src/db/client";
import { knowledgeChunks, knowledgeFiles, spaces } from "../packages/api/src/db/schema/index";
import type { Auth, Deps } from "../packages/api/src/http/context";
import { createMemoryThrottle } from "../packages/api/src/http/throttle";
import { indexedText } from "../packages/api/src/knowledge/retrieval/indexing";
import { type RetrievalMode, retrievalModes } from "../packages/api/src/knowledge/retrieval/search";
import { confirmFile, createImportedFile } from "../packages/api/src/knowledge/service/files";
import { createKnowledgeBase } from "../packages/api/src/knowledge/service/knowledge-bases";
import { retrieveFromKnowledgeBases, searchKnowledgeBases } from "../packages/api/src/knowledge/service/retrieval";
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

const { corpus, queries, qrels } = readBeir(values.corpus, values.qrels);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-retrieval-"));
const config = loadConfig({
  ...process.env,
  PARLEY_DATA_DIR: dataDir,
  PARLEY_DATABASE_URL: undefined,
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
// The instance administrator's per-space overrides lift the knowledge quotas (a free space stops at 100 files).
const unlimited = JSON.stringify({ knowledgeEntries: 1_000_000_000, knowledgeTokens: 1_000_000_000_000 });
await db
  .insert(spaces)
  .values({ id: spaceId, code: "bench", name: "bench", kind: "team", ownerUserId: auth.userId, quotaOverrides: unlimited, updatedAt: now });
const base = await createKnowledgeBase(deps, auth, { name: "bench" });
const embedder = deps.knowledge.embedder(base.embeddingModel)!;
const embedBatch = { size: config.knowledge.embeddings?.batchSize ?? 64, concurrency: config.knowledge.embeddings?.concurrency ?? 1 };
// A first request opens the connection and wakes the model, so neither figure below pays for it.
await embedder.embed(["warm-up"], { kind: "document" });

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
const embedServerTextsPerSecond = await embedderThroughput(await chunkTexts());

/** The texts the indexing job embedded, as it embedded them. */
async function chunkTexts(): Promise<string[]> {
  const rows = await db
    .select({ content: knowledgeChunks.content, metadata: knowledgeChunks.metadata })
    .from(knowledgeChunks)
    .where(eq(knowledgeChunks.knowledgeBaseId, base.id));
  return rows.map((row) => {
    const headings = (JSON.parse(row.metadata ?? "{}") as { headings?: string[] }).headings ?? [];
    return indexedText({ ordinal: 0, content: row.content, tokens: 0, headings });
  });
}

/**
 * Texts per second the embedder answers on its own: for a remote one, batches of the configured
 * size posted straight to its endpoint in its wire format, the configured number at a time.
 */
async function embedderThroughput(texts: string[]): Promise<number> {
  const remote = config.knowledge.embeddings;
  const batches: string[][] = [];
  for (let start = 0; start < texts.length; start += embedBatch.size) {
    batches.push(texts.slice(start, start + embedBatch.size).map((text) => (remote?.documentPrefix ?? "") + text));
  }
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: embedBatch.concurrency }, async () => {
      while (next < batches.length) {
        const input = batches[next++]!;
        if (!remote) {
          await embedder.embed(input, { kind: "document" });
          continue;
        }
        const ollama = remote.provider === "ollama";
        const response = await fetch(`${remote.baseUrl}${ollama ? "/api/embed" : "/embeddings"}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(remote.apiKey ? { authorization: `Bearer ${remote.apiKey}` } : {}) },
          body: JSON.stringify(ollama ? { model: remote.model, input } : { model: remote.model, input, encoding_format: "float" }),
        });
        if (!response.ok) throw new Error(`embeddings server answered ${response.status}: ${await response.text()}`);
        await response.json();
      }
    }),
  );
  return texts.length / ((performance.now() - started) / 1000);
}

/** nDCG@10 and recall@10 of one ranked list of chunks, by document (a document's best chunk counts). */
function judge(hits: readonly { fileId: string }[], relevant: Map<string, number>): { ndcg: number; recall: number } {
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
  return {
    ndcg: idcg > 0 ? dcg / idcg : 0,
    recall: relevantCount > 0 ? ranked.filter((docId) => (relevant.get(docId) ?? 0) > 0).length / relevantCount : 0,
  };
}

// Every mode's ranked list, and the retrieval an app with default settings performs (the chunks
// its answer would get: counts, threshold and mode of a new app), judged the same way.
const lists = [...retrievalModes, "app"] as const;
const sums = Object.fromEntries(lists.map((list) => [list, { ndcg: 0, recall: 0 }])) as Record<(typeof lists)[number], { ndcg: number; recall: number }>;
const latencies: number[] = [];
let evaluated = 0;
for (const [queryId, relevant] of qrels) {
  const query = queries.get(queryId);
  if (query === undefined) continue;
  for (const listMode of retrievalModes) {
    const started = performance.now();
    // Long documents may give several chunks; ask for more and keep each document's best chunk.
    const hits = await searchKnowledgeBases(deps, spaceId, [base.id], { mode: listMode, query, limit: 30, similarityThreshold: threshold });
    if (listMode === mode) latencies.push(performance.now() - started);
    const judged = judge(hits, relevant);
    sums[listMode].ndcg += judged.ndcg;
    sums[listMode].recall += judged.recall;
  }
  const app = judge(
    await retrieveFromKnowledgeBases(deps, spaceId, [base.id], {
      query,
      mode: appDefaults.retrievalMode,
      similarityThreshold: appDefaults.similarityThreshold,
      semanticCount: appDefaults.semanticCount,
      fullTextCount: appDefaults.fullTextCount,
    }),
    relevant,
  );
  sums.app.ndcg += app.ndcg;
  sums.app.recall += app.recall;
  evaluated += 1;
}

latencies.sort((left, right) => left - right);
const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
await deps.knowledge.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });

console.log(
  `corpus=${path.basename(path.resolve(values.corpus))} mode=${mode} threshold=${threshold} docs=${corpus.length} chunks=${chunkCount} queries=${evaluated} embedder=${embedder.id} embed_batch=${embedBatch.size} embed_concurrency=${embedBatch.concurrency} vectors=${config.knowledge.vectorStore} driver=${driver}`,
);
console.log(`import_files_per_s=${(corpus.length / importSeconds).toFixed(0)}`);
// One decimal: through a real model on a busy machine both can be single figures.
console.log(`ingest_chunks_per_s=${(chunkCount / ingestSeconds).toFixed(1)}`);
console.log(`embed_server_texts_per_s=${embedServerTextsPerSecond.toFixed(1)}`);
console.log(`ingest_share_of_embed_server=${(chunkCount / ingestSeconds / embedServerTextsPerSecond).toFixed(2)}`);
console.log(`query_p50_ms=${percentile(50).toFixed(2)}`);
console.log(`query_p95_ms=${percentile(95).toFixed(2)}`);
for (const list of lists) {
  console.log(`${list}_ndcg@10=${(sums[list].ndcg / evaluated).toFixed(4)}`);
  console.log(`${list}_recall@10=${(sums[list].recall / evaluated).toFixed(4)}`);
}
// The --mode's figures again, last, under the names earlier runs used.
console.log(`ndcg@10=${(sums[mode].ndcg / evaluated).toFixed(4)}`);
console.log(`recall@10=${(sums[mode].recall / evaluated).toFixed(4)}`);
