import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { translate } from "../http/translate";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import {
  advancedConfigSchema,
  appCategorySchema,
  appGroupSchema,
  appListQuery,
  appPageSchema,
  appSchema,
  appSeniorSchema,
  collectStateSchema,
  createAppBody,
  createRateLimitBody,
  deletedAppSchema,
  putThresholdBody,
  rateLimitRuleSchema,
  sceneParam,
  thresholdSchema,
  thumbStateSchema,
  updateAppBody,
  updateRateLimitBody,
} from "./schemas";
import { getAdvancedConfig, putAdvancedConfig } from "./service/advanced-config";
import { copyApp, createApp, deleteApp, getApp, getAppSenior, listApps, updateApp, upgradeApp } from "./service/apps";
import { listAppCategories, listAppGroups } from "./service/catalogue";
import { createRateLimit, deleteRateLimit, listAppRateLimits, updateRateLimit } from "./service/rate-limits";
import { setReaction } from "./service/reactions";
import { getThreshold, putThreshold } from "./service/thresholds";

const appParam = idParam("appId", "app_01jd7w3k5q9x2m4n6p8r");
const ruleParam = idParam("id", "rlr_01jd7w3k5q9x2m4n6p8r");
const deleted = z.object({ deleted: z.literal(true) });

/**
 * Apps, reactions, rate limits and thresholds. Every member of a space may read and change
 * the space's apps; anything of another space answers 404.
 */
export function registerAppRoutes(app: OpenAPIHono<AppEnv>) {
  const tags = ["Apps"];

  app.openapi(
    // The catalogue is static and the square shows it to guests, so it needs no sign-in.
    defineRoute({ method: "get", path: "/api/v1/app-categories", tags, public: true, summary: "App categories (localized)", data: z.array(appCategorySchema) }),
    (c) => ok(c, listAppCategories(c.var.language)),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/app-groups",
      tags,
      public: true,
      summary: "Role groups and their categories (localized)",
      data: z.array(appGroupSchema),
    }),
    (c) => ok(c, listAppGroups(c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/apps",
      tags,
      status: 201,
      summary: "Create an app in the current space",
      request: { body: jsonBody(createAppBody) },
      data: appSeniorSchema,
    }),
    async (c) => ok(c, await createApp(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/apps",
      tags,
      summary: "Apps of the current space, newest first, with the caller's thumb and collect marks",
      request: { query: appListQuery },
      data: appPageSchema,
    }),
    async (c) => ok(c, await listApps(c.var.deps, c.var.auth, c.req.valid("query"))),
  );
  app.openapi(
    defineRoute({ method: "get", path: "/api/v1/apps/{appId}", tags, summary: "App detail (basic)", request: { params: appParam }, data: appSchema }),
    async (c) => ok(c, await getApp(c.var.deps, c.var.auth, c.req.valid("param").appId)),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/apps/{appId}/senior",
      tags,
      summary: "App detail with retrieval, plugin and advanced settings (senior detail)",
      request: { params: appParam },
      data: appSeniorSchema,
    }),
    async (c) => ok(c, await getAppSenior(c.var.deps, c.var.auth, c.req.valid("param").appId)),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/apps/{appId}",
      tags,
      summary: "Change an app's settings",
      request: { params: appParam, body: jsonBody(updateAppBody) },
      data: appSeniorSchema,
    }),
    async (c) => ok(c, await updateApp(c.var.deps, c.var.auth, c.req.valid("param").appId, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/apps/{appId}",
      tags,
      summary: "Delete an app; answers the neighbour to select next",
      request: { params: appParam },
      data: deletedAppSchema,
    }),
    async (c) => ok(c, await deleteApp(c.var.deps, c.var.auth, c.req.valid("param").appId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/apps/{appId}/copy",
      tags,
      status: 201,
      summary: "Copy an app (new code, counts reset, not public; rate limits and advanced settings copied)",
      request: { params: appParam },
      data: appSeniorSchema,
    }),
    async (c) => ok(c, await copyApp(c.var.deps, c.var.auth, c.req.valid("param").appId, { nameSuffix: translate(c.var.language, "app_copy_suffix") }), 201),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/apps/{appId}/upgrade",
      tags,
      summary: "Upgrade a light app to a knowledge app",
      request: { params: appParam },
      data: appSeniorSchema,
      extraErrors: { 409: "Only a light app can be upgraded" },
    }),
    async (c) => ok(c, await upgradeApp(c.var.deps, c.var.auth, c.req.valid("param").appId)),
  );

  for (const [method, on] of [
    ["post", true],
    ["delete", false],
  ] as const) {
    app.openapi(
      defineRoute({
        method,
        path: "/api/v1/apps/{appId}/thumb",
        tags,
        summary: on ? "Thumb an app up (idempotent)" : "Take back a thumb (idempotent)",
        request: { params: appParam },
        data: thumbStateSchema,
      }),
      async (c) => {
        const state = await setReaction(c.var.deps, c.var.auth, c.req.valid("param").appId, "thumb", on);
        return ok(c, { thumbed: state.active, thumbCount: state.count });
      },
    );
    app.openapi(
      defineRoute({
        method,
        path: "/api/v1/apps/{appId}/collect",
        tags,
        summary: on ? "Collect an app (idempotent)" : "Take an app out of the collection (idempotent)",
        request: { params: appParam },
        data: collectStateSchema,
      }),
      async (c) => {
        const state = await setReaction(c.var.deps, c.var.auth, c.req.valid("param").appId, "collect", on);
        return ok(c, { collected: state.active, collectCount: state.count });
      },
    );
  }

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/apps/{appId}/advanced-config",
      tags,
      summary: "Advanced configuration: humanization, manual handover, database settings",
      request: { params: appParam },
      data: advancedConfigSchema,
    }),
    async (c) => ok(c, await getAdvancedConfig(c.var.deps, c.var.auth, c.req.valid("param").appId)),
  );
  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/apps/{appId}/advanced-config",
      tags,
      summary: "Replace the advanced configuration",
      request: { params: appParam, body: jsonBody(advancedConfigSchema) },
      data: advancedConfigSchema,
    }),
    async (c) => ok(c, await putAdvancedConfig(c.var.deps, c.var.auth, c.req.valid("param").appId, c.req.valid("json"))),
  );

  const rateTags = ["Rate limits"];
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/apps/{appId}/rate-limits",
      tags: rateTags,
      summary: "Rate-limit rules of an app",
      request: { params: appParam },
      data: z.array(rateLimitRuleSchema),
    }),
    async (c) => ok(c, await listAppRateLimits(c.var.deps, c.var.auth, c.req.valid("param").appId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/apps/{appId}/rate-limits",
      tags: rateTags,
      status: 201,
      summary: "Add a rate-limit rule (one per channel and period)",
      request: { params: appParam, body: jsonBody(createRateLimitBody) },
      data: rateLimitRuleSchema,
      extraErrors: { 409: "A rule for this channel and period exists" },
    }),
    async (c) => ok(c, await createRateLimit(c.var.deps, c.var.auth, c.req.valid("param").appId, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/rate-limits/{id}",
      tags: rateTags,
      summary: "Change a rate-limit rule",
      request: { params: ruleParam, body: jsonBody(updateRateLimitBody) },
      data: rateLimitRuleSchema,
      extraErrors: { 409: "A rule for this channel and period exists" },
    }),
    async (c) => ok(c, await updateRateLimit(c.var.deps, c.var.auth, c.req.valid("param").id, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/rate-limits/{id}",
      tags: rateTags,
      summary: "Delete a rate-limit rule",
      request: { params: ruleParam },
      data: deleted,
    }),
    async (c) => ok(c, await deleteRateLimit(c.var.deps, c.var.auth, c.req.valid("param").id)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/thresholds/{scene}",
      tags: rateTags,
      summary: "Threshold configuration of a scene in the current space (balance-alert: the alert of /api/v1/balance-alert)",
      request: { params: sceneParam },
      data: thresholdSchema,
    }),
    async (c) => ok(c, await getThreshold(c.var.deps, c.var.auth, c.req.valid("param").scene)),
  );
  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/thresholds/{scene}",
      tags: rateTags,
      summary: "Save the threshold configuration of a scene (balance-alert: the alert of /api/v1/balance-alert)",
      request: { params: sceneParam, body: jsonBody(putThresholdBody) },
      data: thresholdSchema,
    }),
    async (c) => ok(c, await putThreshold(c.var.deps, c.var.auth, c.req.valid("param").scene, c.req.valid("json"))),
  );
}
