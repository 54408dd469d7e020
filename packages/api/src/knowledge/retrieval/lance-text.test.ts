import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { connect } from "@lancedb/lancedb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../crypto";
import { knowledgeBases, knowledgeChunks, knowledgeFiles, spaces } from "../../db/schema/index";
import { createHashingEmbedder } from "../../platform/embeddings/hashing";
import { createTestContext, type TestContext } from "../../testing/harness";
import { chunkText } from "./chunker";
import { storeChunks } from "./indexing";
import { createLanceTextIndex, type TextIndex } from "./lance-text";
import { fullTextSearch } from "./search";
import { queryTerms } from "./text";
import { createMemoryVectorStore } from "./vector-index";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "parley-lance-text-test-"));
const embedder = createHashingEmbedder();
const vectors = createMemoryVectorStore().table(embedder.id, embedder.dimensions);
let ctx: TestContext;
let text: TextIndex;
const ids = { spaceId: "", first: "", second: "" };
const chunkIds: Record<string, string> = {};

const FIRST = [
  "Refunds are paid within 14 days of receiving the returned goods.",
  "我们的退货政策：收到商品后七天内可以申请退货。",
  "Shipping to Europe takes five working days.",
  "北京大学的图书馆对校外读者开放。",
  "Gift cards cannot be refunded or exchanged for cash.",
  "Café opening hours: the café opens at eight.",
  "Refund requests for damaged goods need a photo of the damage.",
];
const SECOND = ["Refunds for the secret project are paid in gold.", "北京大学的秘密档案。"];

async function addFile(knowledgeBaseId: string, name: string, texts: string[]) {
  const fileId = newId("kf");
  await ctx.deps.db
    .insert(knowledgeFiles)
    .values({ id: fileId, spaceId: ids.spaceId, knowledgeBaseId, name, type: "document", source: `${name}.txt`, updatedAt: new Date().toISOString() });
  const chunks = texts.map((body, ordinal) => ({ ...chunkText(body)[0]!, ordinal }));
  const stored = await storeChunks({ db: ctx.deps.db, embedder, vectors, text }, { spaceId: ids.spaceId, knowledgeBaseId, fileId }, chunks);
  texts.forEach((body, index) => (chunkIds[body] = stored[index]!));
  return fileId;
}

beforeAll(async () => {
  ctx = await createTestContext();
  // A threshold of 5 rows: the index is built by the first file, as it would be past 20,000.
  text = createLanceTextIndex({ directory: path.join(root, "lance"), threshold: 5 });
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
  await addFile(ids.first, "policy", FIRST);
  await addFile(ids.second, "secret", SECOND);
  await text.whenIdle();
}, 60_000);

afterAll(async () => {
  await text.close();
  await ctx.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("LanceDB full-text index", () => {
  it("folds rows written after the index was built into it once writes go quiet, not only every 64 writes", async () => {
    const directory = path.join(root, "late");
    const late = createLanceTextIndex({ directory, threshold: 3 });
    const row = (index: number) => ({ chunkId: `c${index}`, knowledgeBaseId: "kb_late", fileId: "f_late", searchText: `refund policy number ${index}` });
    await late.upsert([row(0), row(1), row(2), row(3)]);
    await late.whenIdle();
    // Two more writes, far fewer than the periodic optimize waits for.
    await late.upsert([row(4)]);
    await late.upsert([row(5)]);
    await late.whenIdle();
    const connection = await connect(directory);
    const table = await connection.openTable("fulltext_chunks");
    const ftsIndex = (await table.listIndices()).find((index) => index.indexType === "FTS")!;
    expect(await table.indexStats(ftsIndex.name)).toMatchObject({ numIndexedRows: 6, numUnindexedRows: 0 });
    connection.close();
    expect((await late.search(["number"], { knowledgeBaseIds: ["kb_late"], limit: 10 }))?.length).toBe(6);
    await late.close();
  });

  it("answers nothing below its threshold, so FTS5 keeps small knowledge bases exactly as before", async () => {
    const small = createLanceTextIndex({ directory: path.join(root, "small"), threshold: 1_000 });
    await small.upsert([{ chunkId: "kc_1", knowledgeBaseId: "kb_1", fileId: "kf_1", searchText: "refund polici" }]);
    await small.whenIdle();
    expect(await small.search(["refund"], { knowledgeBaseIds: ["kb_1"], limit: 10 })).toBeUndefined();
    await small.close();
    const request = { query: "refund goods", knowledgeBaseIds: [ids.first], limit: 10 };
    expect((await fullTextSearch(ctx.deps.db, request, small)).map((hit) => hit.chunkId)).toEqual(
      (await fullTextSearch(ctx.deps.db, request)).map((hit) => hit.chunkId),
    );
  });

  it("ranks the same chunks as FTS5 once built, by the same segmented words (English stems, Chinese words, folded accents)", async () => {
    for (const query of ["refunds for returned goods", "北京大学图书馆", "cafe hours", "退货政策"]) {
      const request = { query, knowledgeBaseIds: [ids.first], limit: 10 };
      const direct = await text.search(queryTerms(query), { knowledgeBaseIds: [ids.first], limit: 10 });
      expect(direct, query).toBeDefined();
      const indexed = await fullTextSearch(ctx.deps.db, request, text);
      const fts5 = await fullTextSearch(ctx.deps.db, request);
      expect(indexed.length, query).toBeGreaterThan(0);
      expect(
        indexed.map((hit) => hit.chunkId),
        query,
      ).toEqual(direct!.map((hit) => hit.chunkId));
      expect(new Set(indexed.map((hit) => hit.chunkId)), query).toEqual(new Set(fts5.map((hit) => hit.chunkId)));
      expect(indexed[0]!.chunkId, query).toBe(fts5[0]!.chunkId);
    }
  });

  it("keeps the knowledge-base filter exact", async () => {
    const hits = await fullTextSearch(ctx.deps.db, { query: "refunds 北京大学", knowledgeBaseIds: [ids.first], limit: 10 }, text);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.knowledgeBaseId === ids.first)).toBe(true);
    const second = await fullTextSearch(ctx.deps.db, { query: "refunds", knowledgeBaseIds: [ids.second], limit: 10 }, text);
    expect(second.map((hit) => hit.chunkId)).toEqual([chunkIds[SECOND[0]!]]);
  });

  it("finds rows written after the index was built, before any optimize", async () => {
    const fileId = await addFile(ids.second, "late", ["Zeppelin tickets are refunded twice."]);
    const hits = await fullTextSearch(ctx.deps.db, { query: "zeppelin", knowledgeBaseIds: [ids.second], limit: 10 }, text);
    expect(hits.map((hit) => hit.fileId)).toEqual([fileId]);
    expect((await text.search(["zeppelin"], { knowledgeBaseIds: [ids.second], limit: 10 }))?.length).toBe(1);
  });

  it("drops chunks SQLite has disabled or deleted, and falls back to FTS5 when that leaves the page short", async () => {
    const target = chunkIds[FIRST[6]!]!;
    await ctx.deps.db.update(knowledgeChunks).set({ enabled: false }).where(eq(knowledgeChunks.id, target));
    const request = { query: "refund damaged goods", knowledgeBaseIds: [ids.first], limit: 10 };
    const hits = await fullTextSearch(ctx.deps.db, request, text);
    expect(hits.map((hit) => hit.chunkId)).not.toContain(target);
    expect(hits.length).toBeGreaterThan(0);
    await ctx.deps.db.update(knowledgeChunks).set({ enabled: true }).where(eq(knowledgeChunks.id, target));
    // A stale copy (a page of hits SQLite no longer holds) is never trusted: FTS5 answers.
    const stale = createLanceTextIndex({ directory: path.join(root, "stale"), threshold: 1 });
    await stale.upsert(
      Array.from({ length: 20 }, (_, index) => ({ chunkId: `kc_gone${index}`, knowledgeBaseId: ids.first, fileId: "kf_x", searchText: "refund" })),
    );
    await stale.whenIdle();
    expect(await stale.search(["refund"], { knowledgeBaseIds: [ids.first], limit: 5 })).toHaveLength(5);
    const fallback = await fullTextSearch(ctx.deps.db, { query: "refund", knowledgeBaseIds: [ids.first], limit: 5 }, stale);
    expect(fallback.map((hit) => hit.chunkId)).toEqual(
      (await fullTextSearch(ctx.deps.db, { query: "refund", knowledgeBaseIds: [ids.first], limit: 5 })).map((hit) => hit.chunkId),
    );
    expect(fallback.length).toBeGreaterThan(0);
    await stale.close();
  });

  it("deletes by chunk, file and knowledge base", async () => {
    await text.delete({ knowledgeBaseIds: [ids.second] });
    expect(await text.search(["refund"], { knowledgeBaseIds: [ids.second], limit: 10 })).toEqual([]);
    await text.delete({ chunkIds: [chunkIds[FIRST[0]!]!] });
    const left = await text.search(["refund"], { knowledgeBaseIds: [ids.first], limit: 10 });
    expect(left?.map((hit) => hit.chunkId)).not.toContain(chunkIds[FIRST[0]!]);
    expect(left?.length).toBeGreaterThan(0);
  });
});
