#!/usr/bin/env node
// `npm start`: build what is stale (turbo's cache makes a repeat build instant), then serve
// the API, the console, /docs and /openapi.json on one port with embedded defaults.
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };
const build = spawnSync(
  path.join(root, "node_modules", ".bin", "turbo"),
  ["run", "build", "--filter=@parley/api", "--filter=@parley/console", "--output-logs=errors-only"],
  {
    cwd: root,
    env,
    stdio: "inherit",
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);
const server = spawn(process.execPath, [path.join(root, "packages/api/dist/server.js")], { cwd: root, env, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
