import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { spaces } from "./spaces";

/**
 * One row each time a conversation went to a person (transfer-to-manual records). The
 * conversation's own handover fields are cleared when the AI takes over again, so the
 * dashboard counts these instead.
 */
export const conversationTransfers = sqliteTable(
  "conversation_transfers",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    appId: text("app_id").notNull(),
    conversationId: text("conversation_id").notNull(),
    channel: text("channel").notNull(),
    endUserId: text("end_user_id").notNull(),
    /** What handed it over: keyword, intent, no-hit, customer or operator. */
    reason: text("reason").notNull(),
    /** The customer's message that set it off, or the trigger's content. */
    detail: text("detail"),
    createdAt: createdAt(),
  },
  (table) => [index("conversation_transfers_space_idx").on(table.spaceId, table.createdAt)],
);

/**
 * High-frequency words of the questions, counted per day, app and channel by the usage-record
 * writer, so the dashboard sums a few thousand rows instead of segmenting every question.
 */
export const usageWords = sqliteTable(
  "usage_words",
  {
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** UTC day, YYYY-MM-DD. */
    day: text("day").notNull(),
    appId: text("app_id").notNull(),
    channel: text("channel").notNull(),
    word: text("word").notNull(),
    count: integer("count").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.spaceId, table.day, table.appId, table.channel, table.word] }),
    // Covers the top-words sum, so it never reads the table (measured: 47 → 21 ms over 28k rows).
    index("usage_words_cover_idx").on(table.spaceId, table.day, table.appId, table.channel, table.word, table.count),
  ],
);

/**
 * A small number for each end user of a space (1, 2, 3 … in order of first record), so the
 * daily rollup can list a day's users compactly and the dashboard count distinct users with
 * arrays indexed by it.
 */
export const usageEndUsers = sqliteTable(
  "usage_end_users",
  {
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    endUserId: text("end_user_id").notNull(),
    seq: integer("seq").notNull(),
  },
  (table) => [primaryKey({ columns: [table.spaceId, table.endUserId] }), uniqueIndex("usage_end_users_seq_idx").on(table.spaceId, table.seq)],
);

/**
 * The usage records of one UTC hour, app and channel, summed by the usage-record writer: the
 * dashboard reads these rows instead of a million records, and counts days in the caller's time
 * zone from them (hours are whole in every zone but the few with 30- or 45-minute offsets).
 */
export const usageHourly = sqliteTable(
  "usage_hourly",
  {
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** UTC hour, YYYY-MM-DDTHH. */
    hour: text("hour").notNull(),
    appId: text("app_id").notNull(),
    channel: text("channel").notNull(),
    records: integer("records").notNull(),
    credits: integer("credits").notNull(),
    /** Records of turns whose knowledge retrieval found nothing. */
    notHit: integer("not_hit").notNull(),
    /** The hour's distinct users: their `usage_end_users.seq` in hexadecimal, comma-separated. */
    users: text("users").notNull().default(""),
  },
  (table) => [primaryKey({ columns: [table.spaceId, table.hour, table.appId, table.channel] })],
);
