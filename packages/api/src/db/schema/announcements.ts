import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { users } from "./identity";

/**
 * Announcements the instance administrator publishes to the users of the instance: to everyone,
 * or to the members of spaces of one grade. A user's read state is a row in `announcement_reads`.
 */
export const announcements = sqliteTable(
  "announcements",
  {
    id: text("id").primaryKey(),
    title: text("title").notNull(),
    /** Markdown; the console renders it without raw HTML. */
    body: text("body").notNull(),
    /** `everyone`, or a member grade (FREE, NORMAL, PROFESSION, ENTERPRISE, CUSTOM). */
    audience: text("audience").notNull(),
    /** When users start to see it (ISO timestamp); the creation time when not scheduled. */
    publishAt: text("publish_at").notNull(),
    authorUserId: text("author_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("announcements_publish_idx").on(table.publishAt, table.id)],
);

/** Which user read which announcement, and when. */
export const announcementReads = sqliteTable(
  "announcement_reads",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    announcementId: text("announcement_id")
      .notNull()
      .references(() => announcements.id, { onDelete: "cascade" }),
    readAt: text("read_at").notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.announcementId] }), index("announcement_reads_announcement_idx").on(table.announcementId)],
);
