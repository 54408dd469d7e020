import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, skipWithoutRedis, startRedis } from "../../packages/api/src/testing/redis-server";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_scale_jobs_owner_key_0123456789";
let redis: RedisServer | undefined;
const started: ParleyProcess[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  if (!skipWithoutRedis()) redis = await startRedis();
}, 30_000);
afterAll(async () => {
  for (const process of started) await process.stop();
  await redis?.stop();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-scale-jobs-"));
  dirs.push(dir);
  return dir;
}

async function start(env: Record<string, string>, dataDir: string): Promise<ParleyProcess> {
  const process = await startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_SEED_DEMO: "false", ...env }, { dataDir });
  started.push(process);
  return process;
}

interface FileView {
  id: string;
  status: string;
  progress: number;
  chunkCount: number;
}

describe("several processes on one data store", () => {
  it("two processes started at the same moment on a fresh data directory both start, with one owner", async () => {
    const dataDir = freshDir();
    const [first, second] = await Promise.all([start({}, dataDir), start({ PARLEY_ROLE: "worker,scheduler" }, dataDir)]);
    expect(first!.url).toMatch(/^http:/);
    expect(second!.url).toBe("");
    expect(second!.output()).toMatch(/Parley is ready \(roles: worker,scheduler; database: better-sqlite3\)/);
    const db = new Database(path.join(dataDir, "parley.db"), { readonly: true });
    try {
      expect(db.prepare("SELECT count(*) AS n FROM users WHERE is_instance_owner = 1").get()).toEqual({ n: 1 });
      expect(db.prepare("SELECT count(*) AS n FROM api_keys").get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
    // A process without the api role stops cleanly on SIGTERM.
    await second!.stop();
    expect(second!.output()).toContain("Received SIGTERM, shutting down");
  }, 60_000);

  it.skipIf(skipWithoutRedis())(
    "a worker process killed with SIGKILL mid-file: a new worker finishes the job with every chunk stored once",
    async () => {
      const dataDir = freshDir();
      const env = { PARLEY_REDIS_URL: redis!.url, PARLEY_JOB_LEASE_SECONDS: "2" };
      const api = await start({ ...env, PARLEY_ROLE: "api,scheduler" }, dataDir);
      let worker = await start({ ...env, PARLEY_ROLE: "worker" }, dataDir);
      const call = <T>(method: string, pathname: string, body?: unknown) => apiCall<T>(api.url, ownerKey, method, pathname, body);
      const base = await call<{ id: string }>("POST", "/api/v1/knowledge-bases", { name: "Manuals", chunkTokens: 50, chunkOverlap: 0 });
      const form = new FormData();
      const text = Array.from({ length: 40_000 }, (_, index) => `Section ${index} of the turbine manual explains step ${index} of unit ${index * 7}.`).join(
        "\n\n",
      );
      form.append("file", new File([text], "turbine.txt"));
      const file = await call<FileView>("POST", `/api/v1/knowledge-bases/${base.id}/files`, form);
      await call("POST", `/api/v1/knowledge-files/${file.id}/confirm`);
      const fileNow = async () => (await call<FileView[]>("GET", `/api/v1/knowledge-bases/${base.id}/files`)).find((row) => row.id === file.id)!;
      const waitFor = async (done: (view: FileView) => boolean, timeoutMs: number) => {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const view = await fileNow();
          if (done(view)) return view;
          if (Date.now() > deadline) throw new Error(`file stayed ${JSON.stringify(view)}`);
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      };
      const partial = await waitFor((view) => view.progress >= 5, 60_000);
      expect(partial.status).toBe("processing");
      await worker.kill();
      worker = await start({ ...env, PARLEY_ROLE: "worker" }, dataDir);
      const after = await waitFor((view) => view.status !== "processing", 120_000);
      expect(after).toMatchObject({ status: "effective", progress: 100 });
      const db = new Database(path.join(dataDir, "parley.db"), { readonly: true });
      try {
        const rows = db.prepare("SELECT count(*) AS n, count(DISTINCT ordinal) AS ordinals FROM knowledge_chunks WHERE file_id = ?").get(file.id);
        expect(rows).toEqual({ n: after.chunkCount, ordinals: after.chunkCount });
        // The job went through Redis, not the jobs table.
        expect(db.prepare("SELECT count(*) AS n FROM jobs").get()).toEqual({ n: 0 });
      } finally {
        db.close();
      }
    },
    240_000,
  );
});
