import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { spaces } from "./spaces";

/** A custom plugin: an HTTP request or an MCP server (spec §3 Plugin). Built-in plugins live in code, not here. */
export const plugins = sqliteTable(
  "plugins",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** Code apps refer to; unique across the instance. */
    code: text("code").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    name: text("name").notNull(),
    description: text("description").notNull(),
    avatarUrl: text("avatar_url").notNull(),
    requestUrl: text("request_url").notNull(),
    requestMethod: text("request_method", { enum: ["GET", "POST", "PUT", "PATCH", "DELETE"] }).notNull(),
    /** JSON array of parameters: { name, type, description, required, default?, children? }. */
    requestParams: text("request_params").notNull().default("[]"),
    responseParams: text("response_params").notNull().default("[]"),
    /** JSON object of extra request headers (may hold secrets: never echoed in full). */
    headers: text("headers").notNull().default("{}"),
    /** `http`: one HTTP request per call; `mcp`: an MCP server at `request_url` whose enabled tools become functions. */
    kind: text("kind", { enum: ["http", "mcp"] })
      .notNull()
      .default("http"),
    /** How an MCP plugin connects: `auto` tries Streamable HTTP, then falls back to SSE. */
    mcpTransport: text("mcp_transport", { enum: ["auto", "streamable-http", "sse"] })
      .notNull()
      .default("auto"),
    /** JSON array of the MCP server's discovered tools: { name, title?, description, inputSchema, enabled }. */
    mcpTools: text("mcp_tools").notNull().default("[]"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("plugins_code_unique").on(table.code), index("plugins_space_idx").on(table.spaceId)],
);
