import type { components } from "@parley/sdk";
import { call, client } from "../request";
import type { Extra } from "./shared";

type Schemas = components["schemas"];

/** Custom plugins (HTTP and MCP servers), MCP discovery and tool test run, the built-ins, parse (OpenAPI or curl) and the test run. */
export const pluginEndpoints = {
  list: (extra: Extra = {}) => call({ dedupeKey: "plugins", ...extra }, (init) => client.GET("/api/v1/plugins", init)),
  builtin: (extra: Extra = {}) => call({ dedupeKey: "plugins-builtin", ...extra }, (init) => client.GET("/api/v1/plugins/builtin", init)),
  get: (id: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/plugins/{id}", { ...init, params: { path: { id } } })),
  create: (body: Schemas["PluginInput"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/plugins", { ...init, body })),
  update: (id: string, body: Schemas["UpdatePluginRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.PATCH("/api/v1/plugins/{id}", { ...init, params: { path: { id } }, body })),
  remove: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/plugins/{id}", { ...init, params: { path: { id } } })),
  setEnabled: (id: string, enabled: boolean, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/plugins/{id}/enabled", { ...init, params: { path: { id } }, body: { enabled } })),
  parse: (body: Schemas["PluginParseRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/plugins/parse", { ...init, body })),
  debug: (body: Schemas["PluginDebugRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/plugins/debug", { ...init, body })),
  mcpDiscover: (body: Schemas["McpDiscoverRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/plugins/mcp/discover", { ...init, body })),
  mcpDebug: (body: Schemas["McpDebugRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/plugins/mcp/debug", { ...init, body })),
};
