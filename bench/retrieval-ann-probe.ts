/**
 * ANN recall and latency of a kept `bench:retrieval-scale` vector table under other settings
 * (decision 0024): exact top 60 by a flat scan, then each query setting's recall against it.
 *
 *   npx tsx bench/retrieval-ann-probe.ts <kept dir>/bench-vectors query '[{"limit":60,"ef":1200,"refine":2}]'
 *   npx tsx bench/retrieval-ann-probe.ts <copy of bench-vectors> build '{"type":"hnswSq","options":{"distanceType":"dot","m":48}}'
 *
 * `build` replaces the table's vector index (use a copy). Queries are the first 60 of each
 * corpus, embedded by the offline lexical embedder as the bench's default does. A hit as
 * similar as the exact limit-th counts as found (copies of a passage nearly tie).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as lancedb from "@lancedb/lancedb";
import { createHashingEmbedder } from "../packages/api/src/platform/embeddings/hashing";

type Hit = { chunk_id: string; _distance: number };
const [directory, mode = "query", argument] = process.argv.slice(2);
if (!directory) throw new Error("usage: retrieval-ann-probe.ts <vector directory> query|build <json>");
const connection = await lancedb.connect(directory);
const name = (await connection.tableNames()).find((candidate) => candidate.startsWith("vectors_"));
if (!name) throw new Error(`no vector table in ${directory}`);
const table = await connection.openTable(name);

if (mode === "build") {
  const { type, options } = JSON.parse(argument ?? "{}") as { type: "hnswSq" | "ivfFlat"; options: Record<string, unknown> };
  const started = performance.now();
  const config = type === "ivfFlat" ? lancedb.Index.ivfFlat(options) : lancedb.Index.hnswSq(options);
  await table.createIndex("vector", { config, name: "vector_idx", replace: true });
  console.log(`build_s=${((performance.now() - started) / 1000).toFixed(1)}`);
  process.exit(0);
}

const data = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../shared/data");
const queries = (corpus: string) =>
  fs
    .readFileSync(path.join(data, corpus, "queries.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .slice(0, 60)
    .map((line) => (JSON.parse(line) as { text: string }).text);
const vectors = await createHashingEmbedder().embed([...queries("scifact"), ...queries("cmrc2018-retrieval")], { kind: "query" });
const [first] = await table.query().select(["kb_id"]).limit(1).toArray();
const filter = `kb_id = '${(first as { kb_id: string }).kb_id}'`;
const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor((p / 100) * samples.length))]!;

const exact: number[][] = [];
for (const vector of vectors) {
  const hits = (await table
    .vectorSearch(vector)
    .distanceType("dot")
    .where(filter)
    .bypassVectorIndex()
    .select(["chunk_id", "_distance"])
    .limit(60)
    .toArray()) as Hit[];
  exact.push(hits.map((hit) => 1 - hit._distance));
}
console.log(
  `median_similarity_1st_10th_60th=${[0, 9, 59]
    .map((rank) =>
      percentile(
        exact.map((list) => list[rank]!),
        50,
      ).toFixed(3),
    )
    .join(" ")}`,
);
for (const setting of JSON.parse(argument ?? "[]") as Array<{ limit: number; ef?: number; refine?: number; nprobes?: number }>) {
  const times: number[] = [];
  let recall = 0;
  for (const [index, vector] of vectors.entries()) {
    let query = table.vectorSearch(vector).distanceType("dot").where(filter).select(["chunk_id", "_distance"]).limit(setting.limit);
    if (setting.ef) query = query.ef(setting.ef);
    if (setting.refine) query = query.refineFactor(setting.refine);
    if (setting.nprobes) query = query.nprobes(setting.nprobes);
    const started = performance.now();
    const hits = (await query.toArray()) as Hit[];
    times.push(performance.now() - started);
    const cutoff = exact[index]![setting.limit - 1]! - 1e-5;
    recall += Math.min(setting.limit, hits.filter((hit) => 1 - hit._distance >= cutoff).length) / setting.limit;
  }
  console.log(
    `${JSON.stringify(setting)} recall=${(recall / vectors.length).toFixed(3)} p50_ms=${percentile(times, 50).toFixed(1)} p95_ms=${percentile(times, 95).toFixed(1)}`,
  );
}
