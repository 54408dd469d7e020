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
    /** The member's role: a system role's key (owner, admin, developer, operator, viewer) or a space_roles id. */
    roleId: text("role_id").notNull().default("viewer"),
    /** Enterprise credits allocated to the member and not yet spent (companyBalanceManage). */
    creditAllocation: integer("credit_allocation").notNull().default(0),
    /** Credits the member has spent from allocations, for the members list. */
    creditsSpent: integer("credits_spent").notNull().default(0),
    /** Who invited the member (null for the owner). */
    invitedBy: text("invited_by"),
    joinedAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.spaceId, table.userId] }),
    index("space_members_user_idx").on(table.userId),
    index("space_members_role_idx").on(table.spaceId, table.roleId),
  ],
);

/**
 * A custom role of a team space (spec §3: name, description, function and data-range
 * resources). System roles are defined in code (access/roles.ts) and have no row.
 */
export const spaceRoles = sqliteTable(
  "space_roles",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** JSON array of grants (`apps.view`, `apps.edit`, …), canonical (access/resources.ts). */
    grants: text("grants").notNull().default("[]"),
    /** JSON DataRange; null until step 2 of the role editor saved one. */
    dataRange: text("data_range"),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("space_roles_name_unique").on(table.spaceId, table.name)],
);

/**
 * An invitation link to a team space (spec §4 invite flow). The link carries `inviteParam`, a
 * secret whose hash finds the row; it is kept sealed too so the owner can copy the link again.
 */
export const spaceInvitations = sqliteTable(
  "space_invitations",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    /** The inviteParam sealed under the instance key. */
    tokenSealed: text("token_sealed").notNull(),
    /** The role members joining through the link get. */
    roleId: text("role_id").notNull(),
    createdBy: text("created_by").notNull(),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
    /** Null: any number of people may join through the link until it expires. */
    maxUses: integer("max_uses"),
    uses: integer("uses").notNull().default(0),
  },
  (table) => [uniqueIndex("space_invitations_token_unique").on(table.tokenHash), index("space_invitations_space_idx").on(table.spaceId)],
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
