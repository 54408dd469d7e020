import type { Config } from "../../config";
import type { Db } from "../../db/client";
import type { Logger } from "../../logger";
import type { SecretBox } from "../../platform/secret-box";
import type { PluginResult, PluginRuntime, PluginTool } from "../runtime-types";
import { builtinSchema, findBuiltin, runBuiltin } from "./builtins/index";
import { callHttpPlugin, parseArguments, resultText } from "./http-call";
import type { Resolver } from "./network";
import { objectSchema } from "./parameters";
import { callMcpTool, McpCallError, mcpFunctionName } from "./mcp-client";
import { loadPluginsByCode, type StoredPlugin } from "./plugins";

/** What the runtime needs. */
export interface PluginRuntimeDeps {
  db: Db;
  /** Opens the header values stored sealed. */
  secrets: SecretBox;
  config: Pick<Config, "plugins">;
  logger: Logger;
  now: () => Date;
  /** DNS for plugin calls; tests may map names to chosen addresses. */
  resolver?: Resolver;
}

/**
 * The plugin runtime the chat engine calls: tools for an app's plugin list, and the execution
 * of one call under the timeout, size and address rules. Plugin failures never throw; they come
 * back as `ok: false` with a message the model can read and pass on.
 */
export function createPluginRuntime(deps: PluginRuntimeDeps): PluginRuntime {
  const settings = deps.config.plugins;
  // One connection per call: see decision 0035 for the measurement behind not pooling.
  const callMcp = async (plugin: StoredPlugin, toolName: string, argumentText: string, signal?: AbortSignal): Promise<{ ok: boolean; content: string }> => {
    const entry = plugin.mcp?.tools.find((candidate) => candidate.name === toolName);
    if (plugin.kind !== "mcp" || !entry?.enabled)
      return { ok: false, content: `The tool ${toolName} of ${plugin.name} is no longer available (switched off or removed).` };
    const parsed = parseArguments(argumentText);
    if ("error" in parsed) return { ok: false, content: `Invalid arguments for ${toolName}: ${parsed.error}.` };
    try {
      const outcome = await callMcpTool(
        { url: plugin.requestUrl, headers: plugin.headers, transport: plugin.mcp?.transport ?? "auto" },
        toolName,
        parsed.value,
        { config: settings, ...(signal ? { signal } : {}), ...(deps.resolver ? { resolver: deps.resolver } : {}) },
      );
      const note = outcome.truncated
        ? `\n[truncated: the answer was longer than ${settings.maxResponseBytes} bytes; only the first ${settings.maxResponseBytes} bytes are shown]`
        : "";
      return { ok: outcome.ok, content: outcome.ok ? `${outcome.text}${note}` : `The tool ${toolName} reported an error:\n${outcome.text}${note}` };
    } catch (error) {
      if (!(error instanceof McpCallError)) throw error;
      return { ok: false, content: `The tool ${toolName} of ${plugin.name} could not be called: ${error.message}.` };
    }
  };
  return {
    async toolsFor({ spaceId, pluginCodes }) {
      const tools: PluginTool[] = [];
      const customCodes: string[] = [];
      for (const code of new Set(pluginCodes)) {
        const builtin = findBuiltin(code);
        if (builtin) tools.push({ code, builtin: true, definition: { name: code, description: builtin.toolDescription, parameters: builtinSchema(builtin) } });
        else customCodes.push(code);
      }
      const custom = await loadPluginsByCode(deps, spaceId, customCodes);
      const taken = new Set(tools.map((tool) => tool.definition.name));
      for (const plugin of custom) {
        if (!plugin.enabled) continue;
        if (plugin.kind === "mcp") {
          for (const entry of plugin.mcp?.tools ?? []) {
            if (!entry.enabled) continue;
            const description = [entry.title, entry.description].filter(Boolean).join(": ") || plugin.description;
            tools.push({
              code: plugin.code,
              builtin: false,
              mcpTool: entry.name,
              definition: { name: mcpFunctionName(plugin.code, entry.name, taken), description: description.slice(0, 1024), parameters: entry.inputSchema },
            });
          }
          continue;
        }
        tools.push({
          code: plugin.code,
          builtin: false,
          definition: { name: plugin.code, description: plugin.description, parameters: { type: "object", ...objectSchema(plugin.requestParams) } },
        });
      }
      return tools;
    },

    async execute({ spaceId, tool, arguments: argumentText, signal }): Promise<PluginResult> {
      const started = performance.now();
      const done = (ok: boolean, content: string): PluginResult => ({ ok, content, durationMs: Math.round(performance.now() - started) });
      try {
        const builtin = tool.builtin ? findBuiltin(tool.code) : undefined;
        if (builtin) {
          const parsed = parseArguments(argumentText);
          if ("error" in parsed) return done(false, `Invalid arguments for ${tool.code}: ${parsed.error}.`);
          const outcome = await runBuiltin(
            builtin,
            { config: settings, now: deps.now, ...(signal ? { signal } : {}), ...(deps.resolver ? { resolver: deps.resolver } : {}) },
            parsed.value,
          );
          return done(outcome.ok, outcome.content);
        }
        const [plugin] = await loadPluginsByCode(deps, spaceId, [tool.code]);
        if (!plugin?.enabled) return done(false, `The plugin ${tool.code} is no longer available (deleted or switched off).`);
        if (tool.mcpTool !== undefined || plugin.kind === "mcp") {
          const outcome = await callMcp(plugin, tool.mcpTool ?? "", argumentText, signal);
          return done(outcome.ok, outcome.content);
        }
        const result = await callHttpPlugin(plugin, argumentText, {
          config: settings,
          ...(signal ? { signal } : {}),
          ...(deps.resolver ? { resolver: deps.resolver } : {}),
        });
        return done(result.ok, resultText(result, settings.maxResponseBytes));
      } catch (error) {
        deps.logger.error("plugin call failed", { code: tool.code, error: error instanceof Error ? error.message : String(error) });
        return done(false, `The plugin ${tool.code} failed unexpectedly.`);
      }
    },
  };
}
