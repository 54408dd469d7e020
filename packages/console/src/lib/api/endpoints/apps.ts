import type { components } from "@parley/sdk";
import { call, client } from "../request";
import type { Extra } from "./shared";

type Schemas = components["schemas"];

/** Apps of the current space (spec §3 App): list, detail, create, edit, copy, delete, reactions, advanced config, rate limits. */
export const appEndpoints = {
  /** My apps: spec §7 lists them with page size 100 (the server's cap). */
  list: (pageNo = 1, extra: Extra = {}) =>
    call({ dedupeKey: "apps", ...extra }, (init) => client.GET("/api/v1/apps", { ...init, params: { query: { pageNo, pageSize: 100 } } })),
  /** Create answers silently: the form shows the server's message on the field it names (spec §8). */
  create: (body: Schemas["CreateAppRequest"], extra: Extra = {}) => call({ silent: true, ...extra }, (init) => client.POST("/api/v1/apps", { ...init, body })),
  get: (appId: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/apps/{appId}", { ...init, params: { path: { appId } } })),
  senior: (appId: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/apps/{appId}/senior", { ...init, params: { path: { appId } } })),
  update: (appId: string, body: Schemas["UpdateAppRequest"], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/apps/{appId}", { ...init, params: { path: { appId } }, body })),
  remove: (appId: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/apps/{appId}", { ...init, params: { path: { appId } } })),
  copy: (appId: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/apps/{appId}/copy", { ...init, params: { path: { appId } } })),
  upgrade: (appId: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/apps/{appId}/upgrade", { ...init, params: { path: { appId } } })),
  thumb: (appId: string, on: boolean, extra: Extra = {}) =>
    call(extra, (init) =>
      on
        ? client.POST("/api/v1/apps/{appId}/thumb", { ...init, params: { path: { appId } } })
        : client.DELETE("/api/v1/apps/{appId}/thumb", { ...init, params: { path: { appId } } }),
    ),
  collect: (appId: string, on: boolean, extra: Extra = {}) =>
    call(extra, (init) =>
      on
        ? client.POST("/api/v1/apps/{appId}/collect", { ...init, params: { path: { appId } } })
        : client.DELETE("/api/v1/apps/{appId}/collect", { ...init, params: { path: { appId } } }),
    ),
  advancedConfig: (appId: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/apps/{appId}/advanced-config", { ...init, params: { path: { appId } } })),
  saveAdvancedConfig: (appId: string, body: Schemas["AdvancedConfig"], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PUT("/api/v1/apps/{appId}/advanced-config", { ...init, params: { path: { appId } }, body })),
  rateLimits: (appId: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/apps/{appId}/rate-limits", { ...init, params: { path: { appId } } })),
  addRateLimit: (appId: string, body: Schemas["CreateRateLimitRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/apps/{appId}/rate-limits", { ...init, params: { path: { appId } }, body })),
  updateRateLimit: (id: string, body: Schemas["UpdateRateLimitRequest"], extra: Extra = {}) =>
    call(extra, (init) => client.PATCH("/api/v1/rate-limits/{id}", { ...init, params: { path: { id } }, body })),
  removeRateLimit: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/rate-limits/{id}", { ...init, params: { path: { id } } })),
  /** The space's knowledge bases an app may bind (the editor's knowledge section). */
  knowledgeBases: (extra: Extra = {}) => call({ dedupeKey: "app-knowledge-bases", ...extra }, (init) => client.GET("/api/v1/knowledge-bases", init)),
};

/** Localized app categories and role groups (public: the square shows them to guests). */
export const appCatalogueEndpoints = {
  categories: (extra: Extra = {}) => call({ public: true, ...extra }, (init) => client.GET("/api/v1/app-categories", init)),
  groups: (extra: Extra = {}) => call({ public: true, ...extra }, (init) => client.GET("/api/v1/app-groups", init)),
};

/** The space's app codes, for the API-access snippets (first page of my apps). */
export const apiAccessApps = (extra: Extra = {}) =>
  call({ dedupeKey: "api-access-apps", ...extra }, (init) => client.GET("/api/v1/apps", { ...init, params: { query: { pageSize: 100 } } }));
