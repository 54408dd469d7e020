import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { apps } from "./apps";
import { createdAt } from "./columns";
import { users } from "./identity";
import { spaces } from "./spaces";

/**
 * A connection of an app to a messaging platform (spec §3 Client/channel): one bot, official
 * account or app on WeChat, Feishu, Slack… Its platform webhook is /api/v1/channels/{id}/webhook.
 */
export const channelClients = sqliteTable(
  "channel_clients",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    appId: text("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** One of the channel kinds of @parley/channels. */
    kind: text("kind").notNull(),
    deployType: text("deploy_type", { enum: ["self-built", "hosting"] })
      .notNull()
      .default("self-built"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** JSON: the configuration fields that are not secret. */
    config: text("config").notNull().default("{}"),
    /** The secret fields, JSON sealed with the instance key (AES-256-GCM); never answered. */
    secrets: text("secrets").notNull().default(""),
    /** Where to tell the owner that the client went offline. */
    offlineNotify: text("offline_notify", { enum: ["none", "sms", "wechat-official-account"] })
      .notNull()
      .default("none"),
    /** The member who created the client (data ranges); the space owner for older rows. */
    createdBy: text("created_by"),
    lastActiveAt: text("last_active_at"),
    /** The last delivery or send failure, shown in the console until the next success. */
    lastError: text("last_error"),
    lastErrorAt: text("last_error_at"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("channel_clients_space_idx").on(table.spaceId)],
);

/** Shared key-value entries with expiry: webhook de-duplication, platform tokens, sync cursors. */
export const keyValues = sqliteTable(
  "key_values",
  {
    key: text("key").primaryKey(),
    value: text("value").notNull(),
    /** Milliseconds since the epoch; null never expires. */
    expiresAt: integer("expires_at"),
  },
  (table) => [index("key_values_expiry_idx").on(table.expiresAt)],
);

/** A person who wrote to a space through a channel (spec §3 Customer). */
export const customers = sqliteTable(
  "customers",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** The platform (a channel kind, or `web`). */
    channel: text("channel").notNull(),
    /** The channel or web client the person came through. */
    clientId: text("client_id").notNull(),
    /** The person's id on the platform (open id, user id, visitor id). */
    externalId: text("external_id").notNull(),
    nickname: text("nickname").notNull().default(""),
    avatarUrl: text("avatar_url").notNull().default(""),
    company: text("company").notNull().default(""),
    gender: text("gender").notNull().default(""),
    remark: text("remark").notNull().default(""),
    wechat: text("wechat").notNull().default(""),
    type: text("type").notNull().default(""),
    /** The platform member whose contact this is, where the platform has one (a WeCom customer's follow user, for mark_tag). */
    platformOwner: text("platform_owner").notNull().default(""),
    createdAt: createdAt(),
    lastConversationAt: text("last_conversation_at"),
  },
  (table) => [
    uniqueIndex("customers_identity_idx").on(table.spaceId, table.clientId, table.externalId),
    // The list's order (latest conversation, then id) per filter, so a page reads only its rows.
    index("customers_order_idx").on(table.spaceId, table.lastConversationAt, table.id),
    index("customers_channel_order_idx").on(table.spaceId, table.channel, table.lastConversationAt, table.id),
    index("customers_client_order_idx").on(table.spaceId, table.clientId, table.lastConversationAt, table.id),
  ],
);

/**
 * A space member's WeChat, bound to one of the space's official account clients (by sending
 * "BIND <code>" to it): where their WeChat notices go.
 */
export const wechatBindings = sqliteTable(
  "wechat_bindings",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id")
      .notNull()
      .references(() => channelClients.id, { onDelete: "cascade" }),
    /** The member's openid on that official account. */
    openid: text("openid").notNull(),
    /** The member's latest message to the account (customer-service messages need one within 48 h). */
    lastMessageAt: text("last_message_at"),
    lastNoticeAt: text("last_notice_at"),
    /** Why the latest notice did not go out; null once one does. */
    lastNoticeError: text("last_notice_error"),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("wechat_bindings_openid_idx").on(table.clientId, table.openid), index("wechat_bindings_user_idx").on(table.spaceId, table.userId)],
);
