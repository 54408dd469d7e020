import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { apps, usageRecords, userKeys } from "../db/schema/index";
import { createdApiKeySchema, createdUserKeySchema } from "../identity/schemas";
import { knowledgeFileSchema } from "../knowledge/schemas";
import { createKnowledgeBaseVia, uploadOk } from "../knowledge/testing";
import { createKnowledgeWorker } from "../knowledge/worker";
import { upgradeSpaceForTest } from "../plans/testing";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { expectOk } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { createWorkflowVia, node, line } from "../workflows/testing";

// Apps and published workflows as MCP servers (decision 0034), driven by the official SDK's
// client over Streamable HTTP against a listening Parley; the model is a local OpenAI-protocol fake.
let fake: LlmFake;
let ctx: TestContext;
let base: string;
let owner: TestUser;
let stranger: TestUser;
let ownerKey: string;
let strangerKey: string;
let knowledgeApp: { code: string; description: string };
let lightApp: { code: string };

const guide = [
  "# Returns",
  "Returns are accepted within thirty days of delivery when the item is unused.",
  "# Shipping",
  "Standard shipping takes three to five working days; express shipping arrives the next day.",
].join("\n\n");

const apiKey = async (user: TestUser) =>
  (await expectOk(await ctx.request("/api/v1/me/api-keys", { method: "POST", token: user.token, json: { name: "mcp" } }), 201, createdApiKeySchema)).key;
const userKey = async (appCode: string) =>
  (
    await expectOk(
      await ctx.request("/api/v1/user-keys", { method: "POST", token: owner.token, json: { name: `key ${appCode}`, appCode } }),
      201,
      createdUserKeySchema,
    )
  ).key;

beforeAll(async () => {
  fake = await startOpenAiFake();
  ctx = await createTestContext({ OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini" });
  await ctx.deps.models.ready();
  base = await ctx.listen();
  owner = await registerUser(ctx, "mcp-owner@example.com");
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  stranger = await registerUser(ctx, "mcp-stranger@example.com");
  [ownerKey, strangerKey] = await Promise.all([apiKey(owner), apiKey(stranger)]);
  const knowledgeBase = await createKnowledgeBaseVia(ctx, owner, { chunkTokens: 50, chunkOverlap: 0 });
  const file = await uploadOk(ctx, owner, knowledgeBase.id, "store-guide.md", guide);
  await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token }), 200, knowledgeFileSchema);
  await createKnowledgeWorker(ctx.deps).drain();
  knowledgeApp = await createAppVia(ctx, owner, {
    type: "KNOWLEDGE",
    description: "Answers questions about the store's shipping and returns",
    knowledgeBaseIds: [knowledgeBase.id],
    retrievalMode: "hybrid",
    similarityThreshold: 0.8,
    citationEnabled: true,
    citationThreshold: 0.8,
  });
  lightApp = await createAppVia(ctx, owner, { name: "Small talk" });
});
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

/** An SDK client connected to a Parley MCP endpoint with a bearer (and optional extra headers). */
async function connect(path: string, bearer: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: "parley-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}${path}`), {
    requestInit: { headers: { authorization: `Bearer ${bearer}`, ...headers } },
  });
  await client.connect(transport);
  return { client, transport };
}

const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

describe("an app as an MCP server", () => {
  it("lists its tools, answers `ask` with citations, keeps the conversation for follow-ups and charges the space", async () => {
    const { client } = await connect(`/mcp/apps/${knowledgeApp.code}`, ownerKey);
    expect(client.getInstructions()).toBe(knowledgeApp.description);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["ask", "search_knowledge"]);

    fake.reset();
    fake.reply("Express shipping arrives the next day [1].");
    const first = (await client.callTool({ name: "ask", arguments: { question: "How long does express shipping take?" } })) as CallToolResult;
    expect(first.isError ?? false).toBe(false);
    const answered = first.structuredContent as {
      answer: string;
      conversationId: string;
      citations: Array<{ index: number; source: string; content: string }>;
    };
    expect(answered.answer).toBe("Express shipping arrives the next day [1].");
    expect(answered.citations[0]).toMatchObject({ index: 1, source: "store-guide" });
    expect(answered.citations[0]!.content).toContain("express shipping arrives the next day");
    expect(textOf(first)).toContain("[1] store-guide");

    fake.reply("Three to five working days.");
    const second = (await client.callTool({ name: "ask", arguments: { question: "And standard shipping?" } })) as CallToolResult;
    expect((second.structuredContent as { conversationId: string }).conversationId).toBe(answered.conversationId);
    const sent = JSON.stringify(fake.requests[1]!.body.messages);
    expect(sent).toContain("How long does express shipping take?");
    expect(sent).toContain("Express shipping arrives the next day [1].");

    const records = await ctx.deps.db.select().from(usageRecords).where(eq(usageRecords.conversationId, answered.conversationId)).all();
    expect(records).toHaveLength(2);
    expect(records.every((record) => record.channel === "mcp" && record.credits > 0)).toBe(true);
    await client.close();
  });

  it("searches the knowledge bases with document names and citation numbers; an app without knowledge offers only `ask`", async () => {
    const { client } = await connect(`/mcp/apps/${knowledgeApp.code}`, ownerKey);
    const found = (await client.callTool({ name: "search_knowledge", arguments: { query: "express shipping", limit: 2 } })) as CallToolResult;
    const { passages } = found.structuredContent as { passages: Array<{ citation: number; documentName: string; content: string }> };
    expect(passages.length).toBeGreaterThan(0);
    expect(passages.length).toBeLessThanOrEqual(2);
    expect(passages[0]).toMatchObject({ citation: 1, documentName: "store-guide" });
    expect(passages[0]!.content).toContain("express shipping");
    const refused = (await client.callTool({ name: "search_knowledge", arguments: { query: "" } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    await client.close();

    const light = await connect(`/mcp/apps/${lightApp.code}`, ownerKey);
    expect((await light.client.listTools()).tools.map((tool) => tool.name)).toEqual(["ask"]);
    await light.client.close();
  });

  it("refuses a wrong key, another space's app and a user key bound to another app; a bound user key works", async () => {
    await expect(connect(`/mcp/apps/${knowledgeApp.code}`, "not-a-key")).rejects.toThrow();
    await expect(connect(`/mcp/apps/${knowledgeApp.code}`, strangerKey)).rejects.toThrow(/does not exist or your key may not reach it/);
    await expect(connect(`/mcp/apps/no-such-app`, ownerKey)).rejects.toThrow(/does not exist/);
    // Another space's app stays out of reach when it is public: its space would pay for the answers.
    const publicApp = await createAppVia(ctx, stranger, { name: "Public helper" });
    await ctx.deps.db.update(apps).set({ isPublic: true }).where(eq(apps.code, publicApp.code));
    await expect(connect(`/mcp/apps/${publicApp.code}`, ownerKey)).rejects.toThrow(/does not exist or your key may not reach it/);
    // A user key whose credit limit is spent is refused before anything runs.
    const spent = await expectOk(
      await ctx.request("/api/v1/user-keys", { method: "POST", token: owner.token, json: { name: "spent", appCode: knowledgeApp.code, creditLimit: 0 } }),
      201,
      createdUserKeySchema,
    );
    await expect(connect(`/mcp/apps/${knowledgeApp.code}`, spent.key)).rejects.toThrow(/credits/i);
    // A user key's spending counts against its limit; once spent, the session's next request is refused.
    const small = await expectOk(
      await ctx.request("/api/v1/user-keys", { method: "POST", token: owner.token, json: { name: "small", appCode: knowledgeApp.code, creditLimit: 1 } }),
      201,
      createdUserKeySchema,
    );
    const limited = await connect(`/mcp/apps/${knowledgeApp.code}`, small.key);
    fake.reply("Next day.");
    const answered = (await limited.client.callTool({ name: "ask", arguments: { question: "How long does express shipping take?" } })) as CallToolResult;
    expect(answered.isError ?? false).toBe(false);
    expect((await ctx.deps.db.select().from(userKeys).where(eq(userKeys.id, small.id)).get())?.creditsUsed).toBe(1);
    await expect(limited.client.callTool({ name: "ask", arguments: { question: "And standard?" } })).rejects.toThrow(/credits/i);
    await limited.client.close();
    const [bound, other] = await Promise.all([userKey(knowledgeApp.code), userKey(lightApp.code)]);
    await expect(connect(`/mcp/apps/${knowledgeApp.code}`, other)).rejects.toThrow(/does not exist or your key may not reach it/);
    const { client } = await connect(`/mcp/apps/${knowledgeApp.code}`, bound);
    expect((await client.listTools()).tools.length).toBe(2);
    await client.close();
  });

  it("answers a session's request with another key 403, an unknown session 404, and bad bodies without a 500", async () => {
    const { client, transport } = await connect(`/mcp/apps/${knowledgeApp.code}`, ownerKey);
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`${base}/mcp/apps/${knowledgeApp.code}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body,
      });
    const list = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/list" });
    const withSession = { "mcp-session-id": transport.sessionId!, "mcp-protocol-version": "2025-06-18" };
    const otherKey = await post({ ...withSession, authorization: `Bearer ${owner.token}` }, list);
    expect(otherKey.status).toBe(403);
    expect(((await otherKey.json()) as { error: { message: string } }).error.message).toMatch(/same key/);
    const unknown = await post({ ...withSession, "mcp-session-id": "no-such-session", authorization: `Bearer ${ownerKey}` }, list);
    expect(unknown.status).toBe(404);
    for (const body of ["{not json", JSON.stringify({ hello: "world" }), list]) {
      const response = await post({ authorization: `Bearer ${ownerKey}` }, body);
      expect(response.status, body).toBeGreaterThanOrEqual(400);
      expect(response.status, body).toBeLessThan(500);
    }
    const stray = await fetch(`${base}/mcp/apps/${knowledgeApp.code}`, { headers: { authorization: `Bearer ${ownerKey}`, accept: "text/event-stream" } });
    expect(stray.status).toBe(400);
    expect(((await stray.json()) as { error: { message: string } }).error.message).toMatch(/Mcp-Session-Id/);
    await client.close();
  });
});

describe("a published workflow as an MCP server", () => {
  it("runs with the start node's inputs and answers its output; unpublished workflows and user keys are refused", async () => {
    const graph = {
      elements: [
        node("start", "start", { inputs: { text: true }, variables: [{ identifier: "city", displayName: "City", type: "text", required: true }] }),
        node("reply", "fixed_reply", { content: "Hello {{sys.query}} from {{start.city}}" }),
        node("end", "end", { output: "{{reply.output}}" }),
      ],
      lines: [line("start", "reply"), line("reply", "end")],
    };
    const workflow = await createWorkflowVia(ctx, owner, graph);
    await expect(connect(`/mcp/workflows/${workflow.id}`, ownerKey)).rejects.toThrow(/not published/);
    const published = await ctx.request(`/api/v1/workflows/${workflow.id}/publish`, { method: "POST", token: owner.token });
    expect(published.status, await published.text()).toBe(200);

    const { client } = await connect(`/mcp/workflows/${workflow.id}`, ownerKey);
    const [tool] = (await client.listTools()).tools;
    expect(tool?.name).toBe("run");
    expect(tool?.inputSchema.required).toEqual(["city"]);
    const result = (await client.callTool({ name: "run", arguments: { query: "Ada", city: "Paris" } })) as CallToolResult;
    expect(textOf(result)).toBe("Hello Ada from Paris");
    const missing = (await client.callTool({ name: "run", arguments: { query: "Ada" } })) as CallToolResult;
    expect(missing.isError).toBe(true);
    await client.close();

    await expect(connect(`/mcp/workflows/${workflow.id}`, strangerKey)).rejects.toThrow(/not published|does not exist/);
    await expect(connect(`/mcp/workflows/${workflow.id}`, await userKey(knowledgeApp.code))).rejects.toThrow(/personal API key/);
  });
});
