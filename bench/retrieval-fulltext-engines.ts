/**
 * Full-text quality of the two engines on the same stored chunks: FTS5 (small knowledge bases)
 * and the LanceDB full-text index (past PARLEY_FULLTEXT_INDEX_THRESHOLD), decision 0024.
 *
 *   npx tsx bench/retrieval-fulltext-engines.ts --corpus ../shared/data/scifact --qrels ../shared/data/scifact/qrels/train.tsv
 *
 * Each document is cut by the production chunker and stored through `storeChunks` (one file per
 * document); queries go through `fullTextSearch` with and without the index. Prints nDCG@10 and
 * recall@10 per engine, each document counted once at its best chunk.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { readBeir } from "./beir";
import { newId } from "../packages/api/src/crypto";
import { openDatabase } from "../packages/api/src/db/client";
import { knowledgeBases, knowledgeFiles, spaces } from "../packages/api/src/db/schema/index";
import { chunkText } from "../packages/api/src/knowledge/retrieval/chunker";
import { storeChunks } from "../packages/api/src/knowledge/retrieval/indexing";
import { createLanceTextIndex } from "../packages/api/src/knowledge/retrieval/lance-text";
import { fullTextSearch } from "../packages/api/src/knowledge/retrieval/search";
import { createMemoryVectorIndex } from "../packages/api/src/knowledge/retrieval/vector-index";
import { createHashingEmbedder } from "../packages/api/src/platform/embeddings/hashing";

const { values } = parseArgs({ options: { corpus: { type: "string" }, qrels: { type: "string" } } });
if (!values.corpus || !values.qrels) throw new Error("--corpus and --qrels are required");
const { corpus, queries, qrels } = readBeir(values.corpus, values.qrels);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-fulltext-"));
const database = await openDatabase({ driver: "better-sqlite3", url: `file:${path.join(dataDir, "parley.db")}`, cacheMb: 32, mmapMb: 0 });
const { db } = database;
const embedder = createHashingEmbedder();
const text = createLanceTextIndex({ directory: path.join(dataDir, "vectors"), threshold: 1 });
const vectors = createMemoryVectorIndex(embedder.id, embedder.dimensions);
const now = new Date().toISOString();
const spaceId = newId("spc");
const knowledgeBaseId = newId("kb");
await db.insert(spaces).values({ id: spaceId, code: "bench", name: "bench", kind: "team", ownerUserId: "usr_bench", updatedAt: now });
await db
  .insert(knowledgeBases)
  .values({ id: knowledgeBaseId, spaceId, code: "bench", name: "bench", embeddingModel: embedder.id, createdBy: "usr_bench", updatedAt: now });
const docByFile = new Map<string, string>();
for (const doc of corpus) {
  const fileId = newId("kf");
  docByFile.set(fileId, doc._id);
  await db
    .insert(knowledgeFiles)
    .values({ id: fileId, spaceId, knowledgeBaseId, name: doc._id, type: "document", source: doc._id, status: "effective", updatedAt: now });
  await storeChunks({ db, embedder, vectors, text }, { spaceId, knowledgeBaseId, fileId }, chunkText(doc.title ? `${doc.title}\n\n${doc.text}` : doc.text));
}
await text.whenIdle();

for (const [engine, index] of [
  ["fts5", undefined],
  ["lancedb", text],
] as const) {
  let ndcgSum = 0;
  let recallSum = 0;
  let evaluated = 0;
  for (const [queryId, relevant] of qrels) {
    const query = queries.get(queryId);
    if (query === undefined) continue;
    const hits = await fullTextSearch(db, { query, knowledgeBaseIds: [knowledgeBaseId], limit: 30 }, index);
    const ranked: string[] = [];
    for (const hit of hits) {
      const docId = docByFile.get(hit.fileId)!;
      if (!ranked.includes(docId)) ranked.push(docId);
      if (ranked.length === 10) break;
    }
    const dcg = ranked.reduce((sum, docId, rank) => sum + (relevant.get(docId) ?? 0) / Math.log2(rank + 2), 0);
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
  console.log(`${engine}_ndcg@10=${(ndcgSum / evaluated).toFixed(4)} ${engine}_recall@10=${(recallSum / evaluated).toFixed(4)} queries=${evaluated}`);
}
await text.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
