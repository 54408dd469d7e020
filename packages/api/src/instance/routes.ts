import type { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/context";
import { ok, serviceErrorResponse } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { ServiceError } from "../errors";
import {
  instanceListQuery,
  instanceSpacePageSchema,
  instanceSpaceSchema,
  instanceUserPageSchema,
  instanceUserSchema,
  updateInstanceSpaceBody,
  updateInstanceUserBody,
} from "./schemas";
import { listInstanceSpaces, listInstanceUsers, requireInstanceAdmin, setSpaceCapabilities, setUserGrade } from "./service/instance";

const tags = ["Instance"];
const adminOnly = { 403: "Only the instance administrator (the first owner) administers the instance" };

/** Refuses anyone but the administrator before the input is even read, so nobody else learns what it checks. */
const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  try {
    await requireInstanceAdmin(c.var.deps, c.var.auth);
  } catch (error) {
    if (error instanceof ServiceError) return serviceErrorResponse(c, error);
    throw error;
  }
  await next();
};

/** {@link defineRoute} for the administrator's routes: the admin check runs after sign-in, before validation. */
export function adminRoute<const R extends Parameters<typeof defineRoute>[0]>(config: R) {
  const route = defineRoute(config);
  return { ...route, middleware: [...(route.middleware as MiddlewareHandler<AppEnv>[]), requireAdmin] } as typeof route;
}

/** Instance administration: users' grades and spaces' capabilities (instance administrator only). */
export function registerInstanceRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    adminRoute({
      method: "get",
      path: "/api/v1/instance/users",
      tags,
      summary: "Users of the instance (administrator only)",
      description: "Every account, oldest first. A user's `memberGrade` is the grade of their personal space.",
      request: { query: instanceListQuery },
      data: instanceUserPageSchema,
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await listInstanceUsers(c.var.deps, c.req.valid("query"))),
  );

  app.openapi(
    adminRoute({
      method: "patch",
      path: "/api/v1/instance/users/{userId}",
      tags,
      summary: "Set a user's member grade (administrator only)",
      description:
        "Sets the grade of the user's personal space; its quota overrides stay. The user's menus follow on their next privileges or me call, without signing in again.",
      request: { params: idParam("userId", "usr_01jd7w3k5q9x2m4n6p8r"), body: jsonBody(updateInstanceUserBody) },
      data: instanceUserSchema,
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await setUserGrade(c.var.deps, c.req.valid("param").userId, c.req.valid("json").memberGrade)),
  );

  app.openapi(
    adminRoute({
      method: "get",
      path: "/api/v1/instance/spaces",
      tags,
      summary: "Spaces of the instance (administrator only)",
      description: "Personal and team spaces, oldest first, with their owner, grade, overrides and the quotas they have.",
      request: { query: instanceListQuery },
      data: instanceSpacePageSchema,
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await listInstanceSpaces(c.var.deps, c.req.valid("query"))),
  );

  app.openapi(
    adminRoute({
      method: "patch",
      path: "/api/v1/instance/spaces/{spaceId}",
      tags,
      summary: "Set a space's grade and quotas (administrator only)",
      description:
        "Send `memberGrade`, `quotas` or both. `quotas` replaces the overrides (an omitted quota follows the grade; `null` removes them). Menus follow spec §6 from these values on the members' next privileges call.",
      request: { params: idParam("spaceId", "spc_01jd7w3k5q9x2m4n6p8r"), body: jsonBody(updateInstanceSpaceBody) },
      data: instanceSpaceSchema,
      extraErrors: adminOnly,
    }),
    async (c) => ok(c, await setSpaceCapabilities(c.var.deps, c.req.valid("param").spaceId, c.req.valid("json"))),
  );
}
