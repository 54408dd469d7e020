import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../crypto";
import { knowledgeBases, knowledgeChunks, knowledgeFiles, spaces } from "../../db/schema/index";
import { createHashingEmbedder } from "../../platform/embeddings/hashing";
import { createTestContext, type TestContext } from "../../testing/harness";
import { chunkText } from "./chunker";
import { storeChunks } from "./indexing";
import {
  DEFAULT_FULL_TEXT_COUNT,
  DEFAULT_SEMANTIC_COUNT,
  fullTextSearch,
  fuseScores,
  retrievalTest,
  retrieve,
  type RetrievedChunk,
  searchChunks,
  semanticAgreement,
  singleSource,
} from "./search";
import { createMemoryVectorStore, type VectorIndex } from "./vector-index";

let ctx: TestContext;
let vectors: VectorIndex;
const embedder = createHashingEmbedder();
const ids = { spaceId: "", first: "", second: "", firstFile: "", secondFile: "" };
const chunkIds: Record<string, string> = {};

const FIRST = [
  "Refunds are paid within 14 days of receiving the returned goods.",
  "我们的退货政策：收到商品后七天内可以申请退货。",
  "Shipping to Europe takes five working days.",
  "北京大学的图书馆对校外读者开放。",
  "Gift cards cannot be refunded or exchanged for cash.",
];

async function addFile(knowledgeBaseId: string, name: string, texts: string[]): Promise<string> {
  const fileId = newId("kf");
  const now = new Date().toISOString();
  await ctx.deps.db
    .insert(knowledgeFiles)
    .values({ id: fileId, spaceId: ids.spaceId, knowledgeBaseId, name, type: "document", source: `${name}.txt`, updatedAt: now });
  const chunks = texts.map((text, ordinal) => ({ ...chunkText(text)[0]!, ordinal }));
  const stored = await storeChunks({ db: ctx.deps.db, embedder, vectors }, { spaceId: ids.spaceId, knowledgeBaseId, fileId }, chunks);
  texts.forEach((text, index) => (chunkIds[text] = stored[index]!));
  return fileId;
}

beforeAll(async () => {
  ctx = await createTestContext();
  vectors = createMemoryVectorStore().table(embedder.id, embedder.dimensions);
  const now = new Date().toISOString();
  ids.spaceId = newId("spc");
  ids.first = newId("kb");
  ids.second = newId("kb");
  await ctx.deps.db.insert(spaces).values({ id: ids.spaceId, code: `s${Date.now()}`, name: "s", kind: "team", ownerUserId: "usr_x", updatedAt: now });
  for (const [index, id] of [ids.first, ids.second].entries()) {
    await ctx.deps.db.insert(knowledgeBases).values({
      id,
      spaceId: ids.spaceId,
      code: `kb${index}${Date.now()}`,
      name: `kb${index}`,
      embeddingModel: embedder.id,
      createdBy: "usr_x",
      updatedAt: now,
    });
  }
  ids.firstFile = await addFile(ids.first, "policy", FIRST);
  ids.secondFile = await addFile(ids.second, "secret", ["Refunds for the secret project are paid in gold.", "北京大学的秘密档案。"]);
});

afterAll(async () => {
  await ctx.close();
});

const deps = () => ({ db: ctx.deps.db, embedder, vectors });

describe("full-text search", () => {
  it("finds English by stemmed words and Chinese by two-character words, with the file", async () => {
    const english = await fullTextSearch(ctx.deps.db, { query: "refund", knowledgeBaseIds: [ids.first], limit: 10 });
    expect(english.map((hit) => hit.content)).toEqual(expect.arrayContaining([FIRST[0], FIRST[4]]));
    expect(english[0]).toMatchObject({ fileId: ids.firstFile, fileName: "policy", knowledgeBaseId: ids.first });
    expect(english[0]!.score).toBeGreaterThan(0);
    const chinese = await fullTextSearch(ctx.deps.db, { query: "退货", knowledgeBaseIds: [ids.first], limit: 10 });
    expect(chinese.map((hit) => hit.content)).toEqual([FIRST[1]]);
  });

  it("never returns a chunk of a knowledge base outside the scope", async () => {
    const scoped = await fullTextSearch(ctx.deps.db, { query: "refunds secret gold 北京大学", knowledgeBaseIds: [ids.first], limit: 10 });
    expect(scoped.length).toBeGreaterThan(0);
    expect(scoped.every((hit) => hit.knowledgeBaseId === ids.first)).toBe(true);
    const semantic = await searchChunks(deps(), { mode: "semantic", query: "secret project gold", knowledgeBaseIds: [ids.first], limit: 10 });
    expect(semantic.every((hit) => hit.knowledgeBaseId === ids.first)).toBe(true);
    const both = await fullTextSearch(ctx.deps.db, { query: "secret", knowledgeBaseIds: [ids.first, ids.second], limit: 10 });
    expect(both.map((hit) => hit.knowledgeBaseId)).toEqual([ids.second]);
    expect(await fullTextSearch(ctx.deps.db, { query: "refund", knowledgeBaseIds: [], limit: 10 })).toEqual([]);
  });

  it("skips disabled chunks and ignores FTS syntax in queries", async () => {
    await ctx.deps.db.update(knowledgeChunks).set({ enabled: false }).where(eq(knowledgeChunks.id, chunkIds[FIRST[4]!]!));
    const hits = await searchChunks(deps(), { mode: "hybrid", query: 'gift cards" OR NEAR(', knowledgeBaseIds: [ids.first], limit: 10 });
    expect(hits.map((hit) => hit.chunkId)).not.toContain(chunkIds[FIRST[4]!]);
    await ctx.deps.db.update(knowledgeChunks).set({ enabled: true }).where(eq(knowledgeChunks.id, chunkIds[FIRST[4]!]!));
  });

  it("does not store a chunk twice when a file is indexed again", async () => {
    const again = await storeChunks({ db: ctx.deps.db, embedder, vectors }, { spaceId: ids.spaceId, knowledgeBaseId: ids.first, fileId: ids.firstFile }, [
      { ...chunkText(FIRST[0]!)[0]!, ordinal: 0 },
    ]);
    expect(again).toEqual([chunkIds[FIRST[0]!]]);
    const rows = await ctx.deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, ids.firstFile)).all();
    expect(rows).toHaveLength(FIRST.length);
  });
});

function chunk(id: string, extra: Partial<RetrievedChunk> = {}): RetrievedChunk {
  return { chunkId: id, knowledgeBaseId: "kb", fileId: "f", fileName: "f", content: id, metadata: {}, score: 0, ...extra };
}

describe("score fusion", () => {
  it("scales each list to 0-1 and adds w x semantic + (1 - w) x full text, merging by chunk id", () => {
    const fused = fuseScores(
      [
        {
          knowledgeBaseIds: ["kb"],
          weight: 0.3,
          chunks: [chunk("a", { similarity: 0.9, cosine: 0.8 }), chunk("b", { similarity: 0.8, cosine: 0.6 }), chunk("d", { cosine: 0.4 })],
        },
      ],
      [chunk("b", { textScore: 9 }), chunk("c", { textScore: 5 }), chunk("e", { textScore: 1 })],
    );
    // a: 0.3 x 1; b: 0.3 x 0.5 + 0.7 x 1; c: 0.7 x 0.5; d and e: 0.
    expect(fused.map((item) => item.chunkId)).toEqual(["b", "c", "a", "d", "e"]);
    expect(fused[0]!.score).toBeCloseTo(0.85, 10);
    expect(fused[1]!.score).toBeCloseTo(0.35, 10);
    expect(fused[2]!.score).toBeCloseTo(0.3, 10);
    expect(fused[0]).toMatchObject({ similarity: 0.8, cosine: 0.6, textScore: 9 });
  });

  it("keeps full text's best hit first whatever a semantic list under weight 0.5 holds", () => {
    const junk = Array.from({ length: 50 }, (_, index) => chunk(`s${index}`, { cosine: 0.9 - index * 0.001 }));
    const text = [chunk("t0", { textScore: 12 }), chunk("t1", { textScore: 11 }), chunk("t2", { textScore: 2 })];
    const fused = fuseScores([{ knowledgeBaseIds: ["kb"], weight: 0.45, chunks: junk }], text);
    expect(fused[0]!.chunkId).toBe("t0");
    expect(fused[1]!.chunkId).toBe("t1");
  });

  it("weighs each knowledge base by the weight of its own embedder's list", () => {
    const fused = fuseScores(
      [
        { knowledgeBaseIds: ["lexical"], weight: 0.1, chunks: [chunk("l1", { knowledgeBaseId: "lexical", cosine: 0.5 })] },
        { knowledgeBaseIds: ["model"], weight: 0.4, chunks: [chunk("m1", { knowledgeBaseId: "model", cosine: 0.7 })] },
      ],
      [chunk("lt", { knowledgeBaseId: "lexical", textScore: 4 }), chunk("mt", { knowledgeBaseId: "model", textScore: 4 })],
    );
    const score = Object.fromEntries(fused.map((item) => [item.chunkId, item.score]));
    expect(score).toEqual({ lt: 0.9, mt: 0.6, m1: 0.4, l1: 0.1 });
  });
});

describe("agreement between the lists", () => {
  const list = (ids: string[]) => ids.map((id) => chunk(id));
  it("trusts a semantic list fully from 2 of full text's first 10, less below, not at all with none", () => {
    const text = list(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]);
    expect(semanticAgreement(list(["x", "a", "y", "k"]), text)).toBe(0.5);
    expect(semanticAgreement(list(["b", "x", "c"]), text)).toBe(1);
    expect(semanticAgreement(list(["x", "y", "k"]), text)).toBe(0);
    // Nothing to compare with: the semantic list is all the evidence there is.
    expect(semanticAgreement(list(["x"]), [])).toBe(1);
  });
});

describe("retrieve (app rules)", () => {
  const scope = () => ({ query: "refunds returned goods 退货", knowledgeBaseIds: [ids.first] });

  it("takes 3 semantic and 1 full-text chunk in hybrid mode when asked, without duplicates", async () => {
    const hits = await retrieve(deps(), { ...scope(), mode: "hybrid", semanticCount: 3, fullTextCount: 1 });
    // Full text adds one chunk semantic search did not already choose, when it has one.
    expect(hits.length).toBeGreaterThanOrEqual(3);
    expect(hits.length).toBeLessThanOrEqual(4);
    const two = await retrieve(deps(), { query: "refund 北京大学", knowledgeBaseIds: [ids.first], mode: "hybrid", semanticCount: 1, fullTextCount: 1 });
    expect(two).toHaveLength(2);
    expect(new Set(hits.map((hit) => hit.chunkId)).size).toBe(hits.length);
    expect(hits.filter((hit) => hit.similarity !== undefined).length).toBeGreaterThanOrEqual(3);
  });

  it("applies the counts per mode and at most 10 in total, semantic first", async () => {
    expect(await retrieve(deps(), { ...scope(), mode: "semantic", semanticCount: 3 })).toHaveLength(3);
    expect(await retrieve(deps(), { ...scope(), mode: "fulltext", fullTextCount: 1 })).toHaveLength(1);
    // A new app's counts (6 + 4): every one of the five chunks the semantic side ranks.
    expect(DEFAULT_SEMANTIC_COUNT + DEFAULT_FULL_TEXT_COUNT).toBe(10);
    expect(await retrieve(deps(), { ...scope(), mode: "semantic" })).toHaveLength(FIRST.length);
    const many = await retrieve(deps(), { ...scope(), mode: "semantic", semanticCount: 25 });
    expect(many.length).toBe(FIRST.length);
    const capped = await retrieve(deps(), { ...scope(), mode: "hybrid", semanticCount: 4, fullTextCount: 9 });
    expect(capped.length).toBeLessThanOrEqual(10);
  });

  it("applies the similarity threshold to semantic hits only", async () => {
    const strict = await retrieve(deps(), { ...scope(), mode: "semantic", similarityThreshold: 0.99 });
    expect(strict).toEqual([]);
    // Full text still answers under a threshold no cosine similarity reaches.
    const hybrid = await retrieve(deps(), { ...scope(), mode: "hybrid", similarityThreshold: 0.99, semanticCount: 3, fullTextCount: 1 });
    expect(hybrid).toHaveLength(1);
    expect(hybrid[0]!.similarity).toBeUndefined();
    const semantic = await retrieve(deps(), { ...scope(), mode: "semantic", similarityThreshold: 0.2, semanticCount: 10 });
    expect(semantic.every((hit) => hit.similarity! >= 0.2)).toBe(true);
  });
});

describe("retrievalTest", () => {
  it("returns up to 10 of each kind with scores", async () => {
    const result = await retrievalTest(singleSource(deps(), [ids.first, ids.second]), { query: "refund 北京大学" });
    for (const list of [result.semantic, result.fullText, result.hybrid]) {
      expect(list.length).toBeGreaterThan(0);
      expect(list.length).toBeLessThanOrEqual(10);
      for (const hit of list) expect(Number.isFinite(hit.score)).toBe(true);
    }
    expect(result.semantic.length).toBe(7);
    const sorted = [...result.semantic].sort((left, right) => right.score - left.score);
    expect(result.semantic).toEqual(sorted);
  });
});

describe("full-text search over common terms", () => {
  it("leaves out terms most chunks hold, so the rare term decides what matches", async () => {
    const own = await createTestContext();
    try {
      const now = new Date().toISOString();
      const spaceId = newId("spc");
      const knowledgeBaseId = newId("kb");
      const fileId = newId("kf");
      await own.deps.db.insert(spaces).values({ id: spaceId, code: `c${Date.now()}`, name: "c", kind: "team", ownerUserId: "usr_x", updatedAt: now });
      await own.deps.db
        .insert(knowledgeBases)
        .values({ id: knowledgeBaseId, spaceId, code: `kc${Date.now()}`, name: "c", embeddingModel: embedder.id, createdBy: "usr_x", updatedAt: now });
      await own.deps.db
        .insert(knowledgeFiles)
        .values({ id: fileId, spaceId, knowledgeBaseId, name: "logs", type: "document", source: "logs.txt", updatedAt: now });
      const texts = Array.from({ length: 150 }, (_, index) =>
        index % 50 === 7 ? `Warehouse report ${index} mentions a flamingo.` : `Warehouse report ${index} lists pallets.`,
      );
      const table = createMemoryVectorStore().table(embedder.id, embedder.dimensions);
      await storeChunks(
        { db: own.deps.db, embedder, vectors: table },
        { spaceId, knowledgeBaseId, fileId },
        texts.map((text, ordinal) => ({ ...chunkText(text)[0]!, ordinal })),
      );

      // "warehouse" and "report" are in every chunk: only "flamingo" is matched.
      const hits = await fullTextSearch(own.deps.db, { query: "warehouse report flamingo", knowledgeBaseIds: [knowledgeBaseId], limit: 10 });
      expect(hits.map((hit) => hit.content).sort()).toEqual(texts.filter((text) => text.includes("flamingo")).sort());
      // A query of common terms only still answers, by its rarest term.
      const common = await fullTextSearch(own.deps.db, { query: "warehouse report", knowledgeBaseIds: [knowledgeBaseId], limit: 10 });
      expect(common).toHaveLength(10);
    } finally {
      await own.close();
    }
  });
});
