import type { ToolDefinition } from "../platform/llm/types";

/** A plugin an app may call, as a tool for the model. */
export interface PluginTool {
  /** Custom plugin code (`plg_…`) or built-in name (e.g. `current_time`). */
  code: string;
  builtin: boolean;
  definition: ToolDefinition;
  /** For an MCP plugin: the tool's name on the server (`definition.name` is `<code>__<tool>`, cut to fit model rules). */
  mcpTool?: string;
}

/** The outcome of one plugin call, as text for the model. */
export interface PluginResult {
  ok: boolean;
  /** The answer (or the error, for the model to read); already size-limited. */
  content: string;
  durationMs: number;
}

/** What the chat engine needs from plugins. Implemented in plugins/service. */
export interface PluginRuntime {
  /** Tools for an app: the named built-ins and the space's enabled custom plugins among `pluginCodes` (one tool per enabled tool of an MCP plugin). */
  toolsFor(input: { spaceId: string; pluginCodes: string[] }): Promise<PluginTool[]>;
  /** Runs one call with the plugin's timeout, size limit and address rules; never throws for plugin failures. */
  execute(input: { spaceId: string; tool: PluginTool; arguments: string; signal?: AbortSignal }): Promise<PluginResult>;
}
