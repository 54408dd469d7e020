import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_scale_jobs_owner_key_0123456789";
const started: ParleyProcess[] = [];
const dirs: string[] = [];

afterAll(async () => {
  for (const process of started) await process.stop();
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
});
