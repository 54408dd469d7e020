import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { apps } from "./apps";
import { conversations } from "./chat";
import { createdAt } from "./columns";
import { spaces } from "./spaces";

/** A web-embed client (spec §3 Client): the widget, /web/agent and /web/iframe talk to an app through it. */
export const webClients = sqliteTable(
  "web_clients",
  {
    /** A short url-safe id; the seeded demo client is `demo`. */
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    appId: text("app_id")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    avatarUrl: text("avatar_url").notNull().default(""),
    welcome: text("welcome").notNull().default(""),
    slogan: text("slogan").notNull().default(""),
    position: text("position", { enum: ["left", "right"] })
      .notNull()
      .default("right"),
    primaryColor: text("primary_color").notNull().default("#2563eb"),
    /** JSON array of origins; empty means any origin. */
    allowedOrigins: text("allowed_origins").notNull().default("[]"),
    manualTransfer: integer("manual_transfer", { mode: "boolean" }).notNull().default(false),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** Signs visitor identities (HMAC-SHA256); shown only on create and rotate. */
    identitySecret: text("identity_secret").notNull(),
    /** The member who created the client (data ranges); the space owner for older rows. */
    createdBy: text("created_by"),
    lastActiveAt: text("last_active_at"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("web_clients_space_idx").on(table.spaceId)],
);

/** A visitor's chat session through a web client: one conversation, one hashed bearer token. */
export const webClientSessions = sqliteTable(
  "web_client_sessions",
  {
    id: text("id").primaryKey(),
    clientId: text("client_id")
      .notNull()
      .references(() => webClients.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    visitorId: text("visitor_id").notNull(),
    /** The verified userId when the visitor's identity was signed with the client's secret. */
    identityUserId: text("identity_user_id"),
    language: text("language").notNull().default("en"),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("web_client_sessions_client_idx").on(table.clientId)],
);
