// Soak benchmark: the built server with its default settings under steady chat for a fixed time
// (10 minutes unless --seconds says otherwise), its memory read from inside the process once a
// second. Prints name=value lines, among them rss_start_mb (after the warm-up), rss_end_mb,
// heap_end_mb and errors.
//
//   npm run bench:soak [-- --seconds 600 --workers 8 --pause-ms 20 --warmup-seconds 60]
//
// Extra server settings go through the environment (e.g. PARLEY_SQLITE_CACHE_MB=128).
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startOpenAiFake } from "../packages/api/src/testing/fakes/llm-openai";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "600" },
    workers: { type: "string", default: "8" },
    "pause-ms": { type: "string", default: "20" },
    "warmup-seconds": { type: "string", default: "60" },
  },
});
const seconds = Number(values.seconds);
const workers = Number(values.workers);
const pauseMs = Number(values["pause-ms"]);
const warmupSeconds = Math.min(Number(values["warmup-seconds"]), seconds / 4);
const ownerKey = "pk_bench_soak_owner_key_0123456789abcdef";

const server = path.join(root, "packages/api/dist/server.js");
if (!fs.existsSync(server)) throw new Error("packages/api/dist/server.js is missing: run `npm run build` first");

const fake = await startOpenAiFake();
fake.always({
  text: "A steady answer with a handful of words in it, streamed in parts.",
  chunks: 6,
  usage: { promptTokens: 40, completionTokens: 14 },
  record: false,
});

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-soak-"));
const probeFile = path.join(dataDir, "memory.json");
const child: ChildProcess = spawn(process.execPath, ["--import", path.join(root, "bench/memory-probe.mjs"), server], {
  cwd: root,
  env: {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    PARLEY_DATA_DIR: dataDir,
    PARLEY_BOOTSTRAP_API_KEY: ownerKey,
    PARLEY_WELCOME_CREDITS: "1000000000",
    OPENAI_API_KEY: "sk-soak",
    OPENAI_BASE_URL: fake.url,
    PARLEY_MEMORY_PROBE_FILE: probeFile,
  },
  stdio: ["ignore", "pipe", "pipe"],
});
let serverOutput = "";
const base = await new Promise<string>((resolve, reject) => {
  const onData = (chunk: Buffer) => {
    if (serverOutput.length < 100_000) serverOutput += chunk.toString();
    const match = /listening on (http:\/\/\S+)/.exec(serverOutput);
    if (match) resolve(match[1]!.replace("localhost", "127.0.0.1"));
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${serverOutput}`)));
});

const memory = () => JSON.parse(fs.readFileSync(probeFile, "utf8")) as { rss: number; heapUsed: number; external: number; arrayBuffers: number };
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const headers = { authorization: `Bearer ${ownerKey}`, "content-type": "application/json" };

async function json<T>(route: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(`${base}${route}`, { ...init, headers });
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${route}: HTTP ${response.status}`);
  return ((await response.json()) as { data: T }).data;
}

const apps = await json<{ items: Array<{ code: string }> }>("/api/v1/apps");
const appCode = apps.items[0]?.code;
if (!appCode) throw new Error("no app to chat with (the demo seed is off?)");

let turns = 0;
let errors = 0;
const firstErrors: string[] = [];
const deadline = Date.now() + seconds * 1000;

/** One console chat turn, read to its end; returns the conversation it continued or started. */
async function chatTurn(conversationId: string | undefined, text: string): Promise<string | undefined> {
  const response = await fetch(`${base}/api/v1/chat/stream`, {
    method: "POST",
    headers,
    body: JSON.stringify({ appCode, message: text, ...(conversationId ? { conversationId } : {}) }),
  });
  if (!response.ok) throw new Error(`chat/stream: HTTP ${response.status}`);
  const body = await response.text();
  if (!body.includes("message-end")) throw new Error(`chat/stream ended without message-end: …${body.slice(-300)}`);
  return /"conversationId":"([^"]+)"/.exec(body)?.[1] ?? conversationId;
}

async function completion(text: string): Promise<void> {
  const response = await fetch(`${base}/v1/chat/completions`, {
    method: "POST",
    headers,
    body: JSON.stringify({ model: appCode, stream: true, messages: [{ role: "user", content: text }] }),
  });
  if (!response.ok) throw new Error(`chat/completions: HTTP ${response.status}`);
  await response.text();
}

async function worker(index: number): Promise<void> {
  let conversationId: string | undefined;
  for (let round = 0; Date.now() < deadline; round++) {
    try {
      // Ten turns a conversation, then a new one; every fifth turn through the OpenAI-compatible API.
      if (round % 10 === 0) conversationId = undefined;
      if (round % 5 === 4) await completion(`Worker ${index} round ${round}: a question through the API`);
      else conversationId = await chatTurn(conversationId, `Worker ${index} round ${round}: what are your opening hours?`);
      if (round % 10 === 9 && conversationId) await json(`/api/v1/chat/conversations/${conversationId}/messages`);
      turns++;
    } catch (error) {
      errors++;
      if (firstErrors.length < 5) firstErrors.push(String(error));
    }
    if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}

const idle = memory();
const started = Date.now();
let start: ReturnType<typeof memory> | undefined;
const warmupTimer = setTimeout(() => (start = memory()), warmupSeconds * 1000);
let peakRss = 0;
const timeline: string[] = [];
let ticks = 0;
const sampler = setInterval(() => {
  const now = memory();
  peakRss = Math.max(peakRss, now.rss);
  const second = ++ticks;
  // One line a minute (every 10 s on short runs), so growth can be told from a plateau.
  if (second > 0 && second % (seconds >= 300 ? 60 : 10) === 0)
    timeline.push(`# t=${second}s rss_mb=${mb(now.rss)} heap_mb=${mb(now.heapUsed)} external_mb=${mb(now.external)} turns=${turns}`);
}, 1000);
await Promise.all(Array.from({ length: workers }, (_, index) => worker(index)));
clearTimeout(warmupTimer);
clearInterval(sampler);
await new Promise((resolve) => setTimeout(resolve, 1500));
const end = memory();
start ??= idle;

const exited = new Promise((resolve) => child.once("exit", resolve));
child.kill("SIGTERM");
await exited;
await fake.close();
fs.rmSync(dataDir, { recursive: true, force: true });

console.log(
  `# seconds=${seconds} workers=${workers} pause_ms=${pauseMs} warmup_s=${warmupSeconds} sqlite_cache_mb=${process.env.PARLEY_SQLITE_CACHE_MB ?? "default"} sqlite_mmap_mb=${process.env.PARLEY_SQLITE_MMAP_MB ?? "default"} cpus=${os.cpus().length}`,
);
for (const line of timeline) console.log(line);
for (const line of firstErrors) console.log(`# error: ${line}`);
console.log(`turns=${turns}`);
console.log(`turns_per_s=${(turns / ((Date.now() - started) / 1000)).toFixed(1)}`);
console.log(`rss_idle_mb=${mb(idle.rss)}`);
console.log(`rss_start_mb=${mb(start.rss)}`);
console.log(`rss_peak_mb=${mb(peakRss)}`);
console.log(`rss_end_mb=${mb(end.rss)}`);
console.log(`rss_growth_mb=${mb(end.rss - start.rss)}`);
console.log(`heap_start_mb=${mb(start.heapUsed)}`);
console.log(`heap_end_mb=${mb(end.heapUsed)}`);
console.log(`external_end_mb=${mb(end.external)}`);
console.log(`array_buffers_end_mb=${mb(end.arrayBuffers)}`);
console.log(`errors=${errors}`);
