// Experiment (not committed): ingest a corpus through the production flow, dump semantic and full-text top-50 per query.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../packages/api/src/config";
import { openDatabase } from "../packages/api/src/db/client";
import { createUser } from "../packages/api/src/identity/service/accounts";
import { setSpaceCapabilities } from "../packages/api/src/instance/service/instance";
import type { Auth, Deps } from "../packages/api/src/http/context";
import { createMemoryThrottle } from "../packages/api/src/http/throttle";
import { fullTextSearch, semanticSearch } from "../packages/api/src/knowledge/retrieval/search";
import { confirmFile, createImportedFile } from "../packages/api/src/knowledge/service/files";
import { createKnowledgeBase } from "../packages/api/src/knowledge/service/knowledge-bases";
import { createKnowledgeWorker } from "../packages/api/src/knowledge/worker";
import { createLogger } from "../packages/api/src/logger";
import { createProviders } from "../packages/api/src/platform/providers";

const { values } = parseArgs({ options: { corpus: { type: "string" }, qrels: { type: "string" }, out: { type: "string" } } });
const readJsonl = <T>(file: string): T[] =>
  fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
const corpus = readJsonl<{ _id: string; title?: string; text: string }>(path.join(values.corpus!, "corpus.jsonl"));
const queries = new Map(readJsonl<{ _id: string; text: string }>(path.join(values.corpus!, "queries.jsonl")).map((q) => [q._id, q.text]));
const qrels: Record<string, Record<string, number>> = {};
for (const line of fs.readFileSync(values.qrels!, "utf8").split("\n").slice(1)) {
  const [q, d, g] = line.trim().split("\t");
  if (!q || !d || g === undefined) continue;
  (qrels[q] ??= {})[d] = Number(g);
}
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-dump-"));
const config = loadConfig({ ...process.env, PARLEY_DATA_DIR: dataDir, PARLEY_LOG_LEVEL: "silent" });
const database = await openDatabase(config.database);
const { db } = database;
const logger = createLogger("silent");
const deps: Deps = { config, db, logger, ...createProviders(config, db, logger), throttle: createMemoryThrottle(), now: () => new Date() };
const owner = await createUser(deps, { name: "bench", email: "bench-dump@example.com" });
await setSpaceCapabilities(deps, owner.personalSpaceId, { memberGrade: "CUSTOM", quotas: { knowledgeEntries: 1_000_000 } });
const spaceId = owner.personalSpaceId;
const auth: Auth = { userId: owner.id, spaceId, role: "owner", via: "session" };
const base = await createKnowledgeBase(deps, auth, { name: "bench" });
const embedder = deps.knowledge.embedder(base.embeddingModel)!;
const docByFile: Record<string, string> = {};
const t0 = performance.now();
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
  docByFile[file.id] = doc._id;
}
await createKnowledgeWorker(deps, { idleMs: 0 }).drain();
console.error(`ingested in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const rdeps = { db, embedder, vectors: deps.knowledge.vectors.table(embedder.id, embedder.dimensions) };
const out: unknown[] = [];
for (const [qid, rel] of Object.entries(qrels)) {
  const query = queries.get(qid);
  if (query === undefined) continue;
  const req = { query, knowledgeBaseIds: [base.id], limit: 50 };
  const [sem, ft] = await Promise.all([semanticSearch(rdeps, { ...req, similarityThreshold: 0 }), fullTextSearch(db, req)]);
  out.push({
    qid,
    query,
    rel,
    sem: sem.map((c) => [c.chunkId, docByFile[c.fileId], c.cosine, c.similarity]),
    ft: ft.map((c) => [c.chunkId, docByFile[c.fileId], c.textScore, c.textMatch]),
  });
}
fs.writeFileSync(
  values.out!,
  JSON.stringify({ embedder: embedder.id, lexical: embedder.lexical === true, anchors: embedder.similarityAnchors ?? null, queries: out }),
);
await deps.knowledge.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
console.error("done", out.length);
