import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A messaging platform that can be connected, with its configuration form. */
export type ChannelDescriptor = Schemas["ChannelDescriptor"];
/** One field of a platform's configuration form. */
export type ChannelField = Schemas["ChannelField"];
/** A text in both interface languages. */
export type LocalizedText = Schemas["LocalizedText"];
/** An app connected to a messaging platform (secrets only as the keys that are set). */
export type ChannelClient = Schemas["ChannelClient"];
/** Body of channel client create. */
export type CreateChannelClient = Schemas["CreateChannelClient"];
/** A code the member sends to an official account to bind their WeChat for notices. */
export type WechatBindingCode = Schemas["WechatBindingCode"];
/** The member's WeChat bound to an official account client (where their notices go). */
export type WechatBinding = Schemas["WechatBinding"];
/** Body of channel client update. */
export type UpdateChannelClient = Schemas["UpdateChannelClient"];

const byId = (id: string) => ({ params: { path: { id } } });

/** The space's channel clients; one client's page is below it (cache keys, see query.ts). */
export const CHANNEL_CLIENTS = ["channel-clients"];

/**
 * The channel client calls the console makes (issue 6), through the SDK and the request layer.
 * Forms that show a refusal on a field call with `silent`.
 */
export const channelEndpoints = {
  catalogue: (extra: Extra = {}) => call({ dedupeKey: "channel-catalogue", ...extra }, (init) => client.GET("/api/v1/channel-clients/catalogue", init)),
  list: (extra: Extra = {}) => call({ dedupeKey: "channel-clients", ...extra }, (init) => client.GET("/api/v1/channel-clients", init)),
  get: (id: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/channel-clients/{id}", { ...init, ...byId(id) })),
  create: (body: CreateChannelClient, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/channel-clients", { ...init, body })),
  update: (id: string, body: UpdateChannelClient, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/channel-clients/{id}", { ...init, ...byId(id), body })),
  remove: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/channel-clients/{id}", { ...init, ...byId(id) })),
  /** Checks the credentials with the platform (and registers the webhook where it is set by API). */
  check: (id: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/channel-clients/{id}/check", { ...init, ...byId(id) })),
  /** A 6-digit code, valid 10 minutes, for the signed-in member to send to this official account. */
  wechatBindingCode: (id: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/channel-clients/{id}/wechat-binding-code", { ...init, ...byId(id) })),
  /** The signed-in member's WeChat bindings in the current space. */
  wechatBindings: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/me/wechat-bindings", init)),
  removeWechatBinding: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/me/wechat-bindings/{id}", { ...init, ...byId(id) })),
};
