// Chat benchmark: Parley's OpenAI-compatible endpoint versus the same local fake LLM called
// directly, side by side in one run, at concurrency 1 and 100. Prints name=value lines; the
// last four are server_cpu_ms_per_turn, turns_per_s, added_ttft_p50_ms and added_ttft_p99_ms.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ownerKey = "pk_bench_chat_owner_key_0123456789abcdef";
const SAMPLES = { 1: 300, 100: 3000 } as const;
const WARMUP = 200;

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match) {
        child.stdout?.off("data", onData);
        resolve(match[1] ?? match[0]);
      }
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`process exited with ${code}: ${output}`)));
  });
}

const agent = new http.Agent({ keepAlive: process.env.BENCH_KEEPALIVE !== "0", maxSockets: 256 });

/** One streamed completion, retried once when a kept-alive socket was closed under it. */
async function completion(base: string, body: unknown, token: string): Promise<{ ttft: number; total: number }> {
  try {
    return await completionOnce(base, body, token);
  } catch (error) {
    if ((error as { code?: string }).code !== "ECONNRESET") throw error;
    return completionOnce(base, body, token);
  }
}

/** One streamed completion: time to the first content delta and to the end, in ms. */
function completionOnce(base: string, body: unknown, token: string): Promise<{ ttft: number; total: number }> {
  const url = new URL(`${base}/chat/completions`);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let ttft = -1;
    let seen = "";
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "content-length": Buffer.byteLength(payload) },
      },
      (response) => {
        if (response.statusCode !== 200) {
          let text = "";
          response.on("data", (chunk) => (text += chunk));
          response.on("end", () => reject(new Error(`HTTP ${response.statusCode}: ${text}`)));
          return;
        }
        response.on("data", (chunk: Buffer) => {
          if (ttft < 0) {
            seen += chunk.toString();
            if (seen.includes('"content":"P')) ttft = performance.now() - started;
          }
        });
        response.on("end", () => resolve({ ttft, total: performance.now() - started }));
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

/** CPU time (user + system) the server process has used so far, in ms; Linux only, else NaN. */
function serverCpuMs(): number {
  try {
    const fields = fs.readFileSync(`/proc/${server.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

async function run(concurrency: number, count: number, call: () => Promise<{ ttft: number; total: number }>) {
  const ttfts: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next += 1;
        ttfts.push((await call()).ttft);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  ttfts.sort((a, b) => a - b);
  const at = (q: number) => ttfts[Math.min(ttfts.length - 1, Math.floor(q * ttfts.length))]!;
  return { perSecond: count / seconds, p50: at(0.5), p99: at(0.99) };
}

const tsx = path.join(root, "node_modules/.bin/tsx");
const fakeProcess = spawn(tsx, [path.join(root, "bench/fake-llm.ts")], { stdio: ["ignore", "pipe", "inherit"] });
const fakeUrl = (await waitForLine(fakeProcess, /(http:\/\/\S+)\n/)).trim();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-chat-"));
// BENCH_NODE_ARGS lets a run profile the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
const server = spawn(process.execPath, [...nodeArgs, path.join(root, "packages/api/dist/server.js")], {
  env: {
    PATH: process.env.PATH ?? "",
    PORT: "0",
    HOST: "127.0.0.1",
    PARLEY_DATA_DIR: dataDir,
    PARLEY_BOOTSTRAP_API_KEY: ownerKey,
    PARLEY_WELCOME_CREDITS: "100000000",
    PARLEY_LOG_LEVEL: "info",
    OPENAI_API_KEY: "sk-bench",
    OPENAI_BASE_URL: fakeUrl,
  },
  stdio: ["ignore", "pipe", "inherit"],
});
const parleyUrl = (await waitForLine(server, /listening on (http:\/\/\S+)/)).replace("localhost", "127.0.0.1");

try {
  const created = await fetch(`${parleyUrl}/api/v1/apps`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${ownerKey}` },
    body: JSON.stringify({
      name: "Bench bot",
      description: "Answers benchmark questions",
      openingIntroduction: "Hello, benchmark.",
      avatarUrl: "https://cdn.example.com/bench.png",
      category: "other",
      settingsPrompt: "You answer briefly.",
      memoryTurns: 0,
    }),
  });
  const app = ((await created.json()) as { data: { code: string } }).data;
  const direct = () => completion(fakeUrl, { model: "gpt-4.1-mini", stream: true, messages: [{ role: "user", content: "Hi" }] }, "sk-bench");
  const viaParley = () => completion(`${parleyUrl}/v1`, { model: app.code, stream: true, messages: [{ role: "user", content: "Hi" }] }, ownerKey);

  // Warm up at the highest concurrency: JIT, statement cache and one kept-alive connection per
  // worker. Opening 100 connections at once to a busy server costs seconds of SYN retries for a
  // few of them, a start-up effect rather than the steady state measured here.
  await run(100, WARMUP * 5, viaParley);
  await run(100, WARMUP * 5, direct);
  const results: Record<string, { perSecond: number; p50: number; p99: number }> = {};
  let cpuPerTurn = Number.NaN;
  for (const concurrency of [1, 100] as const) {
    results[`direct_c${concurrency}`] = await run(concurrency, SAMPLES[concurrency], direct);
    const cpuBefore = serverCpuMs();
    results[`parley_c${concurrency}`] = await run(concurrency, SAMPLES[concurrency], viaParley);
    if (concurrency === 100) cpuPerTurn = (serverCpuMs() - cpuBefore) / SAMPLES[100];
  }
  const fixed = (value: number) => value.toFixed(2);
  for (const [name, result] of Object.entries(results)) {
    console.log(`${name}_turns_per_s=${result.perSecond.toFixed(1)}`);
    console.log(`${name}_ttft_p50_ms=${fixed(result.p50)}`);
    console.log(`${name}_ttft_p99_ms=${fixed(result.p99)}`);
  }
  console.log(`added_ttft_c1_p50_ms=${fixed(results.parley_c1!.p50 - results.direct_c1!.p50)}`);
  console.log(`added_ttft_c1_p99_ms=${fixed(results.parley_c1!.p99 - results.direct_c1!.p99)}`);
  // The server's CPU per turn is steadier than throughput on a shared machine: other work
  // slows the wall clock, much less the CPU a turn costs.
  console.log(`server_cpu_ms_per_turn=${fixed(cpuPerTurn)}`);
  console.log(`turns_per_s=${results.parley_c100!.perSecond.toFixed(1)}`);
  console.log(`added_ttft_p50_ms=${fixed(results.parley_c100!.p50 - results.direct_c100!.p50)}`);
  console.log(`added_ttft_p99_ms=${fixed(results.parley_c100!.p99 - results.direct_c100!.p99)}`);
} finally {
  agent.destroy();
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
  fakeProcess.kill("SIGTERM");
  fs.rmSync(dataDir, { recursive: true, force: true });
}
