import { and, eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAppVia, validAppBody } from "../apps/testing";
import { appSeniorSchema } from "../apps/schemas";
import { balanceOf } from "../billing/service/ledger";
import { apps, knowledgeChunks, usageRecords, users } from "../db/schema/index";
import { modelProviderSchema, rerankModelSchema } from "../models/schemas";
import { capturingLogger, expectError, expectOk } from "../testing/flows";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { type RerankFake, startRerankFake } from "../testing/fakes/rerank";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { evaluationQuestionSchema, evaluationRunSchema } from "./evaluation-schemas";
import { knowledgeFileSchema } from "./schemas";
import { retrieveFromKnowledgeBases } from "./service/retrieval";
import { createKnowledgeBaseVia, uploadOk } from "./testing";
import { createKnowledgeWorker } from "./worker";

// Rerank (issue 20, part 5): rerank models served by model providers at `POST {base}/rerank`,
// chosen per app, applied after fusion with their own threshold, charged per call. Two real
// local rerank servers speak Cohere's and TEI's formats and check the bearer key.
const COHERE_KEY = "co-key-0123456789abcdef";
const TEI_KEY = "tei-key-0123456789abcdef";
let llm: LlmFake;
let cohere: RerankFake;
let tei: RerankFake;
let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;
let guideBaseId: string;
const logger = capturingLogger();

const guide = [
  "# Returns",
  "Returns are accepted within thirty days of delivery when the item is unused.",
  "# Shipping",
  "Standard shipping takes three to five working days; express shipping arrives the next day.",
  "# Warranty",
  "Every appliance carries a two-year warranty covering manufacturing defects.",
].join("\n\n");
const shippingQuestion = "How long does express shipping take?";

// The Cohere-format fake prefers the warranty, then the returns segment, whatever the query: an
// order fusion would never give for a shipping question.
const preferWarranty = (_query: string, document: string) => (document.includes("Warranty") ? 0.9 : document.includes("Returns") ? 0.6 : 0.1);

beforeAll(async () => {
  llm = await startOpenAiFake();
  cohere = await startRerankFake({ format: "cohere", apiKey: COHERE_KEY, score: preferWarranty });
  tei = await startRerankFake({ format: "tei", apiKey: TEI_KEY });
  ctx = await createTestContext(
    {
      OPENAI_API_KEY: "sk-test-parley",
      OPENAI_BASE_URL: llm.url,
      PARLEY_OPENAI_MODELS: "gpt-4.1-mini",
      // Console providers follow the address rules: the fakes on loopback are allowed hosts.
      PARLEY_PLUGINS_ALLOWED_HOSTS: [new URL(cohere.url).host, new URL(tei.url).host].join(","),
      // A hanging reranker gives up within the model timeout (capped at 15 s).
      PARLEY_LLM_TIMEOUT_SECONDS: "2",
    },
    { logger },
  );
  owner = await registerUser(ctx, "rerank-owner@example.com");
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  await ctx.deps.db.update(users).set({ isInstanceOwner: true }).where(eq(users.id, owner.user.id));
  stranger = await registerUser(ctx, "rerank-stranger@example.com");
  await upgradeSpaceForTest(ctx, stranger.user.spaceId);
  const base = await createKnowledgeBaseVia(ctx, owner, { chunkTokens: 50, chunkOverlap: 0 });
  const file = await uploadOk(ctx, owner, base.id, "store-guide.md", guide);
  await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token }), 200, knowledgeFileSchema);
  await createKnowledgeWorker(ctx.deps).drain();
  guideBaseId = base.id;
  const provider = (json: Record<string, unknown>) =>
    ctx.request("/api/v1/model-providers", { method: "POST", token: owner.token, json }).then((response) => expectOk(response, 201, modelProviderSchema));
  await provider({ kind: "openai-compatible", name: "Cohere-like", baseUrl: cohere.url, apiKey: COHERE_KEY, models: [], rerankModels: ["rerank-v3.5"] });
  await provider({
    kind: "openai-compatible",
    name: "Local TEI",
    baseUrl: tei.url,
    apiKey: TEI_KEY,
    models: [],
    rerankModels: ["bge-reranker-v2-m3"],
    rerankFormat: "tei",
  });
});
afterAll(async () => {
  await ctx.close();
  await llm.close();
  await cohere.close();
  await tei.close();
});
beforeEach(() => {
  llm.reset();
  cohere.setMode("ok");
  tei.setMode("ok");
});

const rerankApp = (overrides: Record<string, unknown> = {}, user = owner) =>
  createAppVia(ctx, user, {
    type: "KNOWLEDGE",
    knowledgeBaseIds: [guideBaseId],
    retrievalMode: "hybrid",
    similarityThreshold: 0,
    semanticCount: 3,
    fullTextCount: 1,
    citationEnabled: false,
    rerankModel: "rerank-v3.5",
    ...overrides,
  });

/** The segment headings of the references the model was given, in their order. */
async function referencesOfAnswer(appCode: string): Promise<string[]> {
  llm.reply("Noted.");
  const response = await ctx.request("/api/v1/chat/stream", { method: "POST", token: owner.token, json: { appCode, message: shippingQuestion } });
  expect(response.status).toBe(200);
  const body = await response.text();
  expect(body).toContain("Noted.");
  const messages = llm.requests.at(-1)!.body.messages as Array<{ role: string; content: string }>;
  const system = messages.find((message) => message.role === "system")?.content ?? "";
  return [...system.matchAll(/^# (Returns|Shipping|Warranty)$/gm)].map((match) => match[1]!);
}

const retrieveAs = (spaceId: string, model: string, threshold = 0, appId?: string) =>
  retrieveFromKnowledgeBases(ctx.deps, spaceId, [guideBaseId], {
    query: shippingQuestion,
    mode: "hybrid",
    semanticCount: 3,
    fullTextCount: 1,
    similarityThreshold: 0,
    rerank: { model, threshold, ...(appId ? { appId } : {}) },
  });

describe("rerank models", () => {
  it("are listed for any member with their price per call; a provider needs a chat or a rerank model", async () => {
    const listed = await expectOk(await ctx.request("/api/v1/rerank-models", { token: stranger.token }), 200, z.array(rerankModelSchema));
    expect(listed.map((model) => [model.id, model.providerName, model.creditsPerCall])).toEqual([
      ["rerank-v3.5", "Cohere-like", 20],
      ["bge-reranker-v2-m3", "Local TEI", 1],
    ]);
    const providers = await expectOk(await ctx.request("/api/v1/model-providers", { token: owner.token }), 200, z.array(modelProviderSchema));
    expect(providers.find((entry) => entry.name === "Local TEI")).toMatchObject({ models: [], rerankModels: ["bge-reranker-v2-m3"], rerankFormat: "tei" });
    const empty = await ctx.request("/api/v1/model-providers", {
      method: "POST",
      token: owner.token,
      json: { kind: "openai-compatible", name: "Nothing", baseUrl: tei.url, models: [] },
    });
    await expectError(empty, 400, { field: "models" });
    await expectError(
      await ctx.request("/api/v1/model-providers", {
        method: "POST",
        token: owner.token,
        json: { kind: "openai", name: "X", models: ["m"], rerankFormat: "jina" },
      }),
      400,
    );
  });
});

describe("app rerank settings", () => {
  it("are saved and answered by create, update and the detail; null turns reranking off", async () => {
    const app = await rerankApp({ rerankThreshold: 0.4 });
    expect(app).toMatchObject({ rerankModel: "rerank-v3.5", rerankThreshold: 0.4 });
    const plain = await createAppVia(ctx, owner);
    expect(plain).toMatchObject({ rerankModel: null, rerankThreshold: 0 });
    const changed = await expectOk(
      await ctx.request(`/api/v1/apps/${app.id}`, { method: "PATCH", token: owner.token, json: { rerankModel: "bge-reranker-v2-m3" } }),
      200,
      appSeniorSchema,
    );
    expect(changed).toMatchObject({ rerankModel: "bge-reranker-v2-m3", rerankThreshold: 0.4 });
    const off = await expectOk(
      await ctx.request(`/api/v1/apps/${app.id}`, { method: "PATCH", token: owner.token, json: { rerankModel: null } }),
      200,
      appSeniorSchema,
    );
    expect(off.rerankModel).toBeNull();
    const detail = await expectOk(await ctx.request(`/api/v1/apps/${app.id}/senior`, { token: owner.token }), 200, appSeniorSchema);
    expect(detail).toMatchObject({ rerankModel: null, rerankThreshold: 0.4 });
  });

  it("refuse an unknown model and a threshold out of 0–1 with an envelope error, changing nothing", async () => {
    const before = (await ctx.deps.db.select().from(apps).where(eq(apps.spaceId, owner.user.spaceId)).all()).length;
    const unknown = await ctx.request("/api/v1/apps", { method: "POST", token: owner.token, json: validAppBody({ rerankModel: "no-such-reranker" }) });
    const body = await expectError(unknown, 400, { field: "rerankModel" });
    expect(body.message).toContain("no-such-reranker");
    const zh = await ctx.request("/api/v1/apps", {
      method: "POST",
      token: owner.token,
      json: validAppBody({ rerankModel: "no-such-reranker" }),
      headers: { "accept-language": "zh-CN" },
    });
    expect((await expectError(zh, 400, { field: "rerankModel" })).message).toContain("重排序模型");
    await expectError(await ctx.request("/api/v1/apps", { method: "POST", token: owner.token, json: validAppBody({ rerankThreshold: 1.5 }) }), 400, {
      field: "rerankThreshold",
    });
    // The chat model list is no place for a rerank model, nor the reverse.
    await expectError(await ctx.request("/api/v1/apps", { method: "POST", token: owner.token, json: validAppBody({ rerankModel: "gpt-4.1-mini" }) }), 400, {
      field: "rerankModel",
    });
    const app = await rerankApp();
    await expectError(await ctx.request(`/api/v1/apps/${app.id}`, { method: "PATCH", token: owner.token, json: { rerankThreshold: -0.1 } }), 400, {
      field: "rerankThreshold",
    });
    const row = await ctx.deps.db.select().from(apps).where(eq(apps.id, app.id)).get();
    expect(row).toMatchObject({ rerankModel: "rerank-v3.5", rerankThreshold: 0 });
    expect((await ctx.deps.db.select().from(apps).where(eq(apps.spaceId, owner.user.spaceId)).all()).length).toBe(before + 1);
  });
});

describe("reranking an app's retrieval", () => {
  it("orders the answer's references by rerank score and drops those under the threshold", async () => {
    const plain = await rerankApp({ rerankModel: null });
    expect((await referencesOfAnswer(plain.code))[0]).toBe("Shipping");
    const calls = cohere.requests.length;
    const reranked = await rerankApp({ rerankThreshold: 0 });
    expect(await referencesOfAnswer(reranked.code)).toEqual(["Warranty", "Returns", "Shipping"]);
    const sent = cohere.requests.at(-1)!;
    expect(cohere.requests.length).toBe(calls + 1);
    expect(sent.authorization).toBe(`Bearer ${COHERE_KEY}`);
    expect(sent.body).toMatchObject({ model: "rerank-v3.5", query: shippingQuestion, top_n: 3 });
    expect((sent.body.documents as string[]).length).toBe(3);
    const strict = await rerankApp({ rerankThreshold: 0.5 });
    expect(await referencesOfAnswer(strict.code)).toEqual(["Warranty", "Returns"]);
  });

  it("gives the reranker up to three times the app's counts and keeps the app's counts", async () => {
    const one = await rerankApp({ semanticCount: 1, fullTextCount: 0, retrievalMode: "semantic" });
    expect(await referencesOfAnswer(one.code)).toEqual(["Warranty"]);
    expect((cohere.requests.at(-1)!.body.documents as string[]).length).toBe(3);
  });

  it("speaks TEI's format to a TEI provider", async () => {
    const app = await rerankApp({ rerankModel: "bge-reranker-v2-m3" });
    const references = await referencesOfAnswer(app.code);
    expect(references[0]).toBe("Shipping");
    const sent = tei.requests.at(-1)!;
    expect(sent.authorization).toBe(`Bearer ${TEI_KEY}`);
    expect(sent.body.texts).toHaveLength(3);
    expect(sent.body.documents).toBeUndefined();
  });

  it("charges the space the model's credits per call and records the call", async () => {
    const app = await rerankApp();
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const hits = await retrieveAs(owner.user.spaceId, "rerank-v3.5", 0, app.id);
    expect(hits.map((hit) => hit.rerankScore)).toEqual([0.9, 0.6, 0.1]);
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before - 20);
    await retrieveAs(owner.user.spaceId, "bge-reranker-v2-m3", 0, app.id);
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before - 21);
    const records = await ctx.deps.db
      .select({ model: usageRecords.model, credits: usageRecords.credits, prompt: usageRecords.prompt })
      .from(usageRecords)
      .where(and(eq(usageRecords.appId, app.id)))
      .all();
    expect(records).toEqual([
      { model: "rerank:rerank-v3.5", credits: 20, prompt: shippingQuestion },
      { model: "rerank:bge-reranker-v2-m3", credits: 1, prompt: shippingQuestion },
    ]);
  });

  it("falls back to the fused order, uncharged, when the reranker fails, answers garbage or hangs", async () => {
    const app = await rerankApp();
    for (const mode of ["fail", "garbage", "hang"] as const) {
      cohere.setMode(mode);
      const before = await balanceOf(ctx.deps, owner.user.spaceId);
      const hits = await retrieveAs(owner.user.spaceId, "rerank-v3.5", 0.5, app.id);
      expect(hits[0]!.content).toContain("express shipping");
      expect(hits.every((hit) => hit.rerankScore === undefined)).toBe(true);
      expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before);
    }
    expect(logger.lines.filter((line) => line.startsWith("warn rerank failed")).length).toBeGreaterThanOrEqual(3);
    cohere.setMode("fail");
    expect((await referencesOfAnswer(app.code))[0]).toBe("Shipping");
    const records = await ctx.deps.db
      .select()
      .from(usageRecords)
      .where(and(eq(usageRecords.appId, app.id), eq(usageRecords.model, "rerank:rerank-v3.5")))
      .all();
    expect(records).toEqual([]);
  });

  it("skips a model no longer served, keeping the fused order", async () => {
    const hits = await retrieveAs(owner.user.spaceId, "retired-reranker");
    expect(hits[0]!.content).toContain("express shipping");
    expect(logger.lines.some((line) => line.startsWith("warn rerank skipped") && line.includes("retired-reranker"))).toBe(true);
  });

  it("never reranks or charges across spaces: another space's knowledge base yields nothing", async () => {
    const calls = cohere.requests.length;
    const ownerBalance = await balanceOf(ctx.deps, owner.user.spaceId);
    const strangerBalance = await balanceOf(ctx.deps, stranger.user.spaceId);
    expect(await retrieveAs(stranger.user.spaceId, "rerank-v3.5")).toEqual([]);
    expect(cohere.requests.length).toBe(calls);
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(ownerBalance);
    expect(await balanceOf(ctx.deps, stranger.user.spaceId)).toBe(strangerBalance);
    const foreign = await ctx.request("/api/v1/apps", {
      method: "POST",
      token: stranger.token,
      json: validAppBody({ knowledgeBaseIds: [guideBaseId], rerankModel: "rerank-v3.5" }),
    });
    await expectError(foreign, 400, { field: "knowledgeBaseIds" });
  });
});

describe("rerank in retrieval evaluation", () => {
  it("runs the app path with a rerank model, records it beside the run's figures, and refuses a model no provider serves", async () => {
    const chunks = await ctx.deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.knowledgeBaseId, guideBaseId)).all();
    const shipping = chunks.find((chunk) => chunk.content.includes("express shipping"))!.id;
    const evaluation = `/api/v1/knowledge-bases/${guideBaseId}/evaluation`;
    await expectOk(
      await ctx.request(`${evaluation}/questions`, { method: "POST", token: owner.token, json: { question: shippingQuestion, chunkIds: [shipping] } }),
      201,
      evaluationQuestionSchema,
    );
    const run = (json: Record<string, unknown>) =>
      ctx.request(`${evaluation}/runs`, { method: "POST", token: owner.token, json: { path: "app", mode: "hybrid", similarityThreshold: 0, ...json } });
    const fused = await expectOk(await run({}), 201, evaluationRunSchema);
    expect(fused.hitRate).toBe(1);
    const calls = cohere.requests.length;
    // The Cohere-like model scores the shipping segment 0.1: a threshold of 0.5 drops it.
    const reranked = await expectOk(await run({ rerankModel: "rerank-v3.5", rerankThreshold: 0.5 }), 201, evaluationRunSchema);
    expect(cohere.requests.length).toBe(calls + 1);
    expect(reranked.settings).toMatchObject({ path: "app", rerankModel: "rerank-v3.5", rerankThreshold: 0.5 });
    expect(reranked.hitRate).toBe(0);
    const refused = await expectError(await run({ rerankModel: "retired-reranker" }), 400, { field: "rerankModel" });
    expect(refused.message).toContain("retired-reranker");
  });
});
