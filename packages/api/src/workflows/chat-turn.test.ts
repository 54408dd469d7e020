import { appendLedger, balanceOf } from "../billing/service/ledger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { expectOk } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { workflowAppSchema } from "./schemas";
import { createWorkflowVia, line, node, runVia } from "./testing";

let ctx: TestContext;
let fake: LlmFake;
let alice: TestUser;

beforeAll(async () => {
  fake = await startOpenAiFake();
  ctx = await createTestContext({ OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini" });
  alice = await registerUser(ctx, "alice-wfchat@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  await appendLedger(ctx.deps, { spaceId: alice.user.spaceId, delta: 1_000_000, reason: "adjustment", reference: "test" });
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

/** start → llm (the fake model) → end. */
function llmGraph() {
  return {
    elements: [
      node("start", "start", { inputs: { text: true } }),
      node("llm", "llm", { model: "gpt-4.1-mini", systemPrompt: "Be brief.", input: "Answer: {{sys.query}}", structuredOutput: [] }),
      node("end", "end", { output: "{{llm.output}}" }),
    ],
    lines: [line("start", "llm"), line("llm", "end")],
  };
}

function sseEvents(text: string): Array<{ type: string; [key: string]: unknown }> {
  return text
    .split("\n")
    .filter((row) => row.startsWith("data:"))
    .map((row) => JSON.parse(row.slice(5).trim()) as { type: string });
}

describe("llm node and WORKFLOW apps", () => {
  it("runs an llm node through the model catalogue, and reads structured output", async () => {
    const workflow = await createWorkflowVia(ctx, alice, llmGraph());
    const before = (await balanceOf(ctx.deps, alice.user.spaceId)) - 1_000_000;
    fake.reply("Forty-two.");
    const run = await runVia(ctx, alice, workflow.id, { query: "the answer?" });
    expect(run.status, run.error ?? "").toBe("success");
    expect(run.output).toBe("Forty-two.");
    // The model's tokens are charged to the space, as a chat answer's are.
    expect(await balanceOf(ctx.deps, alice.user.spaceId)).toBeLessThan(1_000_000 + before);
    const sent = fake.requests.at(-1)!;
    expect(JSON.stringify(sent.body)).toContain("Answer: the answer?");
    expect(JSON.stringify(sent.body)).toContain("Be brief.");

    const structured = llmGraph();
    structured.elements[1] = node("llm", "llm", {
      model: "gpt-4.1-mini",
      input: "{{sys.query}}",
      structuredOutput: [
        { name: "mood", type: "string" },
        { name: "score", type: "number" },
      ],
    });
    structured.elements[2] = node("end", "end", { output: "{{llm.mood}}/{{llm.score}}" });
    const second = await createWorkflowVia(ctx, alice, structured);
    fake.reply('```json\n{"mood": "happy", "score": 9}\n```');
    expect((await runVia(ctx, alice, second.id, { query: "great day" })).output).toBe("happy/9");
  });

  it("intent branch asks the model when one is configured", async () => {
    const workflow = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start"),
        node("intent", "intent_branch", {
          model: "gpt-4.1-mini",
          input: "{{sys.query}}",
          intentions: [
            { id: "a", name: "greeting", node_id: null },
            { id: "b", name: "complaint", node_id: null },
          ],
        }),
        node("ra", "fixed_reply", { content: "hi!" }),
        node("rb", "fixed_reply", { content: "sorry!" }),
        node("end", "end", { output: "{{ra.output}}{{rb.output}}" }),
      ],
      lines: [line("start", "intent"), line("intent", "ra", "a"), line("intent", "rb", "b"), line("ra", "end"), line("rb", "end")],
    });
    fake.reply("2");
    const run = await runVia(ctx, alice, workflow.id, { query: "hello there" });
    expect(run.output).toBe("sorry!");
    expect(run.nodes.find((entry) => entry.nodeId === "intent")!.outputs).toMatchObject({ by: "model", intentionId: "b" });
  });

  it("a WORKFLOW app answers in the chat and through the OpenAI-compatible API with the end node's output", async () => {
    const workflow = await createWorkflowVia(ctx, alice, llmGraph());
    const app = await expectOk(await ctx.request(`/api/v1/workflows/${workflow.id}/app`, { method: "POST", token: alice.token }), 200, workflowAppSchema);
    const again = await expectOk(await ctx.request(`/api/v1/workflows/${workflow.id}/app`, { method: "POST", token: alice.token }), 200, workflowAppSchema);
    expect(again.appCode).toBe(app.appCode);

    fake.reply("From the workflow.");
    const chat = await ctx.request("/api/v1/chat/stream", { method: "POST", token: alice.token, json: { appCode: app.appCode, message: "hi" } });
    expect(chat.status).toBe(200);
    const events = sseEvents(await chat.text());
    expect(events.map((event) => event.type)).toEqual(["message-start", "text-delta", "message-end"]);
    expect(events[1]).toMatchObject({ text: "From the workflow." });
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain("Answer: hi");

    const created = await ctx.request("/api/v1/me/api-keys", { method: "POST", token: alice.token, json: { name: "workflow" } });
    const key = ((await created.json()) as { data: { key: string } }).data.key;
    fake.reply("OpenAI says hi.");
    const completion = await ctx.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      json: { model: app.appCode, messages: [{ role: "user", content: "hello?" }] },
    });
    expect(completion.status).toBe(200);
    const body = (await completion.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]!.message.content).toBe("OpenAI says hi.");
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain("Answer: hello?");

    fake.reply("streamed");
    const streamed = await ctx.request("/v1/chat/completions", {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      json: { model: app.appCode, stream: true, messages: [{ role: "user", content: "stream?" }] },
    });
    const text = await streamed.text();
    expect(text).toContain('"content":"streamed"');
    expect(text.trim().endsWith("data: [DONE]")).toBe(true);
  });

  it("a failing workflow answers the chat with an error event naming the reason", async () => {
    const workflow = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start"),
        node("db", "database", { databaseId: "db_x", input: "{{sys.query}}" }),
        node("end", "end", { output: "{{db.output}}" }),
      ],
      lines: [line("start", "db"), line("db", "end")],
    });
    const app = await expectOk(await ctx.request(`/api/v1/workflows/${workflow.id}/app`, { method: "POST", token: alice.token }), 200, workflowAppSchema);
    const chat = await ctx.request("/api/v1/chat/stream", { method: "POST", token: alice.token, json: { appCode: app.appCode, message: "rows?" } });
    const events = sseEvents(await chat.text());
    expect(events.at(-1)).toMatchObject({ type: "error" });
    expect(String(events.at(-1)!.message)).toMatch(/The database db_x does not exist in this space/);
  });

  it("a manual node hands the chat's conversation to a person", async () => {
    const { conversations } = await import("../db/schema/index");
    const { eq } = await import("drizzle-orm");
    const workflow = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start"),
        node("human", "manual", { content: "Customer asks: {{sys.query}}" }),
        node("end", "end", { output: "A colleague will answer." }),
      ],
      lines: [line("start", "human"), line("human", "end")],
    });
    const app = await expectOk(await ctx.request(`/api/v1/workflows/${workflow.id}/app`, { method: "POST", token: alice.token }), 200, workflowAppSchema);
    const chat = await ctx.request("/api/v1/chat/stream", { method: "POST", token: alice.token, json: { appCode: app.appCode, message: "I want a person" } });
    const events = sseEvents(await chat.text());
    expect(events[1]).toMatchObject({ type: "text-delta", text: "A colleague will answer." });
    const conversationId = String(events[0]!.conversationId);
    const row = await ctx.deps.db.select().from(conversations).where(eq(conversations.id, conversationId)).get();
    expect(row!.handoverRequestedAt).not.toBeNull();
  });

  it("publishes node states and the run's end to the space's consoles", async () => {
    const seen: Array<{ event: string; data: Record<string, unknown> }> = [];
    const unsubscribe = ctx.deps.realtime.subscribe((target, event, data) => {
      if (target.kind === "space" && target.spaceId === alice.user.spaceId && event.startsWith("workflow."))
        seen.push({ event, data: data as Record<string, unknown> });
    });
    const workflow = await createWorkflowVia(ctx, alice, {
      elements: [node("start", "start"), node("reply", "fixed_reply", { content: "ok" }), node("end", "end", { output: "{{reply.output}}" })],
      lines: [line("start", "reply"), line("reply", "end")],
    });
    const run = await runVia(ctx, alice, workflow.id, { query: "x" });
    unsubscribe();
    const mine = seen.filter((entry) => entry.data.runId === run.id);
    expect(mine.map((entry) => `${entry.event}:${String(entry.data.nodeId ?? "")}:${String(entry.data.status)}`)).toEqual([
      "workflow.node:start:running",
      "workflow.node:start:success",
      "workflow.node:reply:running",
      "workflow.node:reply:success",
      "workflow.node:end:running",
      "workflow.node:end:success",
      "workflow.run::success",
    ]);
  });

  it("a chat whose workflow waits on a timer is told so, then gets the answer in its conversation when the run ends", async () => {
    const { messages } = await import("../db/schema/index");
    const { eq } = await import("drizzle-orm");
    const { createWorkflowRunner } = await import("./engine/runner");
    const workflow = await createWorkflowVia(ctx, alice, {
      elements: [
        node("start", "start"),
        node("wait", "timer", { delaySeconds: 1 }),
        node("reply", "fixed_reply", { content: "Later: {{sys.query}}" }),
        node("end", "end", { output: "{{reply.output}}" }),
      ],
      lines: [line("start", "wait"), line("wait", "reply"), line("reply", "end")],
    });
    const app = await expectOk(await ctx.request(`/api/v1/workflows/${workflow.id}/app`, { method: "POST", token: alice.token }), 200, workflowAppSchema);
    const chat = await ctx.request("/api/v1/chat/stream", { method: "POST", token: alice.token, json: { appCode: app.appCode, message: "remind me" } });
    const events = sseEvents(await chat.text());
    expect(events[1]).toMatchObject({ type: "text-delta", text: "The workflow is waiting (timer) and will continue later." });
    const conversationId = String(events[0]!.conversationId);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await createWorkflowRunner(ctx.deps).drain();
    const stored = await ctx.deps.db.select().from(messages).where(eq(messages.conversationId, conversationId));
    expect(stored.map((message) => message.content)).toEqual(["remind me", "The workflow is waiting (timer) and will continue later.", "Later: remind me"]);
  });

  it("cron generate asks the configured model, and falls back to the phrase rules when its answer is unusable", async () => {
    const { cronGenerateSchema } = await import("./schemas");
    fake.reply("`0 9 * * 1`");
    const byModel = await expectOk(
      await ctx.request("/api/v1/workflow-cron/generate", { method: "POST", token: alice.token, json: { description: "Mondays at nine" } }),
      200,
      cronGenerateSchema,
    );
    expect(byModel).toMatchObject({ cron: "0 9 * * 1", source: "model" });
    expect(JSON.stringify(fake.requests.at(-1)!.body)).toContain("Mondays at nine");
    fake.reply("I think you mean every day");
    const byRules = await expectOk(
      await ctx.request("/api/v1/workflow-cron/generate", { method: "POST", token: alice.token, json: { description: "every day at 7" } }),
      200,
      cronGenerateSchema,
    );
    expect(byRules).toMatchObject({ cron: "0 7 * * *", source: "rules" });
  });
});
