import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A template in a list. */
export type TemplateSummary = Schemas["TemplateSummary"];
/** A template's detail. */
export type TemplateDetail = Schemas["TemplateDetail"];
/** What copying a template made. */
export type TemplateCopy = Schemas["TemplateCopy"];
/** A drafted app (one-sentence creation). */
export type AppDraft = Schemas["AutoCreateAppDraft"];
/** A stored contact request. */
export type ContactRequest = Schemas["ContactRequest"];

/** Templates, one-sentence creation and the contact form through the SDK (guests may list, read and send the form). */
export const templateEndpoints = {
  list: (query: { kind?: "app" | "workflow"; groupId?: string; keyword?: string }, extra: Extra = {}) =>
    call({ public: true, dedupeKey: "templates", ...extra }, (init) => client.GET("/api/v1/templates", { ...init, params: { query } })),
  groups: (extra: Extra = {}) => call({ public: true, ...extra }, (init) => client.GET("/api/v1/templates/groups", init)),
  detail: (code: string, extra: Extra = {}) =>
    call({ public: true, ...extra }, (init) => client.GET("/api/v1/templates/{code}", { ...init, params: { path: { code } } })),
  copy: (code: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/templates/{code}/copy", { ...init, params: { path: { code } } })),
  add: (body: Schemas["AddTemplateRequest"], extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/instance/templates", { ...init, body })),
  remove: (code: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/instance/templates/{code}", { ...init, params: { path: { code } } })),
  autoCreate: (description: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/apps/auto-create", { ...init, body: { description } })),
  avatar: (name: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/apps/avatar/auto-create", { ...init, body: { name } })),
  contact: (body: Schemas["ContactRequestBody"], extra: Extra = {}) =>
    call({ public: true, ...extra }, (init) => client.POST("/api/v1/contact-requests", { ...init, body })),
  contacts: (pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: "contact-requests", ...extra }, (init) =>
      client.GET("/api/v1/instance/contact-requests", { ...init, params: { query: { pageNo, pageSize } } }),
    ),
};
