import type { components } from "@parley/sdk";
import { call, client } from "../request";
import type { Extra } from "./shared";

type Schemas = components["schemas"];

/** Paging and search of the instance lists. */
export interface InstanceListQuery {
  pageNo?: number;
  pageSize?: number;
  keyword?: string;
}

/** Instance administration: users' grades and spaces' capabilities (the administrator only). */
export const instanceEndpoints = {
  users: (query: InstanceListQuery, extra: Extra = {}) =>
    call({ dedupeKey: "instance-users", ...extra }, (init) => client.GET("/api/v1/instance/users", { ...init, params: { query } })),
  setUserGrade: (userId: string, body: Schemas["UpdateInstanceUserRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.PATCH("/api/v1/instance/users/{userId}", { ...init, params: { path: { userId } }, body })),
  spaces: (query: InstanceListQuery, extra: Extra = {}) =>
    call({ dedupeKey: "instance-spaces", ...extra }, (init) => client.GET("/api/v1/instance/spaces", { ...init, params: { query } })),
  setSpaceCapabilities: (spaceId: string, body: Schemas["UpdateInstanceSpaceRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.PATCH("/api/v1/instance/spaces/{spaceId}", { ...init, params: { path: { spaceId } }, body })),
};

/** Messages of the embedded outbox (instance owner only). */
export const outbox = (extra: Extra = {}) =>
  call({ dedupeKey: "outbox", ...extra }, (init) => client.GET("/api/v1/outbox", { ...init, params: { query: { limit: "200" } } }));

/** What a member grade may do (the privileges table). */
export const privileges = (memberGrade: Schemas["User"]["memberGrade"], extra: Extra = {}) =>
  call({ dedupeKey: "privileges", ...extra }, (init) => client.GET("/api/v1/privileges", { ...init, params: { query: { memberGrade } } }));
