import { and, eq } from "drizzle-orm";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { appendLedger, balanceOf } from "../billing/service/ledger";
import { conversations, creditLedger, messages, usageRecords, userKeys } from "../db/schema/index";
import { creditsFor } from "../models/pricing";
import { expectError, manualClock } from "../testing/flows";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import type { ChatEvent } from "./events";

const clock = manualClock(Date.parse("2026-11-21T08:00:00Z"));
let fake: LlmFake;
let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  fake = await startOpenAiFake();
  ctx = await createTestContext(
    { OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini,gpt-3.5-turbo" },
    { now: clock.now },
  );
  await ctx.deps.models.ready();
  owner = await registerUser(ctx, "owner@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  stranger = await registerUser(ctx, "stranger@example.com");
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(() => fake.reset());

/** Reads an SSE body into its events, checking that each event's name equals its type. */
async function readEvents(response: Response): Promise<ChatEvent[]> {
  const text = await response.text();
  const events: ChatEvent[] = [];
  for (const block of text.split("\n\n")) {
    const name = /^event: (.+)$/m.exec(block)?.[1];
    const data = /^data: (.+)$/m.exec(block)?.[1];
    if (!name || !data) continue;
    const event = JSON.parse(data) as ChatEvent;
    expect(event.type).toBe(name);
    events.push(event);
  }
  return events;
}

const ask = (user: TestUser, body: Record<string, unknown>, init: RequestInit = {}) =>
  ctx.request("/api/v1/chat/stream", { method: "POST", token: user.token, json: body, ...init });

const textOf = (events: ChatEvent[]) => events.flatMap((event) => (event.type === "text-delta" ? [event.text] : [])).join("");

describe("the chat stream", () => {
  it("streams an answer with the app's prompt and temperature, stores both messages, records usage and charges credits", async () => {
    const app = await createAppVia(ctx, owner, { settingsPrompt: "You are Parley's test bot.", temperature: 0.2 });
    fake.reply({ text: "Hello there, how can I help?", chunks: 4, usage: { promptTokens: 1200, completionTokens: 800 } });
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const response = await ask(owner, { appCode: app.code, message: "Hi!" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = await readEvents(response);
    expect(events[0]).toMatchObject({ type: "message-start", model: "gpt-4.1-mini", offline: false });
    expect(textOf(events)).toBe("Hello there, how can I help?");
    expect(events.filter((event) => event.type === "text-delta").length).toBe(4);
    const end = events.at(-1);
    const credits = creditsFor("gpt-4.1-mini", { promptTokens: 1200, completionTokens: 800 });
    expect(credits).toBeGreaterThan(0);
    expect(end).toEqual({
      type: "message-end",
      finishReason: "stop",
      usage: { promptTokens: 1200, completionTokens: 800 },
      credits,
      balance: before - credits,
    });

    const sent = fake.requests[0]!.body;
    expect(sent.model).toBe("gpt-4.1-mini");
    expect(sent.temperature).toBe(0.2);
    expect(sent.messages).toEqual([
      { role: "system", content: "You are Parley's test bot." },
      { role: "user", content: "Hi!" },
    ]);

    const start = events[0] as Extract<ChatEvent, { type: "message-start" }>;
    const stored = await ctx.deps.db.select().from(messages).where(eq(messages.conversationId, start.conversationId));
    expect(stored.map((row) => [row.role, row.content, row.status])).toEqual([
      ["user", "Hi!", "complete"],
      ["assistant", "Hello there, how can I help?", "complete"],
    ]);
    const usage = await ctx.deps.db.select().from(usageRecords).where(eq(usageRecords.messageId, start.messageId)).get();
    expect(usage).toMatchObject({
      appId: app.id,
      prompt: "Hi!",
      answer: "Hello there, how can I help?",
      model: "gpt-4.1-mini",
      promptTokens: 1200,
      completionTokens: 800,
      credits,
    });
    const debit = await ctx.deps.db.select().from(creditLedger).where(eq(creditLedger.reference, start.messageId)).get();
    expect(debit).toMatchObject({ delta: -credits, reason: "usage", balanceAfter: before - credits });
  });

  it("remembers the last turns, forgets past the retention window and after the context is deleted", async () => {
    const app = await createAppVia(ctx, owner, { memoryTurns: 1, memoryRetentionMinutes: 30 });
    fake.reply("First answer").reply("Second answer").reply("Third answer").reply("Fourth answer").reply("Fifth answer");
    const first = await readEvents(await ask(owner, { appCode: app.code, message: "one" }));
    const conversationId = (first[0] as Extract<ChatEvent, { type: "message-start" }>).conversationId;
    await readEvents(await ask(owner, { appCode: app.code, message: "two", conversationId }));
    await readEvents(await ask(owner, { appCode: app.code, message: "three", conversationId }));
    const history = (index: number) =>
      (fake.requests[index]!.body.messages as Array<{ role: string; content: string }>).filter((message) => message.role !== "system");
    expect(history(1).map((message) => message.content)).toEqual(["one", "First answer", "two"]);
    // memoryTurns 1: only the previous turn, not both.
    expect(history(2).map((message) => message.content)).toEqual(["two", "Second answer", "three"]);

    clock.advance(31 * 60_000);
    await readEvents(await ask(owner, { appCode: app.code, message: "four", conversationId }));
    expect(history(3).map((message) => message.content)).toEqual(["four"]);

    const cleared = await ctx.request(`/api/v1/chat/conversations/${conversationId}/clear-context`, { method: "POST", token: owner.token });
    expect(cleared.status).toBe(200);
    clock.advance(1000);
    await readEvents(await ask(owner, { appCode: app.code, message: "five", conversationId }));
    expect(history(4).map((message) => message.content)).toEqual(["five"]);

    const listed = await ctx.request(`/api/v1/chat/conversations/${conversationId}/messages`, { token: owner.token });
    const body = (await listed.json()) as { data: Array<{ content: string }> };
    expect(body.data.map((message) => message.content)).toHaveLength(10);
  });

  it("refuses before streaming: unknown model 400, someone else's private app 404, an empty balance 870", async () => {
    const app = await createAppVia(ctx, owner);
    await expectError(await ask(owner, { appCode: app.code, message: "Hi", model: "gpt-99" }), 400, { field: "model" });
    await expectError(await ask(stranger, { appCode: app.code, message: "Hi" }), 404);
    await expectError(await ask(owner, { appCode: app.code, message: "   " }), 400, { field: "message" });

    const balance = await balanceOf(ctx.deps, owner.user.spaceId);
    await appendLedger(ctx.deps, { spaceId: owner.user.spaceId, delta: -balance, reason: "adjustment", reference: "test" });
    const countBefore = (await ctx.deps.db.select().from(messages)).length;
    const refused = await ask(owner, { appCode: app.code, message: "Hi" });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ success: false, code: 870 });
    expect((await ctx.deps.db.select().from(messages)).length).toBe(countBefore);
    expect(fake.requests).toHaveLength(0);
    await appendLedger(ctx.deps, { spaceId: owner.user.spaceId, delta: balance, reason: "adjustment", reference: "test" });
  });

  it("turns provider failures into an error event, keeps the conversation consistent and charges only what was delivered", async () => {
    const app = await createAppVia(ctx, owner);
    fake.fail(429, { retryAfter: 7 });
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const limited = await readEvents(await ask(owner, { appCode: app.code, message: "busy?" }));
    expect(limited.at(-1)).toMatchObject({ type: "error", code: 429 });
    expect((limited.at(-1) as { message: string }).message).toContain("7");
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before);
    const start = limited[0] as Extract<ChatEvent, { type: "message-start" }>;
    const rows = await ctx.deps.db.select().from(messages).where(eq(messages.conversationId, start.conversationId));
    expect(rows.map((row) => [row.role, row.status])).toEqual([
      ["user", "complete"],
      ["assistant", "error"],
    ]);

    fake.malformed({ afterText: "Partial answer that " });
    const broken = await readEvents(await ask(owner, { appCode: app.code, message: "go on", conversationId: start.conversationId }));
    expect(textOf(broken)).toBe("Partial answer that ");
    expect(broken.at(-1)).toMatchObject({ type: "error", code: 502 });
    const partial = await ctx.deps.db.select().from(usageRecords).where(eq(usageRecords.answer, "Partial answer that ")).get();
    expect(partial?.completionTokens).toBeGreaterThan(0);
    expect(partial?.credits).toBe(creditsFor("gpt-4.1-mini", { promptTokens: partial!.promptTokens, completionTokens: partial!.completionTokens }));
    // A failed turn is not memory for the next one.
    fake.reply("Recovered");
    await readEvents(await ask(owner, { appCode: app.code, message: "again", conversationId: start.conversationId }));
    const sent = (fake.requests.at(-1)!.body.messages as Array<{ content: string }>).map((message) => message.content);
    expect(sent).not.toContain("");
    expect(sent.at(-1)).toBe("again");
  });

  it("stops when the caller goes away and stores what was said", async () => {
    const app = await createAppVia(ctx, owner);
    fake.hang({ afterText: "Thinking about " });
    const listening = await ctx.listen();
    const controller = new AbortController();
    const response = await fetch(`${listening}/api/v1/chat/stream`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json" },
      body: JSON.stringify({ appCode: app.code, message: "long question" }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let seen = "";
    while (!seen.includes("about")) seen += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await expect
      .poll(
        async () =>
          (
            await ctx.deps.db
              .select()
              .from(messages)
              .where(and(eq(messages.role, "assistant"), eq(messages.content, "Thinking about ")))
          ).at(0)?.status,
        { timeout: 5000 },
      )
      .toBe("stopped");
  });

  it("applies rate-limit rules per end user on a movable clock, with the configured reply", async () => {
    const app = await createAppVia(ctx, owner);
    const rule = await ctx.request(`/api/v1/apps/${app.id}/rate-limits`, {
      method: "POST",
      token: owner.token,
      json: { targetChannel: "all", periodUnit: "minute", count: 1, replyWhenExceeded: "Slow down, please." },
    });
    expect(rule.status).toBe(201);
    clock.set(new Date(Math.ceil(clock.now().getTime() / 60_000) * 60_000 + 1000));
    fake.reply("First").reply("After a minute");
    expect(textOf(await readEvents(await ask(owner, { appCode: app.code, message: "1" })))).toBe("First");
    const second = await readEvents(await ask(owner, { appCode: app.code, message: "2" }));
    expect(textOf(second)).toBe("Slow down, please.");
    expect(second.at(-1)).toMatchObject({ type: "message-end", finishReason: "rate-limited", credits: 0 });
    expect(fake.requests).toHaveLength(1);
    clock.advance(60_000);
    expect(textOf(await readEvents(await ask(owner, { appCode: app.code, message: "3" })))).toBe("After a minute");
  });

  it("answers with the labelled offline responder when no provider serves the app's model", async () => {
    const app = await createAppVia(ctx, owner, { defaultModel: "claude-sonnet-4", optionalModels: ["claude-sonnet-4"] });
    const events = await readEvents(await ask(owner, { appCode: app.code, message: "Hello" }));
    expect(events[0]).toMatchObject({ type: "message-start", model: "parley-offline", offline: true });
    expect(textOf(events)).toMatch(/no (language )?model/i);
    expect(events.at(-1)).toMatchObject({ type: "message-end", credits: 0 });
    expect(fake.requests).toHaveLength(0);
  });

  it("calls plugins as tools over several rounds and feeds their results back to the model", async () => {
    const app = await createAppVia(ctx, owner, { plugins: ["calculator"], multiRoundThinking: true, maxRounds: 3 });
    fake
      .replyToolCall({ id: "call_a", name: "calculator", arguments: { expression: "6 * 7" } })
      .replyToolCall({ id: "call_b", name: "calculator", arguments: { expression: "42 + 1" } })
      .reply("Six times seven plus one is 43.");
    const events = await readEvents(await ask(owner, { appCode: app.code, message: "What is 6*7+1?" }));
    const results = events.filter((event) => event.type === "tool-result");
    expect(results).toEqual([
      expect.objectContaining({ type: "tool-result", id: "call_a", name: "calculator", ok: true, content: "6 * 7 = 42" }),
      expect.objectContaining({ type: "tool-result", id: "call_b", name: "calculator", ok: true, content: "42 + 1 = 43" }),
    ]);
    expect(textOf(events)).toBe("Six times seven plus one is 43.");
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests[0]!.body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(["calculator"]);
    const third = fake.requests[2]!.body.messages as Array<{ role: string; content: string; tool_call_id?: string }>;
    expect(third.filter((message) => message.role === "tool").map((message) => [message.tool_call_id, message.content])).toEqual([
      ["call_a", "6 * 7 = 42"],
      ["call_b", "42 + 1 = 43"],
    ]);
  });

  it("stops offering tools after the maximum rounds and asks for a final answer", async () => {
    const app = await createAppVia(ctx, owner, { plugins: ["calculator"], multiRoundThinking: false });
    fake.replyToolCall({ id: "call_1", name: "calculator", arguments: { expression: "1 + 1" } }).reply("Two.");
    const events = await readEvents(await ask(owner, { appCode: app.code, message: "1+1?" }));
    expect(events.filter((event) => event.type === "tool-call")).toHaveLength(1);
    expect(textOf(events)).toBe("Two.");
    expect(fake.requests[1]!.body.tools).toBeUndefined();
  });

  it("shows the opening introduction with its guiding questions", async () => {
    const app = await createAppVia(ctx, owner, {
      openingIntroduction: "Welcome to **Acme**. [Where is my order?] [How do refunds work?] See `[not a question]`.",
    });
    const response = await ctx.request(`/api/v1/chat/apps/${app.code}`, { token: owner.token });
    const body = (await response.json()) as { data: { openingText: string; guidingQuestions: string[] } };
    expect(body.data.guidingQuestions).toEqual(["Where is my order?", "How do refunds work?"]);
    expect(body.data.openingText).toContain("Welcome to **Acme**.");
    expect(body.data.openingText).toContain("`[not a question]`");
  });
});

describe("the OpenAI-compatible API with the official openai client", () => {
  let client: OpenAI;
  let appCode: string;
  beforeAll(async () => {
    const listening = await ctx.listen();
    const created = await ctx.request("/api/v1/me/api-keys", { method: "POST", token: owner.token, json: { name: "openai client" } });
    const key = ((await created.json()) as { data: { key: string } }).data.key;
    client = new OpenAI({ apiKey: key, baseURL: `${listening}/v1`, maxRetries: 0 });
    appCode = (await createAppVia(ctx, owner, { settingsPrompt: "Be brief." })).code;
  });

  it("lists apps as models", async () => {
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toContain(appCode);
  });

  it("answers a non-streamed completion with usage", async () => {
    fake.reply({ text: "Paris.", usage: { promptTokens: 20, completionTokens: 2 } });
    const completion = await client.chat.completions.create({ model: appCode, messages: [{ role: "user", content: "Capital of France?" }] });
    expect(completion.choices[0]?.message.content).toBe("Paris.");
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    expect(completion.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 });
    expect(fake.requests[0]!.body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Capital of France?" },
    ]);
  });

  it("streams a completion chunk by chunk, with usage when asked", async () => {
    fake.reply({ text: "One two three four", chunks: 4, usage: { promptTokens: 9, completionTokens: 4 } });
    const stream = await client.chat.completions.create({
      model: appCode,
      messages: [{ role: "user", content: "Count" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const pieces: string[] = [];
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) pieces.push(choice.delta.content);
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(pieces.join("")).toBe("One two three four");
    expect(pieces.length).toBe(4);
    expect(finish).toBe("stop");
    expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 4 });
  });

  it("passes the caller's tools through and returns the model's tool calls", async () => {
    fake.replyToolCall({ id: "call_1", name: "get_weather", arguments: { city: "Hangzhou" } });
    const completion = await client.chat.completions.create({
      model: appCode,
      messages: [{ role: "user", content: "Weather in Hangzhou?" }],
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            description: "Weather by city",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
        },
      ],
    });
    expect(completion.choices[0]?.finish_reason).toBe("tool_calls");
    expect(completion.choices[0]?.message.tool_calls?.[0]).toMatchObject({ id: "call_1", type: "function", function: { name: "get_weather" } });
    expect(JSON.parse((completion.choices[0]!.message.tool_calls![0] as { function: { arguments: string } }).function.arguments)).toEqual({ city: "Hangzhou" });
    expect(fake.requests[0]!.body.tools[0].function.name).toBe("get_weather");
  });

  it("refuses a prompt that cannot fit the model's context window before calling it", async () => {
    const small = await createAppVia(ctx, owner, { defaultModel: "gpt-3.5-turbo", optionalModels: ["gpt-3.5-turbo"] });
    const long = "word ".repeat(16_000);
    await expect(client.chat.completions.create({ model: small.code, messages: [{ role: "user", content: long }] })).rejects.toMatchObject({
      status: 400,
      param: "messages",
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("counts a user key's spending and refuses it past its credit limit", async () => {
    const created = await ctx.request("/api/v1/user-keys", { method: "POST", token: owner.token, json: { name: "reseller", appCode, creditLimit: 1 } });
    const userKey = ((await created.json()) as { data: { id: string; key: string } }).data;
    const keyed = new OpenAI({ apiKey: userKey.key, baseURL: client.baseURL, maxRetries: 0 });
    // A key bound to one app cannot reach another.
    const other = await createAppVia(ctx, owner);
    await expect(keyed.chat.completions.create({ model: other.code, messages: [{ role: "user", content: "Hi" }] })).rejects.toMatchObject({ status: 404 });
    fake.reply({ text: "Counted.", usage: { promptTokens: 500, completionTokens: 500 } });
    const answer = await keyed.chat.completions.create({ model: appCode, messages: [{ role: "user", content: "Hi" }] });
    expect(answer.choices[0]?.message.content).toBe("Counted.");
    const row = await ctx.deps.db.select().from(userKeys).where(eq(userKeys.id, userKey.id)).get();
    // The hold could reserve only the 1 credit the limit leaves: the answer was capped to what 1
    // credit buys, and the model's report of more is charged only up to the limit, never past it.
    expect(creditsFor("gpt-4.1-mini", { promptTokens: 500, completionTokens: 500 })).toBeGreaterThan(1);
    expect(row?.creditsUsed).toBe(1);
    const cap = fake.requests.at(-1)!.body.max_tokens ?? fake.requests.at(-1)!.body.max_completion_tokens;
    expect(cap).toBeGreaterThan(0);
    expect(cap).toBeLessThan(1000 / 16);
    await expect(keyed.chat.completions.create({ model: appCode, messages: [{ role: "user", content: "Again" }] })).rejects.toMatchObject({
      status: 402,
      code: "insufficient_credits",
    });
  });

  it("answers errors in OpenAI's format", async () => {
    await expect(client.chat.completions.create({ model: "no-such-app", messages: [{ role: "user", content: "Hi" }] })).rejects.toMatchObject({
      status: 404,
      code: "model_not_found",
    });
    const bad = new OpenAI({ apiKey: "pk_wrong", baseURL: client.baseURL, maxRetries: 0 });
    await expect(bad.models.list()).rejects.toMatchObject({ status: 401 });
    const strangerApp = await createAppVia(ctx, stranger);
    await expect(client.chat.completions.create({ model: strangerApp.code, messages: [{ role: "user", content: "Hi" }] })).rejects.toMatchObject({
      status: 404,
    });
    const conversationsBefore = (await ctx.deps.db.select().from(conversations)).length;
    expect(conversationsBefore).toBeGreaterThan(0);
  });
});
