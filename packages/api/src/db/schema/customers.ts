import { index, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { customers } from "./channels";
import { createdAt } from "./columns";
import { spaces } from "./spaces";

/** A group of customer tags (spec §3 Tag group); every tag belongs to one. */
export const tagGroups = sqliteTable(
  "tag_groups",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The member who created the group. */
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("tag_groups_name_idx").on(table.spaceId, table.name)],
);

/** A customer tag (spec §3 Tag): unique by name within its group. */
export const tags = sqliteTable(
  "tags",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /**
     * A group in use cannot be deleted, so a tag never loses its group. "no action" (checked at
     * the end of the statement) rather than restrict, so deleting a space still cascades to both.
     */
    groupId: text("group_id")
      .notNull()
      .references(() => tagGroups.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Where the tag is mirrored: nowhere, WeChat Work external contacts, or WeChat official account users. */
    syncTarget: text("sync_target", { enum: ["none", "wecom", "wechat"] })
      .notNull()
      .default("none"),
    /**
     * The tag's id on the platform per channel client it is mirrored to, as JSON
     * (`{"chc_…": "etXXXX"}` for WeCom corp tag ids, `{"chc_…": "134"}` for WeChat tag ids).
     */
    remoteIds: text("remote_ids").notNull().default("{}"),
    /** The last sync: `none` (not mirrored), `synced`, or `failed` with {@link tags.syncError}. */
    syncState: text("sync_state", { enum: ["none", "synced", "failed"] })
      .notNull()
      .default("none"),
    syncedAt: text("synced_at"),
    syncError: text("sync_error"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("tags_group_name_idx").on(table.groupId, table.name), index("tags_space_idx").on(table.spaceId)],
);

/** A tag given to a customer, by a member (`manual`) or by the app's model (`ai`). */
export const customerTags = sqliteTable(
  "customer_tags",
  {
    customerId: text("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "cascade" }),
    tagId: text("tag_id")
      .notNull()
      .references(() => tags.id, { onDelete: "cascade" }),
    spaceId: text("space_id").notNull(),
    source: text("source", { enum: ["manual", "ai"] }).notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.customerId, table.tagId] }), index("customer_tags_tag_idx").on(table.tagId, table.customerId)],
);
