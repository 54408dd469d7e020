import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { appendLedger } from "../billing/service/ledger";
import { plugins } from "../db/schema/index";
import { upgradeSpaceForTest } from "../plans/testing";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { expectError, expectOk } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { createWorkflowVia, line, node, runVia } from "../workflows/testing";
import { startMcpTestServer } from "./mcp-testing";
import { debugResultSchema, mcpDiscoverResultSchema, pluginSchema } from "./schemas";
import { createPluginRuntime } from "./service/runtime";

// MCP servers as plugins through the API: a real MCP server (official SDK) on loopback, the fake OpenAI model calling its tool.
const secret = "Bearer mcp-token-0123456789";
let fake: LlmFake;
let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;
let server: Awaited<ReturnType<typeof startMcpTestServer>>;

beforeAll(async () => {
  fake = await startOpenAiFake();
  server = await startMcpTestServer({ transport: "streamable" });
  ctx = await createTestContext({
    OPENAI_API_KEY: "sk-test-parley",
    OPENAI_BASE_URL: fake.url,
    PARLEY_OPENAI_MODELS: "gpt-4.1-mini",
    PARLEY_PLUGINS_ALLOWED_HOSTS: `127.0.0.1:${server.port}`,
    PARLEY_PLUGINS_TIMEOUT_MS: "2000",
  });
  await ctx.deps.models.ready();
  owner = await registerUser(ctx, "mcp-owner@example.com");
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  await appendLedger(ctx.deps, { spaceId: owner.user.spaceId, delta: 1_000_000, reason: "adjustment", reference: "test" });
  stranger = await registerUser(ctx, "mcp-stranger@example.com");
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
  await server.close();
});
beforeEach(() => fake.reset());

const post = (user: TestUser, path: string, json: unknown) => ctx.request(path, { method: "POST", token: user.token, json });

const mcpPlugin = (tools: unknown[] = []) => ({
  kind: "mcp",
  name: "Weather MCP",
  description: "Weather tools over MCP",
  avatar: "https://cdn.example.com/mcp.png",
  requestUrl: server.url,
  headers: { Authorization: secret },
  mcp: { transport: "auto", tools },
});

async function createMcpPlugin() {
  const found = await expectOk(
    await post(owner, "/api/v1/plugins/mcp/discover", { url: server.url, headers: { Authorization: secret } }),
    200,
    mcpDiscoverResultSchema,
  );
  const tools = found.tools.map((tool) => ({ ...tool, enabled: tool.name === "get_weather" }));
  return expectOk(await post(owner, "/api/v1/plugins", mcpPlugin(tools)), 201, pluginSchema);
}

describe("MCP plugins through the API", () => {
  it("discovers tools (all off), saves the plugin with headers sealed and masked, and rediscovers with the stored switches", async () => {
    const found = await expectOk(
      await post(owner, "/api/v1/plugins/mcp/discover", { url: server.url, headers: { Authorization: secret } }),
      200,
      mcpDiscoverResultSchema,
    );
    expect(found.transport).toBe("streamable-http");
    expect(found.server).toEqual({ name: "weather-test", version: "1.2.3" });
    expect(found.tools.map((tool) => [tool.name, tool.enabled])).toEqual([
      ["get_weather", false],
      ["add.numbers", false],
    ]);
    const plugin = await createMcpPlugin();
    expect(plugin).toMatchObject({ kind: "mcp", requestUrl: server.url, headers: { Authorization: "****6789" }, mcp: { transport: "auto" } });
    expect(plugin.mcp?.tools.map((tool) => [tool.name, tool.enabled])).toEqual([
      ["get_weather", true],
      ["add.numbers", false],
    ]);
    const row = await ctx.deps.db.select().from(plugins).where(eq(plugins.id, plugin.id)).get();
    expect(row).toMatchObject({ kind: "mcp", mcpTransport: "auto" });
    expect(row?.headers).not.toContain("mcp-token");
    // With pluginId the stored (unmasked) header reaches the server and the switches are kept.
    server.log.authorizations.length = 0;
    const again = await expectOk(
      await post(owner, "/api/v1/plugins/mcp/discover", { pluginId: plugin.id, headers: { Authorization: "****6789" } }),
      200,
      mcpDiscoverResultSchema,
    );
    expect(again.tools.map((tool) => tool.enabled)).toEqual([true, false]);
    expect(server.log.authorizations).toContain(secret);
    // Another space cannot use it.
    await expectError(await post(stranger, "/api/v1/plugins/mcp/discover", { pluginId: plugin.id }), 404);
  });

  it("test-runs one tool with arguments", async () => {
    const plugin = await createMcpPlugin();
    const result = await expectOk(
      await post(owner, "/api/v1/plugins/mcp/debug", { pluginId: plugin.id, tool: "get_weather", arguments: { city: "Hangzhou" } }),
      200,
      debugResultSchema,
    );
    expect(result).toMatchObject({
      ok: true,
      error: null,
      response: { body: "Sunny, 23 °C in Hangzhou", truncated: false },
      request: { method: "tools/call", headers: { Authorization: "****6789" } },
    });
    const unknown = await expectOk(
      await post(owner, "/api/v1/plugins/mcp/debug", { pluginId: plugin.id, tool: "no_such_tool", arguments: {} }),
      200,
      debugResultSchema,
    );
    expect(unknown).toMatchObject({ ok: false, error: expect.stringMatching(/no longer offers the tool no_such_tool/) });
  });

  it("refuses bad input without storing anything", async () => {
    await expectError(await post(owner, "/api/v1/plugins", { ...mcpPlugin(), requestUrl: "ftp://example.com" }), 400, { field: "requestUrl" });
    await expectError(await post(owner, "/api/v1/plugins", { ...mcpPlugin(), headers: { "Mcp-Session-Id": "x" } }), 400, { field: "headers.Mcp-Session-Id" });
    await expectError(
      await post(owner, "/api/v1/plugins", mcpPlugin([{ name: "lies", description: "", inputSchema: { type: "string" }, enabled: true }])),
      400,
      { field: "mcp.tools.0", message: /no object input schema/ },
    );
    // An HTTP plugin still needs its method and parameters.
    await expectError(await post(owner, "/api/v1/plugins", { ...mcpPlugin(), kind: "http" }), 400, { field: "requestMethod" });
    // Discovery of a server the address rules refuse is a clear error.
    await expectError(await post(owner, "/api/v1/plugins/mcp/discover", { url: "http://127.0.0.1:1/mcp" }), 502, { message: /loopback/ });
  });

  it("an app calls an enabled MCP tool in a chat turn; switched-off tools are not offered", async () => {
    const plugin = await createMcpPlugin();
    const app = await createAppVia(ctx, owner, { plugins: [plugin.code] });
    const functionName = `${plugin.code}__get_weather`;
    fake.replyToolCall({ id: "call_w", name: functionName, arguments: { city: "Hangzhou" } }).reply("It is sunny in Hangzhou.");
    const response = await ctx.request("/api/v1/chat/stream", {
      method: "POST",
      token: owner.token,
      json: { appCode: app.code, message: "Weather in Hangzhou?" },
    });
    const text = await response.text();
    expect(text).toContain('"type":"tool-result"');
    expect(text).toContain("Sunny, 23 °C in Hangzhou");
    expect(fake.requests[0]!.body.tools).toEqual([
      {
        type: "function",
        function: expect.objectContaining({
          name: functionName,
          description: "Weather: Current weather for a city",
          parameters: expect.objectContaining({ type: "object", properties: { city: expect.objectContaining({ type: "string" }) } }),
        }),
      },
    ]);
    const toolMessage = (fake.requests[1]!.body.messages as Array<{ role: string; content: string }>).find((message) => message.role === "tool");
    expect(toolMessage?.content).toBe("Sunny, 23 °C in Hangzhou");
    expect(server.log.calls.at(-1)).toEqual({ tool: "get_weather", arguments: { city: "Hangzhou" } });
  });

  it("the runtime answers the model clearly when a tool was switched off after the offer", async () => {
    const plugin = await createMcpPlugin();
    const runtime = createPluginRuntime(ctx.deps);
    const [tool] = await runtime.toolsFor({ spaceId: owner.user.spaceId, pluginCodes: [plugin.code] });
    expect(tool?.mcpTool).toBe("get_weather");
    await expectOk(
      await ctx.request(`/api/v1/plugins/${plugin.id}`, {
        method: "PATCH",
        token: owner.token,
        json: { mcp: { transport: "auto", tools: plugin.mcp!.tools.map((entry) => ({ ...entry, enabled: false })) } },
      }),
      200,
      pluginSchema,
    );
    expect(await runtime.toolsFor({ spaceId: owner.user.spaceId, pluginCodes: [plugin.code] })).toEqual([]);
    const result = await runtime.execute({ spaceId: owner.user.spaceId, tool: tool!, arguments: '{"city":"x"}' });
    expect(result).toMatchObject({ ok: false, content: expect.stringMatching(/get_weather of Weather MCP is no longer available/) });
  });

  it("a workflow plugin node calls an MCP tool by its server name", async () => {
    const plugin = await createMcpPlugin();
    const workflow = await createWorkflowVia(ctx, owner, {
      elements: [
        node("start", "start", { inputs: { text: true } }),
        node("p", "plugin", { pluginCode: plugin.code, toolName: "get_weather", arguments: { city: "{{sys.query}}" } }),
        node("end", "end", { output: "{{p.output}}" }),
      ],
      lines: [line("start", "p"), line("p", "end")],
    });
    const run = await runVia(ctx, owner, workflow.id, { query: "Suzhou" });
    expect(run.status, run.error ?? "").toBe("success");
    expect(run.output).toBe("Sunny, 23 °C in Suzhou");
  });
});
