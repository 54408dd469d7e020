#!/usr/bin/env node
// Start-up time of the built server on an empty data directory, and latency of two hot calls:
// password sign-in (scrypt-bound) and GET /api/v1/me with a bearer token. Prints name=value lines.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-"));
const key = "pk_bench_owner_key_0123456789abcdef";
const started = performance.now();
const child = spawn(process.execPath, [path.join(root, "packages/api/dist/server.js")], {
  env: {
    ...process.env,
    PORT: "0",
    HOST: "127.0.0.1",
    PARLEY_DATA_DIR: dataDir,
    PARLEY_BOOTSTRAP_API_KEY: key,
    PARLEY_THROTTLE_LOGIN_PER_ACCOUNT: "100000",
    PARLEY_THROTTLE_LOGIN_PER_IP: "100000",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise((resolve, reject) => {
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(output);
    if (match) resolve(match[1].replace("localhost", "127.0.0.1"));
  });
  child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
});
const startupMs = performance.now() - started;
const firstStart = performance.now();
await fetch(`${url}/api/v1/health`);
const firstRequestMs = performance.now() - firstStart;

const json = (body) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const email = "bench@example.com";
await fetch(`${url}/api/v1/auth/codes`, json({ channel: "email", target: email, purpose: "register" }));
const outbox = await (await fetch(`${url}/api/v1/outbox?to=${email}`, { headers: { authorization: `Bearer ${key}` } })).json();
const code = outbox.data[0].text.match(/\b(\d{6})\b/)[1];
const registered = await (await fetch(`${url}/api/v1/auth/register`, json({ channel: "email", target: email, code, password: "bench-passw0rd" }))).json();
const token = registered.data.token;

async function measure(count, call) {
  const times = [];
  for (let index = 0; index < count; index++) {
    const begin = performance.now();
    const response = await call();
    if (!response.ok) throw new Error(`status ${response.status}`);
    await response.arrayBuffer();
    times.push(performance.now() - begin);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p95: at(0.95) };
}
const login = await measure(50, () =>
  fetch(`${url}/api/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: email, password: "bench-passw0rd" }),
  }),
);
const me = await measure(500, () => fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${token}` } }));
child.kill("SIGTERM");
fs.rmSync(dataDir, { recursive: true, force: true });
const round = (value) => value.toFixed(1);
console.log(`startup_ms=${round(startupMs)}`);
console.log(`first_request_ms=${round(firstRequestMs)}`);
console.log(`login_p50_ms=${round(login.p50)}`);
console.log(`login_p95_ms=${round(login.p95)}`);
console.log(`me_p50_ms=${round(me.p50)}`);
console.log(`me_p95_ms=${round(me.p95)}`);
