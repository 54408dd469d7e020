import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { apiKeySchema, createdApiKeySchema, createdUserKeySchema, userKeyBody, userKeySchema } from "../identity/schemas";
import { createApiKey, createUserKey, deleteApiKey, deleteUserKey, listApiKeys, listUserKeys, updateUserKey } from "./service/keys";

const deleted = z.object({ deleted: z.literal(true) });

/** Personal API keys and the space's user keys. */
export function registerKeyRoutes(app: OpenAPIHono<AppEnv>) {
  const tags = ["API keys"];
  app.openapi(
    defineRoute({ method: "get", path: "/api/v1/me/api-keys", tags, summary: "Personal API keys (with create and active times)", data: z.array(apiKeySchema) }),
    async (c) => ok(c, await listApiKeys(c.var.deps, c.var.auth)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/me/api-keys",
      tags,
      status: 201,
      summary: "Create a personal API key (the key is shown once)",
      request: { body: jsonBody(z.object({ name: z.string().min(1).max(60).openapi({ example: "CI deploy" }) }).openapi("CreateApiKeyRequest")) },
      data: createdApiKeySchema,
    }),
    async (c) => ok(c, await createApiKey(c.var.deps, c.var.auth.userId, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/me/api-keys/{id}",
      tags,
      summary: "Delete a personal API key",
      request: { params: idParam("id", "key_01jd7w3k5q9x2m4n6p8r") },
      data: deleted,
    }),
    async (c) => ok(c, await deleteApiKey(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );

  const userKeyTags = ["User keys"];
  app.openapi(
    defineRoute({ method: "get", path: "/api/v1/user-keys", tags: userKeyTags, summary: "User keys of the current space", data: z.array(userKeySchema) }),
    async (c) => ok(c, await listUserKeys(c.var.deps, c.var.auth)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/user-keys",
      tags: userKeyTags,
      status: 201,
      summary: "Create a user key (the key is shown once)",
      request: { body: jsonBody(userKeyBody) },
      data: createdUserKeySchema,
    }),
    async (c) => ok(c, await createUserKey(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/user-keys/{id}",
      tags: userKeyTags,
      summary: "Update a user key",
      request: { params: idParam("id", "ukey_01jd7w3k5q9x2m4n6p8r"), body: jsonBody(userKeyBody.partial().openapi("UpdateUserKeyRequest")) },
      data: userKeySchema,
    }),
    async (c) => ok(c, await updateUserKey(c.var.deps, c.var.auth, c.req.valid("param").id, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/user-keys/{id}",
      tags: userKeyTags,
      summary: "Delete a user key",
      request: { params: idParam("id", "ukey_01jd7w3k5q9x2m4n6p8r") },
      data: deleted,
    }),
    async (c) => ok(c, await deleteUserKey(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
}
