import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A role of the team space: a system role or a custom one. */
export type Role = Schemas["Role"];
/** A role's data range (step 2 of the editor). */
export type DataRange = Schemas["DataRange"];
/** One function resource of step 1, with the operations behind each level. */
export type FunctionResource = Schemas["FunctionResource"];
/** What step 2 can choose from. */
export type RoleDataResources = Schemas["RoleDataResources"];

/** Cache keys (below the space, see query.ts): the roles list, and the editor's two catalogues. */
export const ROLES = ["team", "roles"];
export const ROLE_FUNCTIONS = ["team", "resources", "functions"];
export const ROLE_DATA = ["team", "resources", "data"];

const byId = (roleId: string) => ({ params: { path: { roleId } } });

/**
 * The role calls of the Roles tab and the role editor (issue 16), through the SDK. Changes are
 * `silent`: the screens show a refusal next to what it refuses.
 */
export const rolesEndpoints = {
  list: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/team/roles", init)),
  create: (body: Schemas["CreateRoleRequest"], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/team/roles", { ...init, body })),
  update: (roleId: string, body: Schemas["UpdateRoleRequest"], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/team/roles/{roleId}", { ...init, ...byId(roleId), body })),
  remove: (roleId: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.DELETE("/api/v1/team/roles/{roleId}", { ...init, ...byId(roleId) })),
  functions: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/team/resources/functions", init)),
  data: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/team/resources/data", init)),
  setGrants: (roleId: string, grants: string[], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PUT("/api/v1/team/roles/{roleId}/grants", { ...init, ...byId(roleId), body: { grants } })),
  setDataRange: (roleId: string, body: Schemas["RoleDataRangeRequest"], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PUT("/api/v1/team/roles/{roleId}/data-range", { ...init, ...byId(roleId), body })),
};
