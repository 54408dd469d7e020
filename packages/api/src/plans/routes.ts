import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, jsonBody } from "../http/openapi";
import { adminRoute } from "../instance/routes";
import { planCatalogueSchema, planCodeParam, planSchema, spacePlanSchema, updatePlanBody } from "./schemas";
import { getCatalogue, getSpacePlan, updatePlan } from "./service/catalogue";

const tags = ["Plans"];

/** The plan catalogue, the current space's plan and usage, and the administrator's plan edits. */
export function registerPlanRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/plans",
      tags,
      public: true,
      summary: "The plan catalogue (public)",
      description:
        "Free, Pro, Team, Enterprise and Custom with their grade, monthly and yearly prices per currency (a year costs ten months), included credits, quotas and whether the price page offers them.",
      data: planCatalogueSchema,
    }),
    async (c) => ok(c, await getCatalogue(c.var.deps)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/plans/current",
      tags,
      summary: "The current space's plan and its use of every quota",
      description: "A plan whose period has ended reads as Free; items over Free's quotas stay, new ones are refused with 701.",
      data: spacePlanSchema,
    }),
    async (c) => ok(c, await getSpacePlan(c.var.deps, c.var.auth)),
  );

  app.openapi(
    adminRoute({
      method: "patch",
      path: "/api/v1/instance/plans/{code}",
      tags: ["Instance"],
      summary: "Edit a plan of the catalogue (administrator only)",
      description:
        "Prices, included credits, quotas and whether it is offered. Only the fields sent change; the others keep following the defaults. Spaces on the plan get the new quotas at once.",
      request: { params: planCodeParam, body: jsonBody(updatePlanBody) },
      data: planSchema,
      extraErrors: { 403: "Only the instance administrator edits plans" },
    }),
    async (c) => ok(c, await updatePlan(c.var.deps, c.req.valid("param").code, c.req.valid("json"))),
  );
}
