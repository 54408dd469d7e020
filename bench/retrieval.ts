/**
 * Retrieval quality and speed on a BEIR-layout corpus, through the production chunker,
 * segmenter, embedder, indexing and search code.
 *
 *   npm run bench:retrieval -- --corpus ../shared/data/scifact --qrels ../shared/data/scifact/qrels/train.tsv [--mode hybrid]
 *
 * Prints ingest_chunks_per_s, query_p50_ms, query_p95_ms, then ndcg@10 and recall@10 last.
 * Each corpus document becomes one knowledge file (named by its id) of one knowledge base.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { newId } from "../packages/api/src/crypto";
import { openDatabase } from "../packages/api/src/db/client";
import { knowledgeBases, knowledgeFiles, spaces } from "../packages/api/src/db/schema/index";
import { chunkText } from "../packages/api/src/knowledge/retrieval/chunker";
import { storeChunks } from "../packages/api/src/knowledge/retrieval/indexing";
import { type RetrievalMode, retrievalModes, searchChunks } from "../packages/api/src/knowledge/retrieval/search";
import { createMemoryVectorStore } from "../packages/api/src/knowledge/retrieval/vector-index";
import { createHashingEmbedder } from "../packages/api/src/platform/embeddings/hashing";

const { values } = parseArgs({
  options: {
    corpus: { type: "string" },
    qrels: { type: "string" },
    mode: { type: "string", default: "hybrid" },
    driver: { type: "string", default: "better-sqlite3" },
  },
});
if (!values.corpus || !values.qrels) throw new Error("usage: --corpus DIR --qrels FILE [--mode semantic|fulltext|hybrid]");
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
const database = await openDatabase({ driver, url: `file:${path.join(dataDir, "parley.db")}` });
const { db } = database;
const embedder = createHashingEmbedder();
const vectors = createMemoryVectorStore().table(embedder.id, embedder.dimensions);
const now = new Date().toISOString();
const spaceId = newId("spc");
const knowledgeBaseId = newId("kb");
await db.insert(spaces).values({ id: spaceId, code: "bench", name: "bench", kind: "team", ownerUserId: "usr_bench", updatedAt: now });
await db.insert(knowledgeBases).values({ id: knowledgeBaseId, spaceId, code: "bench", name: "bench", embeddingModel: embedder.id, createdBy: "usr_bench", updatedAt: now });

// Files first (one per document), in batches; the timed part is chunking and indexing.
const fileIds = corpus.map(() => newId("kf"));
const docByFile = new Map(fileIds.map((fileId, index) => [fileId, corpus[index]!._id]));
for (let start = 0; start < corpus.length; start += 500) {
  await db.insert(knowledgeFiles).values(
    corpus.slice(start, start + 500).map((doc, offset) => ({
      id: fileIds[start + offset]!,
      spaceId,
      knowledgeBaseId,
      name: doc._id,
      type: "document" as const,
      source: doc._id,
      status: "processing" as const,
      updatedAt: now,
    })),
  );
}

let chunkCount = 0;
const ingestStart = performance.now();
for (const [index, doc] of corpus.entries()) {
  const text = doc.title ? `${doc.title}\n\n${doc.text}` : doc.text;
  const chunks = chunkText(text);
  await storeChunks({ db, embedder, vectors }, { spaceId, knowledgeBaseId, fileId: fileIds[index]! }, chunks);
  chunkCount += chunks.length;
}
const ingestSeconds = (performance.now() - ingestStart) / 1000;

const latencies: number[] = [];
let ndcgSum = 0;
let recallSum = 0;
let evaluated = 0;
for (const [queryId, relevant] of qrels) {
  const query = queries.get(queryId);
  if (query === undefined) continue;
  const started = performance.now();
  // Long documents may give several chunks; ask for more and keep each document's best chunk.
  const hits = await searchChunks({ db, embedder, vectors }, { mode, query, knowledgeBaseIds: [knowledgeBaseId], limit: 30 });
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
  const ideal = [...relevant.values()].filter((grade) => grade > 0).sort((left, right) => right - left).slice(0, 10);
  const idcg = ideal.reduce((sum, grade, rank) => sum + grade / Math.log2(rank + 2), 0);
  const relevantCount = [...relevant.values()].filter((grade) => grade > 0).length;
  ndcgSum += idcg > 0 ? dcg / idcg : 0;
  recallSum += relevantCount > 0 ? ranked.filter((docId) => (relevant.get(docId) ?? 0) > 0).length / relevantCount : 0;
  evaluated += 1;
}

latencies.sort((left, right) => left - right);
const percentile = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });

console.log(`corpus=${path.basename(path.resolve(values.corpus))} mode=${mode} docs=${corpus.length} chunks=${chunkCount} queries=${evaluated} embedder=${embedder.id} driver=${driver}`);
console.log(`ingest_chunks_per_s=${(chunkCount / ingestSeconds).toFixed(0)}`);
console.log(`query_p50_ms=${percentile(50).toFixed(2)}`);
console.log(`query_p95_ms=${percentile(95).toFixed(2)}`);
console.log(`ndcg@10=${(ndcgSum / evaluated).toFixed(4)}`);
console.log(`recall@10=${(recallSum / evaluated).toFixed(4)}`);
