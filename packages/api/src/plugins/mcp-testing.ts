import http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "@hono/zod-openapi";
import { type FakeServer, sendJson, startFakeServer } from "./testing";

/** What the test MCP server saw: tool calls with their arguments and headers. */
export interface McpServerLog {
  calls: Array<{ tool: string; arguments: Record<string, unknown> }>;
  authorizations: string[];
}

// The tools of the test server, built with the official SDK as a real MCP server would be.
function buildServer(log: McpServerLog, extra: { dropWeather?: boolean } = {}): McpServer {
  const server = new McpServer({ name: "weather-test", version: "1.2.3" });
  if (!extra.dropWeather) {
    server.registerTool(
      "get_weather",
      { title: "Weather", description: "Current weather for a city", inputSchema: { city: z.string().describe("City name") } },
      async ({ city }) => {
        log.calls.push({ tool: "get_weather", arguments: { city } });
        return { content: [{ type: "text", text: `Sunny, 23 °C in ${city}` }] };
      },
    );
  }
  server.registerTool("add.numbers", { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => {
    log.calls.push({ tool: "add.numbers", arguments: { a, b } });
    return { content: [{ type: "text", text: String(a + b) }] };
  });
  return server;
}

/** Options of the test MCP server. */
export interface McpTestServerOptions {
  /** `streamable`: Streamable HTTP at /mcp (stateless); `sse`: only the older SSE transport at /sse. */
  transport: "streamable" | "sse";
  /** Leaves `get_weather` out of the list and the calls (a server that dropped a tool). */
  dropWeather?: boolean;
}

/** Starts an MCP server on 127.0.0.1 made with the official SDK; `url` is the endpoint to configure. */
export async function startMcpTestServer(options: McpTestServerOptions): Promise<{ url: string; port: number; log: McpServerLog; close(): Promise<void> }> {
  const log: McpServerLog = { calls: [], authorizations: [] };
  const sseSessions = new Map<string, SSEServerTransport>();
  const server = http.createServer((incoming, response) => {
    log.authorizations.push(String(incoming.headers.authorization ?? ""));
    const path = new URL(incoming.url ?? "/", "http://localhost").pathname;
    const fail = () => {
      if (!response.headersSent) response.writeHead(500).end();
    };
    if (options.transport === "streamable" && path === "/mcp") {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const mcp = buildServer(log, options);
      response.on("close", () => {
        void transport.close();
        void mcp.close();
      });
      mcp
        .connect(transport)
        .then(() => transport.handleRequest(incoming, response))
        .catch(fail);
      return;
    }
    if (options.transport === "sse" && path === "/sse" && incoming.method === "GET") {
      const transport = new SSEServerTransport("/messages", response);
      sseSessions.set(transport.sessionId, transport);
      response.on("close", () => sseSessions.delete(transport.sessionId));
      buildServer(log, options).connect(transport).catch(fail);
      return;
    }
    if (options.transport === "sse" && path === "/messages" && incoming.method === "POST") {
      const session = sseSessions.get(new URL(incoming.url ?? "/", "http://localhost").searchParams.get("sessionId") ?? "");
      if (!session) response.writeHead(404).end();
      else session.handlePostMessage(incoming, response).catch(fail);
      return;
    }
    response.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}${options.transport === "sse" ? "/sse" : "/mcp"}`,
    port,
    log,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** How a misbehaving MCP server answers `tools/list` and `tools/call`. */
export type BadMcpBehaviour = "lying-tools" | "huge" | "hang" | "malformed";

/**
 * A hand-written Streamable HTTP server that answers `initialize` properly and then misbehaves:
 * lists tools with broken schemas, sends 50 MB, never answers, or answers with text that is not JSON-RPC.
 */
export function startBadMcpServer(behaviour: BadMcpBehaviour): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    let message: { id?: number; method?: string; params?: { name?: string } };
    try {
      message = JSON.parse(request.body) as typeof message;
    } catch {
      response.writeHead(400).end();
      return;
    }
    const answer = (result: unknown) => sendJson(response, 200, { jsonrpc: "2.0", id: message.id, result });
    if (message.method === "initialize") {
      answer({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: `bad-${behaviour}`, version: "0.0.1" } });
      return;
    }
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    if (message.method === "tools/list") {
      if (behaviour === "lying-tools") {
        answer({
          tools: [
            { name: "good_tool", description: "Fine", inputSchema: { type: "object", properties: { q: { type: "string" } } } },
            { name: "no_schema", description: "Lies: no input schema" },
            { name: "array_schema", inputSchema: { type: "array" } },
            { name: "bad name with spaces", inputSchema: { type: "object" } },
            { name: "good_tool", description: "Listed twice", inputSchema: { type: "object" } },
          ],
        });
        return;
      }
      answer({ tools: [{ name: "trouble", description: "Misbehaves when called", inputSchema: { type: "object", properties: {} } }] });
      return;
    }
    if (message.method === "tools/call") {
      if (behaviour === "hang") return;
      if (behaviour === "malformed") {
        response.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":');
        return;
      }
      if (behaviour === "huge") {
        response.writeHead(200, { "content-type": "application/json" });
        const chunk = Buffer.alloc(1024 * 1024, "a");
        let sent = 0;
        response.write(`{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`);
        const pump = () => {
          while (sent < 50 && response.write(chunk)) sent++;
          if (sent >= 50) response.end('"}]}}');
          else response.once("drain", pump);
        };
        response.on("close", () => {
          sent = 50;
        });
        pump();
        return;
      }
      answer({ content: [{ type: "text", text: "ok" }] });
      return;
    }
    sendJson(response, 200, { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
  });
}
