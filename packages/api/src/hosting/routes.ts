import type { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import {
  accountIdQuery,
  bindAppBody,
  groupListQuery,
  hostedAccountSchema,
  hostedGroupSchema,
  hostingBridgeSchema,
  hostingConfigSchema,
  loginStatusSchema,
  requestQrCodeBody,
  saveHostingConfigBody,
  submitVerifyCodeBody,
} from "./schemas";
import {
  bindHostedApp,
  deleteHostedAccount,
  getHostedAccount,
  getHostingConfig,
  hostingOverview,
  listHostedAccounts,
  listHostedGroups,
  loginStatus,
  logOutHostedAccount,
  moveHostedGroup,
  requestQrCode,
  saveHostingConfig,
  submitVerifyCode,
  switchHostedAccount,
  syncHostedGroups,
} from "./service";

const tags = ["Hosting"];
const accountOf = idParam("id", "hacc_01jb7x3m9q2r5t8v0w4y6z1a3c");
const groupOf = idParam("id", "hgrp_01jb7x3m9q2r5t8v0w4y6z1a3c");
const noBridge = "No hosting bridge is configured (`hosting_bridge_not_configured`); the message names the official routes to use instead";
const invalidTransition = "The account's state does not allow this (`hosting_transition_invalid`, naming the action and the state)";
const invalidGroupTransition = "The group's state does not allow this (`hosting_group_transition_invalid`)";
const bridgeFailed = "The hosting bridge failed (`hosting_bridge_failed`)";

/**
 * Personal-account hosting (spec §7 "Hosting"): accounts logged in by QR code through a
 * pluggable bridge, switched on and off, their group chats synced, opened and cancelled.
 */
export function registerHostingRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/hosting/bridge",
      tags,
      summary: "Whether a hosting bridge is installed, and the official WeChat routes that cover the need without one",
      data: hostingBridgeSchema,
    }),
    (c) => ok(c, hostingOverview(c.var.deps)),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/hosting/accounts",
      tags,
      summary: "The space's hosted accounts (account list)",
      data: z.array(hostedAccountSchema),
    }),
    async (c) => ok(c, await listHostedAccounts(c.var.deps, c.var.auth)),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/hosting/accounts/{id}",
      tags,
      summary: "One hosted account",
      request: { params: accountOf },
      data: hostedAccountSchema,
    }),
    async (c) => ok(c, await getHostedAccount(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/hosting/accounts/{id}",
      tags,
      summary: "Delete a hosted account that is logged out, offline or expired, with its groups",
      request: { params: accountOf },
      data: z.object({ deleted: z.literal(true) }),
      extraErrors: { 409: invalidTransition },
    }),
    async (c) => ok(c, await deleteHostedAccount(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/hosting/accounts/{id}/on",
      tags,
      summary: "Switch hosting on: a paused account answers again (account on)",
      request: { params: accountOf },
      data: hostedAccountSchema,
      extraErrors: { 409: invalidTransition },
    }),
    async (c) => ok(c, await switchHostedAccount(c.var.deps, c.var.auth, c.req.valid("param").id, true)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/hosting/accounts/{id}/off",
      tags,
      summary: "Switch hosting off: the account stays logged in and answers nothing (account off)",
      request: { params: accountOf },
      data: hostedAccountSchema,
      extraErrors: { 409: invalidTransition },
    }),
    async (c) => ok(c, await switchHostedAccount(c.var.deps, c.var.auth, c.req.valid("param").id, false)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/hosting/accounts/{id}/logout",
      tags,
      summary: "Log the account out (the bridge forgets the session; a bridge failure is kept in lastError)",
      request: { params: accountOf },
      data: hostedAccountSchema,
      extraErrors: { 409: invalidTransition },
    }),
    async (c) => ok(c, await logOutHostedAccount(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/hosting/accounts/{id}/app",
      tags,
      summary: "Bind the app that answers for the account (app binding)",
      request: { params: accountOf, body: jsonBody(bindAppBody) },
      data: hostedAccountSchema,
    }),
    async (c) => ok(c, await bindHostedApp(c.var.deps, c.var.auth, c.req.valid("param").id, c.req.valid("json").appId)),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/hosting/accounts/{id}/config",
      tags,
      summary: "How the account answers (config detail)",
      request: { params: accountOf },
      data: hostingConfigSchema,
    }),
    async (c) => ok(c, await getHostingConfig(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/hosting/accounts/{id}/config",
      tags,
      summary: "Change how the account answers; fields left out keep their value (config save)",
      request: { params: accountOf, body: jsonBody(saveHostingConfigBody) },
      data: hostingConfigSchema,
    }),
    async (c) => ok(c, await saveHostingConfig(c.var.deps, c.var.auth, c.req.valid("param").id, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/hosting/accounts/{id}/groups",
      tags,
      summary: "The account's group chats as last synced (group list)",
      request: { params: accountOf, query: groupListQuery },
      data: z.array(hostedGroupSchema),
    }),
    async (c) => ok(c, await listHostedGroups(c.var.deps, c.var.auth, c.req.valid("param").id, c.req.valid("query").state)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/hosting/accounts/{id}/groups/sync",
      tags,
      summary: "Sync the group chats from the bridge; new ones wait to be opened (sync, waiting to open)",
      request: { params: accountOf },
      data: z.array(hostedGroupSchema),
      extraErrors: { 403: noBridge, 409: invalidTransition, 502: bridgeFailed },
    }),
    async (c) => ok(c, await syncHostedGroups(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );
  for (const [segment, action, summary] of [
    ["on", "open", "Open the group: the bot answers in it (group on)"],
    ["off", "pause", "Switch the group off for a while (group off)"],
    ["cancel", "cancel", "Take the group out of hosting (group cancel)"],
  ] as const) {
    app.openapi(
      defineRoute({
        method: "post",
        path: `/api/v1/hosting/groups/{id}/${segment}`,
        tags,
        summary,
        request: { params: groupOf },
        data: hostedGroupSchema,
        extraErrors: { 409: invalidGroupTransition },
      }),
      async (c) => ok(c, await moveHostedGroup(c.var.deps, c.var.auth, c.req.valid("param").id, action)),
    );
  }
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/hosting/login/qr-code",
      tags,
      status: 201,
      summary: "Start a QR login: adds an account, or logs an existing one in again (login qr_code)",
      request: { body: jsonBody(requestQrCodeBody) },
      data: hostedAccountSchema,
      extraErrors: { 403: noBridge, 409: invalidTransition, 502: bridgeFailed },
    }),
    async (c) => ok(c, await requestQrCode(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/hosting/login/status",
      tags,
      summary: "Poll a pending login: applies what the bridge reports (verification code wanted, logged in, expired) (login status)",
      request: { query: accountIdQuery },
      data: loginStatusSchema,
      extraErrors: { 403: noBridge, 502: bridgeFailed },
    }),
    async (c) => ok(c, await loginStatus(c.var.deps, c.var.auth, c.req.valid("query").accountId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/hosting/login/verify-code",
      tags,
      summary: "Submit the verification code the platform asked for (login submit_verify_code)",
      request: { body: jsonBody(submitVerifyCodeBody) },
      data: hostedAccountSchema,
      extraErrors: { 403: noBridge, 409: invalidTransition, 502: bridgeFailed },
    }),
    async (c) => ok(c, await submitVerifyCode(c.var.deps, c.var.auth, c.req.valid("json"))),
  );
}
