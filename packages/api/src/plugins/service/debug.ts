import type { Auth, Deps } from "../../kernel";
import { ServiceError } from "../../errors";
import { callHttpPlugin, type HttpCallResult } from "./http-call";
import { checkRequestParts, loadPlugin, mergeHeaders, type PluginRequestParts } from "./plugins";

/** What a test run takes: a draft, a saved plugin, or both (the draft's edits over the saved plugin). */
export interface DebugInput {
  pluginId?: string;
  plugin?: PluginRequestParts & { name?: string };
  arguments: Record<string, unknown> | string;
}

/**
 * The "test run" before saving: calls the plugin as the model would, with the same rules, and
 * shows what was sent and what came back.
 */
export async function debugPlugin(deps: Pick<Deps, "config" | "db" | "secrets">, auth: Auth, input: DebugInput): Promise<HttpCallResult> {
  if (!input.plugin && !input.pluginId) throw new ServiceError("validation", "plugin_debug_target_required", {}, { field: "plugin" });
  const stored = input.pluginId ? await loadPlugin(deps, auth, input.pluginId) : undefined;
  if (stored?.kind === "mcp") throw new ServiceError("validation", "plugin_debug_mcp", {}, { field: "pluginId" });
  const draft = input.plugin ? { ...input.plugin, headers: stored ? mergeHeaders(input.plugin.headers, stored.headers) : input.plugin.headers } : stored!;
  const parts = checkRequestParts(draft);
  const name = draft.name?.trim() || stored?.name || "the plugin";
  return callHttpPlugin({ ...parts, name }, input.arguments, { config: deps.config.plugins });
}
