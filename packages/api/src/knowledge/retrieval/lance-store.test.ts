import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { connect } from "@lancedb/lancedb";
import { afterAll, describe, expect, it } from "vitest";
import { normalize } from "../../platform/embeddings/types";
import { annSearchSettings, createLanceVectorStore, type LanceVectorStore, lanceTableName } from "./lance-store";
import { createMemoryVectorIndex, type VectorRow } from "./vector-index";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "parley-lance-test-"));
const opened: LanceVectorStore[] = [];
const DIMENSIONS = 16;

afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  fs.rmSync(root, { recursive: true, force: true });
});

function newStore(name: string, options: { annThreshold?: number; logs?: string[] } = {}): LanceVectorStore {
  const logs = options.logs;
  const logger = logs
    ? { info: (_: object, msg?: string) => logs.push(msg ?? ""), warn: (obj: object, msg?: string) => logs.push(`${msg} ${JSON.stringify(obj)}`) }
    : undefined;
  const store = createLanceVectorStore({
    directory: path.join(root, name),
    ...(options.annThreshold ? { annThreshold: options.annThreshold } : {}),
    ...(logger ? { logger } : {}),
  });
  opened.push(store);
  return store;
}

/** Deterministic unit vectors (mulberry32), so a failure can be replayed. */
function randomVectors(count: number, seed: number, dimensions = DIMENSIONS): Float32Array[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), state | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: count }, () => normalize(Float32Array.from({ length: dimensions }, () => next() * 2 - 1)));
}

function rows(knowledgeBaseId: string, vectors: Float32Array[], prefix = knowledgeBaseId): VectorRow[] {
  return vectors.map((vector, index) => ({ chunkId: `${prefix}-c${index}`, knowledgeBaseId, fileId: `${prefix}-f${index % 3}`, vector }));
}

describe("LanceDB vector store", () => {
  it("keeps one row per chunk id: an upsert replaces vector, knowledge base and file", async () => {
    const table = newStore("replace").table("model-a", DIMENSIONS);
    const vectors = randomVectors(4, 1);
    await table.upsert(rows("kb_a", vectors.slice(0, 3)));
    await table.upsert([{ chunkId: "kb_a-c1", knowledgeBaseId: "kb_b", fileId: "f_new", vector: vectors[3]! }]);
    expect(await table.count()).toBe(3);
    const [hit] = await table.search(vectors[3]!, { knowledgeBaseIds: ["kb_b"], limit: 5 });
    expect(hit).toMatchObject({ chunkId: "kb_a-c1", knowledgeBaseId: "kb_b", fileId: "f_new" });
    expect(hit!.similarity).toBeCloseTo(1, 5);
    expect((await table.search(vectors[1]!, { knowledgeBaseIds: ["kb_a"], limit: 5 })).map((found) => found.chunkId)).not.toContain("kb_a-c1");
  });

  it("returns the memory index's results, in the same order, with cosine similarities", async () => {
    const lance = newStore("compare").table("model-a", DIMENSIONS);
    const memory = createMemoryVectorIndex("model-a", DIMENSIONS);
    const data = [...rows("kb_a", randomVectors(150, 2)), ...rows("kb_b", randomVectors(150, 3))];
    await lance.upsert(data);
    await memory.upsert(data);
    for (const [index, query] of randomVectors(8, 4).entries()) {
      const scope = index % 2 === 0 ? ["kb_a"] : ["kb_a", "kb_b"];
      const expected = await memory.search(query, { knowledgeBaseIds: scope, limit: 10 });
      const actual = await lance.search(query, { knowledgeBaseIds: scope, limit: 10 });
      expect(actual.map((hit) => hit.chunkId)).toEqual(expected.map((hit) => hit.chunkId));
      actual.forEach((hit, rank) => expect(hit.similarity).toBeCloseTo(expected[rank]!.similarity, 5));
      expect(actual[0]!.similarity).toBeGreaterThan(actual[9]!.similarity);
    }
  });

  it("never returns rows of a knowledge base outside the scope, even an identical vector", async () => {
    const table = newStore("scope").table("model-a", DIMENSIONS);
    const vectors = randomVectors(40, 5);
    await table.upsert(rows("kb_o'brien", vectors.slice(0, 20)));
    await table.upsert(rows("kb_other", vectors.slice(20)));
    const hits = await table.search(vectors[25]!, { knowledgeBaseIds: ["kb_o'brien"], limit: 50 });
    expect(hits).toHaveLength(20);
    expect(new Set(hits.map((hit) => hit.knowledgeBaseId))).toEqual(new Set(["kb_o'brien"]));
    const other = await table.search(vectors[25]!, { knowledgeBaseIds: ["kb_other"], limit: 1 });
    expect(other.map((hit) => hit.chunkId)).toEqual(["kb_other-c5"]);
    expect(await table.search(vectors[25]!, { knowledgeBaseIds: ["kb_missing"], limit: 5 })).toEqual([]);
    expect(await table.search(vectors[25]!, { knowledgeBaseIds: [], limit: 5 })).toEqual([]);
    expect(await table.search(vectors[25]!, { knowledgeBaseIds: ["kb_other"], limit: 0 })).toEqual([]);
  });

  it("deletes by chunk, by file and by knowledge base", async () => {
    const table = newStore("delete").table("model-a", DIMENSIONS);
    const vectors = randomVectors(24, 6);
    await table.upsert([...rows("kb_a", vectors.slice(0, 12)), ...rows("kb_b", vectors.slice(12))]);
    await table.delete({ chunkIds: ["kb_a-c0", "kb_a-c1"] });
    expect(await table.count()).toBe(22);
    expect((await table.search(vectors[0]!, { knowledgeBaseIds: ["kb_a"], limit: 1 }))[0]!.chunkId).not.toBe("kb_a-c0");
    // Files kb_a-f2 hold chunks 2, 5, 8 and 11 of kb_a.
    await table.delete({ fileIds: ["kb_a-f2"] });
    expect(await table.count()).toBe(18);
    const left = await table.search(vectors[2]!, { knowledgeBaseIds: ["kb_a"], limit: 20 });
    expect(left.map((hit) => hit.chunkId).sort()).toEqual(["kb_a-c10", "kb_a-c3", "kb_a-c4", "kb_a-c6", "kb_a-c7", "kb_a-c9"]);
    await table.delete({ knowledgeBaseIds: ["kb_b"] });
    expect(await table.count()).toBe(6);
    expect(await table.search(vectors[12]!, { knowledgeBaseIds: ["kb_b"], limit: 5 })).toEqual([]);
    await table.delete({});
    expect(await table.count()).toBe(6);
  });

  it("finds its tables again in a new store on the same directory", async () => {
    const first = newStore("persist");
    const vectors = randomVectors(10, 7);
    const written = first.table("text-embedding-3-small", DIMENSIONS);
    await written.upsert(rows("kb_a", vectors));
    await first.close();
    await expect(written.count()).rejects.toThrow(/closed/);
    expect(() => first.table("text-embedding-3-small", DIMENSIONS)).toThrow(/closed/);
    const second = newStore("persist").table("text-embedding-3-small", DIMENSIONS);
    expect(await second.count()).toBe(10);
    expect((await second.search(vectors[4]!, { knowledgeBaseIds: ["kb_a"], limit: 1 }))[0]).toMatchObject({ chunkId: "kb_a-c4", fileId: "kb_a-f1" });
    expect(fs.readdirSync(path.join(root, "persist"))).toEqual([`${lanceTableName("text-embedding-3-small", DIMENSIONS)}.lance`]);
  });

  it("creates no table for reads, and keeps models apart", async () => {
    const store = newStore("models");
    expect(await store.table("unused", DIMENSIONS).count()).toBe(0);
    expect(await store.table("unused", DIMENSIONS).search(randomVectors(1, 8)[0]!, { knowledgeBaseIds: ["kb_a"], limit: 3 })).toEqual([]);
    await store.table("BAAI/bge-m3", DIMENSIONS).upsert(rows("kb_a", randomVectors(3, 9)));
    await store.table("baai_bge-m3", DIMENSIONS).upsert(rows("kb_a", randomVectors(2, 10)));
    expect(await store.table("BAAI/bge-m3", DIMENSIONS).count()).toBe(3);
    expect(await store.table("baai_bge-m3", DIMENSIONS).count()).toBe(2);
    expect(fs.readdirSync(path.join(root, "models"))).toHaveLength(2);
  });

  it("refuses vectors of another dimension with a clear error", async () => {
    const store = newStore("dimensions");
    const table = store.table("model-a", DIMENSIONS);
    await expect(table.upsert(rows("kb_a", randomVectors(1, 11, 8)))).rejects.toThrow(
      "vector of 8 dimensions for chunk kb_a-c0 in the 16-d vector table of model-a",
    );
    await expect(table.search(new Float32Array(8), { knowledgeBaseIds: ["kb_a"], limit: 1 })).rejects.toThrow(/8 dimensions/);
    expect(() => store.table("model-a", 32)).toThrow("vector table model-a holds 16-d vectors, not 32-d");
    expect(await table.count()).toBe(0);
  });

  it("lands every row of concurrent upserts", async () => {
    const table = newStore("concurrent").table("model-a", DIMENSIONS);
    const vectors = randomVectors(200, 12);
    await Promise.all(Array.from({ length: 20 }, (_, batch) => table.upsert(rows("kb_a", vectors.slice(batch * 10, batch * 10 + 10), `b${batch}`))));
    expect(await table.count()).toBe(200);
    const [hit] = await table.search(vectors[137]!, { knowledgeBaseIds: ["kb_a"], limit: 1 });
    expect(hit!.chunkId).toBe("b13-c7");
  });

  it("replaces a BTREE knowledge-base index of an older table with a BITMAP when it opens the table", async () => {
    const first = newStore("kb-index");
    const vectors = randomVectors(30, 21);
    await first.table("model-a", DIMENSIONS).upsert([...rows("kb_a", vectors.slice(0, 20)), ...rows("kb_b", vectors.slice(20))]);
    await first.whenIdle();
    await first.close();
    const connection = await connect(path.join(root, "kb-index"));
    const raw = await connection.openTable(lanceTableName("model-a", DIMENSIONS));
    await raw.createIndex("kb_id", { config: (await import("@lancedb/lancedb")).Index.btree(), name: "kb_id_idx", replace: true });
    const kbIndexType = async () => (await raw.listIndices()).find((index) => index.columns[0] === "kb_id")?.indexType;
    expect(await kbIndexType()).toBe("BTree");

    const second = newStore("kb-index");
    const table = second.table("model-a", DIMENSIONS);
    const hits = await table.search(vectors[25]!, { knowledgeBaseIds: ["kb_b"], limit: 20 });
    expect(hits.map((hit) => hit.knowledgeBaseId)).toEqual(Array(10).fill("kb_b"));
    await second.whenIdle();
    await raw.checkoutLatest();
    expect(await kbIndexType()).toBe("Bitmap");
    expect((await table.search(vectors[3]!, { knowledgeBaseIds: ["kb_a"], limit: 1 }))[0]!.chunkId).toBe("kb_a-c3");
    connection.close();
  });

  it("builds the ANN index in the background past the threshold and still finds exact matches", async () => {
    const logs: string[] = [];
    const store = newStore("ann", { annThreshold: 300, logs });
    const table = store.table("model-a", DIMENSIONS);
    const vectors = randomVectors(360, 13);
    for (let start = 0; start < 320; start += 40) await table.upsert(rows("kb_a", vectors.slice(start, start + 40), `r${start}`));
    // Searching and writing go on while the index builds.
    expect((await table.search(vectors[5]!, { knowledgeBaseIds: ["kb_a"], limit: 1 }))[0]!.chunkId).toBe("r0-c5");
    await table.upsert(rows("kb_a", vectors.slice(320), "late"));
    await store.whenIdle();
    expect(logs).toContain("LanceDB ANN index build finished");
    const indices = await (await (await connect(path.join(root, "ann"))).openTable(lanceTableName("model-a", DIMENSIONS))).listIndices();
    expect(indices.map((index) => [index.columns[0], index.indexType]).sort()).toEqual([
      ["kb_id", "Bitmap"],
      ["vector", "IvfHnswSq"],
    ]);
    for (const probe of [7, 123, 299, 333]) {
      const [hit] = await table.search(vectors[probe]!, { knowledgeBaseIds: ["kb_a"], limit: 5 });
      expect(hit!.chunkId).toBe(probe < 320 ? `r${probe - (probe % 40)}-c${probe % 40}` : `late-c${probe - 320}`);
      expect(hit!.similarity).toBeCloseTo(1, 4);
    }
    await table.upsert(rows("kb_a", [vectors[0]!.map((value) => -value)], "after"));
    expect(
      (
        await table.search(
          vectors[0]!.map((value) => -value),
          { knowledgeBaseIds: ["kb_a"], limit: 3 },
        )
      )[0]!.chunkId,
    ).toBe("after-c0");
    expect(await table.count()).toBe(361);
  });

  it("widens the HNSW search with the limit, never below the refine step's candidates", () => {
    expect(annSearchSettings(10)).toEqual({ ef: 500, refineFactor: 2 });
    expect(annSearchSettings(25)).toEqual({ ef: 500, refineFactor: 2 });
    expect(annSearchSettings(50)).toEqual({ ef: 500, refineFactor: 2 });
    expect(annSearchSettings(60)).toEqual({ ef: 600, refineFactor: 2 });
    expect(annSearchSettings(400).ef).toBe(4_000);
    for (const limit of [1, 7, 60, 1_000]) {
      const { ef, refineFactor } = annSearchSettings(limit);
      expect(ef).toBeGreaterThanOrEqual(limit * refineFactor);
    }
  });

  it("orders near-identical copies exactly through the ANN index, as the exact scan does", async () => {
    // Six copies of each base vector, a 1e-3 nudge apart: 8-bit scalar quantization alone cannot
    // order them, so only the refine step's exact distances give the exact scan's order.
    const store = newStore("ann-copies", { annThreshold: 1_000 });
    const table = store.table("model-copies", DIMENSIONS);
    const exact = createMemoryVectorIndex("model-copies", DIMENSIONS);
    const bases = randomVectors(200, 29);
    const nudges = randomVectors(1_200, 31);
    const copies = bases.flatMap((base, index) =>
      Array.from({ length: 6 }, (_, copy) => normalize(base.map((value, dimension) => value + 1e-3 * (copy + 1) * nudges[index * 6 + copy]![dimension]!))),
    );
    const all = rows("kb_c", copies);
    for (let start = 0; start < all.length; start += 200) await table.upsert(all.slice(start, start + 200));
    await exact.upsert(all);
    await store.whenIdle();
    const indices = await (await (await connect(path.join(root, "ann-copies"))).openTable(lanceTableName("model-copies", DIMENSIONS))).listIndices();
    expect(indices.map((index) => index.indexType)).toContain("IvfHnswSq");
    for (const probe of [3, 77, 150, 199]) {
      const query = normalize(bases[probe]!.map((value, dimension) => value + 0.05 * nudges[probe]![(dimension + 5) % DIMENSIONS]!));
      for (const limit of [6, 12]) {
        const fast = await table.search(query, { knowledgeBaseIds: ["kb_c"], limit });
        const slow = await exact.search(query, { knowledgeBaseIds: ["kb_c"], limit });
        expect(fast.map((hit) => hit.chunkId)).toEqual(slow.map((hit) => hit.chunkId));
      }
    }
  });
});
