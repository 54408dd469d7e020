import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type RedisServer, startRedis } from "../../packages/api/src/testing/redis-server";

// Resolved from this file (not __dirname) so the benchmarks can use the harness under tsx too.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** One Parley process of a cluster: the built server started with a role. */
export interface ClusterProcess {
  /** `api`, `worker`, `scheduler` or a comma-separated set (PARLEY_ROLE). */
  role: string;
  pid: number;
  /** Where it listens; absent for a process without the api role that does not listen. */
  url?: string;
  output(): string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL (no shutdown at all) and wait for the exit. */
  kill(): Promise<void>;
}

/** A round-robin HTTP and WebSocket proxy in front of the api processes (no stickiness). */
export interface Balancer {
  url: string;
  /** Requests and upgrades each backend received, by backend URL. */
  counts(): Record<string, number>;
  close(): Promise<void>;
}

/** Several Parley processes on one data directory (SQLite in WAL) and one Redis, behind a balancer. */
export interface Cluster {
  /** The balancer's URL. */
  url: string;
  dataDir: string;
  redis: RedisServer | undefined;
  apis: ClusterProcess[];
  workers: ClusterProcess[];
  balancer: Balancer;
  /** The environment every process got (besides role, port and host). */
  env: Record<string, string>;
  /** Starts one more process of a role on the cluster's data and Redis. */
  add(role: string): Promise<ClusterProcess>;
  /** Ends the balancer, every process (by pid), Redis, and deletes the data directory. */
  stop(): Promise<void>;
}

const ready = /listening on (http:\/\/\S+)|Parley is ready \(roles: [^)]*\)/;

/**
 * Starts `node packages/api/dist/server.js` with PARLEY_ROLE=role on the data directory. Ready
 * when it prints its listening line (api) or its ready line (no api role: decision 0030).
 */
export async function startRole(
  role: string,
  dataDir: string,
  env: Record<string, string> = {},
  options: {
    /** Another build's entry point (a benchmark compares builds); this checkout's by default. */
    server?: string;
    /** Arguments for node itself, e.g. `--cpu-prof` (not allowed in NODE_OPTIONS). */
    nodeArgs?: string[];
  } = {},
): Promise<ClusterProcess> {
  const server = options.server ?? path.join(root, "packages/api/dist/server.js");
  if (!fs.existsSync(server)) throw new Error("packages/api/dist/server.js is missing: run `npm run build` first");
  const child: ChildProcess = spawn(process.execPath, [...(options.nodeArgs ?? []), server], {
    cwd: path.resolve(path.dirname(server), "../../.."),
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      PORT: "0",
      HOST: "127.0.0.1",
      PARLEY_DATA_DIR: dataDir,
      PARLEY_ROLE: role,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string | undefined>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Parley (${role}) did not start within 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        child.off("exit", onExit);
        resolve(match[1]?.replace("localhost", "127.0.0.1"));
      }
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`Parley (${role}) exited with ${code}:\n${output}`));
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", onExit);
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill(signal);
    await exited;
  };
  return {
    role,
    pid: child.pid!,
    ...(url ? { url } : {}),
    output: () => output,
    stop: () => end("SIGTERM"),
    kill: () => end("SIGKILL"),
  };
}

/**
 * A small round-robin proxy: each HTTP request and each WebSocket upgrade goes to the next
 * backend in turn, so two requests of one client (even one socket.io session's polls) may land
 * on different processes, as behind a load balancer without sticky sessions.
 */
export async function startBalancer(backends: () => string[]): Promise<Balancer> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const counts: Record<string, number> = {};
  let turn = 0;
  const next = () => {
    const list = backends();
    if (list.length === 0) throw new Error("no backend");
    const chosen = list[turn++ % list.length]!;
    counts[chosen] = (counts[chosen] ?? 0) + 1;
    return new URL(chosen);
  };
  const server = http.createServer((request, response) => {
    let target: URL;
    try {
      target = next();
    } catch {
      response.writeHead(502).end();
      return;
    }
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers, agent },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on("error", () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(upstream);
  });
  server.keepAliveTimeout = 65_000;
  const open = new Set<net.Socket>();
  server.on("connection", (socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  });
  server.on("upgrade", (request, client, head) => {
    let target: URL;
    try {
      target = next();
    } catch {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname, () => {
      const lines = [`${request.method} ${request.url} HTTP/1.1`];
      for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    open.add(upstream);
    upstream.once("close", () => open.delete(upstream));
    const drop = () => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on("error", drop);
    client.on("error", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts: () => ({ ...counts }),
    close: async () => {
      for (const socket of open) socket.destroy();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Starts a cluster: Redis (unless `redis: false`), then one api process alone (it applies the
 * migrations and bootstraps the instance on the empty data directory), then the other api
 * processes and the workers together, then the balancer in front of the api processes.
 */
export async function startCluster(
  options: {
    api?: number;
    workers?: number;
    env?: Record<string, string>;
    redis?: boolean;
    dataDir?: string;
    /** PARLEY_ROLE of the api processes (`api`), e.g. `api,scheduler`. */
    apiRole?: string;
    /** PARLEY_ROLE of the workers (`worker`). */
    workerRole?: string;
  } = {},
): Promise<Cluster> {
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "parley-cluster-"));
  const redis = options.redis === false ? undefined : await startRedis();
  const env: Record<string, string> = { ...(redis ? { PARLEY_REDIS_URL: redis.url } : {}), ...options.env };
  const apis: ClusterProcess[] = [];
  const workers: ClusterProcess[] = [];
  const started: ClusterProcess[] = [];
  let balancer: Balancer | undefined;
  const stop = async () => {
    await balancer?.close();
    await Promise.all(started.map((process) => process.stop()));
    await redis?.stop();
    if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const add = async (role: string) => {
    const process = await startRole(role, dataDir, env);
    started.push(process);
    (role.split(",").includes("api") ? apis : workers).push(process);
    return process;
  };
  try {
    const apiCount = options.api ?? 2;
    const apiRole = options.apiRole ?? "api";
    await add(apiRole);
    await Promise.all([
      ...Array.from({ length: apiCount - 1 }, () => add(apiRole)),
      ...Array.from({ length: options.workers ?? 1 }, () => add(options.workerRole ?? "worker")),
    ]);
    balancer = await startBalancer(() => apis.filter((process) => process.url).map((process) => process.url!));
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: balancer.url, dataDir, redis, apis, workers, balancer, env, add, stop };
}
