import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { spaces } from "./spaces";

/** What a listing shows: an app or a workflow. */
export const listingKinds = ["app", "workflow"] as const;

/** Where a listing is seen: the store (everyone) or the square (a team space's members, and everyone when the space allows). */
export const listingAudiences = ["store", "square"] as const;

/**
 * One published app or workflow (spec §1, §4): who published it, when, for whom, and whether
 * the instance administrator took it down (with the reason the publisher sees).
 */
export const storeListings = sqliteTable(
  "store_listings",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: listingKinds }).notNull(),
    /** The app's or the workflow's id. */
    subjectId: text("subject_id").notNull(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    audience: text("audience", { enum: listingAudiences }).notNull(),
    publishedBy: text("published_by").notNull(),
    publishedAt: text("published_at").notNull(),
    /** The web client guests chat through (apps only), made on first publish. */
    webClientId: text("web_client_id"),
    takenDownAt: text("taken_down_at"),
    takenDownBy: text("taken_down_by"),
    takedownReason: text("takedown_reason"),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("store_listings_subject_unique").on(table.kind, table.subjectId),
    index("store_listings_audience_idx").on(table.audience, table.publishedAt),
  ],
);

/** A space's square setting: whether its square listings are seen by everyone, not only its members. */
export const storeSpaceSettings = sqliteTable("store_space_settings", {
  spaceId: text("space_id")
    .primaryKey()
    .references(() => spaces.id, { onDelete: "cascade" }),
  squareOpenToEveryone: integer("square_open_to_everyone", { mode: "boolean" }).notNull().default(false),
  updatedAt: text("updated_at").notNull(),
});

/** The instance's limits for guests trying store apps (one row, id `instance`). */
export const storeSettings = sqliteTable("store_settings", {
  id: text("id").primaryKey(),
  guestMessagesPerHour: integer("guest_messages_per_hour").notNull(),
  guestSessionsPerHour: integer("guest_sessions_per_hour").notNull(),
  updatedAt: text("updated_at").notNull(),
});
