import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeChunks } from "../db/schema/index";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk } from "../testing/flows";
import { deletedSchema, knowledgeFileSchema, retrievalTestSchema, segmentSchema } from "./schemas";
import { vectorTableOf } from "./service/vectors";
import { createKnowledgeBaseVia, uploadOk } from "./testing";
import { createKnowledgeWorker } from "./worker";

let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await registerUser(ctx, "retrieval-owner@example.com");
  stranger = await registerUser(ctx, "retrieval-stranger@example.com");
});
afterAll(async () => ctx.close());

const guide = [
  "# Returns",
  "Returns are accepted within thirty days of delivery when the item is unused.",
  "# Shipping",
  "Standard shipping takes three to five working days; express shipping arrives the next day.",
  "# 退货政策",
  "商品签收后七天内可以无理由退货，运费由买家承担。",
  "# Warranty",
  "Every appliance carries a two-year warranty covering manufacturing defects.",
].join("\n\n");

async function indexedBase() {
  const base = await createKnowledgeBaseVia(ctx, owner, { chunkTokens: 50, chunkOverlap: 0 });
  const file = await uploadOk(ctx, owner, base.id, "store-guide.md", guide);
  await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token }), 200, knowledgeFileSchema);
  expect(await createKnowledgeWorker(ctx.deps).drain()).toBe(1);
  return { base, file };
}

const search = (knowledgeBaseId: string, json: Record<string, unknown>, token = owner.token, language?: string) =>
  ctx.request(`/api/v1/knowledge-bases/${knowledgeBaseId}/retrieval-test`, {
    method: "POST",
    token,
    json,
    ...(language ? { headers: { "accept-language": language } } : {}),
  });

describe("retrieval test", () => {
  it("finds indexed chunks semantically, by full text and fused, with scores and their source file", async () => {
    const { base, file } = await indexedBase();
    const chunks = await ctx.deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, file.id)).all();
    expect(chunks.length).toBeGreaterThanOrEqual(4);
    expect(await vectorTableOf(ctx.deps, base)!.count()).toBe(chunks.length);

    const result = await expectOk(await search(base.id, { query: "how long does express shipping take" }), 200, retrievalTestSchema);
    expect(result.lexicalEmbedder).toBe(true);
    for (const list of [result.semantic, result.fullText, result.hybrid]) {
      expect(list[0]).toMatchObject({ fileId: file.id, fileName: "store-guide" });
      expect(list[0]!.content).toContain("express shipping");
      expect(list.length).toBeLessThanOrEqual(10);
    }
    expect(result.semantic[0]!.similarity).toBeGreaterThan(0);
    expect(result.fullText[0]!.textScore).toBeGreaterThan(0);
    expect(result.fullText[0]!.metadata).toMatchObject({ headings: ["Shipping"] });

    const chinese = await expectOk(await search(base.id, { query: "退货运费谁承担" }), 200, retrievalTestSchema);
    expect(chinese.fullText[0]!.content).toContain("无理由退货");
  });

  it("applies the similarity threshold to semantic hits only", async () => {
    const { base } = await indexedBase();
    const strict = await expectOk(await search(base.id, { query: "warranty defects", similarityThreshold: 0.99 }), 200, retrievalTestSchema);
    expect(strict.semantic).toEqual([]);
    expect(strict.fullText[0]!.content).toContain("warranty");
  });

  it("keeps vectors in step with segment edits, disabling and deletes", async () => {
    const { base, file } = await indexedBase();
    const table = vectorTableOf(ctx.deps, base)!;
    const before = await table.count();
    const [first] = await ctx.deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, file.id)).orderBy(knowledgeChunks.ordinal).limit(1).all();

    const edited = await expectOk(
      await ctx.request(`/api/v1/knowledge-segments/${first!.id}`, {
        method: "PATCH",
        token: owner.token,
        json: { content: "Gift cards never expire and can be used online." },
      }),
      200,
      segmentSchema,
    );
    expect(edited.content).toContain("Gift cards");
    const afterEdit = await expectOk(await search(base.id, { query: "gift cards expire" }), 200, retrievalTestSchema);
    expect(afterEdit.semantic[0]!.chunkId).toBe(first!.id);
    expect(afterEdit.fullText[0]!.chunkId).toBe(first!.id);
    expect(await table.count()).toBe(before);

    await expectOk(
      await ctx.request(`/api/v1/knowledge-segments/${first!.id}`, { method: "PATCH", token: owner.token, json: { enabled: false } }),
      200,
      segmentSchema,
    );
    const disabled = await expectOk(await search(base.id, { query: "gift cards expire" }), 200, retrievalTestSchema);
    expect([...disabled.semantic, ...disabled.fullText, ...disabled.hybrid].map((hit) => hit.chunkId)).not.toContain(first!.id);

    const added = await expectOk(
      await ctx.request(`/api/v1/knowledge-files/${file.id}/segments`, {
        method: "POST",
        token: owner.token,
        json: { content: "Parcels to Iceland travel by sea freight." },
      }),
      201,
      segmentSchema,
    );
    expect(await table.count()).toBe(before + 1);
    const found = await expectOk(await search(base.id, { query: "Iceland sea freight" }), 200, retrievalTestSchema);
    expect(found.semantic[0]!.chunkId).toBe(added.id);

    await expectOk(await ctx.request(`/api/v1/knowledge-segments/${added.id}`, { method: "DELETE", token: owner.token }), 200, deletedSchema);
    expect(await table.count()).toBe(before);
    const fileChunks = (await ctx.deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.fileId, file.id)).all()).length;
    await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}`, { method: "DELETE", token: owner.token }), 200, deletedSchema);
    const gone = await expectOk(await search(base.id, { query: "express shipping" }), 200, retrievalTestSchema);
    expect(gone).toMatchObject({ semantic: [], fullText: [], hybrid: [] });
    // The table holds every knowledge base of its model: only this file's vectors went.
    expect(await table.count()).toBe(before - fileChunks);
  });

  it("refuses a threshold outside 0–1 and counts over 10, naming the field, in the request's language", async () => {
    const { base } = await indexedBase();
    const high = await expectError(await search(base.id, { query: "shipping", similarityThreshold: 1.5 }), 400);
    expect(high.data).toMatchObject({ field: "similarityThreshold" });
    const negative = await expectError(await search(base.id, { query: "shipping", similarityThreshold: -0.2 }, owner.token, "zh-CN"), 400);
    expect(negative.data).toMatchObject({ field: "similarityThreshold" });
    expect(negative.message).toMatch(/[\u4e00-\u9fff]/);
    const counts = await expectError(await search(base.id, { query: "shipping", semanticCount: 8, fullTextCount: 3 }), 400, {
      field: "fullTextCount",
      message: "Semantic and full-text counts together can be at most 10",
    });
    expect(counts.data).toMatchObject({ field: "fullTextCount" });
  });

  it("refuses an empty query and hides another space's knowledge base", async () => {
    const { base } = await indexedBase();
    const empty = await expectError(await search(base.id, { query: "   " }), 400);
    expect(empty.data).toMatchObject({ field: "query" });
    await expectError(await search(base.id, { query: "shipping" }, stranger.token), 404);
    const strangersBase = await createKnowledgeBaseVia(ctx, stranger);
    const own = await expectOk(await search(strangersBase.id, { query: "express shipping" }, stranger.token), 200, retrievalTestSchema);
    expect(own).toMatchObject({ semantic: [], fullText: [], hybrid: [] });
  });
});
