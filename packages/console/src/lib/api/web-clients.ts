import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A web client (a web embed of an app) with its status. */
export type WebClient = Schemas["WebClient"];
/** A web client with its identity secret, answered only on create and rotate. */
export type WebClientWithSecret = Schemas["WebClientWithSecret"];
/** Body of web client create. */
export type CreateWebClient = Schemas["CreateWebClient"];
/** Body of web client update. */
export type UpdateWebClient = Schemas["UpdateWebClient"];

const byId = (id: string) => ({ params: { path: { id } } });

/** The space's web clients; one client's page is below it (cache keys, see query.ts). */
export const WEB_CLIENTS = ["web-clients"];

/**
 * The web client calls the console makes (issue 5), through the SDK and the request layer.
 * Forms that show a refusal on a field call with `silent`.
 */
export const clientsEndpoints = {
  list: (extra: Extra = {}) => call({ dedupeKey: "web-clients", ...extra }, (init) => client.GET("/api/v1/web-clients", init)),
  get: (id: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/web-clients/{id}", { ...init, ...byId(id) })),
  create: (body: CreateWebClient, extra: Extra = {}) => call({ silent: true, ...extra }, (init) => client.POST("/api/v1/web-clients", { ...init, body })),
  update: (id: string, body: UpdateWebClient, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/web-clients/{id}", { ...init, ...byId(id), body })),
  remove: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/web-clients/{id}", { ...init, ...byId(id) })),
  rotateSecret: (id: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/web-clients/{id}/rotate-secret", { ...init, ...byId(id) })),
};
