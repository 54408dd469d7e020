import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { driverFreeApiTests } from "../../vitest.config";
import { databaseUse } from "./driver-free";

const root = path.resolve(__dirname, "../..");

describe("API test files the libsql project leaves out", () => {
  it("exist and open no database, so the api project's run covers them fully", () => {
    expect(driverFreeApiTests.length).toBeGreaterThan(0);
    for (const file of driverFreeApiTests) {
      const absolute = path.join(root, file);
      expect(fs.existsSync(absolute), file).toBe(true);
      expect(databaseUse(absolute), file).toBeUndefined();
    }
  });

  it("sees a database opened by the file itself or through a test helper it imports", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-driver-free-"));
    fs.mkdirSync(path.join(dir, "testing"));
    fs.writeFileSync(path.join(dir, "testing", "helper.ts"), 'import { createTestContext } from "../harness";\n');
    fs.writeFileSync(path.join(dir, "direct.test.ts"), 'const ctx = await openDatabase({ driver: "libsql", url });\n');
    fs.writeFileSync(path.join(dir, "indirect.test.ts"), 'import { helper } from "./testing/helper";\n');
    fs.writeFileSync(path.join(dir, "pure.test.ts"), 'import { chunkText } from "./chunker";\n');
    fs.writeFileSync(path.join(dir, "chunker.ts"), "export const chunkText = 1;\n");
    expect(databaseUse(path.join(dir, "direct.test.ts"))).toMatch(/openDatabase/);
    expect(databaseUse(path.join(dir, "indirect.test.ts"))).toMatch(/helper\.ts mentions createTestContext/);
    expect(databaseUse(path.join(dir, "pure.test.ts"))).toBeUndefined();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
