import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A store app card. */
export type StoreApp = Schemas["StoreApp"];
/** A store app's page. */
export type StoreAppDetail = Schemas["StoreAppDetail"];
/** A square entry: an app or a workflow. */
export type SquareItem = Schemas["SquarePage"]["items"][number];
/** One top-bar search hit. */
export type SearchHit = Schemas["SearchHit"];
/** What the publisher sees of a listing. */
export type Publishing = Schemas["Publishing"];
/** A guest's chat session with a store app. */
export type GuestSession = Schemas["WidgetSession"];

/** Query of the store list. */
export interface StoreQuery {
  category?: string;
  q?: string;
  sort?: "popular" | "recent";
}

const byCode = (code: string) => ({ params: { path: { code } } });

/**
 * The store, the square, publishing and the top-bar search (spec §1, §2, §4). The store and the
 * square are public: a guest reads them, a signed-in user's token adds their marks.
 */
export const storeEndpoints = {
  list: (query: StoreQuery, extra: Extra = {}) =>
    call({ public: true, dedupeKey: "store-apps", ...extra }, (init) => client.GET("/api/v1/store/apps", { ...init, params: { query } })),
  get: (code: string, extra: Extra = {}) => call({ public: true, ...extra }, (init) => client.GET("/api/v1/store/apps/{code}", { ...init, ...byCode(code) })),
  square: (q: string | undefined, extra: Extra = {}) =>
    call({ public: true, dedupeKey: "square", ...extra }, (init) => client.GET("/api/v1/square", { ...init, params: { query: q ? { q } : {} } })),
  thumb: (code: string, on: boolean, extra: Extra = {}) =>
    call(extra, (init) =>
      on
        ? client.POST("/api/v1/store/apps/{code}/thumb", { ...init, ...byCode(code) })
        : client.DELETE("/api/v1/store/apps/{code}/thumb", { ...init, ...byCode(code) }),
    ),
  collect: (code: string, on: boolean, extra: Extra = {}) =>
    call(extra, (init) =>
      on
        ? client.POST("/api/v1/store/apps/{code}/collect", { ...init, ...byCode(code) })
        : client.DELETE("/api/v1/store/apps/{code}/collect", { ...init, ...byCode(code) }),
    ),
  copy: (code: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/store/apps/{code}/copy", { ...init, ...byCode(code) })),
  startGuestSession: (code: string, extra: Extra = {}) =>
    call({ public: true, silent: true, ...extra }, (init) => client.POST("/api/v1/store/apps/{code}/sessions", { ...init, ...byCode(code) })),
  search: (q: string, extra: Extra = {}) =>
    call({ dedupeKey: "top-search", silent: true, ...extra }, (init) => client.GET("/api/v1/search", { ...init, params: { query: { q } } })),
  publishing: (appId: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/apps/{appId}/publishing", { ...init, params: { path: { appId } } })),
  /** Silent: the dialog shows the refusal on the field it names. */
  publish: (appId: string, audience: "store" | "square", extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/apps/{appId}/publishing", { ...init, params: { path: { appId } }, body: { audience } })),
  unpublish: (appId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/apps/{appId}/publishing", { ...init, params: { path: { appId } } })),
  workflowPublishing: (workflowId: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/workflows/{workflowId}/publishing", { ...init, params: { path: { workflowId } } })),
  /** Silent: the dialog shows the refusal on the field it names. */
  publishWorkflow: (workflowId: string, audience: "store" | "square", extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.POST("/api/v1/workflows/{workflowId}/publishing", { ...init, params: { path: { workflowId } }, body: { audience } }),
    ),
  unpublishWorkflow: (workflowId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/workflows/{workflowId}/publishing", { ...init, params: { path: { workflowId } } })),
  spaceSettings: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/space-store-settings", init)),
  saveSpaceSettings: (squareOpenToEveryone: boolean, extra: Extra = {}) =>
    call(extra, (init) => client.PUT("/api/v1/space-store-settings", { ...init, body: { squareOpenToEveryone } })),
  /** The instance administrator's review: every listing, the guest limits, take-downs. */
  instanceListings: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/instance/store-listings", init)),
  instanceSettings: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/instance/store-settings", init)),
  saveInstanceSettings: (body: Schemas["StoreSettings"], extra: Extra = {}) =>
    call(extra, (init) => client.PUT("/api/v1/instance/store-settings", { ...init, body })),
  takeDown: (listingId: string, reason: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/instance/store-listings/{listingId}/take-down", { ...init, params: { path: { listingId } }, body: { reason } })),
};

/** A listing as the instance administrator reviews it. */
export type InstanceListing = Schemas["InstanceListing"];

/** The path a guest's message streams from (the SDK's stream() posts to it). */
export const GUEST_MESSAGES_PATH = "/api/v1/store/apps/{code}/sessions/{sessionId}/messages" as const;
