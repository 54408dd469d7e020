import { z } from "@hono/zod-openapi";
import { itemTypes, parameterLocations, parameterTypes, type PluginParameter } from "./service/parameters";
import { boundedJson } from "../http/schemas";
import { MAX_MCP_TOOLS, mcpTransports } from "./service/mcp-client";

const timestamp = z.string().openapi({ format: "date-time", example: "2026-11-21T08:00:00.000Z" });

/** HTTP methods a plugin may use. */
export const requestMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

const parameterBase = z.object({
  name: z.string().max(64).openapi({ description: "English letters and underscore only; unique among its siblings", example: "city" }),
  type: z.enum(parameterTypes).openapi({ example: "string" }),
  description: z.string().max(1000).default("").openapi({ example: "City name, e.g. Hangzhou" }),
  required: z.boolean().default(false),
  default: boundedJson(z.unknown()).optional().openapi({ description: "Used when the model leaves the argument out" }),
  itemType: z.enum(itemTypes).optional().openapi({ description: "Item type of an array without sub-parameters" }),
  location: z.enum(parameterLocations).optional().openapi({
    description: "Where the argument travels. Absent: the path when the URL holds `{name}`, else the query for GET/DELETE and the JSON body otherwise",
  }),
});

/** A request or response parameter, with sub-parameters for objects and arrays of objects. */
export const parameterSchema: z.ZodType<PluginParameter> = parameterBase
  .extend({
    children: z
      .array(z.lazy(() => parameterSchema))
      .max(100)
      .optional()
      .openapi({
        description: "Sub-parameters: an object's fields, or the fields of each item of an array",
        type: "array",
        items: { $ref: "#/components/schemas/PluginParameter" },
      }),
  })
  .openapi("PluginParameter") as z.ZodType<PluginParameter>;

const headersSchema = z.record(z.string(), z.string().max(4000)).openapi({
  description:
    "Extra request headers. Values are secrets: answers show them masked (`****` and the last 4 characters); sending a masked value back keeps the stored one",
  example: { Authorization: "****c0de" },
});

/** What a custom plugin is: one HTTP request, or an MCP server whose tools become functions. */
export const pluginKinds = ["http", "mcp"] as const;

/** One tool of an MCP server, with its switch. */
export const mcpToolSchema = z
  .object({
    name: z.string().max(128).openapi({ description: "The tool's name on the MCP server", example: "get_weather" }),
    title: z.string().max(200).optional().openapi({ example: "Weather" }),
    description: z.string().max(4000).default("").openapi({ example: "Current weather for a city" }),
    inputSchema: boundedJson(z.record(z.string(), z.unknown())).openapi({
      description: "JSON Schema of the arguments (type object), as the server listed it",
      example: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    }),
    enabled: z.boolean().openapi({ description: "Only enabled tools are offered to apps and workflows" }),
  })
  .openapi("McpTool");

const mcpTransportSchema = z.enum(mcpTransports).openapi({
  description: "`auto`: Streamable HTTP, falling back to the older SSE transport when the server refuses it",
  example: "auto",
});

/** The MCP part of a plugin of kind `mcp`. */
export const mcpSettingsSchema = z
  .object({
    transport: mcpTransportSchema.default("auto"),
    tools: z.array(mcpToolSchema).max(MAX_MCP_TOOLS).default([]).openapi({ description: "The discovered tools with their switches" }),
  })
  .openapi("McpPluginSettings");

const kindSchema = z.enum(pluginKinds).openapi({ description: "`http`: one HTTP request per call; `mcp`: an MCP server at `requestUrl`", example: "http" });

const pluginFields = z.object({
  name: z.string().max(100).openapi({ example: "Weather" }),
  description: z
    .string()
    .max(2000)
    .openapi({ description: "What the plugin does; the model reads it to decide when to call it", example: "Current weather for a city" }),
  avatar: z
    .string()
    .max(2048)
    .openapi({ description: "Image URL (http/https, a site path, or a PNG/JPEG data URL)", example: "https://cdn.example.com/icons/weather.png" }),
  enabled: z.boolean(),
  requestUrl: z.string().max(2048).openapi({ description: "http or https; `{name}` marks a path parameter", example: "https://api.example.com/v1/weather" }),
  requestMethod: z.enum(requestMethods).openapi({ example: "GET" }),
  requestParams: z.array(parameterSchema).max(100),
  responseParams: z.array(parameterSchema).max(100),
  headers: headersSchema,
  kind: kindSchema,
  mcp: mcpSettingsSchema.openapi({ description: "For kind `mcp`: transport and tools" }),
});

/** The fields a person fills in for a custom plugin. */
export const pluginBody = pluginFields
  .extend({
    enabled: z.boolean().optional(),
    kind: kindSchema.optional().openapi({ description: "`http` when omitted" }),
    requestMethod: z.enum(requestMethods).optional().openapi({ description: "Required for kind `http`", example: "GET" }),
    requestParams: z.array(parameterSchema).max(100).optional().openapi({ description: "At least one for kind `http`" }),
    responseParams: z.array(parameterSchema).max(100).optional(),
    headers: headersSchema.default({}),
    mcp: mcpSettingsSchema.optional().openapi({ description: "For kind `mcp`: transport and tools" }),
  })
  .openapi("PluginInput");

/** An update: any of the fields; those left out keep their value. */
export const pluginUpdateBody = pluginFields.partial().openapi("UpdatePluginRequest");

/** A plugin draft: the request parts, with the descriptive fields optional (as parse returns it, as the test run takes it). */
export const pluginDraftSchema = z
  .object({
    name: z.string().max(100).default(""),
    description: z.string().max(2000).default(""),
    avatar: z.string().max(2048).default(""),
    requestUrl: z.string().max(2048),
    requestMethod: z.enum(requestMethods),
    requestParams: z.array(parameterSchema).max(100).default([]),
    responseParams: z.array(parameterSchema).max(100).default([]),
    headers: z.record(z.string(), z.string().max(4000)).default({}),
  })
  .openapi("PluginDraft");

/** A custom plugin as answers show it (headers masked). */
export const pluginSchema = z
  .object({
    id: z.string().openapi({ example: "plg_01jd7w3k5q9x2m4n6p8r" }),
    code: z.string().openapi({ description: "What apps list in their plugins and the model calls", example: "plg_k7p2qx9m3d5f8h1j" }),
    builtin: z.literal(false),
    enabled: z.boolean(),
    name: z.string(),
    description: z.string(),
    avatar: z.string(),
    requestUrl: z.string(),
    requestMethod: z.enum(requestMethods),
    requestParams: z.array(parameterSchema),
    responseParams: z.array(parameterSchema),
    headers: headersSchema,
    kind: kindSchema,
    mcp: mcpSettingsSchema.nullable().openapi({ description: "Transport and tools of an MCP plugin; null for kind `http`" }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi("Plugin");

/** Scopes of the built-in plugins. */
export const builtinScopes = ["utility", "web"] as const;

/** A plugin that ships with Parley. */
export const builtinPluginSchema = z
  .object({
    code: z.string().openapi({ example: "current_time" }),
    builtin: z.literal(true),
    scope: z.enum(builtinScopes),
    name: z.string().openapi({ example: "Current time" }),
    description: z.string(),
    available: z.boolean().openapi({ description: "False when it needs configuration the server lacks (web search without a provider)" }),
    requestParams: z.array(parameterSchema),
  })
  .openapi("BuiltinPlugin");

/** What the parse call takes. */
export const parseBody = z
  .object({
    source: z.enum(["openapi", "curl"]).openapi({ description: "An OpenAPI 3.x document (JSON or YAML) or a curl command" }),
    content: z.string().min(1).max(1_000_000),
    operation: z.string().max(300).optional().openapi({
      description: "For OpenAPI: the operationId, or `METHOD /path`; needed when the document has several operations",
      example: "getWeather",
    }),
  })
  .openapi("PluginParseRequest");

/** An operation found in an OpenAPI document. */
export const operationSchema = z
  .object({
    operationId: z.string().nullable(),
    method: z.string().openapi({ example: "GET" }),
    path: z.string().openapi({ example: "/weather" }),
    summary: z.string().nullable(),
  })
  .openapi("PluginOperation");

/** What parse answers. */
export const parseResultSchema = z
  .object({
    draft: pluginDraftSchema,
    operations: z.array(operationSchema).openapi({ description: "Every operation of an OpenAPI document (empty for curl)" }),
    warnings: z.array(z.string()).openapi({ description: "What the draft could not carry over, e.g. parameter names the naming rule refuses" }),
  })
  .openapi("PluginParseResult");

/** What the test run takes: a draft, a saved plugin, or a saved plugin with unsaved edits. */
export const debugBody = z
  .object({
    pluginId: z.string().max(64).optional().openapi({ description: "A saved plugin of this space; with `plugin`, masked header values come from it" }),
    plugin: pluginDraftSchema.optional(),
    arguments: boundedJson(z.union([z.record(z.string(), z.unknown()), z.string()]))
      .default({})
      .openapi({ description: "Arguments as the model would send them: an object or its JSON text", example: { city: "Hangzhou" } }),
  })
  .openapi("PluginDebugRequest");

/** What the test run answers. */
export const debugResultSchema = z
  .object({
    ok: z.boolean(),
    status: z.number().int().nullable().openapi({ description: "HTTP status of the plugin's answer; null when none came" }),
    durationMs: z.number().int(),
    request: z
      .object({ method: z.string(), url: z.string(), headers: z.record(z.string(), z.string()), body: z.string().nullable() })
      .nullable()
      .openapi({ description: "The request as sent (header secrets masked); null when the arguments were refused" }),
    response: z.object({ contentType: z.string().nullable(), body: z.string(), truncated: z.boolean() }).nullable(),
    error: z.string().nullable(),
  })
  .openapi("PluginDebugResult");

/** What MCP discovery takes: a server to reach, or a saved MCP plugin (with edits over it). */
export const mcpDiscoverBody = z
  .object({
    pluginId: z.string().max(64).optional().openapi({ description: "A saved MCP plugin of this space; masked header values and tool switches come from it" }),
    url: z
      .string()
      .max(2048)
      .optional()
      .openapi({ description: "The MCP endpoint (http or https); the saved one when omitted", example: "https://mcp.example.com/mcp" }),
    headers: headersSchema.optional(),
    transport: mcpTransportSchema.optional(),
  })
  .openapi("McpDiscoverRequest");

/** What MCP discovery answers. */
export const mcpDiscoverResultSchema = z
  .object({
    transport: z.enum(["streamable-http", "sse"]).openapi({ description: "The transport that worked" }),
    server: z.object({ name: z.string(), version: z.string() }).nullable().openapi({ description: "The server's own name and version" }),
    tools: z.array(mcpToolSchema).openapi({ description: "Usable tools; switches kept from the saved plugin, new tools off" }),
    warnings: z
      .array(z.string())
      .openapi({ description: "Tools refused because their definition is unusable (no object input schema, bad name, listed twice)" }),
  })
  .openapi("McpDiscoverResult");

/** What an MCP tool test run takes. */
export const mcpDebugBody = mcpDiscoverBody
  .extend({
    tool: z.string().min(1).max(128).openapi({ description: "The tool to call", example: "get_weather" }),
    arguments: boundedJson(z.union([z.record(z.string(), z.unknown()), z.string()]))
      .default({})
      .openapi({ description: "Arguments as the model would send them: an object or its JSON text", example: { city: "Hangzhou" } }),
  })
  .openapi("McpDebugRequest");
