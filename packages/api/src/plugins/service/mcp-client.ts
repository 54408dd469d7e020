import { z } from "@hono/zod-openapi";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../../config";
import { isPlainObject } from "./parameters";
import { outboundPolicy, PluginNetworkError, policedFetch, type Resolver } from "./network";

/** How Parley connects to an MCP server; `auto` tries Streamable HTTP first and falls back to SSE. */
export const mcpTransports = ["auto", "streamable-http", "sse"] as const;
/** A transport choice. */
export type McpTransport = (typeof mcpTransports)[number];

/** One tool of an MCP server as Parley stores it. */
export interface McpToolEntry {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  enabled: boolean;
}

/** Where an MCP server is and how to reach it. */
export interface McpTarget {
  url: string;
  headers: Record<string, string>;
  transport: McpTransport;
}

/** What every MCP exchange needs: the plugin settings (timeouts, size cap, address rules). */
export interface McpCallOptions {
  config: Config["plugins"];
  signal?: AbortSignal;
  resolver?: Resolver;
}

/** A failure of an MCP exchange with a message a person or the model can read. */
export class McpCallError extends Error {
  override name = "McpCallError";
  constructor(
    readonly reason: "refused" | "timeout" | "network" | "too-large" | "malformed" | "http" | "server" | "unknown-tool",
    message: string,
  ) {
    super(message);
  }
}

/** Most tools one plugin keeps; a server listing more gets the rest refused with a warning. */
export const MAX_MCP_TOOLS = 128;
const TOOL_NAME = /^[A-Za-z0-9_.\-/]{1,128}$/;
const MAX_SCHEMA_TEXT = 64 * 1024;

/**
 * Checks one tool as a server listed it: a usable name and an object input schema. Returns the
 * entry or why it was refused (a server that lies about its tools must not reach the model).
 */
export function checkMcpTool(raw: unknown): { tool: Omit<McpToolEntry, "enabled"> } | { problem: string } {
  if (!isPlainObject(raw)) return { problem: "a listed tool is not an object" };
  const name = raw.name;
  if (typeof name !== "string" || !TOOL_NAME.test(name)) return { problem: `the tool name ${JSON.stringify(name)?.slice(0, 80)} is not valid` };
  const schema = raw.inputSchema;
  if (!isPlainObject(schema) || schema.type !== "object") return { problem: `the tool ${name} has no object input schema` };
  if (schema.properties !== undefined && !isPlainObject(schema.properties))
    return { problem: `the tool ${name} has an input schema whose properties are not an object` };
  if (schema.properties && Object.values(schema.properties).some((property) => !isPlainObject(property) && typeof property !== "boolean")) {
    return { problem: `the tool ${name} has an input schema with a property that is not a schema` };
  }
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((item) => typeof item === "string"))) {
    return { problem: `the tool ${name} has an input schema whose required list is not a list of names` };
  }
  if (JSON.stringify(schema).length > MAX_SCHEMA_TEXT) return { problem: `the tool ${name} has an input schema larger than ${MAX_SCHEMA_TEXT} characters` };
  if (raw.description !== undefined && typeof raw.description !== "string") return { problem: `the tool ${name} has a description that is not text` };
  const { $schema: _ignored, ...inputSchema } = schema;
  return {
    tool: {
      name,
      ...(typeof raw.title === "string" && raw.title ? { title: raw.title.slice(0, 200) } : {}),
      description: (typeof raw.description === "string" ? raw.description : "").slice(0, 4000),
      inputSchema,
    },
  };
}

/**
 * A fetch that stops reading an answer above `maxBytes`: a declared length above it is refused
 * before the body is read, and a streamed body errors as soon as it passes it, so a 50 MB answer
 * is never held in memory.
 */
export function cappedFetch(inner: typeof globalThis.fetch, maxBytes: number, onTooLarge: (error: McpCallError) => void): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const tooLarge = () => {
      const error = new McpCallError("too-large", `the MCP server's answer is larger than ${maxBytes} bytes`);
      onTooLarge(error);
      return error;
    };
    const declared = Number(response.headers.get("content-length") ?? "");
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    if (!response.body) return response;
    let seen = 0;
    const limited = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) controller.error(tooLarge());
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** A connected MCP session: the client, the transport that worked, and the server's name. */
export interface McpSession {
  client: Client;
  transport: "streamable-http" | "sse";
  server: { name: string; version: string } | null;
  /** The last transport-level failure (e.g. an answer above the size cap), to explain a later timeout. */
  lastFailure(): McpCallError | undefined;
}

/**
 * Connects to an MCP server under the address rules, the size cap and the timeout, runs `work`,
 * and closes the connection. `auto` tries Streamable HTTP and falls back to SSE when the server
 * refuses it (as the MCP specification's backwards-compatibility section describes).
 * Every failure becomes an {@link McpCallError}.
 */
export async function withMcpSession<T>(
  target: McpTarget,
  options: McpCallOptions & { maxBytes?: number },
  work: (session: McpSession) => Promise<T>,
): Promise<T> {
  const maxBytes = options.maxBytes ?? options.config.maxResponseBytes;
  let lastFailure: McpCallError | undefined;
  const fetch = cappedFetch(policedFetch(outboundPolicy({ plugins: options.config }), options.resolver), maxBytes, (error) => {
    lastFailure = error;
  });
  const attempt = async (kind: "streamable-http" | "sse"): Promise<{ client: Client; transport: Transport }> => {
    const url = new URL(target.url);
    const requestInit: RequestInit = { headers: target.headers };
    const transport: Transport =
      kind === "sse" ? new SSEClientTransport(url, { fetch, requestInit }) : new StreamableHTTPClientTransport(url, { fetch, requestInit });
    const client = new Client({ name: "parley", version: "1.0.0" }, { capabilities: {} });
    client.onerror = (error) => {
      if (error instanceof McpCallError) lastFailure = error;
    };
    try {
      await deadline(
        client.connect(transport, { timeout: options.config.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) }),
        options,
        "connect",
      );
      return { client, transport };
    } catch (error) {
      await client.close().catch(() => undefined);
      throw explain(error, lastFailure, options.config);
    }
  };
  let connected: { client: Client; transport: Transport };
  let used: "streamable-http" | "sse";
  if (target.transport === "sse") {
    connected = await attempt("sse");
    used = "sse";
  } else {
    try {
      connected = await attempt("streamable-http");
      used = "streamable-http";
    } catch (error) {
      const failure = error as McpCallError;
      // A refusal, an oversized answer or silence would not change on the older transport; trying it would only double the wait.
      if (target.transport === "streamable-http" || failure.reason === "refused" || failure.reason === "too-large" || failure.reason === "timeout")
        throw failure;
      try {
        lastFailure = undefined;
        connected = await attempt("sse");
        used = "sse";
      } catch (fallback) {
        throw new McpCallError(
          (fallback as McpCallError).reason,
          `Streamable HTTP failed (${failure.message}); the SSE fallback failed too (${(fallback as McpCallError).message})`,
        );
      }
    }
  }
  const version = connected.client.getServerVersion();
  try {
    return await work({
      client: connected.client,
      transport: used,
      server: version ? { name: String(version.name), version: String(version.version) } : null,
      lastFailure: () => lastFailure,
    });
  } catch (error) {
    throw explain(error, lastFailure, options.config);
  } finally {
    await connected.client.close().catch(() => undefined);
  }
}

// A transport's start (the SSE endpoint event) has no timeout of its own: the deadline covers it.
async function deadline<T>(promise: Promise<T>, options: McpCallOptions, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new McpCallError("timeout", `no answer to ${what} within ${options.config.timeoutMs} ms`)), options.config.timeoutMs);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Turns whatever the SDK or the wire threw into an {@link McpCallError} with a readable message. */
export function explain(error: unknown, lastFailure: McpCallError | undefined, config: Config["plugins"]): McpCallError {
  if (error instanceof McpCallError) return error;
  if (error instanceof PluginNetworkError) {
    return new McpCallError(
      error.reason === "refused" || error.reason === "url" ? "refused" : error.reason === "timeout" ? "timeout" : "network",
      error.message,
    );
  }
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof PluginNetworkError || cause instanceof McpCallError) return explain(cause, lastFailure, config);
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout || error.code === ErrorCode.ConnectionClosed) {
      if (lastFailure) return lastFailure;
      return error.code === ErrorCode.RequestTimeout
        ? new McpCallError("timeout", `the MCP server did not answer within ${config.timeoutMs} ms`)
        : new McpCallError("network", "the MCP server closed the connection");
    }
    return new McpCallError("server", `the MCP server answered error ${error.code}: ${error.message.replace(/^MCP error -?\d+: /, "")}`);
  }
  if (error instanceof StreamableHTTPError) return new McpCallError("http", `the MCP server answered HTTP ${error.code ?? "error"}: ${error.message}`);
  if (error instanceof SyntaxError || (error instanceof Error && (error.name === "ZodError" || error.name === "$ZodError"))) {
    return new McpCallError("malformed", "the MCP server answered with malformed JSON-RPC");
  }
  if (error instanceof Error && /SSE error|Non-200 status/i.test(error.message))
    return new McpCallError("http", `the MCP server's event stream failed: ${error.message}`);
  if (lastFailure) return lastFailure;
  return new McpCallError("network", error instanceof Error ? error.message : String(error));
}

const looseToolList = z.object({ tools: z.array(z.unknown()), nextCursor: z.string().optional() }).passthrough();

/** What discovery found: usable tools, and warnings for the ones refused. */
export interface McpDiscovery {
  transport: "streamable-http" | "sse";
  server: { name: string; version: string } | null;
  tools: Array<Omit<McpToolEntry, "enabled">>;
  warnings: string[];
}

/** Lists a session's tools, following pages, refusing the ones whose definition is unusable. */
export async function listMcpTools(session: McpSession, config: Config["plugins"]): Promise<Omit<McpDiscovery, "transport" | "server">> {
  const tools: Array<Omit<McpToolEntry, "enabled">> = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < 20; page++) {
    // A loose result schema: one bad tool must not hide the good ones (the SDK's own schema would refuse the whole list).
    const result = await session.client.request({ method: "tools/list", ...(cursor ? { params: { cursor } } : {}) }, looseToolList, {
      timeout: config.timeoutMs,
    });
    for (const raw of result.tools) {
      const checked = checkMcpTool(raw);
      if ("problem" in checked) warnings.push(`Refused a tool: ${checked.problem}.`);
      else if (seen.has(checked.tool.name)) warnings.push(`Refused a tool: the name ${checked.tool.name} is listed twice.`);
      else if (tools.length >= MAX_MCP_TOOLS) warnings.push(`Refused the tool ${checked.tool.name}: a plugin keeps at most ${MAX_MCP_TOOLS} tools.`);
      else {
        seen.add(checked.tool.name);
        tools.push(checked.tool);
      }
    }
    cursor = result.nextCursor;
    if (!cursor) break;
  }
  return { tools, warnings };
}

/** Connects and discovers a server's tools (a bigger size cap than a call: tool lists are long). */
export function discoverMcpTools(target: McpTarget, options: McpCallOptions): Promise<McpDiscovery> {
  return withMcpSession(target, { ...options, maxBytes: options.config.maxResponseBytes * 4 }, async (session) => ({
    transport: session.transport,
    server: session.server,
    ...(await listMcpTools(session, options.config)),
  }));
}

/** The outcome of one tool call: its text (capped), and whether the tool reported success. */
export interface McpToolOutcome {
  ok: boolean;
  text: string;
  truncated: boolean;
  transport: "streamable-http" | "sse";
}

const looseCallResult = z
  .object({ content: z.array(z.unknown()).optional(), structuredContent: z.unknown().optional(), isError: z.boolean().optional() })
  .passthrough();

/**
 * Calls one tool and returns its text content. When the server refuses the call, the tool list is
 * read again on the same connection so that a tool the server no longer has is named as such.
 */
export async function callMcpTool(target: McpTarget, tool: string, args: Record<string, unknown>, options: McpCallOptions): Promise<McpToolOutcome> {
  const maxBytes = options.config.maxResponseBytes;
  return withMcpSession(target, options, async (session) => {
    let result: z.infer<typeof looseCallResult>;
    try {
      result = await session.client.request({ method: "tools/call", params: { name: tool, arguments: args } }, looseCallResult, {
        timeout: options.config.timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      if (error instanceof McpError && error.code !== ErrorCode.RequestTimeout && error.code !== ErrorCode.ConnectionClosed)
        await refuseUnknown(session, tool, options.config);
      throw error;
    }
    const text = contentText(result);
    if (result.isError) await refuseUnknown(session, tool, options.config);
    const cut = capText(text, maxBytes);
    return { ok: !result.isError, text: cut.text, truncated: cut.truncated, transport: session.transport };
  });
}

async function refuseUnknown(session: McpSession, tool: string, config: Config["plugins"]): Promise<void> {
  const listed = await listMcpTools(session, config).catch(() => undefined);
  if (listed && !listed.tools.some((entry) => entry.name === tool)) {
    throw new McpCallError("unknown-tool", `the MCP server no longer offers the tool ${tool}; discover the tools again`);
  }
}

/** The text of a tool result: text parts joined, other parts named, structured content as JSON when there is no text. */
export function contentText(result: { content?: unknown[]; structuredContent?: unknown }): string {
  const parts: string[] = [];
  for (const item of result.content ?? []) {
    if (!isPlainObject(item)) continue;
    if (item.type === "text" && typeof item.text === "string") parts.push(item.text);
    else if (item.type === "resource" && isPlainObject(item.resource)) {
      parts.push(typeof item.resource.text === "string" ? item.resource.text : `[resource ${String(item.resource.uri ?? "")}]`);
    } else if (item.type === "resource_link") parts.push(`[resource ${String(item.uri ?? "")}]`);
    else if (item.type === "image" || item.type === "audio") parts.push(`[${item.type} ${String(item.mimeType ?? "")}]`);
  }
  if (parts.length === 0 && result.structuredContent !== undefined) return JSON.stringify(result.structuredContent);
  return parts.join("\n");
}

function capText(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return { text, truncated: false };
  return {
    text: bytes
      .subarray(0, maxBytes)
      .toString("utf8")
      .replace(/\uFFFD+$/, ""),
    truncated: true,
  };
}

/**
 * The function name the model sees for an MCP tool: `<plugin code>__<tool>`, limited to the
 * characters and 64-character length model providers accept. `taken` avoids collisions after cutting.
 */
export function mcpFunctionName(code: string, tool: string, taken: Set<string>): string {
  const base = `${code}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`.slice(0, 64);
  let name = base;
  for (let index = 2; taken.has(name); index++) name = `${base.slice(0, 64 - String(index).length - 1)}_${index}`;
  taken.add(name);
  return name;
}
