import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { users } from "./identity";

/** A personal or team space. Every product row belongs to exactly one space. */
export const spaces = sqliteTable(
  "spaces",
  {
    id: text("id").primaryKey(),
    /** The spec's companyCode: short, shareable, unique. */
    code: text("code").notNull(),
    name: text("name").notNull(),
    kind: text("kind", { enum: ["personal", "team"] }).notNull(),
    ownerUserId: text("owner_user_id").notNull(),
    memberGrade: text("member_grade", { enum: ["FREE", "NORMAL", "PROFESSION", "ENTERPRISE", "CUSTOM"] })
      .notNull()
      .default("FREE"),
    /** JSON quotas that override the grade's defaults (CUSTOM plans). */
    quotaOverrides: text("quota_overrides"),
    tabIconUrl: text("tab_icon_url"),
    tabTitle: text("tab_title"),
    iconWordUrl: text("icon_word_url"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("spaces_code_unique").on(table.code)],
);

/** Who belongs to a space, and with which role and route restrictions. */
export const spaceMembers = sqliteTable(
  "space_members",
  {
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "admin", "member"] }).notNull(),
    /** JSON array of console routes; null means the member is not route-restricted. */
    authorizedRoutes: text("authorized_routes"),
    customerAdmin: integer("customer_admin", { mode: "boolean" }).notNull().default(false),
    joinedAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.spaceId, table.userId] }), index("space_members_user_idx").on(table.userId)],
);

/** Personal API keys: the owner's automation credential, scoped to the owner's personal space. */
export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: text("last_used_at"),
  },
  (table) => [uniqueIndex("api_keys_hash_unique").on(table.keyHash), index("api_keys_user_idx").on(table.userId)],
);

/** User keys: credentials a space hands to end users of its apps, optionally bound to one app. */
export const userKeys = sqliteTable(
  "user_keys",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    createdBy: text("created_by").notNull(),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    appCode: text("app_code"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    creditLimit: integer("credit_limit"),
    creditsUsed: integer("credits_used").notNull().default(0),
    expiresAt: text("expires_at"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
    lastUsedAt: text("last_used_at"),
  },
  (table) => [uniqueIndex("user_keys_hash_unique").on(table.keyHash), index("user_keys_space_idx").on(table.spaceId)],
);
