import { z } from "@hono/zod-openapi";
import { accessLevels, functionResources } from "../access/resources";
import { dataScopes } from "../access/roles";

const grantExample = ["apps.view", "apps.edit", "knowledge.view"];

/** A data range as roles store it (decision 0019). */
export const dataRangeSchema = z
  .object({
    scope: z.enum(dataScopes).openapi({ description: "all: every object; own: what the member created; chosen: the listed objects plus their own" }),
    appIds: z.array(z.string()).optional(),
    knowledgeBaseIds: z.array(z.string()).optional(),
    clientIds: z.array(z.string()).optional(),
  })
  .openapi("DataRange");

/** A role of a team space: a system role or a custom one. */
export const roleSchema = z
  .object({
    id: z
      .string()
      .openapi({ description: "A system role's key (owner, admin, developer, operator, viewer) or a custom role's id", example: "role_01jd7w3k5q9x2m4n6p8r" }),
    name: z.string().openapi({ example: "Support lead" }),
    description: z.string(),
    system: z.boolean().openapi({ description: "System roles are defined by Parley and cannot be changed" }),
    grants: z.array(z.string()).openapi({ example: grantExample }),
    /** Null until step 2 of the role editor saved one (the role then reaches only its members' own objects). */
    dataRange: z.union([dataRangeSchema, z.null()]),
    memberCount: z.number().int(),
  })
  .openapi("Role");

/** The body of creating a role. */
export const createRoleBody = z
  .object({
    name: z.string().max(30).openapi({ description: "1 to 30 characters, unique in the space", example: "Support lead" }),
    description: z.string().max(200).optional(),
  })
  .openapi("CreateRoleRequest");

/** The body of renaming or re-describing a role. */
export const updateRoleBody = z.object({ name: z.string().max(30).optional(), description: z.string().max(200).optional() }).openapi("UpdateRoleRequest");

/** The body of step 1 of the role editor. */
export const roleGrantsBody = z.object({ grants: z.array(z.string().max(40)).max(100).openapi({ example: grantExample }) }).openapi("RoleGrantsRequest");

/** The body of step 2 of the role editor. */
export const roleDataRangeBody = z
  .object({
    scope: z.enum(dataScopes),
    appIds: z.array(z.string().max(64)).max(500).optional(),
    knowledgeBaseIds: z.array(z.string().max(64)).max(500).optional(),
    clientIds: z.array(z.string().max(64)).max(500).optional(),
  })
  .openapi("RoleDataRangeRequest");

/** One function resource of step 1: its menu, its levels and the operations behind each. */
export const functionResourceSchema = z
  .object({
    resource: z.enum(functionResources),
    name: z.string().openapi({ example: "Apps" }),
    route: z.string().openapi({ example: "/console/agents" }),
    levels: z.array(
      z.object({
        level: z.enum(accessLevels),
        grant: z.string().openapi({ example: "apps.view" }),
        operations: z.array(z.string()).openapi({ description: "`METHOD /path` of each operation the grant allows", example: ["GET /api/v1/apps"] }),
      }),
    ),
  })
  .openapi("FunctionResource");

/** What step 2 of the role editor can choose from. */
export const dataResourcesSchema = z
  .object({
    apps: z.array(z.object({ id: z.string(), name: z.string(), type: z.string() })),
    knowledgeBases: z.array(z.object({ id: z.string(), name: z.string() })),
    clients: z.array(
      z.object({ id: z.string(), name: z.string(), kind: z.string().openapi({ description: "`web` for a web client, else the channel kind" }) }),
    ),
  })
  .openapi("RoleDataResources");
