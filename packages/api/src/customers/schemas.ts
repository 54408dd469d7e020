import { z } from "@hono/zod-openapi";
import { CUSTOMER_EXPORT_MAX, CUSTOMER_RANGE_MAX_DAYS } from "./service";

const id = z.string().min(1).max(64);
const when = z.string().max(40).openapi({ description: "An ISO date (the whole day, UTC) or date-time", example: "2026-11-01" });

/** A tag of a customer, with who gave it. */
export const customerTagSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    groupId: z.string(),
    groupName: z.string(),
    source: z.enum(["manual", "ai"]).openapi({ description: "Given by a member (`manual`) or chosen by the app's model (`ai`)" }),
  })
  .openapi("CustomerTag");

/** A customer (spec §3 Customer): one per channel identity (a verified widget user is one across sessions). */
export const customerSchema = z
  .object({
    id: z.string(),
    nickname: z.string(),
    avatarUrl: z.string(),
    channel: z.string().openapi({ description: "The platform: a channel kind, or `web` for the widget" }),
    clientId: z.string(),
    clientName: z.string(),
    company: z.string(),
    wechat: z.string(),
    gender: z.string().openapi({ description: "`male`, `female`, or empty when unknown" }),
    remark: z.string(),
    type: z.string(),
    tags: z.array(customerTagSchema),
    createdAt: z.string().openapi({ description: "When the customer was added" }),
    lastConversationAt: z.string().nullable(),
  })
  .openapi("Customer");

/** A page of customers. */
export const customerPageSchema = z.object({ items: z.array(customerSchema), nextCursor: z.string().nullable() }).openapi("CustomerPage");

/** A conversation of a customer, as their detail lists it. */
export const customerConversationSchema = z
  .object({
    sessionId: z.string(),
    appId: z.string(),
    appName: z.string(),
    clientId: z.string().nullable(),
    channel: z.string(),
    lastMessage: z.string(),
    lastMessageAt: z.string().nullable(),
    serviceMode: z.enum(["FULL_AUTO_MODE", "MANUAL_MODE", "GROUP_MODE"]),
    tags: z.array(z.string()),
    createdAt: z.string(),
  })
  .openapi("CustomerConversation");

/** A customer with their conversations, latest first. */
export const customerDetailSchema = customerSchema.extend({ conversations: z.array(customerConversationSchema) }).openapi("CustomerDetail");

/** The filters of the customers list and export. */
export const customerFilterSchema = z
  .object({
    tagIds: z.array(id).max(50).optional().openapi({ description: "Customers with any of these tags" }),
    channel: z.string().max(64).optional().openapi({ description: "The platform (`telegram`, `web`…)" }),
    clientId: id.optional(),
    from: when.optional().openapi({ description: "Last conversation at or after (ISO date or date-time)" }),
    to: when
      .optional()
      .openapi({ description: `Last conversation at or before (an ISO date includes the whole day); at most ${CUSTOMER_RANGE_MAX_DAYS} days after from` }),
    keyword: z.string().max(100).optional().openapi({ description: "Part of the nickname, company, remark or WeChat" }),
  })
  .openapi("CustomerFilter");

/** Query of the customers list (tag ids comma separated). */
export const customerListQuery = z.object({
  tagIds: z.string().max(2000).optional().openapi({ description: "Tag ids, comma separated: customers with any of them", example: "tag_01a,tag_01b" }),
  channel: z.string().max(64).optional().openapi({ description: "The platform (`telegram`, `web`…)" }),
  clientId: id.optional(),
  from: when.optional().openapi({ description: "Last conversation at or after" }),
  to: when.optional().openapi({ description: `Last conversation at or before; at most ${CUSTOMER_RANGE_MAX_DAYS} days after from` }),
  keyword: z.string().max(100).optional().openapi({ description: "Part of the nickname, company, remark or WeChat" }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(400).optional().openapi({ description: "nextCursor of the previous page" }),
});

/** What a member may change on a customer. */
export const updateCustomerBody = z
  .object({
    nickname: z.string().max(100).optional(),
    company: z.string().max(200).optional(),
    wechat: z.string().max(100).optional(),
    gender: z.enum(["", "male", "female"]).optional(),
    remark: z.string().max(1000).optional(),
    type: z.string().max(50).optional(),
  })
  .openapi("UpdateCustomerRequest");

/** The export: filters and format. */
export const exportCustomersBody = z
  .object({ filters: customerFilterSchema.default({}), format: z.enum(["csv", "xlsx"]) })
  .openapi("ExportCustomersRequest", { description: `At most ${CUSTOMER_EXPORT_MAX} customers` });

/** Tags given and taken away for many customers at once. */
export const mapTagsBody = z
  .object({
    customerIds: z.array(id).min(1).max(500),
    addTagIds: z.array(id).max(100).default([]),
    removeTagIds: z.array(id).max(100).default([]),
  })
  .openapi("MapCustomerTagsRequest");

const syncTarget = z.enum(["none", "wecom", "wechat"]).openapi({ description: "Sync to WeChat Work (`wecom`) or WeChat (`wechat`), or not" });

/** A tag group. */
export const tagGroupSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    tagCount: z.number().int(),
    createdBy: z.string().nullable(),
    creatorName: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("TagGroup");

/** A tag (spec §3 Tag). */
export const tagSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    groupId: z.string(),
    groupName: z.string(),
    syncTarget,
    syncState: z
      .enum(["none", "synced", "failed"])
      .openapi({ description: "The last sync with the platform: `none` (not mirrored), `synced`, or `failed` (see `syncError`)" }),
    syncedAt: z.string().nullable().openapi({ description: "When the tag was last synced" }),
    syncError: z.string().nullable().openapi({ description: "Why the last sync failed (the platform's errcode and message)" }),
    customerCount: z.number().int(),
    createdBy: z.string().nullable(),
    creatorName: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Tag");

/** A new tag group. */
export const tagGroupBody = z.object({ name: z.string().max(50) }).openapi("TagGroupRequest");

/** A new tag. */
export const createTagBody = z
  .object({ name: z.string().max(50), groupId: id, description: z.string().max(200).optional(), syncTarget: syncTarget.optional() })
  .openapi("CreateTagRequest");

/** Changes to a tag. */
export const updateTagBody = z
  .object({
    name: z.string().max(50).optional(),
    groupId: id.optional(),
    description: z.string().max(200).optional(),
    syncTarget: syncTarget.optional(),
  })
  .openapi("UpdateTagRequest");

/** Which contacts to pull: one connection, or every enabled connection of a platform the caller reaches. */
export const syncCustomersBody = z
  .object({
    clientId: id.optional().openapi({ description: "A WeCom app or WeChat official account channel client" }),
    platform: z.enum(["wecom", "wechat"]).optional().openapi({ description: "Every enabled connection of WeChat Work (`wecom`) or WeChat (`wechat`)" }),
  })
  .refine((body) => Boolean(body.clientId) !== Boolean(body.platform), { message: "give exactly one of clientId and platform", path: ["clientId"] })
  .openapi("SyncCustomersRequest");

/** What a contacts pull did, per connection and in total. */
export const syncCustomersResultSchema = z
  .object({
    created: z.number().int(),
    updated: z.number().int(),
    connections: z.array(z.object({ clientId: z.string(), platform: z.enum(["wecom", "wechat"]), created: z.number().int(), updated: z.number().int() })),
  })
  .openapi("SyncCustomersResult");

/** Where the caller can pull contacts from, and whether they may. */
export const syncSourcesSchema = z
  .object({
    canSync: z.boolean().openapi({ description: "The caller's role has customers.edit" }),
    sources: z.array(z.object({ clientId: z.string(), name: z.string(), platform: z.enum(["wecom", "wechat"]) })),
  })
  .openapi("CustomerSyncSources");
