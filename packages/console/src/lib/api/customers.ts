import type { components } from "@parley/sdk";
import { fileNameOfDisposition } from "../save-blob";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A customer (spec §3 Customer). */
export type Customer = Schemas["Customer"];
/** A customer with their conversations. */
export type CustomerDetail = Schemas["CustomerDetail"];
/** A tag (spec §3 Tag). */
export type CustomerTagDef = Schemas["Tag"];
/** A tag group. */
export type TagGroup = Schemas["TagGroup"];
/** The customers list's filters (also the export's). */
export type CustomerFilter = Schemas["CustomerFilter"];
/** What a member may change on a customer. */
export type CustomerPatch = Schemas["UpdateCustomerRequest"];

/** Where the caller can pull contacts from, and whether they may. */
export type CustomerSyncSources = Schemas["CustomerSyncSources"];
/** Which contacts to pull: one connection or every connection of a platform. */
export type SyncCustomersRequest = Schemas["SyncCustomersRequest"];

/** Cache keys (below the space, see query.ts). */
export const CUSTOMERS = ["customers"];
export const SYNC_SOURCES = ["customers", "sync-sources"];
export const TAGS = ["tags"];
export const TAG_GROUPS = ["tag-groups"];

const byCustomer = (customerId: string) => ({ params: { path: { customerId } } });

/** The calls of /console/customManage (customers and tags), through the SDK. */
export const customersEndpoints = {
  /** A page of customers; the next page passes the previous page's `nextCursor`. */
  list: (filter: CustomerFilter & { cursor?: string | undefined; limit?: number }, extra: Extra = {}) =>
    call(extra, (init) =>
      client.GET("/api/v1/customers", {
        ...init,
        params: {
          query: {
            limit: filter.limit ?? 30,
            ...(filter.tagIds?.length ? { tagIds: filter.tagIds.join(",") } : {}),
            ...(filter.channel ? { channel: filter.channel } : {}),
            ...(filter.clientId ? { clientId: filter.clientId } : {}),
            ...(filter.from ? { from: filter.from } : {}),
            ...(filter.to ? { to: filter.to } : {}),
            ...(filter.keyword ? { keyword: filter.keyword } : {}),
            ...(filter.cursor ? { cursor: filter.cursor } : {}),
          },
        },
      }),
    ),
  detail: (customerId: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/customers/{customerId}", { ...init, ...byCustomer(customerId) })),
  update: (customerId: string, body: CustomerPatch, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/customers/{customerId}", { ...init, ...byCustomer(customerId), body })),
  mapTags: (body: { customerIds: string[]; addTagIds?: string[]; removeTagIds?: string[] }, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/customers/tags", { ...init, body: { addTagIds: [], removeTagIds: [], ...body } })),
  aiTags: (customerId: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/customers/{customerId}/ai-tags", { ...init, ...byCustomer(customerId) })),
  /** The customers matching the filters as a file, with the name the server gives. */
  export: async (body: { filters: CustomerFilter; format: "csv" | "xlsx" }, extra: Extra = {}) => {
    let disposition: string | null = null;
    const result = await call(extra, async (init) => {
      const answer = await client.POST("/api/v1/customers/export", { ...init, body, parseAs: "blob" });
      disposition = answer.response?.headers.get("content-disposition") ?? null;
      return answer;
    });
    return result.ok ? { ok: true as const, data: { blob: result.data as unknown as Blob, fileName: fileNameOfDisposition(disposition) } } : result;
  },
  syncSources: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/customers/sync-sources", init)),
  /** Pulls a platform's contacts into customers (customer/sync). */
  sync: (body: SyncCustomersRequest, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/customers/sync", { ...init, body })),
  groups: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/tag-groups", init)),
  createGroup: (name: string, extra: Extra = {}) => call({ silent: true, ...extra }, (init) => client.POST("/api/v1/tag-groups", { ...init, body: { name } })),
  updateGroup: (tagGroupId: string, name: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/tag-groups/{tagGroupId}", { ...init, params: { path: { tagGroupId } }, body: { name } })),
  removeGroup: (tagGroupId: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.DELETE("/api/v1/tag-groups/{tagGroupId}", { ...init, params: { path: { tagGroupId } } })),
  tags: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/tags", { ...init, params: { query: {} } })),
  createTag: (body: Schemas["CreateTagRequest"], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/tags", { ...init, body })),
  updateTag: (tagId: string, body: Schemas["UpdateTagRequest"], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/tags/{tagId}", { ...init, params: { path: { tagId } }, body })),
  removeTag: (tagId: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/tags/{tagId}", { ...init, params: { path: { tagId } } })),
};
