import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, knowledgeBases } from "../db/schema/index";
import { type EmbeddingsFake, startEmbeddingsFake } from "../testing/fakes/embeddings";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk, manualClock } from "../testing/flows";
import { knowledgeBaseSchema, knowledgeFileSchema, retrievalTestSchema } from "./schemas";
import { createKnowledgeBaseVia, uploadOk } from "./testing";
import { createHashingEmbedder } from "../platform/embeddings/hashing";
import { retrieveFromKnowledgeBases } from "./service/retrieval";
import { createKnowledgeWorker } from "./worker";
import { z } from "@hono/zod-openapi";

const apiKey = "sk-embeddings-test";
const clock = manualClock(Date.parse("2026-04-01T08:00:00.000Z"));
let fake: EmbeddingsFake;
let ctx: TestContext;
let owner: TestUser;

beforeAll(async () => {
  fake = await startEmbeddingsFake({ apiKey, dimensions: 16 });
  ctx = await createTestContext(
    {
      PARLEY_EMBEDDINGS_PROVIDER: "openai",
      PARLEY_EMBEDDINGS_BASE_URL: fake.url,
      PARLEY_EMBEDDINGS_API_KEY: apiKey,
      PARLEY_EMBEDDINGS_MODEL: "text-embedding-fake",
      PARLEY_EMBEDDINGS_DIMENSIONS: "16",
    },
    { now: clock.now },
  );
  owner = await registerUser(ctx, "embeddings-owner@example.com");
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const manual = [
  "# Refunds",
  "Refunds reach the original card within five working days.",
  "# Shipping",
  "Parcels leave the warehouse every morning and the courier brings them in two days.",
  "# Passwords",
  "Forgotten credentials are reset from the sign-in page.",
].join("\n\n");

const drain = () => createKnowledgeWorker(ctx.deps).drain();
const filesOf = async (knowledgeBaseId: string) =>
  expectOk(await ctx.request(`/api/v1/knowledge-bases/${knowledgeBaseId}/files`, { token: owner.token }), 200, z.array(knowledgeFileSchema));

async function importManual(knowledgeBaseId: string) {
  const file = await uploadOk(ctx, owner, knowledgeBaseId, "support-manual.md", manual);
  await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token }), 200, knowledgeFileSchema);
  return file;
}

describe("a configured OpenAI-compatible embeddings provider", () => {
  it("indexes with the provider's vectors and finds meaning that shares no word with the query", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner, { chunkTokens: 50, chunkOverlap: 0 });
    expect(base).toMatchObject({
      embeddingModel: expect.stringContaining("text-embedding-fake"),
      embeddingModelLabel: "text-embedding-fake",
      lexicalEmbedder: false,
    });
    const before = fake.requests.length;
    await importManual(base.id);
    expect(await drain()).toBe(1);
    const sent = fake.requests.slice(before);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((request) => request.authorization === `Bearer ${apiKey}` && request.model === "text-embedding-fake")).toBe(true);
    expect(sent.flatMap((request) => request.input).some((text) => text.includes("Refunds reach the original card"))).toBe(true);

    // "money back" shares no word with the refunds section: full text finds nothing, the model does.
    const result = await expectOk(
      await ctx.request(`/api/v1/knowledge-bases/${base.id}/retrieval-test`, {
        method: "POST",
        token: owner.token,
        json: { query: "money back", similarityThreshold: 0.5 },
      }),
      200,
      retrievalTestSchema,
    );
    expect(result.lexicalEmbedder).toBe(false);
    expect(result.fullText).toEqual([]);
    expect(result.semantic[0]!.content).toContain("Refunds reach the original card");
    expect(result.semantic[0]!.similarity).toBeGreaterThan(0.5);
    expect(result.hybrid[0]!.chunkId).toBe(result.semantic[0]!.chunkId);
  });

  it("retries a failed request with the same batch, so one 500 does not hold the file back", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner, { chunkTokens: 50, chunkOverlap: 0 });
    const before = fake.requests.length;
    fake.failNext(1, { retryAfter: "0" });
    const file = await importManual(base.id);
    expect(await drain()).toBe(1);
    expect((await filesOf(base.id))[0]).toMatchObject({ id: file.id, status: "effective", progress: 100 });
    const [failed, retried] = fake.requests.slice(before);
    expect(retried!.input).toEqual(failed!.input);
  });

  it("hands the provider's error to the file's job when it keeps failing, and the file is indexed once it answers", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner, { chunkTokens: 50, chunkOverlap: 0 });
    // One attempt and four retries, all refused.
    fake.failNext(5, { retryAfter: "0" });
    const file = await importManual(base.id);
    expect(await drain()).toBe(1);
    expect((await filesOf(base.id))[0]).toMatchObject({ id: file.id, status: "processing" });
    const job = await ctx.deps.db.select().from(jobs).where(eq(jobs.status, "queued")).get();
    expect(job?.lastError).toContain("500");

    clock.advance(10 * 60_000);
    expect(await drain()).toBe(1);
    expect((await filesOf(base.id))[0]).toMatchObject({ id: file.id, status: "effective", progress: 100 });
  });

  it("sends the chunks of files indexed together in shared requests", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner, { chunkTokens: 50, chunkOverlap: 0 });
    const names = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];
    for (const name of names) {
      const file = await uploadOk(ctx, owner, base.id, `${name}.md`, `# ${name}\n\nThe ${name} team answers tickets about ${name} orders.`);
      await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token }), 200, knowledgeFileSchema);
    }
    const before = fake.requests.length;
    expect(await drain()).toBe(names.length);
    const sent = fake.requests.slice(before);
    expect(sent.length).toBeLessThan(names.length);
    const filesPerRequest = sent.map((request) => names.filter((name) => request.input.some((text) => text.includes(`The ${name} team`))).length);
    expect(Math.max(...filesPerRequest)).toBeGreaterThan(1);
    expect((await filesOf(base.id)).every((file) => file.status === "effective")).toBe(true);
  });

  it("fuses knowledge bases of two embedders once: one full-text search over both, each model's list by its own weight", async () => {
    const modelBase = await createKnowledgeBaseVia(ctx, owner, { chunkTokens: 50, chunkOverlap: 0 });
    const lexicalBase = await createKnowledgeBaseVia(ctx, owner, { chunkTokens: 50, chunkOverlap: 0 });
    await ctx.deps.db.update(knowledgeBases).set({ embeddingModel: createHashingEmbedder().id }).where(eq(knowledgeBases.id, lexicalBase.id));
    await importManual(modelBase.id);
    const warranty = ["# Warranty", "Warranty claims for a broken kettle are settled within thirty days.", "# Stores", "Our stores open at nine."].join("\n\n");
    const file = await uploadOk(ctx, owner, lexicalBase.id, "warranty.md", warranty);
    await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token }), 200, knowledgeFileSchema);
    await drain();
    const ask = (query: string) =>
      retrieveFromKnowledgeBases(ctx.deps, owner.user.spaceId, [modelBase.id, lexicalBase.id], { query, mode: "hybrid", similarityThreshold: 0 });
    const both = await ask("warranty claims and refunds to the card");
    expect(new Set(both.map((hit) => hit.knowledgeBaseId))).toEqual(new Set([modelBase.id, lexicalBase.id]));
    for (const hit of both) expect(hit.score).toBeGreaterThanOrEqual(0);
    expect(both.every((hit) => hit.score <= 1)).toBe(true);
    // Each question's best passage comes first, whichever embedder indexed its knowledge base.
    expect((await ask("broken kettle warranty claims"))[0]!.content).toContain("broken kettle");
    expect((await ask("refunds reach the original card"))[0]!.content).toContain("Refunds reach the original card");
  });

  it("fails a file of a knowledge base whose model is no longer configured, and says so", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    await ctx.deps.db.update(knowledgeBases).set({ embeddingModel: "openai:retired-model" }).where(eq(knowledgeBases.id, base.id));
    const detail = await expectOk(await ctx.request(`/api/v1/knowledge-bases/${base.id}`, { token: owner.token }), 200, knowledgeBaseSchema);
    expect(detail).toMatchObject({ embeddingModelLabel: null, lexicalEmbedder: false });

    const file = await importManual(base.id);
    expect(await drain()).toBe(1);
    const [failed] = await filesOf(base.id);
    expect(failed).toMatchObject({ id: file.id, status: "failed" });
    expect(failed!.failureReason).toMatch(/embedding model/i);
    const refused = await expectError(
      await ctx.request(`/api/v1/knowledge-bases/${base.id}/retrieval-test`, { method: "POST", token: owner.token, json: { query: "refund" } }),
      409,
    );
    expect(refused.message).toMatch(/embedding model/i);
  });
});
