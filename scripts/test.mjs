#!/usr/bin/env node
// `npm test`: everything CI checks, in one command — lint and import rules, build, type-check, contract drift, size
// budget, every vitest project (unit, API on both drivers, SDK, console, repo rules, system
// tests in Chromium) and the Storybook build. Ends with one 'N passed, N failed' line.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", STORYBOOK_DISABLE_TELEMETRY: "1", DO_NOT_TRACK: "1" };
const results = path.join(os.tmpdir(), `parley-vitest-${process.pid}.json`);
const started = Date.now();

const steps = [
  // First and fast: formatting and lint rules (biome.jsonc), then the import rules (.dependency-cruiser.cjs).
  { name: "lint", command: "npm", args: ["run", "-s", "lint:code"] },
  { name: "dependency rules", command: "npm", args: ["run", "-s", "lint:deps"] },
  { name: "build", command: bin("turbo"), args: ["run", "build", "--output-logs=errors-only"] },
  { name: "typecheck", command: bin("turbo"), args: ["run", "typecheck", "--output-logs=errors-only"] },
  { name: "openapi:check", command: process.execPath, args: ["scripts/openapi-check.mjs"] },
  { name: "sdk size", command: "npm", args: ["run", "-s", "size", "-w", "@parley/sdk"] },
  { name: "widget size", command: "npm", args: ["run", "-s", "size", "-w", "@parley/widget"] },
  { name: "tests", command: bin("vitest"), args: ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${results}`, ...process.argv.slice(2)] },
  // --test builds every story the same way but skips what only a published Storybook shows (docgen
  // prop tables, source maps): the same 94 entries in 49 s instead of 76 s. `npm run build-storybook` stays full.
  { name: "storybook build", command: "npm", args: ["run", "-s", "build-storybook", "-w", "@parley/console", "--", "--test"] },
];

const failed = [];
for (const step of steps) {
  const begin = Date.now();
  process.stdout.write(`\n▶ ${step.name}\n`);
  const run = spawnSync(step.command, step.args, { cwd: root, env, stdio: "inherit" });
  const seconds = ((Date.now() - begin) / 1000).toFixed(1);
  if (run.status !== 0) {
    failed.push(step.name);
    process.stdout.write(`✗ ${step.name} failed (${seconds} s)\n`);
  } else {
    process.stdout.write(`✓ ${step.name} (${seconds} s)\n`);
  }
}

let passed = 0;
let failedTests = 0;
let skipped = 0;
if (fs.existsSync(results)) {
  const report = JSON.parse(fs.readFileSync(results, "utf8"));
  passed = report.numPassedTests ?? 0;
  failedTests = report.numFailedTests ?? 0;
  skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  fs.rmSync(results, { force: true });
}
// Steps other than vitest count as one check each, so a broken build cannot read as green.
const checksPassed = steps.length - 1 - failed.filter((name) => name !== "tests").length;
const checksFailed = failed.filter((name) => name !== "tests").length;
const total = ((Date.now() - started) / 1000).toFixed(0);
process.stdout.write(`\nSuite time: ${total} s${failed.length ? `; failed steps: ${failed.join(", ")}` : ""}\n`);
process.stdout.write(`Tests: ${passed + checksPassed} passed, ${failedTests + checksFailed} failed${skipped ? `, ${skipped} skipped` : ""}\n`);
process.exit(failed.length === 0 && failedTests === 0 && passed > 0 ? 0 : 1);
