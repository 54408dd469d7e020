import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { createRoleBody, dataResourcesSchema, functionResourceSchema, roleDataRangeBody, roleGrantsBody, roleSchema, updateRoleBody } from "./schemas";
import { createRole, dataResources, deleteRole, functionResourceCatalogue, listRoles, setRoleDataRange, setRoleGrants, updateRole } from "./service/roles";

const tags = ["Team roles"];
const roleParam = idParam("roleId", "role_01jd7w3k5q9x2m4n6p8r");
const systemRefusal = { 409: "System roles cannot be changed; or the name is taken or a system role's" };

/** A team space's roles: system and custom, their function resources and data ranges. */
export function registerRoleRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/team/roles",
      tags,
      summary: "Roles of the space: system roles, then custom roles (getCompanyRole)",
      data: z.array(roleSchema),
    }),
    async (c) => ok(c, await listRoles(c.var.deps, c.var.auth, c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/team/roles",
      tags,
      status: 201,
      summary: "Create a custom role with no grants and no data range (addCompanyRole)",
      request: { body: jsonBody(createRoleBody) },
      data: roleSchema,
      extraErrors: { 409: "The name is taken or a system role's, or the space is personal" },
    }),
    async (c) => ok(c, await createRole(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );

  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/team/roles/{roleId}",
      tags,
      summary: "Rename or re-describe a custom role (modifyCompanyRole)",
      request: { params: roleParam, body: jsonBody(updateRoleBody) },
      data: roleSchema,
      extraErrors: systemRefusal,
    }),
    async (c) => ok(c, await updateRole(c.var.deps, c.var.auth, c.req.valid("param").roleId, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/team/roles/{roleId}",
      tags,
      summary: "Delete a custom role no member holds (deleteCompanyRole)",
      request: { params: roleParam },
      data: z.object({ deleted: z.literal(true) }),
      extraErrors: { 409: "A system role, or members still hold the role (the message says how many)" },
    }),
    async (c) => ok(c, await deleteRole(c.var.deps, c.var.auth, c.req.valid("param").roleId)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/team/resources/functions",
      tags,
      summary: "Function resources a role can hold, with the operations behind each level (queryCompanyRoleFunctionResource)",
      data: z.array(functionResourceSchema),
    }),
    async (c) => ok(c, functionResourceCatalogue(c.var.language)),
  );

  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/team/roles/{roleId}/grants",
      tags,
      summary: "Set a custom role's function resources, step 1 of the editor (modifyCompanyRoleFunctionResource)",
      description: "`edit` implies `view`; the grants are stored in canonical order. A caller cannot add a grant their own role does not hold.",
      request: { params: roleParam, body: jsonBody(roleGrantsBody) },
      data: roleSchema,
      extraErrors: { 403: "The caller's own role does not hold a grant they tried to give", ...systemRefusal },
    }),
    async (c) => ok(c, await setRoleGrants(c.var.deps, c.var.auth, c.req.valid("param").roleId, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/team/resources/data",
      tags,
      summary: "Apps, knowledge bases and clients a data range can list (queryCompanyRoleDataResource)",
      data: dataResourcesSchema,
    }),
    async (c) => ok(c, await dataResources(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/team/roles/{roleId}/data-range",
      tags,
      summary: "Set a custom role's data range, step 2 of the editor (modifyCompanyRoleDataResource)",
      request: { params: roleParam, body: jsonBody(roleDataRangeBody) },
      data: roleSchema,
      extraErrors: systemRefusal,
    }),
    async (c) => ok(c, await setRoleDataRange(c.var.deps, c.var.auth, c.req.valid("param").roleId, c.req.valid("json"))),
  );
}
