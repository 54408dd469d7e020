import path from "node:path";
import fs from "node:fs";
import * as lancedb from "@lancedb/lancedb";
import { createHashingEmbedder } from "../packages/api/src/platform/embeddings/hashing";
const dir = process.argv[2]!;
const kb = process.argv[3]!;
const data = "/work/shared/data";
const qs = (c: string) => fs.readFileSync(path.join(data, c, "queries.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).text as string);
const queries = [...qs("scifact").slice(0, 100), ...qs("cmrc2018-retrieval").slice(0, 100)];
const vecs = await createHashingEmbedder().embed(queries, { kind: "query" });
const vconn = await lancedb.connect(path.join(dir, "bench-vectors"));
const vt = await vconn.openTable((await vconn.tableNames())[0]!);
const pct = (s: number[], p: number) => [...s].sort((a, b) => a - b)[Math.floor((p / 100) * s.length)]!.toFixed(1);
const where = `kb_id IN ('${kb}')`;
const configs = JSON.parse(process.argv[4]!) as Array<{ limit: number; ef: number; refine: number; cols?: string[]; arrow?: boolean }>;
for (let round = 0; round < 2; round++)
for (const c of configs) {
  const run = async (i: number) => {
    let q = vt.vectorSearch(vecs[i]!).distanceType("dot").where(where).select(c.cols ?? ["chunk_id", "kb_id", "file_id", "_distance"]).limit(c.limit).ef(c.ef);
    if (c.refine > 0) q = q.refineFactor(c.refine);
    return c.arrow ? q.toArrow() : q.toArray();
  };
  for (let i = 0; i < 10; i++) await run(i);
  const s: number[] = [];
  for (let i = 0; i < queries.length; i++) { const t = performance.now(); await run(i); s.push(performance.now() - t); }
  console.log(`${JSON.stringify(c)} p50=${pct(s, 50)} p95=${pct(s, 95)} load=${fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]}`);
}
