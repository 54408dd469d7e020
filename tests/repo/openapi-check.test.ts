import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");
const check = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(root, "scripts/openapi-check.mjs"), ...args], { cwd: root, encoding: "utf8", timeout: 60_000 });

describe("openapi:check", () => {
  it("passes on the committed contract and SDK types", () => {
    const run = check();
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  }, 60_000);

  it("fails when the contract or the SDK types no longer match the routes", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-drift-"));
    const contract = path.join(dir, "openapi.yaml");
    const types = path.join(dir, "schema.ts");
    // A route renamed without regenerating: the committed copies still name the old path.
    fs.writeFileSync(contract, fs.readFileSync(path.join(root, "openapi.yaml"), "utf8").replace("/api/v1/me/api-keys:", "/api/v1/me/keys:"));
    fs.copyFileSync(path.join(root, "packages/sdk/src/generated/schema.ts"), types);
    const staleContract = check("--contract", contract, "--types", types);
    expect(staleContract.status).toBe(1);
    expect(staleContract.stderr).toContain("openapi.yaml is out of date");

    fs.copyFileSync(path.join(root, "openapi.yaml"), contract);
    fs.writeFileSync(types, fs.readFileSync(types, "utf8").replace('"/api/v1/me/api-keys"', '"/api/v1/me/keys"'));
    const staleTypes = check("--contract", contract, "--types", types);
    expect(staleTypes.status).toBe(1);
    expect(staleTypes.stderr).toContain("the SDK's generated types is out of date");
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
