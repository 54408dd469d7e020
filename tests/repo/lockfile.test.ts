import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(__dirname, "../..");

/**
 * Copies the manifests npm reads (root and every workspace's package.json, the lockfile and
 * .npmrc) into a fresh folder, so `npm install --package-lock-only` can run there without
 * touching the checkout.
 */
function manifestCopy(lock: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-lock-"));
  const rootManifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { workspaces: string[] };
  const copy = (relative: string, contents?: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    if (contents === undefined) fs.copyFileSync(path.join(root, relative), path.join(dir, relative));
    else fs.writeFileSync(path.join(dir, relative), contents);
  };
  copy("package.json");
  copy(".npmrc");
  copy("package-lock.json", lock);
  for (const pattern of rootManifest.workspaces) {
    const folders = pattern.endsWith("/*")
      ? fs.readdirSync(path.join(root, pattern.slice(0, -2))).map((name) => path.join(pattern.slice(0, -2), name))
      : [pattern];
    for (const folder of folders) if (fs.existsSync(path.join(root, folder, "package.json"))) copy(path.join(folder, "package.json"));
  }
  return dir;
}

function rewriteLock(lock: string): { status: number | null; lock: string; stderr: string } {
  const dir = manifestCopy(lock);
  const run = spawnSync("npm", ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"], {
    cwd: dir,
    encoding: "utf8",
    timeout: 120_000,
  });
  const result = { status: run.status, lock: fs.readFileSync(path.join(dir, "package-lock.json"), "utf8"), stderr: run.stderr };
  fs.rmSync(dir, { recursive: true, force: true });
  return result;
}

describe("package-lock.json", () => {
  const committed = fs.readFileSync(path.join(root, "package-lock.json"), "utf8");

  it("is exactly what npm writes, so `npm install` on a clean clone leaves git status clean", () => {
    const run = rewriteLock(committed);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/Unknown (project|user|env) config/);
    expect(run.lock === committed, "package-lock.json drifts: run `npm install --package-lock-only` and commit it").toBe(true);
  }, 150_000);

  it("is caught when an entry npm writes is missing", () => {
    const parsed = JSON.parse(committed) as { packages: Record<string, unknown> };
    const optional = Object.keys(parsed.packages).find((key) => key.startsWith("node_modules/@turbo/"));
    expect(optional).toBeDefined();
    delete parsed.packages[optional!];
    const run = rewriteLock(`${JSON.stringify(parsed, null, 2)}\n`);
    expect(run.status, run.stderr).toBe(0);
    expect(run.lock).not.toBe(`${JSON.stringify(parsed, null, 2)}\n`);
    expect(run.lock).toContain(`"${optional}"`);
  }, 150_000);
});
