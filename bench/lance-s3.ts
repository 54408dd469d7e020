/**
 * LanceDB on the object store vs a local folder (decision 0032): starts the S3 test server
 * (s3rver behind a SigV4 check), writes the same vectors to `s3://<bucket>/lancedb` and to a temp
 * folder in batches the indexer uses, then times filtered vector searches. Also checks whether
 * the server honours `If-None-Match: *`, which Lance's commits on S3 rely on when several
 * processes write one table. `npm run bench:lance-s3` (ROWS, DIM to change the size).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as lancedb from "@lancedb/lancedb";
import { PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { startS3Server } from "../packages/api/src/testing/s3-server";

const ROWS = Number(process.env.ROWS ?? 5_000);
const DIM = Number(process.env.DIM ?? 256);
const BATCH = 256;
const QUERIES = 40;

function vector(seed: number): number[] {
  const out = new Array<number>(DIM);
  let x = seed * 2654435761;
  for (let i = 0; i < DIM; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out[i] = x / 2147483648 - 0.5;
  }
  return out;
}

const rows = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ chunk_id: `c${from + i}`, kb_id: `kb_${(from + i) % 4}`, vector: vector(from + i) }));

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

async function measure(label: string, uri: string, storageOptions?: Record<string, string>) {
  const db = await lancedb.connect(uri, storageOptions ? { storageOptions } : {});
  const began = performance.now();
  const table = await db.createTable("chunks", rows(0, BATCH));
  for (let from = BATCH; from < ROWS; from += BATCH) await table.add(rows(from, Math.min(BATCH, ROWS - from)));
  const importSeconds = (performance.now() - began) / 1000;
  const times: number[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const start = performance.now();
    const hits = await table
      .vectorSearch(vector(ROWS + q))
      .where(`kb_id = 'kb_${q % 4}'`)
      .limit(10)
      .toArray();
    times.push(performance.now() - start);
    if (hits.length !== 10) throw new Error(`${label}: ${hits.length} hits`);
  }
  // A second connection (another process would open its own) sees every row.
  const reopened = await (await lancedb.connect(uri, storageOptions ? { storageOptions } : {})).openTable("chunks");
  const counted = await reopened.countRows();
  console.log(
    `${label}: rows=${counted} import_rows_per_s=${Math.round(ROWS / importSeconds)} import_s=${importSeconds.toFixed(2)} search_p50_ms=${percentile(times, 50).toFixed(1)} search_p95_ms=${percentile(times, 95).toFixed(1)}`,
  );
  table.close();
  reopened.close();
}

/** Two connections (as two processes would hold) merge-insert disjoint rows into one table at once. */
async function twoWriters(label: string, uri: string, storageOptions?: Record<string, string>) {
  const options = storageOptions ? { storageOptions } : {};
  await (await lancedb.connect(uri, options)).createTable("shared", rows(0, 1), { mode: "overwrite" });
  const writer = async (offset: number) => {
    const table = await (await lancedb.connect(uri, options)).openTable("shared");
    let failed = 0;
    for (let from = 0; from < 2_000; from += 100) {
      try {
        await table
          .mergeInsert("chunk_id")
          .whenMatchedUpdateAll()
          .whenNotMatchedInsertAll()
          .execute(rows(offset + from, 100));
      } catch {
        failed += 1;
      }
    }
    table.close();
    return failed;
  };
  const failures = await Promise.all([writer(1_000_000), writer(2_000_000)]);
  const counted = await (await (await lancedb.connect(uri, options)).openTable("shared")).countRows();
  console.log(`${label}: two_writers_rows=${counted} expected=4001 failed_batches=${failures.join("+")}`);
}

const s3 = await startS3Server();
const folder = fs.mkdtempSync(path.join(os.tmpdir(), "parley-lance-bench-"));
try {
  console.log(`rows=${ROWS} dim=${DIM} batch=${BATCH} queries=${QUERIES} (brute-force search, kb filter)`);
  await measure("local folder", folder);
  await measure("s3 (s3rver on loopback)", `s3://${s3.bucket}/lancedb`, {
    endpoint: s3.endpoint,
    region: s3.region,
    aws_access_key_id: s3.accessKeyId,
    aws_secret_access_key: s3.secretAccessKey,
    allow_http: "true",
    virtual_hosted_style_request: "false",
  });
  await twoWriters("local folder", folder);
  await twoWriters("s3 (s3rver on loopback)", `s3://${s3.bucket}/lancedb`, {
    endpoint: s3.endpoint,
    region: s3.region,
    aws_access_key_id: s3.accessKeyId,
    aws_secret_access_key: s3.secretAccessKey,
    allow_http: "true",
    virtual_hosted_style_request: "false",
  });
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
  await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: "probe/once", Body: "first" }));
  const second = await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: "probe/once", Body: "second", IfNoneMatch: "*" })).then(
    () => "accepted (not honoured: concurrent Lance commits could overwrite each other)",
    (error: Error) => `refused (${error.name}: honoured)`,
  );
  console.log(`if_none_match_on_existing_object=${second}`);
  client.destroy();
} finally {
  fs.rmSync(folder, { recursive: true, force: true });
  await s3.stop();
}
