import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LlmFake, startOpenAiFake } from "../../packages/api/src/testing/fakes/llm-openai";
import { apiCall, type ParleyProcess, root, startParley } from "./parley-process";

// Back up a running instance, stop it, wipe its data directory, restore, start again: the app
// answers through a model provider whose sealed key still opens, the knowledge base finds its
// file, the visitor's conversation is in the inbox, the built-in database keeps its rows.

const ownerKey = "pk_backup_restore_owner_key_01234567";
const providerKey = "sk-backup-provider-secret-0123456789";
const shop = "https://shop.example.com";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "parley-backup-test-"));
const dataDir = path.join(scratch, "data");
const backupDir = path.join(scratch, "backup");
let fake: LlmFake;
let env: Record<string, string>;
let parley: ParleyProcess | undefined;

beforeAll(async () => {
  fake = await startOpenAiFake({ apiKey: providerKey });
  fake.always({ text: "Restored answer from the provider.", chunks: 2 });
  env = { PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_SEED_DEMO: "false", PARLEY_PLUGINS_ALLOWED_HOSTS: new URL(fake.url).host };
});
afterAll(async () => {
  await parley?.stop();
  await fake?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const call = <T = any>(method: string, pathname: string, body?: unknown) => apiCall<T>(parley!.url, ownerKey, method, pathname, body);

/** `npm run backup` / `npm run restore`, as an operator runs them: the built CLI with the instance's environment. */
function cli(command: "backup" | "restore", ...args: string[]) {
  const result = spawnSync(process.execPath, [path.join(root, "packages/api/dist/server.js"), command, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PARLEY_DATA_DIR: dataDir },
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function turn(appCode: string): Promise<string> {
  const response = await fetch(`${parley!.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${ownerKey}` },
    body: JSON.stringify({ model: appCode, stream: false, messages: [{ role: "user", content: "Hello?" }] }),
  });
  const body = (await response.json()) as { choices?: Array<{ message: { content: string } }> };
  return body.choices?.[0]?.message.content ?? JSON.stringify(body);
}

async function waitForFile(knowledgeBaseId: string, fileId: string): Promise<{ status: string; chunkCount: number }> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const files = await call<Array<{ id: string; status: string; chunkCount: number }>>("GET", `/api/v1/knowledge-bases/${knowledgeBaseId}/files`);
    const file = files.find((entry) => entry.id === fileId)!;
    if (file.status === "effective") return file;
    if (Date.now() > deadline) throw new Error(`file stayed ${JSON.stringify(file)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("backup and restore (npm run backup / npm run restore)", () => {
  it("copies a running instance consistently and restores it into an empty data directory", async () => {
    parley = await startParley(env, { dataDir });
    const provider = await call("POST", "/api/v1/model-providers", {
      kind: "openai-compatible",
      name: "Backup provider",
      baseUrl: fake.url,
      apiKey: providerKey,
      models: ["backup-model"],
    });
    expect(await call("POST", `/api/v1/model-providers/${provider.id}/test`)).toMatchObject({ ok: true });
    const base = await call("POST", "/api/v1/knowledge-bases", { name: "Boiler manuals" });
    const form = new FormData();
    form.append("file", new File(["The boiler pressure valve is serviced every 18 months by a certified engineer."], "boiler.txt"));
    const uploaded = await call("POST", `/api/v1/knowledge-bases/${base.id}/files`, form);
    await call("POST", `/api/v1/knowledge-files/${uploaded.id}/confirm`);
    const indexed = await waitForFile(base.id, uploaded.id);
    const app = await call("POST", "/api/v1/apps", {
      name: "Boiler helper",
      description: "Answers boiler questions",
      openingIntroduction: "Hello!",
      avatarUrl: "https://cdn.example.com/boiler.png",
      category: "other",
      settingsPrompt: "You answer briefly.",
      defaultModel: "backup-model",
      knowledgeBaseIds: [base.id],
    });
    expect(await turn(app.code)).toBe("Restored answer from the provider.");
    const client = await call("POST", "/api/v1/web-clients", { appId: app.id, name: "Shop", allowedOrigins: [shop] });
    const sessionResponse = await fetch(`${parley.url}/api/v1/widget/${client.id}/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: shop },
      body: "{}",
    });
    const session = ((await sessionResponse.json()) as { data: { sessionId: string; visitorToken: string } }).data;
    const asked = await fetch(`${parley.url}/api/v1/widget/${client.id}/sessions/${session.sessionId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: shop, authorization: `Bearer ${session.visitorToken}` },
      body: JSON.stringify({ content: "When is the valve serviced?" }),
    });
    expect(asked.status).toBe(200);
    await asked.text();
    const database = await call("POST", "/api/v1/databases", { name: "Parts", type: "builtin" });
    const table = await call("POST", `/api/v1/databases/${database.id}/tables`, { name: "parts", fields: [{ name: "part", type: "text" }] });
    await call("POST", `/api/v1/database-tables/${table.id}/rows`, { values: { part: "pressure valve" } });

    // Backed up while the server runs and keeps writing.
    const writes = Array.from({ length: 5 }, () => turn(app.code));
    const backup = cli("backup", "--to", backupDir);
    await Promise.all(writes);
    expect(backup.stderr).toBe("");
    expect(backup.status).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up \d+ files \([\d.]+ MB, 2 SQLite databases\) from /);
    expect(fs.existsSync(path.join(backupDir, "secret.key"))).toBe(true);
    expect(fs.readdirSync(backupDir).some((name) => name.endsWith("-wal"))).toBe(false);
    // A second backup into the same folder is refused, and nothing in it changes.
    const manifestBefore = fs.readFileSync(path.join(backupDir, "parley-backup.json"), "utf8");
    expect(cli("backup", "--to", backupDir)).toMatchObject({ status: 1, stderr: expect.stringContaining("is not empty") });
    expect(fs.readFileSync(path.join(backupDir, "parley-backup.json"), "utf8")).toBe(manifestBefore);

    await parley.stop();
    parley = undefined;
    // Restoring over a live data directory is refused; wipe it, then restore.
    expect(cli("restore", "--from", backupDir)).toMatchObject({ status: 1, stderr: expect.stringContaining("is not empty") });
    expect(cli("restore", "--from", scratch)).toMatchObject({ status: 1, stderr: expect.stringContaining("not a complete Parley backup") });
    expect(cli("restore")).toMatchObject({ status: 1, stderr: expect.stringContaining("Usage: npm run restore") });
    fs.rmSync(dataDir, { recursive: true, force: true });
    const restored = cli("restore", "--from", backupDir);
    expect(restored).toMatchObject({ status: 0, stderr: "" });
    expect(restored.stdout).toMatch(/^Restored \d+ files from the backup of /);
    expect(fs.statSync(path.join(dataDir, "secret.key")).mode & 0o777).toBe(0o600);

    parley = await startParley(env, { dataDir });
    // The provider's key was sealed with the instance key: it opens, and the app answers through it.
    expect(await call("POST", `/api/v1/model-providers/${provider.id}/test`)).toMatchObject({ ok: true });
    expect(await turn(app.code)).toBe("Restored answer from the provider.");
    const files = await call("GET", `/api/v1/knowledge-bases/${base.id}/files`);
    expect(files).toMatchObject([{ id: uploaded.id, status: "effective", chunkCount: indexed.chunkCount }]);
    const hits = await call("POST", `/api/v1/knowledge-bases/${base.id}/retrieval-test`, { query: "boiler pressure valve serviced", mode: "semantic" });
    expect(JSON.stringify(hits)).toContain("serviced every 18 months");
    const sessions = await call("GET", `/api/v1/inbox/sessions?clientId=${encodeURIComponent(client.id)}`);
    expect(sessions.items).toHaveLength(1);
    const history = await call("GET", `/api/v1/inbox/sessions/${sessions.items[0].sessionId}/messages`);
    expect(JSON.stringify(history)).toContain("When is the valve serviced?");
    const rows = await call("GET", `/api/v1/database-tables/${table.id}/rows`);
    expect(JSON.stringify(rows)).toContain("pressure valve");
  });
});
