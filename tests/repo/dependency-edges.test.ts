import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findViolations, importsOf } from "./dependency-edges";

const packagesDir = path.resolve(__dirname, "../../packages");

function fixture(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-edges-"));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe("dependency edges", () => {
  it("the repository has no forbidden edge", () => {
    expect(findViolations(packagesDir)).toEqual([]);
  });

  it("finds console → api internals, sdk → ours, and relative escapes", () => {
    const dir = fixture({
      "console/package.json": JSON.stringify({ name: "@parley/console", dependencies: { "@parley/sdk": "0", "@parley/api": "0" } }),
      "console/src/a.ts": `import { createApp } from "../../api/src/app";\nimport { x } from "@parley/sdk/src/client";`,
      "api/package.json": JSON.stringify({ name: "@parley/api" }),
      "sdk/package.json": JSON.stringify({ name: "@parley/sdk" }),
      "sdk/src/b.ts": `export { y } from "@parley/channels";`,
      "channels/package.json": JSON.stringify({ name: "@parley/channels" }),
      "channels/src/c.ts": `const z = await import("@parley/sdk");`,
    });
    const found = findViolations(dir).map((violation) => `${violation.from} -> ${violation.to}`);
    expect(found).toEqual(
      expect.arrayContaining([
        "@parley/console -> @parley/api",
        "@parley/console -> api/src/app",
        "@parley/console -> @parley/sdk/src/client",
        "@parley/sdk -> @parley/channels",
        "@parley/channels -> @parley/sdk",
      ]),
    );
    expect(found).toHaveLength(5);
  });

  it("lets tests, and only tests, read the repository's shared fixtures", () => {
    const dir = fixture({
      "packages/console/package.json": JSON.stringify({ name: "@parley/console" }),
      "packages/console/src/view.test.tsx": `import { cases } from "../../../tests/fixtures/rules";`,
      "packages/console/src/view.tsx": `import { cases } from "../../../tests/fixtures/rules";`,
      "tests/fixtures/rules.ts": "export const cases = [];",
    });
    const found = findViolations(path.join(dir, "packages")).map((violation) => `${violation.where} -> ${violation.to}`);
    expect(found).toEqual([`console/src/view.tsx -> ../tests/fixtures/rules`]);
  });

  it("reads static, dynamic, re-export and side-effect imports", () => {
    expect(importsOf(`import a from "x";\nexport { b } from 'y';\nconst c = import("z");\nimport "w";\nrequire("v")`)).toEqual(["x", "y", "z", "w", "v"]);
  });
});
