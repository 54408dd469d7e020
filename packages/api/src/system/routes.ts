import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute } from "../http/openapi";
import { outboxMessageSchema } from "../identity/schemas";
import { readOutbox } from "./service";

/** The product's version constant (spec §1). */
export const APP_VERSION = "3.4.0";

/** Health and operator views. */
export function registerSystemRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/health",
      tags: ["System"],
      public: true,
      summary: "Liveness and version",
      data: z
        .object({ status: z.literal("ok"), version: z.string().openapi({ example: APP_VERSION }), database: z.enum(["better-sqlite3", "libsql"]) })
        .openapi("Health"),
    }),
    (c) => ok(c, { status: "ok" as const, version: APP_VERSION, database: c.var.deps.config.database.driver }),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/outbox",
      tags: ["System"],
      summary: "Messages sent through the embedded outbox (instance owner only)",
      description: "When no SMTP server or SMS vendor is configured, codes and notices land here and in the log.",
      request: {
        query: z.object({
          to: z.string().max(254).optional().openapi({ description: "Only messages to this address" }),
          limit: z.string().regex(/^\d+$/).optional().openapi({ description: "At most this many (1-200, default 50)", example: "20" }),
        }),
      },
      data: z.array(outboxMessageSchema),
      extraErrors: { 403: "Only the instance owner may read the outbox" },
    }),
    async (c) => {
      const { deps, auth } = c.var;
      const query = c.req.valid("query");
      const limit = Math.min(200, Math.max(1, Number(query.limit ?? 50)));
      const to = query.to?.trim().toLowerCase();
      return ok(c, await readOutbox(deps, auth, { ...(to ? { to } : {}), limit }));
    },
  );
}
