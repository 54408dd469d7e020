import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/harness";
import { databaseKeyValueStore, sweepKeyValues } from "./kv";

let ctx: TestContext;
let now = Date.parse("2026-11-21T10:00:00Z");

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe("database key-value store", () => {
  it("sets once while live, again after expiry, and sweeps what expired", async () => {
    const kv = databaseKeyValueStore(ctx.deps.db, () => now);
    expect(await kv.setIfAbsent("dedupe:a", "1", 60)).toBe(true);
    expect(await kv.setIfAbsent("dedupe:a", "2", 60)).toBe(false);
    expect(await kv.get("dedupe:a")).toBe("1");
    now += 61_000;
    expect(await kv.get("dedupe:a")).toBeUndefined();
    expect(await kv.setIfAbsent("dedupe:a", "3", 60)).toBe(true);
    expect(await kv.get("dedupe:a")).toBe("3");
    await kv.set("cursor", "c1");
    await kv.set("token", "t1", 10);
    now += 3_600_000;
    expect(await sweepKeyValues(ctx.deps.db, now)).toBe(2);
    expect(await kv.get("cursor")).toBe("c1");
    await kv.delete("cursor");
    expect(await kv.get("cursor")).toBeUndefined();
  });

  it("lets exactly one of many concurrent callers take a key", async () => {
    const kv = databaseKeyValueStore(ctx.deps.db, () => now);
    const results = await Promise.all(Array.from({ length: 20 }, () => kv.setIfAbsent("race", "x", 60)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
