import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import { privilegesSchema, spaceSchema, userSchema } from "../identity/schemas";
import { memberGrades } from "./service/privileges";
import { createTeamSpace, getPrivileges, getSpace, listSpaces, selectSpace, updateSpace } from "./service/spaces";

const tags = ["Spaces"];
const spaceParam = idParam("spaceId", "spc_01jd7w3k5q9x2m4n6p8r");

/** Personal and team spaces, and what the member may see in them. */
export function registerSpaceRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/me/spaces",
      tags,
      summary: "Spaces the user belongs to (userList; `current` marks nowSelect)",
      data: z.array(spaceSchema),
    }),
    async (c) => ok(c, await listSpaces(c.var.deps, c.var.auth.userId)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/spaces",
      tags,
      status: 201,
      summary: "Create a team space (becomes the current space)",
      request: { body: jsonBody(z.object({ companyName: z.string().max(100).openapi({ example: "Acme Support" }) }).openapi("CreateSpaceRequest")) },
      data: spaceSchema,
    }),
    async (c) => ok(c, await createTeamSpace(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );

  app.openapi(
    defineRoute({ method: "get", path: "/api/v1/spaces/{spaceId}", tags, summary: "One space", request: { params: spaceParam }, data: spaceSchema }),
    async (c) => ok(c, await getSpace(c.var.deps, c.var.auth, c.req.valid("param").spaceId)),
  );

  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/spaces/{spaceId}",
      tags,
      summary: "Rename or re-brand a space (owner or admin)",
      request: {
        params: spaceParam,
        body: jsonBody(
          z
            .object({
              companyName: z.string().max(100).optional(),
              companyTabIconUrl: z.string().url().max(500).nullable().optional(),
              companyTabTitle: z.string().max(60).nullable().optional(),
              companyIconWordUrl: z.string().url().max(500).nullable().optional(),
            })
            .openapi("UpdateSpaceRequest"),
        ),
      },
      data: spaceSchema,
      extraErrors: { 403: "Only the owner or an admin may change the space" },
    }),
    async (c) => ok(c, await updateSpace(c.var.deps, c.var.auth, c.req.valid("param").spaceId, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/spaces/{spaceId}/select",
      tags,
      summary: "Switch the current space",
      request: { params: spaceParam },
      data: userSchema,
    }),
    async (c) => ok(c, await selectSpace(c.var.deps, c.var.auth, c.req.valid("param").spaceId)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/privileges",
      tags,
      summary: "Menus and privileges of the caller in the current space",
      description:
        "`memberGrade` is accepted for compatibility with clients that send it; the answer always reflects the grade the server holds for the space.",
      request: { query: z.object({ memberGrade: z.enum(memberGrades).optional() }) },
      data: privilegesSchema,
    }),
    async (c) => ok(c, await getPrivileges(c.var.deps, c.var.auth)),
  );
}
