import { ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { maskHeaders, type HttpCallResult, parseArguments } from "./http-call";
import { callMcpTool, discoverMcpTools, McpCallError, type McpDiscovery, type McpTarget, type McpToolEntry, type McpTransport } from "./mcp-client";
import type { Resolver } from "./network";
import { checkHeaders, checkMcpUrl, loadPlugin, mergeHeaders, type StoredPlugin } from "./plugins";

/** What discovery and the test run take: a server, a saved MCP plugin, or a saved one with edits. */
export interface McpTargetInput {
  pluginId?: string | undefined;
  url?: string | undefined;
  headers?: Record<string, string> | undefined;
  transport?: McpTransport | undefined;
}

async function resolveTarget(deps: Pick<Deps, "db" | "secrets">, auth: Auth, input: McpTargetInput): Promise<{ target: McpTarget; stored?: StoredPlugin }> {
  const stored = input.pluginId ? await loadPlugin(deps, auth, input.pluginId) : undefined;
  if (stored && stored.kind !== "mcp") throw new ServiceError("validation", "plugin_mcp_not_mcp", {}, { field: "pluginId" });
  const url = input.url ?? stored?.requestUrl;
  if (url === undefined) throw new ServiceError("validation", "plugin_url_required", {}, { field: "url" });
  const headers = input.headers ? (stored ? mergeHeaders(input.headers, stored.headers) : input.headers) : (stored?.headers ?? {});
  return {
    target: { url: checkMcpUrl(url), headers: checkHeaders(headers, true), transport: input.transport ?? stored?.mcp?.transport ?? "auto" },
    ...(stored ? { stored } : {}),
  };
}

/**
 * Connects to an MCP server and lists its tools, refusing those with unusable definitions (with a
 * warning each). Switches come from the saved plugin; tools it did not know start switched off.
 */
export async function discoverPluginTools(
  deps: Pick<Deps, "config" | "db" | "secrets"> & { resolver?: Resolver },
  auth: Auth,
  input: McpTargetInput,
): Promise<Omit<McpDiscovery, "tools"> & { tools: McpToolEntry[] }> {
  const { target, stored } = await resolveTarget(deps, auth, input);
  let found: McpDiscovery;
  try {
    found = await discoverMcpTools(target, { config: deps.config.plugins, ...(deps.resolver ? { resolver: deps.resolver } : {}) });
  } catch (error) {
    const reason = error instanceof McpCallError ? error.message : "the MCP server could not be reached";
    throw new ServiceError("external", "plugin_mcp_failed", { reason });
  }
  const switches = new Map((stored?.mcp?.tools ?? []).map((tool) => [tool.name, tool.enabled]));
  return { ...found, tools: found.tools.map((tool) => ({ ...tool, enabled: switches.get(tool.name) ?? false })) };
}

/** The test run of one MCP tool: what was sent (headers masked) and the tool's text, or a clear error. */
export async function debugMcpTool(
  deps: Pick<Deps, "config" | "db" | "secrets"> & { resolver?: Resolver },
  auth: Auth,
  input: McpTargetInput & { tool: string; arguments: Record<string, unknown> | string },
): Promise<HttpCallResult> {
  const { target } = await resolveTarget(deps, auth, input);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const parsed = typeof input.arguments === "string" ? parseArguments(input.arguments) : { value: input.arguments };
  if ("error" in parsed) {
    return { ok: false, status: null, durationMs: 0, request: null, response: null, error: `Invalid arguments for ${input.tool}: ${parsed.error}.` };
  }
  const request = {
    method: "tools/call",
    url: target.url,
    headers: maskHeaders(target.headers),
    body: JSON.stringify({ name: input.tool, arguments: parsed.value }),
  };
  try {
    const outcome = await callMcpTool(target, input.tool, parsed.value, { config: deps.config.plugins, ...(deps.resolver ? { resolver: deps.resolver } : {}) });
    return {
      ok: outcome.ok,
      status: null,
      durationMs: elapsed(),
      request,
      response: { contentType: "text/plain", body: outcome.text, truncated: outcome.truncated },
      error: outcome.ok ? null : `The tool ${input.tool} reported an error`,
    };
  } catch (error) {
    const message = error instanceof McpCallError ? error.message : "the MCP server failed unexpectedly";
    return { ok: false, status: null, durationMs: elapsed(), request, response: null, error: `${input.tool} could not be called: ${message}` };
  }
}
