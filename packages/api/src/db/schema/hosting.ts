import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { apps } from "./apps";
import { createdAt } from "./columns";
import { spaces } from "./spaces";

/** States of a hosted account (see hosting/state.ts for the transitions). */
export const hostedAccountStates = ["logged_out", "qr_pending", "verify_code_pending", "online", "paused", "offline", "expired"] as const;

/** States of a group chat of a hosted account. */
export const hostedGroupStates = ["waiting", "open", "paused", "cancelled"] as const;

/**
 * An account logged in through a hosting bridge (spec §4 "Channel account hosting"). Parley
 * ships no protocol for this: the rows only exist when an operator plugs in a bridge.
 */
export const hostedAccounts = sqliteTable(
  "hosted_accounts",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    /** The app that answers for this account; none means nothing is answered. */
    appId: text("app_id").references(() => apps.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    state: text("state", { enum: hostedAccountStates }).notNull().default("logged_out"),
    /** Name of the bridge that holds the login (a different bridge cannot resume it). */
    bridge: text("bridge").notNull(),
    /** The bridge's handle of the login attempt in progress. */
    loginId: text("login_id"),
    /** What to render as the QR code (a URL or the raw payload), while a login is pending. */
    qrCode: text("qr_code"),
    /** When the pending QR code or verification step stops being valid (ISO). */
    loginExpiresAt: text("login_expires_at"),
    /** A hint from the platform about the verification code (where it was sent). */
    verifyHint: text("verify_hint"),
    /** The person's id on the platform once logged in. */
    externalId: text("external_id"),
    nickname: text("nickname").notNull().default(""),
    avatarUrl: text("avatar_url").notNull().default(""),
    /** The bridge's session for this login, sealed with the instance key; never answered. */
    session: text("session").notNull().default(""),
    /** JSON: how the account answers (private chats, group trigger, delay). */
    config: text("config").notNull().default("{}"),
    stateChangedAt: text("state_changed_at").notNull(),
    lastError: text("last_error"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [index("hosted_accounts_space_idx").on(table.spaceId)],
);

/** A group chat of a hosted account, as last synced from the bridge. */
export const hostedGroups = sqliteTable(
  "hosted_groups",
  {
    id: text("id").primaryKey(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    accountId: text("account_id")
      .notNull()
      .references(() => hostedAccounts.id, { onDelete: "cascade" }),
    /** The group's id on the platform. */
    externalId: text("external_id").notNull(),
    name: text("name").notNull(),
    memberCount: integer("member_count").notNull().default(0),
    state: text("state", { enum: hostedGroupStates }).notNull().default("waiting"),
    /** False once a sync no longer lists the group (the account left it). */
    present: integer("present", { mode: "boolean" }).notNull().default(true),
    syncedAt: text("synced_at").notNull(),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("hosted_groups_account_external_idx").on(table.accountId, table.externalId), index("hosted_groups_space_idx").on(table.spaceId)],
);
