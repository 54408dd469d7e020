// Scale-out benchmark (issue 22): chat turns per second through a round-robin balancer with one
// and then two api processes on one data directory (SQLite in WAL) and one Redis, and one
// process with the embedded defaults (no Redis) for the single-process figure. Turns are answered
// by the offline responder (no model configured), so the figure is Parley's own cost per turn.
// Prints name=value lines: turns_per_s_default first, the rounds and the CPU each side used per
// turn (the servers; this process: load generator + balancer), then turns_per_s_1,
// turns_per_s_2 and scale_ratio last.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { type Cluster, type ClusterProcess, startBalancer, startCluster, startRole } from "../tests/system/cluster";

const ownerKey = "pk_bench_scale_owner_key_0123456789abcdef";
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_SECONDS = 3;
// PARLEY_* settings in the benchmark's own environment reach every server (to try one, e.g.
// PARLEY_SQLITE_MMAP_MB=256 npm run bench:scale).
const env: Record<string, string> = {
  PARLEY_WELCOME_CREDITS: "100000000",
  PARLEY_LOG_LEVEL: "info",
  PARLEY_SEED_DEMO: "false",
  ...Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith("PARLEY_") && entry[1] !== undefined)),
  PARLEY_BOOTSTRAP_API_KEY: ownerKey,
};

const agent = new http.Agent({ keepAlive: true, maxSockets: 1024 });

/** One non-streamed turn through the OpenAI-compatible endpoint; answers the HTTP status. */
function turn(base: URL, payload: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: base.hostname,
        port: base.port,
        path: "/v1/chat/completions",
        method: "POST",
        agent,
        headers: { "content-type": "application/json", authorization: `Bearer ${ownerKey}`, "content-length": Buffer.byteLength(payload) },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

/** CPU (user + system) a process has used so far, in ms, from /proc (Linux). */
function cpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

const ownCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function createApp(base: string): Promise<string> {
  const response = await fetch(`${base}/api/v1/apps`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${ownerKey}` },
    body: JSON.stringify({
      name: "Scale bot",
      description: "Answers benchmark questions",
      openingIntroduction: "Hello, benchmark.",
      avatarUrl: "https://cdn.example.com/bench.png",
      category: "other",
      settingsPrompt: "You answer briefly.",
      memoryTurns: 0,
    }),
  });
  const body = (await response.json()) as { success: boolean; message?: string; data: { code: string } };
  if (!body.success) throw new Error(`creating the app failed: ${body.message}`);
  return body.data.code;
}

/** Turns per second over `seconds` with `CONCURRENCY` turns in flight, and the CPU spent per turn. */
async function measure(base: string, appCode: string, servers: ClusterProcess[] | number[], seconds: number) {
  const url = new URL(base);
  const pids = servers.map((server) => (typeof server === "number" ? server : server.pid));
  const payload = JSON.stringify({ model: appCode, stream: false, messages: [{ role: "user", content: "Where is my parcel?" }] });
  const serverBefore = pids.map(cpuMs);
  const ownBefore = ownCpuMs();
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  let done = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < deadline) {
        const status = await turn(url, payload);
        if (status === 200) done += 1;
        else failed += 1;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  if (failed > 0) throw new Error(`${failed} turns failed`);
  const serverCpu = pids.map((pid, i) => cpuMs(pid) - serverBefore[i]!).reduce((a, b) => a + b, 0);
  return { perSecond: done / elapsed, serverCpuPerTurn: serverCpu / done, ownCpuPerTurn: (ownCpuMs() - ownBefore) / done };
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

// The single-process default: one process, every role, no Redis, reached through a balancer.
// BENCH_COMPARE_SERVER=<another build>/packages/api/dist/server.js (e.g. main's before a change)
// runs that build beside it on its own data directory and alternates rounds between the two, so
// the load of a shared machine touches both alike: default_ratio is this build over the other.
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
{
  const builds: Array<{ name: string; server?: string }> = [{ name: "default" }];
  if (process.env.BENCH_COMPARE_SERVER) builds.push({ name: "default_compare", server: process.env.BENCH_COMPARE_SERVER });
  const started: Array<{
    name: string;
    dataDir: string;
    server: ClusterProcess;
    balancer: Awaited<ReturnType<typeof startBalancer>>;
    app: string;
    results: Awaited<ReturnType<typeof measure>>[];
  }> = [];
  try {
    for (const build of builds) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-scale-default-"));
      const server = await startRole("all", dataDir, env, build.server ? { server: build.server } : {});
      const entry = {
        ...build,
        dataDir,
        server,
        balancer: await startBalancer(() => [server.url!]),
        app: "",
        results: [] as Awaited<ReturnType<typeof measure>>[],
      };
      started.push(entry);
      entry.app = await createApp(entry.balancer.url);
      await measure(entry.balancer.url, entry.app, [server], WARMUP_SECONDS);
    }
    const rounds = started.length > 1 ? ROUNDS : 1;
    for (let round = 0; round < rounds; round++) {
      for (const entry of round % 2 === 0 ? started : [...started].reverse())
        entry.results.push(await measure(entry.balancer.url, entry.app, [entry.server], SECONDS));
    }
    for (const entry of started) {
      console.log(`turns_per_s_${entry.name}=${fixed(median(entry.results.map((result) => result.perSecond)))}`);
      console.log(`server_cpu_ms_per_turn_${entry.name}=${fixed(median(entry.results.map((result) => result.serverCpuPerTurn)), 2)}`);
    }
    if (started.length > 1) {
      const [own, other] = started.map((entry) => median(entry.results.map((result) => result.perSecond)));
      console.log(`default_ratio=${fixed(own! / other!, 2)}`);
    }
  } finally {
    for (const entry of started) {
      await entry.balancer.close();
      await entry.server.stop();
      fs.rmSync(entry.dataDir, { recursive: true, force: true });
    }
  }
}

// One and then two api processes (and no separate worker: chat turns need none) on one data
// directory and one Redis. Both processes start and warm up first; then rounds alternate the
// balancer between the first process alone and both, so drift on a shared machine (other work
// coming and going) touches both figures alike; each figure is the median of its rounds.
let cluster: Cluster | undefined;
try {
  cluster = await startCluster({ api: 2, workers: 0, env });
  const apis = cluster.apis;
  let backends = apis.map((process) => process.url!);
  const balancer = await startBalancer(() => backends);
  try {
    const app = await createApp(balancer.url);
    await measure(balancer.url, app, apis, WARMUP_SECONDS * 2);
    const one: Awaited<ReturnType<typeof measure>>[] = [];
    const two: Awaited<ReturnType<typeof measure>>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      backends = [apis[0]!.url!];
      one.push(await measure(balancer.url, app, apis, SECONDS));
      backends = apis.map((process) => process.url!);
      two.push(await measure(balancer.url, app, apis, SECONDS));
    }
    const perSecond1 = median(one.map((result) => result.perSecond));
    const perSecond2 = median(two.map((result) => result.perSecond));
    console.log(`rounds_1=${one.map((result) => fixed(result.perSecond)).join(",")}`);
    console.log(`rounds_2=${two.map((result) => fixed(result.perSecond)).join(",")}`);
    // On a machine shared with other work the wall-clock ratio measures the spare cores as much
    // as Parley; the CPU each turn costs is steadier. What the CPU figures allow on an otherwise
    // idle machine of this many cores: one process is capped at one core, and the load generator
    // and balancer (this process) take their share of the cores in both cases.
    const cores = os.availableParallelism();
    const server1 = median(one.map((result) => result.serverCpuPerTurn));
    const server2 = median(two.map((result) => result.serverCpuPerTurn));
    const driver1 = median(one.map((result) => result.ownCpuPerTurn));
    const driver2 = median(two.map((result) => result.ownCpuPerTurn));
    const capacity1 = Math.min(1000 / server1, (cores * 1000) / (server1 + driver1));
    const capacity2 = Math.min((2 * 1000) / server2, (cores * 1000) / (server2 + driver2));
    console.log(`server_cpu_ms_per_turn_1=${fixed(server1, 2)}`);
    console.log(`server_cpu_ms_per_turn_2=${fixed(server2, 2)}`);
    console.log(`driver_cpu_ms_per_turn_1=${fixed(driver1, 2)}`);
    console.log(`driver_cpu_ms_per_turn_2=${fixed(driver2, 2)}`);
    console.log(`cpu_bound_ratio=${fixed(capacity2 / capacity1, 2)}`);
    console.log(`cores=${cores}`);
    console.log(`load_avg_1m=${fixed(os.loadavg()[0]!, 2)}`);
    console.log(`concurrency=${CONCURRENCY}`);
    console.log(`turns_per_s_1=${fixed(perSecond1)}`);
    console.log(`turns_per_s_2=${fixed(perSecond2)}`);
    console.log(`scale_ratio=${fixed(perSecond2 / perSecond1, 2)}`);
  } finally {
    await balancer.close();
  }
} finally {
  await cluster?.stop();
  agent.destroy();
}
