import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, jsonBody } from "../http/openapi";
import { memberPrivilegeCostSchema, memberPrivilegeSchema, myCreditsSchema, setAllocationBody, teamCreditsSchema } from "./schemas";
import { getMemberPrivilege, getMemberPrivilegeCost, getMyCredits, getTeamCredits, setAllocation } from "./service";

const tags = ["Team"];

/** Enterprise credits of a team space (decision 0019): members' allocations, the balance summary, the members quota and its cost. */
export function registerCreditRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/team/credits",
      tags,
      summary: "The space's balance, allocated and unallocated credits, and each member's allocation (sumCompanyBalance)",
      description: "Team spaces only (400 in a personal space).",
      data: teamCreditsSchema,
    }),
    async (c) => ok(c, await getTeamCredits(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/team/credits/allocations",
      tags,
      summary: "Set a member's credit allocation (companyBalanceManage)",
      description:
        "`amount` is the member's new allocation, not an increment. The allocations together never exceed the space's balance: raising one past the unallocated pool is refused (409) and nothing changes. The owner has no allocation (400) and nobody sets their own (403). Answers the summary after the change.",
      request: { body: jsonBody(setAllocationBody) },
      data: teamCreditsSchema,
      extraErrors: { 409: "The unallocated credits do not cover the allocation" },
    }),
    async (c) => ok(c, await setAllocation(c.var.deps, c.var.auth, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/team/credits/me",
      tags,
      summary: "The caller's own allocation and spending in the current space",
      data: myCreditsSchema,
    }),
    async (c) => ok(c, await getMyCredits(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/team/member-privilege",
      tags,
      summary: "Whether the plan lets the space add members: quota, used, remaining (getUseMemberPrivilege)",
      data: memberPrivilegeSchema,
    }),
    async (c) => ok(c, await getMemberPrivilege(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/team/member-privilege/cost",
      tags,
      summary: "What more member seats cost: the cheapest plan that allows more (getUseMemberPrivilegeCost)",
      data: memberPrivilegeCostSchema,
    }),
    async (c) => ok(c, await getMemberPrivilegeCost(c.var.deps, c.var.auth)),
  );
}
