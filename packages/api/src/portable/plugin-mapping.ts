import type { PluginInput, StoredPlugin } from "../plugins/service/plugins";
import type { PluginParameter } from "../plugins/service/parameters";
import { type PortablePlugin, placeholderOf } from "./format";

/** A secret a plugin's export turns into a placeholder. */
export interface ExportedSecret {
  name: string;
  description: string;
}

/**
 * A stored plugin as the portable file writes it. Every header value may be a credential, so each
 * becomes a `${secret:NAME}` placeholder, listed in `secrets`. An MCP plugin (kind `mcp`) keeps its
 * endpoint, transport and tools with their switches.
 */
export function pluginToPortable(
  plugin: StoredPlugin,
  ref: string,
  secretName: (header: string) => string,
): { plugin: PortablePlugin; secrets: ExportedSecret[] } {
  const secrets: ExportedSecret[] = [];
  const headers: Record<string, string> = {};
  for (const header of Object.keys(plugin.headers)) {
    const name = secretName(header);
    secrets.push({ name, description: `Header ${header} of plugin "${plugin.name}"` });
    headers[header] = placeholderOf(name);
  }
  const common = { ref, name: plugin.name, description: plugin.description, avatar: plugin.avatar, enabled: plugin.enabled };
  if (plugin.kind === "mcp") {
    const tools = (plugin.mcp?.tools ?? []).map((tool) => ({
      name: tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      description: tool.description,
      inputSchema: tool.inputSchema,
      enabled: tool.enabled,
    }));
    return { plugin: { ...common, kind: "mcp", mcp: { url: plugin.requestUrl, transport: plugin.mcp?.transport ?? "auto", headers, tools } }, secrets };
  }
  return {
    plugin: {
      ...common,
      kind: "http",
      http: {
        url: plugin.requestUrl,
        method: plugin.requestMethod,
        requestParams: plugin.requestParams,
        responseParams: plugin.responseParams,
        headers,
      },
    },
    secrets,
  };
}

/** A portable plugin as the create path takes it, its placeholders filled by `fill`. */
export function pluginFromPortable(plugin: PortablePlugin, fill: (value: string, field: string) => string): PluginInput {
  const common = { name: plugin.name, description: plugin.description, avatar: plugin.avatar, enabled: plugin.enabled };
  if (plugin.kind === "mcp") {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(plugin.mcp.headers)) headers[name] = fill(value, `plugins.${plugin.ref}.mcp.headers.${name}`);
    return { ...common, kind: "mcp", requestUrl: plugin.mcp.url, headers, mcp: { transport: plugin.mcp.transport, tools: plugin.mcp.tools } };
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(plugin.http.headers)) headers[name] = fill(value, `plugins.${plugin.ref}.http.headers.${name}`);
  return {
    ...common,
    kind: "http",
    requestUrl: plugin.http.url,
    requestMethod: plugin.http.method,
    requestParams: plugin.http.requestParams as PluginParameter[],
    responseParams: plugin.http.responseParams as PluginParameter[],
    headers,
  };
}
