import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createLanceVectorStore } from "../../packages/api/src/knowledge/retrieval/lance-store";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_knowledge_crash_owner_key_0123456";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-crash-"));
// A short lease so the restarted server takes over the dead one's job within seconds.
const env = { PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_JOB_LEASE_SECONDS: "2", PARLEY_SEED_DEMO: "false" };
let parley: ParleyProcess | undefined;

afterAll(async () => {
  await parley?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface FileView {
  id: string;
  status: string;
  progress: number;
  chunkCount: number;
  failureReason: string | null;
}

const call = <T>(method: string, pathname: string, body?: unknown) => apiCall<T>(parley!.url, ownerKey, method, pathname, body);

async function upload(knowledgeBaseId: string, name: string, text: string): Promise<FileView> {
  const form = new FormData();
  form.append("file", new File([text], name));
  const file = await call<FileView>("POST", `/api/v1/knowledge-bases/${knowledgeBaseId}/files`, form);
  return call<FileView>("POST", `/api/v1/knowledge-files/${file.id}/confirm`);
}

async function fileOf(knowledgeBaseId: string, fileId: string): Promise<FileView> {
  const files = await call<FileView[]>("GET", `/api/v1/knowledge-bases/${knowledgeBaseId}/files`);
  return files.find((file) => file.id === fileId)!;
}

async function waitFor(knowledgeBaseId: string, fileId: string, done: (file: FileView) => boolean, timeoutMs: number): Promise<FileView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const file = await fileOf(knowledgeBaseId, fileId);
    if (done(file)) return file;
    if (Date.now() > deadline) throw new Error(`file ${fileId} stayed ${JSON.stringify(file)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const paragraphs = (count: number, topic: string) =>
  Array.from({ length: count }, (_, index) => `Section ${index} of the ${topic} manual explains step ${index} of servicing unit ${index * 7}.`).join("\n\n");

describe("indexing survives kill -9", () => {
  it("resumes after a SIGKILL mid-file and ends effective with every chunk stored once", async () => {
    parley = await startParley(env, { dataDir });
    const base = await call<{ id: string; embeddingModel: string }>("POST", "/api/v1/knowledge-bases", {
      name: "Service manuals",
      chunkTokens: 50,
      chunkOverlap: 0,
    });
    const small = await upload(base.id, "boiler.txt", paragraphs(40, "boiler"));
    const before = await waitFor(base.id, small.id, (file) => file.status === "effective", 30_000);

    const big = await upload(base.id, "turbine.txt", paragraphs(60_000, "turbine"));
    const partial = await waitFor(base.id, big.id, (file) => file.progress >= 5, 60_000);
    expect(partial.status).toBe("processing");
    await parley.kill();

    parley = await startParley(env, { dataDir });
    const after = await waitFor(base.id, big.id, (file) => file.status !== "processing", 120_000);
    expect(after).toMatchObject({ status: "effective", progress: 100, failureReason: null });
    expect(after.chunkCount).toBeGreaterThan(1000);
    // The rest of the knowledge base is untouched.
    expect(await fileOf(base.id, small.id)).toMatchObject({ status: "effective", chunkCount: before.chunkCount });

    const hits = await call<{ fullText: Array<{ fileId: string; content: string }> }>("POST", `/api/v1/knowledge-bases/${base.id}/retrieval-test`, {
      query: "turbine manual step 59999",
    });
    expect(hits.fullText[0]).toMatchObject({ fileId: big.id });
    expect(hits.fullText[0]!.content).toContain("Section 59999");
    await parley.stop();
    parley = undefined;

    const db = new Database(path.join(dataDir, "parley.db"), { readonly: true });
    try {
      const rows = db
        .prepare(
          "SELECT count(*) AS n, count(DISTINCT ordinal) AS ordinals, min(ordinal) AS first, max(ordinal) AS last FROM knowledge_chunks WHERE file_id = ?",
        )
        .get(big.id) as { n: number; ordinals: number; first: number; last: number };
      expect(rows).toEqual({ n: after.chunkCount, ordinals: after.chunkCount, first: 0, last: after.chunkCount - 1 });
      const fts = db
        .prepare("SELECT count(*) AS n FROM knowledge_chunks_fts WHERE rowid IN (SELECT rowid FROM knowledge_chunks WHERE file_id = ?)")
        .get(big.id) as { n: number };
      expect(fts.n).toBe(after.chunkCount);
      const job = db.prepare("SELECT status, attempts FROM jobs WHERE payload LIKE ?").get(`%${big.id}%`) as { status: string; attempts: number };
      expect(job).toEqual({ status: "done", attempts: 2 });
    } finally {
      db.close();
    }
    // One vector per chunk of both files: the rerun replaced the vectors it had written, added none twice.
    const vectors = createLanceVectorStore({ directory: path.join(dataDir, "vectors") });
    expect(await vectors.table(base.embeddingModel, 384).count()).toBe(after.chunkCount + before.chunkCount);
    await vectors.close();
  });
});
