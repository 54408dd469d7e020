import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddingsFake, startEmbeddingsFake } from "../../packages/api/src/testing/fakes/embeddings";
import { type Cluster, startCluster } from "./cluster";
import { apiCall } from "./parley-process";

// Issue 22's acceptance: two api processes and one worker on one data directory (SQLite in WAL),
// one Redis and one S3-protocol server, each a real process. One cluster serves every check.
// The api processes also take the scheduler role, so two schedulers run at once.

const ownerKey = "pk_scale_out_owner_key_0123456789abcd";
const shop = "https://shop.example.com";
let cluster: Cluster;
let embeddings: EmbeddingsFake;
let s3: { bucket: string; env(prefix?: string): Record<string, string>; refused(): number; stop(): Promise<void> } | undefined;
let s3Missing: string | undefined;
let scheduled: { workflowId: string; firesAt: number };
const sockets: Socket[] = [];

const A = () => cluster.apis[0]!.url!;
const B = () => cluster.apis[1]!.url!;
const call = <T = any>(base: string, method: string, pathname: string, body?: unknown) => apiCall<T>(base, ownerKey, method, pathname, body);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value).slice(0, 500)}`);
    await sleep(100);
  }
}

/** A workflow whose timer fires once, at the start of a minute at least 10 s away (5-field cron, UTC). */
async function scheduleWorkflow(): Promise<{ workflowId: string; firesAt: number }> {
  const node = (id: string, type: string, config: Record<string, unknown> = {}) => ({ id, type, config: { name: id, ...config }, position: { x: 0, y: 0 } });
  const workflow = await call(A(), "POST", "/api/v1/workflows", {
    name: "Tick",
    description: "fires once",
    avatarUrl: "https://example.com/a.png",
    category: "test",
  });
  await call(A(), "PUT", `/api/v1/workflows/${workflow.id}/graph`, {
    elements: [node("start", "start"), node("reply", "fixed_reply", { content: "tick" }), node("end", "end", { output: "{{reply.output}}" })],
    lines: [
      { id: "l1", source: "start", target: "reply", sourceHandle: null },
      { id: "l2", source: "reply", target: "end", sourceHandle: null },
    ],
  });
  const firesAt = new Date(Math.ceil((Date.now() + 10_000) / 60_000) * 60_000);
  await call(B(), "PUT", `/api/v1/workflows/${workflow.id}/scheduler`, {
    cron: `${firesAt.getUTCMinutes()} ${firesAt.getUTCHours()} * * *`,
    cronTimezone: "UTC",
  });
  return { workflowId: workflow.id, firesAt: firesAt.getTime() };
}

beforeAll(async () => {
  embeddings = await startEmbeddingsFake({ apiKey: "sk-embed", dimensions: 16 });
  try {
    // The S3-protocol test server of the object storage work (t22-s3), loaded when present.
    const harness = path.resolve(__dirname, "../../packages/api/src/testing/s3-server.ts");
    const { startS3Server } = (await import(/* @vite-ignore */ harness)) as { startS3Server(): Promise<NonNullable<typeof s3>> };
    s3 = await startS3Server();
  } catch (error) {
    s3Missing = String(error);
  }
  cluster = await startCluster({
    api: 2,
    workers: 1,
    apiRole: "api,scheduler",
    env: {
      PARLEY_BOOTSTRAP_API_KEY: ownerKey,
      PARLEY_SEED_DEMO: "false",
      // A short lease, so a job a killed worker held is taken over within seconds (a 2 s lease
      // on a loaded machine let live jobs be taken over and run twice).
      PARLEY_JOB_LEASE_SECONDS: "5",
      PARLEY_EMBEDDINGS_PROVIDER: "openai",
      PARLEY_EMBEDDINGS_BASE_URL: embeddings.url,
      PARLEY_EMBEDDINGS_API_KEY: "sk-embed",
      PARLEY_EMBEDDINGS_MODEL: "text-embedding-fake",
      PARLEY_EMBEDDINGS_DIMENSIONS: "16",
      ...(s3 ? s3.env("cluster/") : {}),
    },
  });
  scheduled = await scheduleWorkflow();
}, 60_000);
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await cluster?.stop();
  await s3?.stop();
  await embeddings?.close();
});

describe("two api processes and one worker on one data store, Redis and S3", () => {
  it("a widget visitor connected to process A receives the operator's reply sent through process B", async () => {
    const client = await call(A(), "POST", "/api/v1/web-clients", {
      appId: (await createApp()).id,
      name: "Shop",
      allowedOrigins: [shop],
      manualTransfer: true,
    });
    const started = await fetch(`${A()}/api/v1/widget/${client.id}/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: shop },
      body: "{}",
    });
    const session = ((await started.json()) as { data: { sessionId: string; visitorToken: string } }).data;
    const asked = await fetch(`${A()}/api/v1/widget/${client.id}/sessions/${session.sessionId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: shop, authorization: `Bearer ${session.visitorToken}` },
      body: JSON.stringify({ content: "Where is my parcel?" }),
    });
    expect(asked.status).toBe(200);
    await asked.text();
    const socket = io(`${A()}/visitor`, {
      auth: { clientId: client.id, sessionId: session.sessionId, token: session.visitorToken },
      forceNew: true,
      reconnection: false,
      transports: ["websocket"],
      extraHeaders: { origin: shop },
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("connect_error", reject);
    });
    const heard: Array<{ role: string; content: string }> = [];
    socket.on("message", (message) => heard.push(message));

    const inbox = await call(B(), "GET", `/api/v1/inbox/sessions?clientId=${encodeURIComponent(client.id)}`);
    expect(inbox.items).toHaveLength(1);
    await call(B(), "POST", `/api/v1/inbox/sessions/${inbox.items[0].sessionId}/messages`, { content: "Dana here: your parcel left the depot." });
    await until(
      "the operator's reply on the visitor's socket",
      async () => heard,
      (list) => list.length > 0,
      5_000,
    );
    expect(heard).toMatchObject([{ role: "operator", content: "Dana here: your parcel left the depot." }]);
  });

  it("an app's rate limit of 5 per minute admits exactly 5 turns spread over both api processes", async () => {
    const app = await createApp();
    await call(A(), "POST", `/api/v1/apps/${app.id}/rate-limits`, {
      targetChannel: "all",
      periodUnit: "minute",
      count: 5,
      replyWhenExceeded: "Slow down, please.",
    });
    // All 12 turns inside one minute window.
    if (Date.now() % 60_000 > 50_000) await sleep(60_000 - (Date.now() % 60_000) + 200);
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const response = await fetch(`${index % 2 === 0 ? A() : B()}/v1/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${ownerKey}` },
          body: JSON.stringify({ model: app.code, stream: false, user: "visitor-1", messages: [{ role: "user", content: "Hello?" }] }),
        });
        expect(response.status).toBe(200);
        const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
        return body.choices[0]!.message.content;
      }),
    );
    const refused = answers.filter((text) => text === "Slow down, please.").length;
    expect({ admitted: answers.length - refused, refused }).toEqual({ admitted: 5, refused: 7 });
  });

  it("a file uploaded through A downloads through B, from the object store", async () => {
    expect(s3Missing, "the S3 test server (packages/api/src/testing/s3-server.ts)").toBeUndefined();
    const base = await call(A(), "POST", "/api/v1/knowledge-bases", { name: "Media" });
    const bytes = new Uint8Array(300_000);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
    for (let i = 16; i < bytes.length; i++) bytes[i] = (i * 7) % 251;
    const form = new FormData();
    form.append("file", new File([bytes], "map.png"));
    const media = await call(A(), "POST", `/api/v1/knowledge-bases/${base.id}/media`, form);
    const response = await fetch(`${B()}/api/v1/knowledge-media/${media.id}/content`, { headers: { authorization: `Bearer ${ownerKey}` } });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    // In the bucket, not in the shared data directory; every request was signed right.
    const onDisk = (fs.readdirSync(cluster.dataDir, { recursive: true }) as string[]).filter((name) => name.includes(media.id));
    expect(onDisk).toEqual([]);
    expect(s3!.refused()).toBe(0);
  });

  it("200 indexing jobs queued through A run exactly once each across the workers", async () => {
    const base = await call(A(), "POST", "/api/v1/knowledge-bases", { name: "Two hundred" });
    const marker = (index: number) => `Leaflet ${index} describes valve model VX${index} in detail.`;
    const ids = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        const form = new FormData();
        form.append("file", new File([marker(index)], `leaflet-${index}.txt`));
        const file = await call(A(), "POST", `/api/v1/knowledge-bases/${base.id}/files`, form);
        await call(A(), "POST", `/api/v1/knowledge-files/${file.id}/confirm`);
        return file.id as string;
      }),
    );
    const files = await until(
      "200 files indexed",
      () => call<Array<{ id: string; status: string; chunkCount: number }>>(B(), "GET", `/api/v1/knowledge-bases/${base.id}/files`),
      (list) => list.filter((file) => ids.includes(file.id) && file.status === "effective").length === 200,
      45_000,
    );
    expect(files.filter((file) => file.chunkCount !== 1)).toEqual([]);
    // Each job embedded its one chunk once: a second run of any job would embed its text again.
    const embedded = new Map<string, number>();
    for (const request of embeddings.requests)
      for (const text of request.input) if (text.includes("Leaflet ")) embedded.set(text, (embedded.get(text) ?? 0) + 1);
    expect([...embedded].filter(([, count]) => count !== 1)).toEqual([]);
    expect(embedded.size).toBe(200);
  });

  it("kill -9 of the worker mid-job: the job completes on a restarted worker, every chunk stored once", async () => {
    const base = await call<{ id: string }>(A(), "POST", "/api/v1/knowledge-bases", { name: "Manuals", chunkTokens: 50, chunkOverlap: 0 });
    const text = Array.from(
      { length: 3_000 },
      (_, index) => `Section ${index} of the turbine manual explains step ${index} of servicing unit ${index * 7}.`,
    ).join("\n\n");
    // Slow embeddings keep the job running long enough to kill its worker in the middle.
    embeddings.setDelay(40);
    const form = new FormData();
    form.append("file", new File([text], "turbine.txt"));
    const uploaded = await call(A(), "POST", `/api/v1/knowledge-bases/${base.id}/files`, form);
    await call(A(), "POST", `/api/v1/knowledge-files/${uploaded.id}/confirm`);
    const fileOf = async () =>
      (await call<Array<{ id: string; status: string; progress: number; chunkCount: number }>>(B(), "GET", `/api/v1/knowledge-bases/${base.id}/files`)).find(
        (file) => file.id === uploaded.id,
      )!;
    const partial = await until("indexing under way", fileOf, (file) => file.progress >= 5, 20_000);
    expect(partial.status).toBe("processing");
    const worker = cluster.workers[0]!;
    await worker.kill();
    // Only workers run jobs: with the worker dead, the file stays where it was, also after its
    // lease (5 s) ran out, when any process that runs jobs would have taken it over.
    const stalled = await fileOf();
    await sleep(7_000);
    expect(await fileOf()).toMatchObject({ status: "processing", progress: stalled.progress });
    embeddings.setDelay(0);
    await cluster.add("worker");
    const after = await until("indexing finished after the restart", fileOf, (file) => file.status !== "processing", 60_000);
    expect(after).toMatchObject({ status: "effective", progress: 100 });
    const db = new Database(path.join(cluster.dataDir, "parley.db"), { readonly: true });
    try {
      const rows = db
        .prepare(
          "SELECT count(*) AS n, count(DISTINCT ordinal) AS ordinals, min(ordinal) AS first, max(ordinal) AS last FROM knowledge_chunks WHERE file_id = ?",
        )
        .get(uploaded.id);
      expect(rows).toEqual({ n: after.chunkCount, ordinals: after.chunkCount, first: 0, last: after.chunkCount - 1 });
      // Every job of this cluster went through Redis, none through the SQL queue.
      expect(db.prepare("SELECT count(*) AS n FROM jobs").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    const hits = await call(B(), "POST", `/api/v1/knowledge-bases/${base.id}/retrieval-test`, { query: "turbine manual step 2999", mode: "fulltext" });
    expect(JSON.stringify(hits)).toContain("Section 2999 ");
  });

  it("a scheduled workflow fires once with two schedulers running", async () => {
    await sleep(Math.max(0, scheduled.firesAt - Date.now()));
    const timed = async () =>
      ((await call(B(), "GET", `/api/v1/workflows/${scheduled.workflowId}/runs`)).items as Array<{ type: string; status: string }>).filter(
        (run) => run.type === "TIME",
      );
    await until("the timer's run", timed, (runs) => runs.some((run) => run.status === "success"), 20_000);
    // A second scheduler that fired the same tick would have added its run by now.
    await sleep(3_000);
    expect(await timed()).toMatchObject([{ type: "TIME", status: "success" }]);
  });
});

async function createApp(): Promise<{ id: string; code: string }> {
  return call(A(), "POST", "/api/v1/apps", {
    name: "Scale helper",
    description: "Answers",
    openingIntroduction: "Hello!",
    avatarUrl: "https://cdn.example.com/a.png",
    category: "other",
    settingsPrompt: "You answer briefly.",
  });
}
