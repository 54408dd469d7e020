import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import {
  builtinPluginSchema,
  builtinScopes,
  debugBody,
  debugResultSchema,
  mcpDebugBody,
  mcpDiscoverBody,
  mcpDiscoverResultSchema,
  parseBody,
  parseResultSchema,
  pluginBody,
  pluginSchema,
  pluginUpdateBody,
} from "./schemas";
import { builtinPlugins, builtinView } from "./service/builtins/index";
import { debugPlugin } from "./service/debug";
import { debugMcpTool, discoverPluginTools } from "./service/mcp";
import { parsePlugin } from "./service/parse/index";
import { createPlugin, deletePlugin, getPlugin, listPlugins, setPluginEnabled, updatePlugin } from "./service/plugins";

const deleted = z.object({ deleted: z.literal(true) });
const pluginId = idParam("id", "plg_01jd7w3k5q9x2m4n6p8r");

/** Custom and built-in plugins: CRUD, enable switch, parse, test run. */
export function registerPluginRoutes(app: OpenAPIHono<AppEnv>) {
  const tags = ["Plugins"];
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/plugins",
      tags,
      summary: "Custom plugins of the current space, newest first",
      request: {
        query: z.object({
          enabled: z.enum(["true", "false"]).optional().openapi({ description: "Only enabled (`true`) or disabled (`false`) plugins" }),
        }),
      },
      data: z.array(pluginSchema),
    }),
    async (c) => {
      const { enabled } = c.req.valid("query");
      return ok(c, await listPlugins(c.var.deps, c.var.auth, enabled === undefined ? {} : { enabled: enabled === "true" }));
    },
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/plugins/builtin",
      tags,
      summary: "Built-in plugins (current time, calculator, fetch a web page, web search)",
      request: { query: z.object({ scope: z.enum(builtinScopes).optional().openapi({ description: "Only built-ins of this scope" }) }) },
      data: z.array(builtinPluginSchema),
    }),
    (c) => {
      const { scope } = c.req.valid("query");
      const list = builtinPlugins.filter((plugin) => scope === undefined || plugin.scope === scope);
      return ok(
        c,
        list.map((plugin) => builtinView(plugin, c.var.deps.config.plugins, c.var.language)),
      );
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/plugins",
      tags,
      status: 201,
      summary: "Create a custom plugin (an HTTP request, or an MCP server with `kind: mcp`)",
      request: { body: jsonBody(pluginBody) },
      data: pluginSchema,
    }),
    async (c) => ok(c, await createPlugin(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/plugins/parse",
      tags,
      summary: "Parse an OpenAPI document or a curl command into a plugin draft",
      request: { body: jsonBody(parseBody) },
      data: parseResultSchema,
    }),
    (c) => ok(c, parsePlugin(c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/plugins/debug",
      tags,
      summary: "Test-run a plugin draft or a saved plugin with arguments, as the model would call it",
      request: { body: jsonBody(debugBody) },
      data: debugResultSchema,
    }),
    async (c) => ok(c, await debugPlugin(c.var.deps, c.var.auth, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/plugins/mcp/discover",
      tags,
      summary: "Connect to an MCP server and list its tools (Streamable HTTP, or SSE as fallback)",
      request: { body: jsonBody(mcpDiscoverBody) },
      data: mcpDiscoverResultSchema,
    }),
    async (c) => ok(c, await discoverPluginTools(c.var.deps, c.var.auth, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/plugins/mcp/debug",
      tags,
      summary: "Test-run one tool of an MCP server with arguments, as the model would call it",
      request: { body: jsonBody(mcpDebugBody) },
      data: debugResultSchema,
    }),
    async (c) => ok(c, await debugMcpTool(c.var.deps, c.var.auth, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({ method: "get", path: "/api/v1/plugins/{id}", tags, summary: "A custom plugin's detail", request: { params: pluginId }, data: pluginSchema }),
    async (c) => ok(c, await getPlugin(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/plugins/{id}",
      tags,
      summary: "Update a custom plugin (fields left out keep their value)",
      request: { params: pluginId, body: jsonBody(pluginUpdateBody) },
      data: pluginSchema,
    }),
    async (c) => ok(c, await updatePlugin(c.var.deps, c.var.auth, c.req.valid("param").id, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/plugins/{id}/enabled",
      tags,
      summary: "Switch a custom plugin on or off",
      request: { params: pluginId, body: jsonBody(z.object({ enabled: z.boolean() }).openapi("SetPluginEnabledRequest")) },
      data: pluginSchema,
    }),
    async (c) => ok(c, await setPluginEnabled(c.var.deps, c.var.auth, c.req.valid("param").id, c.req.valid("json").enabled)),
  );
  app.openapi(
    defineRoute({ method: "delete", path: "/api/v1/plugins/{id}", tags, summary: "Delete a custom plugin", request: { params: pluginId }, data: deleted }),
    async (c) => ok(c, await deletePlugin(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
}
