import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "./free-port";

/** Debian's Redis server binary (package `redis-server`). */
export const redisServerBin = "/usr/bin/redis-server";

/** A Redis server a test started on loopback, with a password. */
export interface RedisServer {
  /** `redis://:password@127.0.0.1:port` (what PARLEY_REDIS_URL takes). */
  url: string;
  port: number;
  password: string;
  /** Milliseconds from the empty directory to answering PING. */
  startupMs: number;
  /** Ends the server (by its pid) and keeps its directory, so {@link RedisServer.start} brings the same data back. */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the server again on the same port with the same data (after {@link RedisServer.kill}). */
  start(): Promise<void>;
  /** Ends the server this harness started and deletes its directory. */
  stop(): Promise<void>;
}

/** Whether Debian's redis-server is installed. */
export function redisServerInstalled(): boolean {
  return fs.existsSync(redisServerBin);
}

/**
 * True when a test needing Redis should be skipped: only when the binary is absent on a developer
 * machine. Under `CI` a missing server is a failure, so the suite cannot pass without it.
 */
export function skipWithoutRedis(): boolean {
  return !redisServerInstalled() && !process.env.CI;
}

/** Answers whether a Redis on the port answers PING with the password (a raw RESP exchange, no client library). */
function pings(port: number, password: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let reply = "";
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("connect", () => socket.write(`AUTH ${password}\r\nPING\r\n`));
    socket.on("data", (chunk) => {
      reply += chunk.toString();
      if (reply.includes("+PONG")) done(true);
      else if (reply.includes("-")) done(false);
    });
  });
}

/**
 * Starts a fresh redis-server in a temp directory on a free 127.0.0.1 port with a password, an
 * append-only file (so a restart keeps queued jobs, as a real deployment's would) and no RDB
 * snapshots. Only loopback; the harness ends it by its own pid.
 */
export async function startRedis(): Promise<RedisServer> {
  if (!redisServerInstalled()) throw new Error(`Redis is not installed (${redisServerBin}); install Debian's redis-server package`);
  const began = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-redis-"));
  const port = await freePort();
  const password = `pw-${randomBytes(9).toString("base64url")}`;
  let child: ChildProcess | undefined;
  let log = "";

  const launch = async () => {
    log = "";
    const started = spawn(
      redisServerBin,
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--requirepass",
        password,
        "--dir",
        dir,
        "--save",
        "",
        "--appendonly",
        "yes",
        "--appendfsync",
        "no",
        "--daemonize",
        "no",
        "--protected-mode",
        "yes",
        "--loglevel",
        "warning",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child = started;
    const collect = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    };
    started.stdout?.on("data", collect);
    started.stderr?.on("data", collect);
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}: ${log}`);
      if (await pings(port, password)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`redis-server did not start within 20 s: ${log}`);
  };

  const kill = (signal: NodeJS.Signals = "SIGTERM") =>
    new Promise<void>((resolve) => {
      const running = child;
      if (!running || running.exitCode !== null || running.pid === undefined) return resolve();
      const force = setTimeout(() => {
        if (running.exitCode === null && running.pid !== undefined) process.kill(running.pid, "SIGKILL");
      }, 10_000);
      running.once("exit", () => {
        clearTimeout(force);
        resolve();
      });
      process.kill(running.pid, signal);
    });

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= kill().then(() => fs.rmSync(dir, { recursive: true, force: true }));
    return stopping;
  };

  try {
    await launch();
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis://:${password}@127.0.0.1:${port}`, port, password, startupMs: Date.now() - began, kill, start: launch, stop };
}
