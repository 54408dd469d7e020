import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { startBadMcpServer, startMcpTestServer } from "./mcp-testing";
import { callMcpTool, discoverMcpTools, McpCallError } from "./service/mcp-client";

const base = loadConfig({
  PARLEY_DATA_DIR: "/tmp",
  PARLEY_PLUGINS_ALLOWED_HOSTS: "127.0.0.1",
  PARLEY_PLUGINS_TIMEOUT_MS: "800",
  PARLEY_PLUGINS_MAX_RESPONSE_BYTES: "65536",
}).plugins;
const options = { config: base };

async function failure(promise: Promise<unknown>): Promise<McpCallError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(McpCallError);
  return error as McpCallError;
}

describe("MCP client against servers made with the official SDK", () => {
  let streamable: Awaited<ReturnType<typeof startMcpTestServer>>;
  let sse: Awaited<ReturnType<typeof startMcpTestServer>>;
  beforeAll(async () => {
    streamable = await startMcpTestServer({ transport: "streamable" });
    sse = await startMcpTestServer({ transport: "sse" });
  });
  afterAll(async () => {
    await streamable.close();
    await sse.close();
  });

  it("discovers tools over Streamable HTTP and calls one with the configured headers", async () => {
    const target = { url: streamable.url, headers: { Authorization: "Bearer mcp-secret-1234567" }, transport: "auto" as const };
    const found = await discoverMcpTools(target, options);
    expect(found.transport).toBe("streamable-http");
    expect(found.server).toEqual({ name: "weather-test", version: "1.2.3" });
    expect(found.tools.map((tool) => tool.name)).toEqual(["get_weather", "add.numbers"]);
    expect(found.tools[0]).toMatchObject({
      title: "Weather",
      description: "Current weather for a city",
      inputSchema: { type: "object", properties: { city: { type: "string" } } },
    });
    expect(found.warnings).toEqual([]);
    const outcome = await callMcpTool(target, "get_weather", { city: "Hangzhou" }, options);
    expect(outcome).toEqual({ ok: true, text: "Sunny, 23 °C in Hangzhou", truncated: false, transport: "streamable-http" });
    expect(streamable.log.authorizations).toContain("Bearer mcp-secret-1234567");
  });

  it("falls back to SSE when the server only speaks the older transport; `sse` goes there directly", async () => {
    const auto = await discoverMcpTools({ url: sse.url, headers: {}, transport: "auto" }, options);
    expect(auto.transport).toBe("sse");
    expect(auto.tools).toHaveLength(2);
    const outcome = await callMcpTool({ url: sse.url, headers: {}, transport: "sse" }, "add.numbers", { a: 2, b: 40 }, options);
    expect(outcome.text).toBe("42");
    const strict = await failure(discoverMcpTools({ url: sse.url, headers: {}, transport: "streamable-http" }, options));
    expect(strict.message).toMatch(/HTTP 404|404/);
  });

  it("refuses loopback unless the administrator allows it", async () => {
    const closed = { ...base, allowedHosts: [], allowPrivateNetwork: true };
    const refused = await failure(discoverMcpTools({ url: streamable.url, headers: {}, transport: "auto" }, { config: closed }));
    expect(refused.reason).toBe("refused");
    expect(refused.message).toMatch(/loopback/);
    const metadata = await failure(
      discoverMcpTools({ url: "http://169.254.169.254/mcp", headers: {}, transport: "auto" }, { config: { ...closed, allowPrivateNetwork: true } }),
    );
    expect(metadata.message).toMatch(/metadata/);
  });

  it("names a tool the server no longer has", async () => {
    const shrunk = await startMcpTestServer({ transport: "streamable", dropWeather: true });
    try {
      const error = await failure(callMcpTool({ url: shrunk.url, headers: {}, transport: "auto" }, "get_weather", { city: "x" }, options));
      expect(error.reason).toBe("unknown-tool");
      expect(error.message).toMatch(/no longer offers the tool get_weather/);
    } finally {
      await shrunk.close();
    }
  });
});

describe("MCP client against misbehaving servers", () => {
  it("refuses listed tools with broken schemas, keeping the good ones, with a warning each", async () => {
    const server = await startBadMcpServer("lying-tools");
    try {
      const found = await discoverMcpTools({ url: server.url, headers: {}, transport: "streamable-http" }, options);
      expect(found.tools.map((tool) => tool.name)).toEqual(["good_tool"]);
      expect(found.warnings).toEqual([
        "Refused a tool: the tool no_schema has no object input schema.",
        "Refused a tool: the tool array_schema has no object input schema.",
        'Refused a tool: the tool name "bad name with spaces" is not valid.',
        "Refused a tool: the name good_tool is listed twice.",
      ]);
    } finally {
      await server.close();
    }
  });

  it.each([
    ["huge", "too-large", /larger than 65536 bytes/],
    ["hang", "timeout", /did not answer within 800 ms/],
    ["malformed", "malformed", /malformed JSON-RPC/],
  ] as const)("a %s answer to a call is a clear error", async (behaviour, reason, message) => {
    const server = await startBadMcpServer(behaviour);
    try {
      const started = performance.now();
      const error = await failure(callMcpTool({ url: server.url, headers: {}, transport: "streamable-http" }, "trouble", {}, options));
      expect({ reason: error.reason, message: error.message }).toEqual({ reason, message: expect.stringMatching(message) });
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      await server.close();
    }
  });
});
