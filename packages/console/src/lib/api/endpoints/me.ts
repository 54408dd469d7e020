import type { components } from "@parley/sdk";
import { call, client } from "../request";
import type { Extra } from "./shared";

type Schemas = components["schemas"];

/** The signed-in account: profile, password, contact, spaces and personal API keys. */
export const meEndpoints = {
  get: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/me", init)),
  update: (body: Schemas["UpdateMeRequest"], extra: Extra = {}) => call(extra, (init) => client.PATCH("/api/v1/me", { ...init, body })),
  changePassword: (body: Schemas["ChangePasswordRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/me/password", { ...init, body })),
  /** Adds or replaces the e-mail or phone, proven by a code sent with purpose bind; answers the updated user. */
  bindContact: (body: Schemas["BindContactRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/me/contact", { ...init, body })),
  spaces: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/me/spaces", init)),
  apiKeys: (extra: Extra = {}) => call({ dedupeKey: "api-keys", ...extra }, (init) => client.GET("/api/v1/me/api-keys", init)),
  createApiKey: (body: Schemas["CreateApiKeyRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/me/api-keys", { ...init, body })),
  deleteApiKey: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/me/api-keys/{id}", { ...init, params: { path: { id } } })),
};
