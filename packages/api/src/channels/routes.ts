import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { handleWebhook } from "./pipeline";
import {
  channelCatalogueSchema,
  channelClientSchema,
  createChannelClientBody,
  updateChannelClientBody,
  wechatBindingCodeSchema,
  wechatBindingSchema,
} from "./schemas";
import { createBindingCode, deleteMyBinding, listMyBindings } from "./wechat-bindings";
import {
  channelCatalogue,
  checkChannelClient,
  createChannelClient,
  deleteChannelClient,
  getChannelClient,
  listChannelClients,
  updateChannelClient,
} from "./service";

const tags = ["Channel clients"];
const idOf = idParam("id", "ch_Xk2v9QpLm3TzA8bc");

/** Where every platform delivers: verified per client, outside the envelope and the bearer auth. */
export const CHANNEL_WEBHOOK_PATH = /^\/api\/v1\/channels\/[^/]+\/webhook$/;

/** Channel clients (owner API) and the platforms' webhooks. */
export function registerChannelRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/channel-clients/catalogue",
      tags,
      summary: "The messaging platforms that can be connected, with their configuration forms and capabilities",
      data: channelCatalogueSchema,
    }),
    (c) => ok(c, channelCatalogue()),
  );
  app.openapi(
    defineRoute({ method: "get", path: "/api/v1/channel-clients", tags, summary: "The space's channel clients", data: z.array(channelClientSchema) }),
    async (c) => ok(c, await listChannelClients(c.var.deps, c.var.auth)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/channel-clients",
      tags,
      status: 201,
      summary: "Connect an app to a messaging platform; answers the webhook URL to paste into the platform",
      request: { body: jsonBody(createChannelClientBody) },
      data: channelClientSchema,
    }),
    async (c) => ok(c, await createChannelClient(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/channel-clients/{id}",
      tags,
      summary: "One channel client (config detail; secrets only as set or not)",
      request: { params: idOf },
      data: channelClientSchema,
    }),
    async (c) => ok(c, await getChannelClient(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/channel-clients/{id}",
      tags,
      summary: "Change a channel client: name, app, enabled, notification, configuration (config save)",
      request: { params: idOf, body: jsonBody(updateChannelClientBody) },
      data: channelClientSchema,
    }),
    async (c) => ok(c, await updateChannelClient(c.var.deps, c.var.auth, c.req.valid("param").id, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/channel-clients/{id}",
      tags,
      summary: "Delete a channel client (its webhook stops answering; its sessions stay in the inbox history)",
      request: { params: idOf },
      data: z.object({ deleted: z.literal(true) }),
    }),
    async (c) => ok(c, await deleteChannelClient(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/channel-clients/{id}/check",
      tags,
      summary: "Check the credentials with the platform and register the webhook where the platform takes it by API (Telegram, Discord)",
      request: { params: idOf },
      data: channelClientSchema,
      extraErrors: { 502: "The platform refused the settings (`channel_check_failed`)" },
    }),
    async (c) => ok(c, await checkChannelClient(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/channel-clients/{id}/wechat-binding-code",
      tags,
      summary: 'A code for the signed-in member to bind their WeChat to this official account for notices: send "BIND <code>" to the account within 10 minutes',
      request: { params: idOf },
      data: wechatBindingCodeSchema,
    }),
    async (c) => ok(c, await createBindingCode(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/me/wechat-bindings",
      tags,
      summary: "The signed-in member's WeChat bindings in the current space (where their WeChat notices go)",
      data: z.array(wechatBindingSchema),
    }),
    async (c) => ok(c, await listMyBindings(c.var.deps, c.var.auth)),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/me/wechat-bindings/{id}",
      tags,
      summary: "Remove one of the signed-in member's WeChat bindings",
      request: { params: idParam("id", "wxb_01jd7w3k5q9x2m4n6p8r") },
      data: z.object({ deleted: z.literal(true) }),
    }),
    async (c) => ok(c, await deleteMyBinding(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  // The platforms' own protocols (XML, JSON, form bodies; handshakes by GET): raw, not the envelope.
  app.on(["GET", "POST"], "/api/v1/channels/:id/webhook", (c) => handleWebhook(c.var.deps, c.req.param("id"), c.req.raw));
}
