import { describe, expect, it } from "vitest";
import { normalize } from "../../platform/embeddings/types";
import { coalesceUpserts } from "./coalescing-index";
import { createMemoryVectorIndex, type VectorIndex, type VectorRow } from "./vector-index";

/** A real in-memory table that records the size of every write it is asked to make. */
function recording(fail?: () => boolean) {
  const inner = createMemoryVectorIndex("m", 4);
  const writes: number[] = [];
  const table: VectorIndex = {
    ...inner,
    async upsert(rows) {
      writes.push(rows.length);
      // A commit takes a while, as LanceDB's does.
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (fail?.()) throw new Error("disk full");
      return inner.upsert(rows);
    },
    search: inner.search,
    delete: inner.delete,
    count: inner.count,
  };
  return { table, writes };
}

const row = (chunkId: string, axis: number): VectorRow => {
  const vector = new Float32Array(4);
  vector[axis] = 1;
  return { chunkId, knowledgeBaseId: "kb", fileId: `f-${chunkId}`, vector: normalize(vector) };
};

describe("coalesceUpserts", () => {
  it("merges upserts made while a write is running into one write, and settles each once its rows are stored", async () => {
    const { table, writes } = recording();
    const index = coalesceUpserts(table);
    const stored: string[] = [];
    await Promise.all(Array.from({ length: 9 }, (_, i) => index.upsert([row(`c${i}`, i % 4)]).then(() => stored.push(`c${i}`))));
    expect(stored).toHaveLength(9);
    expect(await index.count()).toBe(9);
    // The first write goes alone; the eight that arrived meanwhile share the next one.
    expect(writes).toEqual([1, 8]);
    const [best] = await index.search(row("q", 2).vector, { knowledgeBaseIds: ["kb"], limit: 1 });
    expect(best!.similarity).toBeCloseTo(1);
  });

  it("rejects every caller of a failed write, and later writes still go through", async () => {
    let failing = true;
    const { table } = recording(() => failing);
    const index = coalesceUpserts(table);
    const results = await Promise.allSettled([index.upsert([row("a", 0)]), index.upsert([row("b", 1)])]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected"]);
    failing = false;
    await index.upsert([row("c", 2)]);
    expect(await index.count()).toBe(1);
  });

  it("lets a delete wait for the upserts queued before it", async () => {
    const { table } = recording();
    const index = coalesceUpserts(table);
    const pending = [index.upsert([row("a", 0)]), index.upsert([row("b", 1)])];
    await index.delete({ chunkIds: ["a", "b"] });
    await Promise.all(pending);
    expect(await index.count()).toBe(0);
  });
});
