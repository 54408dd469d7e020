import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { balanceOf } from "../billing/service/ledger";
import { apps, conversations, messages, usageRecords } from "../db/schema/index";
import { expectError, expectOk } from "../testing/flows";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import type { RetrievedChunk } from "../knowledge/retrieval/search";
import { knowledgeFileSchema } from "../knowledge/schemas";
import { createImportedFile } from "../knowledge/service/files";
import { createKnowledgeBaseVia, uploadOk } from "../knowledge/testing";
import { createKnowledgeWorker } from "../knowledge/worker";
import type { ChatEvent } from "./events";
import { citationsOf, fitToBudget, retrievalLimit } from "./service/knowledge";

// Knowledge apps answering from their bound knowledge bases (spec §3 App retrieval fields, §5
// Knowledge): retrieval into the prompt, citations, the no-hit strategies, the plugin execution
// strategies and the offline responder. Indexing uses the offline lexical embedder, whose cosine
// similarities are low: "How long does express shipping take?" scores about 0.47 against the
// shipping segment (0.84 calibrated, decision 0010), "What is the capital of France?" under 0.3
// (under 0.78 calibrated) against every segment.
let fake: LlmFake;
let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;
let guideBaseId: string;

const guide = [
  "# Returns",
  "Returns are accepted within thirty days of delivery when the item is unused.",
  "# Shipping",
  "Standard shipping takes three to five working days; express shipping arrives the next day.",
  "# Warranty",
  "Every appliance carries a two-year warranty covering manufacturing defects.",
].join("\n\n");

const shippingQuestion = "How long does express shipping take?";
const offTopic = "What is the capital of France?";

async function confirmAndIndex(user: TestUser, fileId: string) {
  await expectOk(await ctx.request(`/api/v1/knowledge-files/${fileId}/confirm`, { method: "POST", token: user.token }), 200, knowledgeFileSchema);
  await createKnowledgeWorker(ctx.deps).drain();
}

async function indexedGuide(user: TestUser, text = guide, fileName = "store-guide.md") {
  const base = await createKnowledgeBaseVia(ctx, user, { chunkTokens: 50, chunkOverlap: 0 });
  const file = await uploadOk(ctx, user, base.id, fileName, text);
  await confirmAndIndex(user, file.id);
  return base.id;
}

beforeAll(async () => {
  fake = await startOpenAiFake();
  ctx = await createTestContext({ OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini" });
  await ctx.deps.models.ready();
  owner = await registerUser(ctx, "knowledge-owner@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  stranger = await registerUser(ctx, "knowledge-stranger@example.com");
  guideBaseId = await indexedGuide(owner);
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(() => fake.reset());

/** Reads an SSE body into its events. */
async function readEvents(response: Response): Promise<ChatEvent[]> {
  expect(response.status).toBe(200);
  const events: ChatEvent[] = [];
  for (const block of (await response.text()).split("\n\n")) {
    const data = /^data: (.+)$/m.exec(block)?.[1];
    if (data) events.push(JSON.parse(data) as ChatEvent);
  }
  return events;
}

const ask = (user: TestUser, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  ctx.request("/api/v1/chat/stream", { method: "POST", token: user.token, json: body, headers }).then(readEvents);
const textOf = (events: ChatEvent[]) => events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");
const citationsIn = (events: ChatEvent[]) => events.filter((event): event is Extract<ChatEvent, { type: "citation" }> => event.type === "citation");
const startOf = (events: ChatEvent[]) => events[0] as Extract<ChatEvent, { type: "message-start" }>;
const endOf = (events: ChatEvent[]) => events.at(-1) as Extract<ChatEvent, { type: "message-end" }>;
const systemSent = (index = 0) => {
  const sent = fake.requests[index]!.body.messages as Array<{ role: string; content: string }>;
  return sent.find((message) => message.role === "system")?.content ?? "";
};
const toolsSent = (index = 0) => (fake.requests[index]!.body.tools as Array<{ function: { name: string } }> | undefined)?.map((tool) => tool.function.name);

/** A knowledge app over the store guide; semantic hits need a calibrated similarity of 0.8. */
const knowledgeApp = (overrides: Record<string, unknown> = {}, user = owner, baseId = guideBaseId) =>
  createAppVia(ctx, user, {
    type: "KNOWLEDGE",
    settingsPrompt: "You are the store's assistant.",
    knowledgeBaseIds: [baseId],
    retrievalMode: "semantic",
    similarityThreshold: 0.8,
    ...overrides,
  });

describe("answering from knowledge", () => {
  it("puts the retrieved segments into the system prompt as numbered references, streams citations and keeps them with the answer", async () => {
    const app = await knowledgeApp({ retrievalMode: "hybrid", citationEnabled: true, citationThreshold: 0.8 });
    fake.reply("Express shipping arrives the next day [1].");
    const events = await ask(owner, { appCode: app.code, message: shippingQuestion });

    expect(textOf(events)).toBe("Express shipping arrives the next day [1].");
    const system = systemSent();
    expect(system.startsWith("You are the store's assistant.\n\n")).toBe(true);
    expect(system).toContain("cite it as [n]");
    expect(system).toMatch(
      /<references>\n\[1\] store-guide\n# Shipping\n\nStandard shipping takes three to five working days; express shipping arrives the next day\.\n/,
    );
    expect(system.trimEnd().endsWith("</references>")).toBe(true);
    expect((fake.requests[0]!.body.messages as Array<{ role: string }>).map((message) => message.role)).toEqual(["system", "user"]);

    const citations = citationsIn(events);
    expect(citations).toHaveLength(1);
    expect(citations[0]).toMatchObject({ index: 1, source: "store-guide" });
    expect(citations[0]!.content).toContain("express shipping arrives the next day");
    expect(citations[0]!.score).toBeGreaterThanOrEqual(0.8);
    // Citations come after the text and before the end.
    expect(events.map((event) => event.type).slice(-2)).toEqual(["citation", "message-end"]);

    const listed = await ctx.request(`/api/v1/chat/conversations/${startOf(events).conversationId}/messages`, { token: owner.token });
    const history = ((await listed.json()) as { data: Array<{ role: string; citations: unknown[] }> }).data;
    expect(history.map((message) => [message.role, message.citations.length])).toEqual([
      ["user", 0],
      ["assistant", 1],
    ]);
    expect(history[1]!.citations[0]).toEqual({ index: 1, source: "store-guide", content: citations[0]!.content, score: citations[0]!.score });

    const usage = await ctx.deps.db
      .select()
      .from(usageRecords)
      .where(eq(usageRecords.messageId, startOf(events).messageId))
      .get();
    expect(JSON.parse(usage!.knowledgeHits!)).toEqual([expect.objectContaining({ index: 1, fileName: "store-guide", knowledgeBaseId: guideBaseId })]);
  });

  it("cites only hits whose similarity reaches the citation threshold; full-text-only hits by being found", async () => {
    const strict = await knowledgeApp({ citationEnabled: true, citationThreshold: 0.9 });
    fake.reply("Next day.");
    const strictEvents = await ask(owner, { appCode: strict.code, message: shippingQuestion });
    expect(systemSent()).toContain("[1] store-guide");
    expect(citationsIn(strictEvents)).toEqual([]);

    const hidden = await knowledgeApp({ citationEnabled: false });
    fake.reply("Next day.");
    expect(citationsIn(await ask(owner, { appCode: hidden.code, message: shippingQuestion }))).toEqual([]);

    const fullText = await knowledgeApp({ retrievalMode: "fulltext", fullTextCount: 2, citationEnabled: true, citationThreshold: 0.95 });
    fake.reply("Two years.");
    const events = await ask(owner, { appCode: fullText.code, message: "warranty defects" });
    expect(citationsIn(events)).toEqual([expect.objectContaining({ index: 1, source: "store-guide" })]);
    expect(citationsIn(events)[0]).not.toHaveProperty("score");
    expect(citationsIn(events)[0]!.content).toContain("two-year warranty");
  });

  it("keeps the references within the retrieval length", async () => {
    const app = await knowledgeApp({ retrievalMode: "fulltext", fullTextCount: 3, retrievalLength: 8 });
    fake.reply("Thirty days.");
    await ask(owner, { appCode: app.code, message: "returns shipping warranty" });
    const references = /<references>\n([\s\S]*)\n<\/references>/.exec(systemSent())![1]!;
    expect(references).toMatch(/^\[1\] store-guide\n/);
    expect(references).not.toContain("[2]");
    expect(references.endsWith("…")).toBe(true);
  });

  it("retrieves for a short follow-up with the previous question, through the OpenAI-compatible API too", async () => {
    const app = await knowledgeApp({ retrievalMode: "fulltext", fullTextCount: 1 });
    fake.reply("Two years.");
    const created = await ctx.request("/api/v1/me/api-keys", { method: "POST", token: owner.token, json: { name: "knowledge" } });
    const key = ((await created.json()) as { data: { key: string } }).data.key;
    const response = await ctx.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      json: {
        model: app.code,
        messages: [
          { role: "user", content: "Tell me about the warranty" },
          { role: "assistant", content: "Which appliance?" },
          { role: "user", content: "how long?" },
        ],
      },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toBe("Two years.");
    expect(systemSent()).toContain("two-year warranty");
  });
});

describe("retrieval rules", () => {
  it("accepts full-text mode and refuses counts over 10 and a citation threshold under the similarity threshold, in both languages", async () => {
    const app = await knowledgeApp({ retrievalMode: "fulltext" });
    expect(app.retrievalMode).toBe("fulltext");
    const patch = (json: Record<string, unknown>, language = "en") =>
      ctx.request(`/api/v1/apps/${app.id}`, { method: "PATCH", token: owner.token, json, headers: { "accept-language": language } });
    await expectError(await patch({ semanticCount: 6, fullTextCount: 5 }), 400, {
      field: "fullTextCount",
      message: "Semantic and full-text counts together can be at most 10",
    });
    await expectError(await patch({ semanticCount: 6, fullTextCount: 5 }, "zh-CN"), 400, {
      field: "fullTextCount",
      message: "语义检索条数与全文检索条数之和不能超过 10",
    });
    await expectError(await patch({ citationEnabled: true, similarityThreshold: 0.8, citationThreshold: 0.7 }, "zh-CN"), 400, {
      field: "citationThreshold",
      message: "引用阈值不能低于相似度阈值",
    });
    await expectError(await patch({ citationThreshold: -0.1 }), 400, { field: "citationThreshold" });
    await expectError(await patch({ retrievalMode: "keyword" }), 400);
  });

  it("clamps the counts at run time, the semantic count taking priority", () => {
    expect(retrievalLimit({ retrievalMode: "hybrid", semanticCount: 8, fullTextCount: 8 })).toBe(10);
    expect(retrievalLimit({ retrievalMode: "hybrid", semanticCount: 12, fullTextCount: 3 })).toBe(10);
    expect(retrievalLimit({ retrievalMode: "semantic", semanticCount: 3, fullTextCount: 9 })).toBe(3);
    expect(retrievalLimit({ retrievalMode: "fulltext", semanticCount: 9, fullTextCount: 4 })).toBe(4);
  });

  it("fits sources to the budget and cites at most 10", () => {
    const chunk = (id: number, content: string, similarity?: number): RetrievedChunk => ({
      chunkId: `c${id}`,
      knowledgeBaseId: "kb",
      fileId: "f",
      fileName: `file${id}`,
      content,
      metadata: {},
      score: similarity ?? 1,
      ...(similarity !== undefined ? { similarity } : {}),
    });
    const sources = fitToBudget([chunk(1, "a".repeat(40)), chunk(2, "b".repeat(400)), chunk(3, "c".repeat(40))], 30);
    expect(sources.map((source) => [source.index, source.chunk.chunkId])).toEqual([
      [1, "c1"],
      [2, "c3"],
    ]);
    const many = fitToBudget(
      Array.from({ length: 12 }, (_, index) => chunk(index, "x", 0.9)),
      1000,
    );
    expect(citationsOf({ citationEnabled: true, citationThreshold: 0.8 }, many)).toHaveLength(10);
  });

  it("never retrieves another space's knowledge base: binding it is refused, and an id put there anyway is ignored", async () => {
    const foreignBaseId = await indexedGuide(stranger, "The secret launch code is quartz.", "secrets.md");
    const app = await knowledgeApp({ retrievalMode: "fulltext", noHitStrategy: "fixed", noHitText: "Sorry, I don't know." });
    await expectError(
      await ctx.request(`/api/v1/apps/${app.id}`, { method: "PATCH", token: owner.token, json: { knowledgeBaseIds: [guideBaseId, foreignBaseId] } }),
      400,
      { field: "knowledgeBaseIds", message: `Knowledge base ${foreignBaseId} does not exist in this space` },
    );
    await expectError(
      await ctx.request(`/api/v1/apps/${app.id}/knowledge-bases`, { method: "POST", token: owner.token, json: { knowledgeBaseIds: [foreignBaseId] } }),
      404,
    );
    // The stranger's own app does find it: the segment is there to be found.
    const own = await knowledgeApp({ retrievalMode: "fulltext" }, stranger, foreignBaseId);
    fake.reply("Quartz.");
    await ask(stranger, { appCode: own.code, message: "secret launch code quartz" });
    expect(systemSent()).toContain("The secret launch code is quartz.");
    fake.reset();

    await ctx.deps.db
      .update(apps)
      .set({ knowledgeBaseIds: JSON.stringify([foreignBaseId]) })
      .where(eq(apps.id, app.id));
    const events = await ask(owner, { appCode: app.code, message: "secret launch code quartz" });
    expect(textOf(events)).toBe("Sorry, I don't know.");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("when nothing is found", () => {
  it("fixed: answers the fixed text without calling the model, for no credits", async () => {
    const app = await knowledgeApp({ noHitStrategy: "fixed", noHitText: "Please ask about returns, shipping or warranty." });
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const events = await ask(owner, { appCode: app.code, message: offTopic });
    expect(textOf(events)).toBe("Please ask about returns, shipping or warranty.");
    expect(endOf(events)).toMatchObject({ type: "message-end", finishReason: "stop", credits: 0, usage: { promptTokens: 0, completionTokens: 0 } });
    expect(fake.requests).toHaveLength(0);
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before);
    const usage = await ctx.deps.db
      .select()
      .from(usageRecords)
      .where(eq(usageRecords.messageId, startOf(events).messageId))
      .get();
    expect(usage).toMatchObject({ model: "no-hit", credits: 0, knowledgeHits: "[]" });
  });

  it("manual: answers a transfer notice in the reader's language and marks the conversation for a person", async () => {
    const app = await knowledgeApp({ noHitStrategy: "manual" });
    const events = await ask(owner, { appCode: app.code, message: offTopic });
    expect(textOf(events)).toMatch(/passing your question to a colleague/);
    expect(endOf(events)).toMatchObject({ finishReason: "handover", credits: 0 });
    expect(fake.requests).toHaveLength(0);
    const conversationId = startOf(events).conversationId;
    const stored = await ctx.deps.db.select().from(conversations).where(eq(conversations.id, conversationId)).get();
    expect(stored!.handoverRequestedAt).not.toBeNull();
    const listed = await ctx.request(`/api/v1/chat/conversations?appCode=${app.code}`, { token: owner.token });
    expect(((await listed.json()) as { data: Array<{ id: string; handoverRequestedAt: string | null }> }).data).toEqual([
      expect.objectContaining({ id: conversationId, handoverRequestedAt: stored!.handoverRequestedAt }),
    ]);
    const answer = await ctx.deps.db
      .select()
      .from(messages)
      .where(eq(messages.id, startOf(events).messageId))
      .get();
    expect(answer).toMatchObject({ role: "assistant", model: "handover", status: "complete" });

    const chinese = await ask(owner, { appCode: app.code, message: "法国的首都是哪里？" }, { "accept-language": "zh-CN" });
    expect(textOf(chinese)).toMatch(/转接人工客服/);

    const configured = await knowledgeApp({ noHitStrategy: "manual" });
    const config = (await (await ctx.request(`/api/v1/apps/${configured.id}/advanced-config`, { token: owner.token })).json()) as {
      data: Record<string, unknown> & { manualService: Record<string, unknown> };
    };
    const saved = await ctx.request(`/api/v1/apps/${configured.id}/advanced-config`, {
      method: "PUT",
      token: owner.token,
      json: { ...config.data, manualService: { ...config.data.manualService, defaultReply: "A colleague will be with you shortly." } },
    });
    expect(saved.status).toBe(200);
    expect(textOf(await ask(owner, { appCode: configured.code, message: offTopic }))).toBe("A colleague will be with you shortly.");
  });

  it("default: the model answers freely, without references", async () => {
    const app = await knowledgeApp({ noHitStrategy: "default" });
    fake.reply("Paris.");
    const events = await ask(owner, { appCode: app.code, message: offTopic });
    expect(textOf(events)).toBe("Paris.");
    expect(systemSent()).toBe("You are the store's assistant.");
    const usage = await ctx.deps.db
      .select()
      .from(usageRecords)
      .where(eq(usageRecords.messageId, startOf(events).messageId))
      .get();
    expect(usage!.knowledgeHits).toBe("[]");
  });
});

describe("plugin execution strategy", () => {
  it("knowledge first: with hits the model answers from them without tools; without hits it gets the tools", async () => {
    const app = await knowledgeApp({ pluginStrategy: "knowledge_first", plugins: ["calculator"] });
    fake.reply("Next day [1].");
    await ask(owner, { appCode: app.code, message: shippingQuestion });
    expect(systemSent()).toContain("<references>");
    expect(toolsSent()).toBeUndefined();

    fake.reset();
    fake.replyToolCall({ id: "call_1", name: "calculator", arguments: { expression: "6 * 7" } }).reply("42.");
    const events = await ask(owner, { appCode: app.code, message: offTopic });
    expect(toolsSent()).toEqual(["calculator"]);
    expect(systemSent()).not.toContain("<references>");
    expect(textOf(events)).toBe("42.");
  });

  it("both: references and tools together", async () => {
    const app = await knowledgeApp({ pluginStrategy: "both", plugins: ["calculator"] });
    fake.reply("Next day [1].");
    await ask(owner, { appCode: app.code, message: shippingQuestion });
    expect(systemSent()).toContain("<references>");
    expect(toolsSent()).toEqual(["calculator"]);
  });

  it("plugin first: tools alone first; knowledge only when no tool was called, the unused draft never shown", async () => {
    const app = await knowledgeApp({ pluginStrategy: "plugin_first", plugins: ["calculator"] });
    fake.replyToolCall({ id: "call_1", name: "calculator", arguments: { expression: "2 + 2" } }).reply("Four.");
    const withTool = await ask(owner, { appCode: app.code, message: shippingQuestion });
    expect(textOf(withTool)).toBe("Four.");
    expect(fake.requests.map((_, index) => systemSent(index).includes("<references>"))).toEqual([false, false]);

    fake.reset();
    fake.reply("A guess without sources.").reply("Express shipping arrives the next day [1].");
    const withoutTool = await ask(owner, { appCode: app.code, message: shippingQuestion });
    expect(textOf(withoutTool)).toBe("Express shipping arrives the next day [1].");
    expect(fake.requests).toHaveLength(2);
    expect(toolsSent(0)).toEqual(["calculator"]);
    expect(toolsSent(1)).toBeUndefined();
    expect(systemSent(1)).toContain("<references>");

    fake.reset();
    fake.reply("Paris, freely.");
    const free = await ask(owner, { appCode: app.code, message: offTopic });
    expect(textOf(free)).toBe("Paris, freely.");
    expect(fake.requests).toHaveLength(1);
  });

  it("with a fixed no-hit reply, a plugin may still answer; when the model calls none the fixed text stands", async () => {
    const app = await knowledgeApp({
      pluginStrategy: "knowledge_first",
      plugins: ["calculator"],
      noHitStrategy: "fixed",
      noHitText: "I only know the store guide.",
    });
    fake.reply("Paris, I think.");
    const events = await ask(owner, { appCode: app.code, message: offTopic });
    expect(textOf(events)).toBe("I only know the store guide.");
    expect(fake.requests).toHaveLength(1);
    expect(toolsSent()).toEqual(["calculator"]);

    fake.reset();
    fake.replyToolCall({ id: "call_1", name: "calculator", arguments: { expression: "6 * 7" } }).reply("It is 42.");
    expect(textOf(await ask(owner, { appCode: app.code, message: "What is 6 times 7?" }))).toBe("It is 42.");
  });
});

describe("offline responder", () => {
  it("answers a matching Q&A pair with its answer, and a document hit with a cited extract", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const question = "What are your opening hours?";
    const answer = "We are open from 9:00 to 18:00, Monday to Friday.";
    const auth = { userId: owner.user.id, spaceId: owner.user.spaceId, role: "owner" as const, via: "session" as const };
    const file = await createImportedFile(ctx.deps, auth, base.id, {
      type: "qa",
      name: "faq",
      source: "faq.csv",
      sizeBytes: 100,
      prepared: {
        kind: "records",
        records: [{ content: `Q: ${question}\nA: ${answer}`, indexText: question, metadata: { question, answer, searchMethod: "question" } }],
      },
    });
    await confirmAndIndex(owner, file.id);
    const offline = {
      defaultModel: "parley-offline",
      optionalModels: ["parley-offline"],
      retrievalMode: "fulltext",
      citationEnabled: true,
      citationThreshold: 0.9,
    };

    const qa = await knowledgeApp(offline, owner, base.id);
    const events = await ask(owner, { appCode: qa.code, message: "opening hours?" });
    expect(startOf(events)).toMatchObject({ model: "parley-offline", offline: true });
    expect(textOf(events)).toBe(answer);
    expect(citationsIn(events)).toEqual([expect.objectContaining({ index: 1, source: "faq" })]);
    expect(endOf(events)).toMatchObject({ credits: 0 });

    const documents = await knowledgeApp(offline);
    const extract = textOf(await ask(owner, { appCode: documents.code, message: "warranty defects" }));
    expect(extract.startsWith('Here is what I found in "store-guide" [1]:')).toBe(true);
    expect(extract).toContain("> Every appliance carries a two-year warranty covering manufacturing defects.");
    expect(fake.requests).toHaveLength(0);
  });

  it("answers a short follow-up with its own Q&A pair, not with the earlier question's (scores of the longer query do not outrank it)", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const auth = { userId: owner.user.id, spaceId: owner.user.spaceId, role: "owner" as const, via: "session" as const };
    const pairs = [
      ["How do I reset my forgotten account password today?", "Use the reset link on the sign-in page."],
      ["Where is my parcel?", "Your parcel is tracked under Orders."],
    ] as const;
    const file = await createImportedFile(ctx.deps, auth, base.id, {
      type: "qa",
      name: "help",
      source: "help.csv",
      sizeBytes: 100,
      prepared: {
        kind: "records",
        records: pairs.map(([question, answer]) => ({
          content: `Q: ${question}\nA: ${answer}`,
          indexText: question,
          metadata: { question, answer, searchMethod: "question" },
        })),
      },
    });
    await confirmAndIndex(owner, file.id);
    const app = await knowledgeApp(
      { defaultModel: "parley-offline", optionalModels: ["parley-offline"], retrievalMode: "fulltext", fullTextCount: 3 },
      owner,
      base.id,
    );
    const first = await ask(owner, { appCode: app.code, message: pairs[0][0] });
    expect(textOf(first)).toBe(pairs[0][1]);
    // "parcel?" alone finds one pair, fewer than the app takes: the earlier question fills the rest.
    const followUp = await ask(owner, { appCode: app.code, message: "parcel?", conversationId: startOf(first).conversationId });
    expect(textOf(followUp)).toBe(pairs[1][1]);
  });
});
