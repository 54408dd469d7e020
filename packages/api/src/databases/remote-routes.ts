import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { connectionTestBody, connectionTestResultSchema, onlineTableSchema, saveOnlineTablesBody } from "./remote-schemas";
import { listOnlineTables, saveOnlineTables, testConnection } from "./service/remote";

const tags = ["Databases"];
const databaseParam = idParam("databaseId", "db_01jd7w3k5q9x2m4n6p8r");
const remoteFailures = {
  502: "The remote database is down, slow or busy (the message says which; it never contains the password)",
} as const;

/**
 * Remote databases online (spec §7 Database calls): the connection test, the online tables and
 * their save. Settings are saved without connecting (the console tests first), so a database
 * that is down for maintenance can still be edited.
 */
export function registerRemoteDatabaseRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/databases/connection-test",
      tags,
      summary:
        "Test a remote database's connection (connection test): unsaved settings, or a saved database with fields replaced; answers the latency and the server's version",
      request: { body: jsonBody(connectionTestBody) },
      data: connectionTestResultSchema,
      extraErrors: remoteFailures,
    }),
    async (c) => ok(c, await testConnection(c.var.deps, c.var.auth, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/databases/{databaseId}/online-tables",
      tags,
      summary: "The tables the remote server offers now, with comments, row estimates and columns, and which are chosen (online tables)",
      request: { params: databaseParam },
      data: z.array(onlineTableSchema),
      extraErrors: remoteFailures,
    }),
    async (c) => ok(c, await listOnlineTables(c.var.deps, c.var.auth, c.req.valid("param").databaseId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/databases/{databaseId}/online-tables",
      tags,
      summary:
        "Save the chosen online tables with descriptions (online table save): the live schema is read again and stored; tables left out are no longer chosen",
      request: { params: databaseParam, body: jsonBody(saveOnlineTablesBody) },
      data: z.array(onlineTableSchema),
      extraErrors: remoteFailures,
    }),
    async (c) => ok(c, await saveOnlineTables(c.var.deps, c.var.auth, c.req.valid("param").databaseId, c.req.valid("json").tables)),
  );
}
