import { z } from "@hono/zod-openapi";
import { appSeniorSchema, collectStateSchema, thumbStateSchema } from "../apps/schemas";

/** Where to publish. */
export const publishBody = z
  .object({
    audience: z.enum(["store", "square"]).openapi({ description: "store: everyone; square: the team space's members (and everyone when the space allows)" }),
  })
  .openapi("PublishRequest");

/** What the publisher sees of a listing. */
export const publishingSchema = z
  .object({
    listingId: z.string(),
    kind: z.enum(["app", "workflow"]),
    audience: z.enum(["store", "square"]),
    publishedBy: z.string().openapi({ description: "The member who published (user id)" }),
    publishedAt: z.string(),
    takenDown: z.boolean(),
    takenDownAt: z.string().nullable(),
    takedownReason: z.string().nullable().openapi({ description: "Why the administrator took the listing down" }),
  })
  .openapi("Publishing");

/** A listing as the instance administrator reviews it. */
export const instanceListingSchema = publishingSchema
  .extend({ name: z.string(), code: z.string().nullable().openapi({ description: "The app's public code (apps only)" }) })
  .openapi("InstanceListing");

/** The take-down request of the instance administrator. */
export const takeDownBody = z.object({ reason: z.string().max(500) }).openapi("TakeDownRequest");

/** A store app card: only public fields. */
export const storeAppSchema = z
  .object({
    kind: z.literal("app"),
    listingId: z.string(),
    audience: z.enum(["store", "square"]),
    code: z.string(),
    name: z.string(),
    type: z.enum(["LIGHT", "KNOWLEDGE", "AGENT", "WORKFLOW"]),
    description: z.string(),
    avatarUrl: z.string(),
    category: z.string(),
    thumbCount: z.number().int(),
    collectCount: z.number().int(),
    thumbed: z.boolean(),
    collected: z.boolean(),
    publishedAt: z.string(),
  })
  .openapi("StoreApp");

/** A store app's page. */
export const storeAppDetailSchema = storeAppSchema.extend({ openingIntroduction: z.string(), bottomSlogan: z.string().nullable() }).openapi("StoreAppDetail");

/** A square workflow card. */
export const squareWorkflowSchema = z
  .object({
    kind: z.literal("workflow"),
    listingId: z.string(),
    audience: z.enum(["store", "square"]),
    id: z.string(),
    name: z.string(),
    description: z.string(),
    avatarUrl: z.string(),
    category: z.string(),
    publishedAt: z.string(),
  })
  .openapi("SquareWorkflow");

const pageNo = z.coerce.number().int().min(1).optional();
const pageSize = z.coerce.number().int().min(1).max(100).optional();
const q = z.string().optional().openapi({ description: "Search text (name and description); at most 100 characters, wildcards are taken literally" });

/** Store list query. */
export const storeListQuery = z.object({
  category: z.string().max(50).optional(),
  q,
  sort: z.enum(["popular", "recent"]).optional().openapi({ description: "popular (collections, thumbs, newest; the default) or recent" }),
  pageNo,
  pageSize,
});

/** A page of store apps. */
export const storeAppPageSchema = z
  .object({ items: z.array(storeAppSchema), total: z.number().int(), pageNo: z.number().int(), pageSize: z.number().int() })
  .openapi("StoreAppPage");

/** Square query. */
export const squareQuery = z.object({ q, kind: z.enum(["app", "workflow"]).optional() });

/** The square. */
export const squarePageSchema = z.object({ items: z.array(z.union([storeAppSchema, squareWorkflowSchema])) }).openapi("SquarePage");

/** Top-bar search query. */
export const searchQuery = z.object({ q });

/** Top-bar search hits; `kind` tells apps of the space, store apps and templates apart. */
export const searchResultSchema = z
  .object({
    items: z.array(
      z
        .object({
          kind: z.enum(["app", "store_app", "template"]),
          code: z.string(),
          name: z.string(),
          description: z.string(),
          avatarUrl: z.string(),
          path: z.string().openapi({ description: "Where the console opens the hit" }),
        })
        .openapi("SearchHit"),
    ),
  })
  .openapi("SearchResult");

/** The square setting of a space. */
export const spaceStoreSettingsSchema = z.object({ squareOpenToEveryone: z.boolean() }).openapi("SpaceStoreSettings");

/** The instance's guest limits. */
export const storeSettingsSchema = z
  .object({ guestMessagesPerHour: z.number().int().min(1).max(10_000), guestSessionsPerHour: z.number().int().min(1).max(10_000) })
  .openapi("StoreSettings");

/** The answer of copying a store app. */
export const storeCopySchema = z
  .object({
    app: appSeniorSchema,
    droppedPlugins: z.array(z.string()).openapi({ description: "Custom plugins of the publisher the space does not have" }),
    knowledgeCopied: z.literal(false).openapi({ description: "Knowledge stays with the publisher" }),
  })
  .openapi("StoreCopy");

export { collectStateSchema, thumbStateSchema };
