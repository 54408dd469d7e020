import type { components } from "@parley/sdk";
import { call, client } from "../request";
import type { Extra } from "./shared";

type Schemas = components["schemas"];

/** Keys for the OpenAI-compatible API that the space hands to its end users. */
export const userKeyEndpoints = {
  list: (extra: Extra = {}) => call({ dedupeKey: "user-keys", ...extra }, (init) => client.GET("/api/v1/user-keys", init)),
  create: (body: Schemas["UserKeyRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/user-keys", { ...init, body })),
  update: (id: string, body: Schemas["UpdateUserKeyRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.PATCH("/api/v1/user-keys/{id}", { ...init, params: { path: { id } }, body })),
  remove: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/user-keys/{id}", { ...init, params: { path: { id } } })),
};
