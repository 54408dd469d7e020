import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import mysql from "mysql2/promise";
import pg from "pg";
import { freePort } from "./free-port";

const run = promisify(execFile);

/** Debian's PostgreSQL 15 binaries (package `postgresql`). */
export const postgresBin = "/usr/lib/postgresql/15/bin";
/** Debian's MariaDB binaries (package `mariadb-server`). */
export const mariadbBins = { install: "/usr/bin/mariadb-install-db", server: "/usr/sbin/mariadbd" };

/** A database server started for a test file, reachable on loopback with a password. */
export interface DbServer {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** The superuser's unix socket directory (PostgreSQL) or socket file (MariaDB), for test set-up. */
  socket: string;
  /** Milliseconds from the empty directory to accepting connections. */
  startupMs: number;
  /** Ends the server this harness started (by its pid) and deletes its directory. */
  stop(): Promise<void>;
}

/** Whether the server binaries are installed. */
export function dbServerInstalled(kind: "postgresql" | "mariadb"): boolean {
  return kind === "postgresql" ? fs.existsSync(path.join(postgresBin, "postgres")) : fs.existsSync(mariadbBins.server);
}

/**
 * True when a test needing this server should be skipped: only when the binaries are absent on a
 * developer machine. Under `CI` a missing server is a failure, so the suite cannot pass without it.
 */
export function skipWithoutDbServer(kind: "postgresql" | "mariadb"): boolean {
  return !dbServerInstalled(kind) && !process.env.CI;
}

// Root cannot run either server: the data directory and the process belong to the service user.
function serviceUser(name: string): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs
    .readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) throw new Error(`running as root needs the system user ${name} (installed with its Debian package)`);
  const [, , uid, gid] = line.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

function tempDir(prefix: string, owner: { uid: number; gid: number } | undefined): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  return dir;
}

async function waitUntil(ready: () => Promise<boolean>, child: ChildProcess, log: () => string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${log()}`);
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server did not start within ${timeoutMs} ms: ${log()}`);
}

function stopper(child: ChildProcess, signal: NodeJS.Signals, dir: string): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= new Promise<void>((resolve) => {
      const done = () => {
        fs.rmSync(dir, { recursive: true, force: true });
        resolve();
      };
      if (child.exitCode !== null || child.pid === undefined) return done();
      const force = setTimeout(() => {
        if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, "SIGKILL");
      }, 10_000);
      child.once("exit", () => {
        clearTimeout(force);
        done();
      });
      process.kill(child.pid, signal);
    });
    return stopping;
  };
}

/**
 * Starts a fresh PostgreSQL 15 in a temp directory on a free 127.0.0.1 port, with durability
 * off for speed, and creates the database `parley_test` owned by the user `parley` (password
 * authentication over TCP; the superuser `postgres` is trusted on the unix socket only).
 */
export async function startPostgres(): Promise<DbServer> {
  if (!dbServerInstalled("postgresql")) throw new Error(`PostgreSQL is not installed (${postgresBin}); install Debian's postgresql package`);
  const began = Date.now();
  const owner = serviceUser("postgres");
  const dir = tempDir("parley-pg-", owner);
  const data = path.join(dir, "data");
  const as = owner ? { uid: owner.uid, gid: owner.gid } : {};
  await run(
    path.join(postgresBin, "initdb"),
    ["-D", data, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync", "-E", "UTF8", "--locale=C.UTF-8", "--no-instructions"],
    { ...as, cwd: dir },
  );
  const port = await freePort();
  let log = "";
  const child = spawn(
    path.join(postgresBin, "postgres"),
    [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      dir,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "shared_buffers=16MB",
      "-c",
      "max_connections=40",
      "-c",
      "logging_collector=off",
    ],
    { ...as, cwd: dir, stdio: ["ignore", "ignore", "pipe"] },
  );
  child.stderr?.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const stop = stopper(child, "SIGINT", dir);
  const superuser = { host: dir, port, user: "postgres", database: "postgres" };
  try {
    await waitUntil(
      async () => {
        const client = new pg.Client(superuser);
        try {
          await client.connect();
          return true;
        } catch {
          return false;
        } finally {
          await client.end().catch(() => {});
        }
      },
      child,
      () => log,
    );
    const password = `pw-${randomBytes(9).toString("base64url")}`;
    const admin = new pg.Client(superuser);
    await admin.connect();
    await admin.query(`CREATE ROLE parley LOGIN PASSWORD '${password}'`);
    await admin.query("CREATE DATABASE parley_test OWNER parley");
    await admin.end();
    return { host: "127.0.0.1", port, user: "parley", password, database: "parley_test", socket: dir, startupMs: Date.now() - began, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Starts a fresh MariaDB in a temp directory on a free 127.0.0.1 port (no binary log, a small
 * buffer pool) and creates the database `parley_test` and the user `parley`@`127.0.0.1` with a
 * password; root logs in without a password on the unix socket only.
 */
export async function startMariaDb(): Promise<DbServer> {
  if (!dbServerInstalled("mariadb")) throw new Error(`MariaDB is not installed (${mariadbBins.server}); install Debian's mariadb-server package`);
  const began = Date.now();
  const owner = serviceUser("mysql");
  const dir = tempDir("parley-maria-", owner);
  const data = path.join(dir, "data");
  const socket = path.join(dir, "mysql.sock");
  const userArgs = owner ? ["--user=mysql"] : [];
  await run(
    mariadbBins.install,
    ["--no-defaults", `--datadir=${data}`, "--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve", ...userArgs],
    { cwd: dir },
  );
  const port = await freePort();
  let log = "";
  const child = spawn(
    mariadbBins.server,
    [
      "--no-defaults",
      `--datadir=${data}`,
      `--socket=${socket}`,
      `--port=${port}`,
      "--bind-address=127.0.0.1",
      `--pid-file=${path.join(dir, "mariadb.pid")}`,
      "--skip-log-bin",
      "--skip-name-resolve",
      "--innodb-buffer-pool-size=16M",
      "--innodb-log-file-size=8M",
      "--innodb-flush-log-at-trx-commit=0",
      "--innodb-doublewrite=0",
      "--performance-schema=off",
      "--max-connections=40",
      `--log-error=${path.join(dir, "error.log")}`,
      ...userArgs,
    ],
    { cwd: dir, stdio: ["ignore", "ignore", "pipe"] },
  );
  child.stderr?.on("data", (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-4000);
  });
  const readLog = () => {
    try {
      return log + fs.readFileSync(path.join(dir, "error.log"), "utf8").slice(-4000);
    } catch {
      return log;
    }
  };
  const stop = stopper(child, "SIGTERM", dir);
  try {
    await waitUntil(
      async () => {
        try {
          const connection = await mysql.createConnection({ socketPath: socket, user: "root" });
          await connection.end();
          return true;
        } catch {
          return false;
        }
      },
      child,
      readLog,
    );
    const password = `pw-${randomBytes(9).toString("base64url")}`;
    const admin = await mysql.createConnection({ socketPath: socket, user: "root" });
    await admin.query("CREATE DATABASE parley_test CHARACTER SET utf8mb4");
    await admin.query("CREATE USER 'parley'@'127.0.0.1' IDENTIFIED BY ?", [password]);
    await admin.query("GRANT ALL ON parley_test.* TO 'parley'@'127.0.0.1'");
    await admin.end();
    return { host: "127.0.0.1", port, user: "parley", password, database: "parley_test", socket, startupMs: Date.now() - began, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
