import { randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { newId } from "../../crypto";
import { plugins } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import type { RangeCaller } from "../../access/follow";
import { rangeCondition } from "../../access/range";
import type { MessageId } from "../../i18n/catalogue";
import { openValue, sealValue } from "../../platform/sealed";
import type { SecretBox } from "../../platform/secret-box";
import { maskHeaders, maskSecret } from "./http-call";
import { findParameterProblem, normalizeParameters, type PluginParameter } from "./parameters";
import { withQuota } from "../../plans/service/quotas";
import { checkMcpTool, MAX_MCP_TOOLS, type McpToolEntry, type McpTransport } from "./mcp-client";

/** The request parts of a plugin: what a draft holds and what a call needs. */
export interface PluginRequestParts {
  requestUrl: string;
  requestMethod: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  requestParams: PluginParameter[];
  responseParams: PluginParameter[];
  headers: Record<string, string>;
}

/** What kind of plugin: one HTTP request, or an MCP server. */
export type PluginKind = "http" | "mcp";

/** The MCP part of a plugin of kind `mcp`. */
export interface McpSettings {
  transport: McpTransport;
  tools: McpToolEntry[];
}

/** A custom plugin as a person fills it in (`requestMethod` and `requestParams` are for kind `http`). */
export interface PluginInput extends Omit<PluginRequestParts, "requestMethod" | "requestParams" | "responseParams"> {
  requestMethod?: PluginRequestParts["requestMethod"] | undefined;
  requestParams?: PluginParameter[] | undefined;
  responseParams?: PluginParameter[] | undefined;
  name: string;
  description: string;
  avatar: string;
  enabled?: boolean;
  kind?: PluginKind | undefined;
  mcp?: McpSettings | undefined;
}

/** A stored plugin with its parameters and headers decoded (headers in clear: never answer with this). */
export interface StoredPlugin extends PluginRequestParts {
  kind: PluginKind;
  mcp: McpSettings | null;
  id: string;
  spaceId: string;
  code: string;
  enabled: boolean;
  name: string;
  description: string;
  avatar: string;
  createdAt: string;
  updatedAt: string;
}

const invalid = (messageId: MessageId, field: string, params: Record<string, string> = {}) => new ServiceError("validation", messageId, params, { field });

// Names a plugin must not set: the transport owns them.
const RESERVED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "upgrade", "te", "trailer", "keep-alive", "expect"]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Checks the request parts (URL, method, parameters, headers): what a test run needs. */
export function checkRequestParts(input: PluginRequestParts): PluginRequestParts {
  const requestUrl = input.requestUrl.trim();
  if (!requestUrl) throw invalid("plugin_url_required", "requestUrl");
  let url: URL;
  try {
    url = new URL(requestUrl.replace(/\{(\w+)\}/g, "$1"));
  } catch {
    throw invalid("plugin_url_invalid", "requestUrl");
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) throw invalid("plugin_url_invalid", "requestUrl");
  if (!input.requestMethod) throw invalid("plugin_method_required", "requestMethod");
  const requestProblem = findParameterProblem(input.requestParams, "requestParams");
  if (requestProblem) throw invalid(requestProblem.messageId, requestProblem.field, requestProblem.params);
  const responseProblem = findParameterProblem(input.responseParams, "responseParams");
  if (responseProblem) throw invalid(responseProblem.messageId, responseProblem.field, responseProblem.params);
  return {
    requestUrl,
    requestMethod: input.requestMethod,
    requestParams: normalizeParameters(input.requestParams),
    responseParams: normalizeParameters(input.responseParams),
    headers: checkHeaders(input.headers),
  };
}

// The MCP transport sets these itself; a plugin header must not override the session.
const MCP_RESERVED_HEADERS = new Set(["accept", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id"]);

/** Checks header names and values; `mcp` also refuses the headers the MCP transport owns. */
export function checkHeaders(input: Record<string, string>, mcp = false): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(input)) {
    const name = rawName.trim();
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name) || RESERVED_HEADERS.has(lower) || (mcp && MCP_RESERVED_HEADERS.has(lower)) || /[\r\n]/.test(value)) {
      throw invalid("plugin_header_invalid", `headers.${rawName}`, { name: rawName });
    }
    headers[name] = value;
  }
  return headers;
}

/** Checks an MCP server URL: http or https with a host. */
export function checkMcpUrl(raw: string): string {
  const requestUrl = raw.trim();
  if (!requestUrl) throw invalid("plugin_url_required", "requestUrl");
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    throw invalid("plugin_url_invalid", "requestUrl");
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) throw invalid("plugin_url_invalid", "requestUrl");
  return requestUrl;
}

/** Checks the MCP part: every tool must still be usable as the model would get it, names unique. */
export function checkMcpSettings(input: McpSettings | undefined): McpSettings {
  const settings = input ?? { transport: "auto", tools: [] };
  if (settings.tools.length > MAX_MCP_TOOLS) throw invalid("plugin_mcp_tool_invalid", "mcp.tools", { reason: `more than ${MAX_MCP_TOOLS} tools` });
  const seen = new Set<string>();
  const tools = settings.tools.map((entry, index) => {
    const checked = checkMcpTool(entry);
    if ("problem" in checked) throw invalid("plugin_mcp_tool_invalid", `mcp.tools.${index}`, { reason: checked.problem });
    if (seen.has(checked.tool.name))
      throw invalid("plugin_mcp_tool_invalid", `mcp.tools.${index}`, { reason: `the name ${checked.tool.name} is listed twice` });
    seen.add(checked.tool.name);
    return { ...checked.tool, enabled: entry.enabled };
  });
  return { transport: settings.transport, tools };
}

const AVATAR = /^(https?:\/\/\S+|\/\S*|data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+)$/;

/** A plugin that passed every rule: the HTTP parts filled (an MCP plugin stores POST and no parameters). */
export type CheckedPlugin = PluginRequestParts & {
  name: string;
  description: string;
  avatar: string;
  enabled?: boolean;
  kind: PluginKind;
  mcp: McpSettings | null;
};

/** Checks every §5 Plugin rule, naming the offending field. */
export function checkPlugin(input: PluginInput): CheckedPlugin {
  const name = input.name.trim();
  if (!name) throw invalid("plugin_name_required", "name");
  const description = input.description.trim();
  if (!description) throw invalid("plugin_description_required", "description");
  const avatar = input.avatar.trim();
  if (!avatar) throw invalid("plugin_avatar_required", "avatar");
  if (!AVATAR.test(avatar)) throw invalid("plugin_avatar_invalid", "avatar");
  const common = { name, description, avatar, ...(input.enabled !== undefined ? { enabled: input.enabled } : {}) };
  if (input.kind === "mcp") {
    return {
      ...common,
      kind: "mcp",
      requestUrl: checkMcpUrl(input.requestUrl),
      requestMethod: "POST",
      requestParams: [],
      responseParams: [],
      headers: checkHeaders(input.headers, true),
      mcp: checkMcpSettings(input.mcp),
    };
  }
  if (!input.requestMethod) throw invalid("plugin_method_required", "requestMethod");
  const parts = checkRequestParts({
    ...input,
    requestMethod: input.requestMethod,
    requestParams: input.requestParams ?? [],
    responseParams: input.responseParams ?? [],
  });
  if (parts.requestParams.length === 0) throw invalid("plugin_params_required", "requestParams");
  return { ...parts, ...common, kind: "http", mcp: null };
}

/** Header values stored: the JSON object sealed whole under the instance key. */
export function sealHeaders(box: SecretBox, headers: Record<string, string>): string {
  return sealValue(box, JSON.stringify(headers));
}

function openHeaders(box: SecretBox, stored: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(openValue(box, stored));
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function decodeTools(text: string): McpToolEntry[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as McpToolEntry[]) : [];
  } catch {
    return [];
  }
}

function decode(box: SecretBox, row: typeof plugins.$inferSelect): StoredPlugin {
  return {
    kind: row.kind,
    mcp: row.kind === "mcp" ? { transport: row.mcpTransport, tools: decodeTools(row.mcpTools) } : null,
    id: row.id,
    spaceId: row.spaceId,
    code: row.code,
    enabled: row.enabled,
    name: row.name,
    description: row.description,
    avatar: row.avatarUrl,
    requestUrl: row.requestUrl,
    requestMethod: row.requestMethod,
    requestParams: JSON.parse(row.requestParams) as PluginParameter[],
    responseParams: JSON.parse(row.responseParams) as PluginParameter[],
    headers: openHeaders(box, row.headers),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** A plugin as answers show it: header values masked. */
export function pluginView(plugin: StoredPlugin) {
  return {
    id: plugin.id,
    code: plugin.code,
    builtin: false as const,
    enabled: plugin.enabled,
    name: plugin.name,
    description: plugin.description,
    avatar: plugin.avatar,
    requestUrl: plugin.requestUrl,
    requestMethod: plugin.requestMethod,
    requestParams: plugin.requestParams,
    responseParams: plugin.responseParams,
    headers: maskHeaders(plugin.headers),
    kind: plugin.kind,
    mcp: plugin.mcp,
    createdAt: plugin.createdAt,
    updatedAt: plugin.updatedAt,
  };
}

/** Keeps a stored header value when the client sent back its masked form. */
export function mergeHeaders(sent: Record<string, string>, stored: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    const before = stored[name];
    out[name] = before !== undefined && value === maskSecret(before) ? before : value;
  }
  return out;
}

function newPluginCode(): string {
  const alphabet = "0123456789abcdefghjkmnpqrstvwxyz";
  return `plg_${[...randomBytes(16)].map((byte) => alphabet[byte % 32]).join("")}`;
}

/** The space's custom plugins, newest first, optionally only enabled or disabled ones. */
export async function listPlugins(deps: Pick<Deps, "db" | "secrets">, auth: Auth, filter: { enabled?: boolean } = {}) {
  const rows = await deps.db
    .select()
    .from(plugins)
    .where(
      and(
        eq(plugins.spaceId, auth.spaceId),
        rangeCondition(auth, null, plugins),
        ...(filter.enabled === undefined ? [] : [eq(plugins.enabled, filter.enabled)]),
      ),
    )
    .orderBy(desc(plugins.createdAt), desc(plugins.id));
  return rows.map((row) => pluginView(decode(deps.secrets, row)));
}

/**
 * One plugin of the space, decoded (headers in clear); another space's plugin, or one outside the
 * caller's data range (a ranged member reaches the plugins they created), does not exist.
 */
export async function loadPlugin(deps: Pick<Deps, "db" | "secrets">, auth: RangeCaller, id: string): Promise<StoredPlugin> {
  const row = await deps.db
    .select()
    .from(plugins)
    .where(and(eq(plugins.id, id), eq(plugins.spaceId, auth.spaceId), rangeCondition(auth, null, plugins)))
    .get();
  if (!row) throw fail.notFound("plugin");
  return decode(deps.secrets, row);
}

/** Enabled plugins of a space among the given codes. */
export async function loadPluginsByCode(deps: Pick<Deps, "db" | "secrets">, spaceId: string, codes: string[]): Promise<StoredPlugin[]> {
  if (codes.length === 0) return [];
  const rows = await deps.db.select().from(plugins).where(eq(plugins.spaceId, spaceId));
  const wanted = new Set(codes);
  return rows.filter((row) => wanted.has(row.code)).map((row) => decode(deps.secrets, row));
}

/** A plugin's detail. */
export async function getPlugin(deps: Pick<Deps, "db" | "secrets">, auth: Auth, id: string) {
  return pluginView(await loadPlugin(deps, auth, id));
}

/** Creates a custom plugin in the current space. */
export async function createPlugin(deps: Pick<Deps, "db" | "now" | "secrets">, auth: Auth, input: PluginInput) {
  const checked = checkPlugin(input);
  const now = deps.now().toISOString();
  const id = newId("plg");
  await withQuota(deps, auth.spaceId, { customPlugins: 1 }, async () =>
    deps.db.insert(plugins).values({
      id,
      spaceId: auth.spaceId,
      code: newPluginCode(),
      enabled: checked.enabled ?? true,
      name: checked.name,
      description: checked.description,
      avatarUrl: checked.avatar,
      requestUrl: checked.requestUrl,
      requestMethod: checked.requestMethod,
      requestParams: JSON.stringify(checked.requestParams),
      responseParams: JSON.stringify(checked.responseParams),
      headers: sealHeaders(deps.secrets, checked.headers),
      ...mcpColumns(checked),
      createdBy: auth.userId,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return getPlugin(deps, auth, id);
}

/** Updates a custom plugin; fields left out keep their value, and the result must still meet every rule. */
export async function updatePlugin(deps: Pick<Deps, "db" | "now" | "secrets">, auth: Auth, id: string, input: Partial<PluginInput>) {
  const stored = await loadPlugin(deps, auth, id);
  const merged: PluginInput = {
    name: input.name ?? stored.name,
    description: input.description ?? stored.description,
    avatar: input.avatar ?? stored.avatar,
    enabled: input.enabled ?? stored.enabled,
    requestUrl: input.requestUrl ?? stored.requestUrl,
    requestMethod: input.requestMethod ?? stored.requestMethod,
    requestParams: input.requestParams ?? stored.requestParams,
    responseParams: input.responseParams ?? stored.responseParams,
    headers: input.headers ? mergeHeaders(input.headers, stored.headers) : stored.headers,
    kind: input.kind ?? stored.kind,
    mcp: input.mcp ?? stored.mcp ?? undefined,
  };
  const checked = checkPlugin(merged);
  await deps.db
    .update(plugins)
    .set({
      name: checked.name,
      description: checked.description,
      avatarUrl: checked.avatar,
      enabled: checked.enabled ?? stored.enabled,
      requestUrl: checked.requestUrl,
      requestMethod: checked.requestMethod,
      requestParams: JSON.stringify(checked.requestParams),
      responseParams: JSON.stringify(checked.responseParams),
      headers: sealHeaders(deps.secrets, checked.headers),
      ...mcpColumns(checked),
      updatedAt: deps.now().toISOString(),
    })
    .where(and(eq(plugins.id, id), eq(plugins.spaceId, auth.spaceId)));
  return getPlugin(deps, auth, id);
}

function mcpColumns(checked: CheckedPlugin) {
  return {
    kind: checked.kind,
    mcpTransport: checked.mcp?.transport ?? ("auto" as const),
    mcpTools: JSON.stringify(checked.mcp?.tools ?? []),
  };
}

/** Switches a plugin on or off. */
export async function setPluginEnabled(deps: Pick<Deps, "db" | "now" | "secrets">, auth: Auth, id: string, enabled: boolean) {
  const updated = await deps.db
    .update(plugins)
    .set({ enabled, updatedAt: deps.now().toISOString() })
    .where(and(eq(plugins.id, id), eq(plugins.spaceId, auth.spaceId), rangeCondition(auth, null, plugins)))
    .returning({ id: plugins.id });
  if (updated.length === 0) throw fail.notFound("plugin");
  return getPlugin(deps, auth, id);
}

/** Deletes a custom plugin. */
export async function deletePlugin(deps: Pick<Deps, "db">, auth: Auth, id: string) {
  const removed = await deps.db
    .delete(plugins)
    .where(and(eq(plugins.id, id), eq(plugins.spaceId, auth.spaceId), rangeCondition(auth, null, plugins)))
    .returning({ id: plugins.id });
  if (removed.length === 0) throw fail.notFound("plugin");
  return { deleted: true as const };
}
