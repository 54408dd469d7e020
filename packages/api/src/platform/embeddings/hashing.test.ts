import { describe, expect, it } from "vitest";
import { createHashingEmbedder } from "./hashing";
import { dot } from "./types";

describe("createHashingEmbedder", () => {
  const embedder = createHashingEmbedder();

  it("is deterministic, 384-d and unit length", async () => {
    const [first] = await embedder.embed(["Vaccines reduce hospital admissions"], { kind: "document" });
    const [second] = await createHashingEmbedder().embed(["Vaccines reduce hospital admissions"], { kind: "query" });
    expect(first!.length).toBe(384);
    expect([...first!]).toEqual([...second!]);
    expect(dot(first!, first!)).toBeCloseTo(1, 5);
    expect(embedder.label).toMatch(/lexical/i);
  });

  it("ranks texts sharing words above unrelated ones, in English and Chinese", async () => {
    const [query, near, far] = await embedder.embed(["vaccination of children", "Children received vaccinations in spring", "Stock markets fell sharply"], {
      kind: "document",
    });
    expect(dot(query!, near!)).toBeGreaterThan(dot(query!, far!) + 0.2);
    const [zhQuery, zhNear, zhFar] = await embedder.embed(["北京大学在哪里", "北京大学位于海淀区", "今天股市大幅下跌"], { kind: "document" });
    expect(dot(zhQuery!, zhNear!)).toBeGreaterThan(dot(zhQuery!, zhFar!) + 0.2);
  });

  it("gives the empty text a zero vector", async () => {
    const [empty] = await embedder.embed([""], { kind: "query" });
    expect(dot(empty!, empty!)).toBe(0);
  });
});
