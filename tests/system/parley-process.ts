import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Repository root. */
export const root = path.resolve(__dirname, "../..");

/** A Parley server started the way `npm start` starts it: the built server in its own process. */
export interface ParleyProcess {
  /** Where it listens; empty for a process without the api role (PARLEY_ROLE=worker, scheduler). */
  url: string;
  dataDir: string;
  /** The owner's one-time sign-in link printed at first start, if any. */
  signInUrl?: string;
  /** Milliseconds from spawning the process to the listening line. */
  startupMs: number;
  output(): string;
  stop(): Promise<void>;
  /** Kills the process with SIGKILL (no shutdown at all) and keeps its data directory. */
  kill(): Promise<void>;
}

/**
 * Starts `node packages/api/dist/server.js` on a free port with a fresh data directory. A process
 * whose PARLEY_ROLE lacks `api` does not listen: it is started when it prints its ready line.
 */
export async function startParley(env: Record<string, string> = {}, options: { dataDir?: string } = {}): Promise<ParleyProcess> {
  const server = path.join(root, "packages/api/dist/server.js");
  if (!fs.existsSync(server)) throw new Error("packages/api/dist/server.js is missing: run `npm run build` first");
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "parley-system-"));
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, [server], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "0", HOST: "127.0.0.1", PARLEY_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const result = await new Promise<{ url: string; startupMs: number }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Parley did not start within 20 s:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Parley is ready \(roles: [a-z,]+; database: \S+\)/.test(output)) {
        clearTimeout(timer);
        resolve({ url: "", startupMs: performance.now() - started });
        return;
      }
      const match = /listening on (http:\/\/\S+)/.exec(output);
      // The sign-in link is printed right after the listening line on a first start.
      if (match?.[1] && (output.includes("loginCode=") || !output.includes("Created the owner") || output.includes("\n\n"))) {
        clearTimeout(timer);
        resolve({ url: match[1].replace("localhost", "127.0.0.1"), startupMs: performance.now() - started });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`Parley exited with ${code}:\n${output}`));
    });
  });
  // Give the banner a moment to finish printing.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const signInUrl = /(http:\/\/\S+loginCode=\S+)/.exec(output)?.[1]?.replace("localhost", "127.0.0.1");
  return {
    url: result.url,
    dataDir,
    ...(signInUrl ? { signInUrl } : {}),
    startupMs: result.startupMs,
    output: () => output,
    kill: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      if (!options.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Reads the newest six-digit code the outbox sent to an address, through the API as the owner. */
export async function codeFromOutbox(url: string, ownerKey: string, to: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await fetch(`${url}/api/v1/outbox?to=${encodeURIComponent(to)}&limit=1`, { headers: { authorization: `Bearer ${ownerKey}` } });
    const body = (await response.json()) as { data: Array<{ text: string }> };
    const code = body.data[0]?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code reached the outbox for ${to}`);
}

/**
 * Calls the API with a bearer token and answers the envelope's `data`; throws, naming the call,
 * on an error status or an unsuccessful envelope. A FormData body is sent as it is, anything
 * else as JSON. `spaceId` picks the space (`x-parley-space`).
 */
export async function apiCall<T = any>(
  base: string,
  token: string,
  method: string,
  pathname: string,
  body?: unknown,
  options: { spaceId?: string } = {},
): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (options.spaceId) headers["x-parley-space"] = options.spaceId;
  const init: RequestInit = { method, headers };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    headers["content-type"] = "application/json";
  }
  const response = await fetch(`${base}${pathname}`, init);
  const text = await response.text();
  let envelope: { success?: boolean; message?: string; data: T } | undefined;
  try {
    envelope = JSON.parse(text) as { success?: boolean; message?: string; data: T };
  } catch {
    envelope = undefined;
  }
  if (!response.ok || !envelope || envelope.success === false)
    throw new Error(`${method} ${pathname}: ${response.status} ${envelope?.message ?? text.slice(0, 300)}`);
  return envelope.data;
}
