import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";

/** A person who signs in. Spaces hold what they build. */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email"),
    phone: text("phone"),
    passwordHash: text("password_hash"),
    avatarUrl: text("avatar_url"),
    language: text("language").notNull().default("en"),
    personalSpaceId: text("personal_space_id").notNull(),
    currentSpaceId: text("current_space_id").notNull(),
    isInstanceOwner: integer("is_instance_owner", { mode: "boolean" }).notNull().default(false),
    source: text("source"),
    sourceDetail: text("source_detail"),
    share: text("share"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("users_email_unique").on(table.email), uniqueIndex("users_phone_unique").on(table.phone)],
);

/** A bearer session. Only the SHA-256 of the token is stored. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    method: text("method").notNull(),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    lastUsedAt: text("last_used_at"),
    revokedAt: text("revoked_at"),
  },
  (table) => [uniqueIndex("sessions_token_hash_unique").on(table.tokenHash), index("sessions_user_idx").on(table.userId)],
);

/** One-time codes sent by e-mail or SMS. */
export const verificationCodes = sqliteTable(
  "verification_codes",
  {
    id: text("id").primaryKey(),
    channel: text("channel", { enum: ["email", "phone"] }).notNull(),
    target: text("target").notNull(),
    purpose: text("purpose").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    consumedAt: text("consumed_at"),
  },
  (table) => [index("verification_codes_target_idx").on(table.channel, table.target, table.purpose)],
);

/**
 * Single-use grants exchanged for a session: `loginCode` (sign-in links) and `code`
 * (the hand-off after an external sign-in redirect).
 */
export const signInGrants = sqliteTable(
  "sign_in_grants",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["login-code", "code"] }).notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    grantHash: text("grant_hash").notNull(),
    method: text("method").notNull(),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    consumedAt: text("consumed_at"),
  },
  (table) => [uniqueIndex("sign_in_grants_hash_unique").on(table.grantHash)],
);

/** A link between a user and an identity at an external provider (OIDC, WeChat). */
export const externalIdentities = sqliteTable(
  "external_identities",
  {
    id: text("id").primaryKey(),
    provider: text("provider").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email"),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("external_identities_subject_unique").on(table.provider, table.subject)],
);

/** In-flight external sign-ins: OIDC redirects and WeChat QR scans. */
export const oauthStates = sqliteTable("oauth_states", {
  state: text("state").primaryKey(),
  provider: text("provider").notNull(),
  status: text("status", { enum: ["pending", "confirmed", "bind_required", "consumed"] }).notNull(),
  nonce: text("nonce"),
  codeVerifier: text("code_verifier"),
  returnTo: text("return_to"),
  /** JSON of the ExternalIdentity once the provider answered. */
  identity: text("identity"),
  /** For a confirmed WeChat scan: the loginCode the polling browser exchanges (plain, short-lived, single use). */
  loginCode: text("login_code"),
  createdAt: createdAt(),
  expiresAt: text("expires_at").notNull(),
});

/** Messages the outbox provider "sent": readable by the instance owner. */
export const outbox = sqliteTable(
  "outbox",
  {
    id: text("id").primaryKey(),
    channel: text("channel", { enum: ["email", "sms"] }).notNull(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("outbox_to_idx").on(table.to)],
);
