#!/usr/bin/env node
// Fails when openapi.yaml or the SDK's generated types differ from what the routes produce now.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const temp = fs.mkdtempSync(path.join(os.tmpdir(), "parley-openapi-"));
const bin = (name) => path.join(root, "node_modules", ".bin", name);
const run = (command, args, cwd = root) => execFileSync(command, args, { cwd, stdio: ["ignore", "pipe", "inherit"] });

const freshContract = path.join(temp, "openapi.yaml");
const freshTypes = path.join(temp, "schema.ts");
run(bin("tsx"), ["packages/api/scripts/write-openapi.ts", freshContract]);
run(bin("openapi-typescript"), [freshContract, "-o", freshTypes]);

// `--contract FILE` / `--types FILE` compare other copies (the repo test uses them to prove the check can fail).
const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index > 0 && process.argv[index + 1] ? path.resolve(process.argv[index + 1]) : fallback;
};
const checks = [
  { committed: option("--contract", path.join(root, "openapi.yaml")), fresh: freshContract, what: "openapi.yaml" },
  { committed: option("--types", path.join(root, "packages/sdk/src/generated/schema.ts")), fresh: freshTypes, what: "the SDK's generated types" },
];
let stale = 0;
for (const check of checks) {
  const committed = fs.existsSync(check.committed) ? fs.readFileSync(check.committed, "utf8") : "";
  if (committed !== fs.readFileSync(check.fresh, "utf8")) {
    stale += 1;
    process.stderr.write(`openapi:check: ${check.what} is out of date with the routes (${path.relative(root, check.committed)}).\n`);
  }
}
fs.rmSync(temp, { recursive: true, force: true });
if (stale > 0) {
  process.stderr.write("Run `npm run openapi:generate` and commit the result.\n");
  process.exit(1);
}
process.stdout.write("openapi:check: openapi.yaml and the SDK types match the routes\n");
