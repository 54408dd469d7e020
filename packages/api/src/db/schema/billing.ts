import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns";
import { users } from "./identity";
import { spaces } from "./spaces";

/*
 * The money side (decision 0018): the plan catalogue, what a space runs on, orders and the
 * payment notifications behind them, and the ways credits are earned (check-in, invitations,
 * creator benefits) or paid out (cash-out). Credits themselves move only through `credit_ledger`.
 */

/**
 * The administrator's edits of a plan of the catalogue. The catalogue's defaults live in code
 * (`billing/service/plans.ts`); a row here replaces the fields it sets, so a new release's
 * defaults still reach plans nobody edited.
 */
export const planSettings = sqliteTable("plan_settings", {
  /** free, pro, team, enterprise, custom. */
  code: text("code").primaryKey(),
  /** JSON of the price of one month per currency, in its smallest unit: `{ "CNY": 9900, "USD": 1500 }`. */
  monthlyPrices: text("monthly_prices"),
  /** Credits granted when a period starts, per month of the period. */
  includedCredits: integer("included_credits"),
  /** JSON of the quotas that differ from the defaults. */
  quotas: text("quotas"),
  /** Whether the plan is offered on the price page. */
  offered: integer("offered", { mode: "boolean" }),
  updatedAt: text("updated_at").notNull(),
});

/**
 * The plan a space runs on, when it is not Free: which plan, until when. When `expiresAt` is
 * past, the space falls back to Free (its data stays; new items over Free's quotas are refused).
 */
export const spacePlans = sqliteTable("space_plans", {
  spaceId: text("space_id")
    .primaryKey()
    .references(() => spaces.id, { onDelete: "cascade" }),
  planCode: text("plan_code").notNull(),
  /** The period last bought or granted. */
  period: text("period", { enum: ["month", "year"] }).notNull(),
  startedAt: text("started_at").notNull(),
  expiresAt: text("expires_at").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/** Order statuses, in the order an order goes through them. */
export const orderStatuses = ["created", "paid", "fulfilled", "closed", "refunded"] as const;

/**
 * A purchase: a plan for a period, or a credit pack. Only a verified payment notification (or an
 * administrator's recorded grant) makes an order paid; fulfilment then grants what it bought,
 * once, and records what it granted so a refund can take exactly that back.
 */
export const orders = sqliteTable(
  "orders",
  {
    id: text("id").primaryKey(),
    /** Shown to people and sent to providers as the merchant's order number (out_trade_no). */
    number: text("number").notNull(),
    spaceId: text("space_id")
      .notNull()
      .references(() => spaces.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    /** `plan` (planCode × period) or `credits` (a pack of `credits`). */
    productType: text("product_type", { enum: ["plan", "credits"] }).notNull(),
    planCode: text("plan_code"),
    period: text("period", { enum: ["month", "year"] }),
    credits: integer("credits"),
    /** Amount in the smallest unit of `currency`. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    /** wechat, alipay, stripe, or manual (an administrator's grant). */
    provider: text("provider").notNull(),
    status: text("status", { enum: orderStatuses }).notNull(),
    /** The provider's id of the payment (transaction_id, trade_no, checkout session). */
    providerReference: text("provider_reference"),
    /** Where the payer pays: a QR code's content or a checkout address. */
    payUrl: text("pay_url"),
    /** JSON of what fulfilment granted (credits, plan period before and after), for refunds. */
    granted: text("granted"),
    /** Who granted a manual order, or refunded one. */
    actorUserId: text("actor_user_id"),
    note: text("note"),
    createdAt: createdAt(),
    paidAt: text("paid_at"),
    fulfilledAt: text("fulfilled_at"),
    closedAt: text("closed_at"),
    refundedAt: text("refunded_at"),
    updatedAt: text("updated_at").notNull(),
  },
  (table) => [uniqueIndex("orders_number_unique").on(table.number), index("orders_space_idx").on(table.spaceId, table.createdAt)],
);

/**
 * Payment notifications as received, after their signature was checked: the provider's event id
 * is unique, so a replayed notification is recognised and changes nothing.
 */
export const paymentEvents = sqliteTable(
  "payment_events",
  {
    id: text("id").primaryKey(),
    provider: text("provider").notNull(),
    /** The provider's id of the notification (WeChat Pay's id, Alipay's notify_id, Stripe's event id). */
    eventId: text("event_id").notNull(),
    orderId: text("order_id"),
    type: text("type").notNull(),
    /** What became of it: fulfilled, duplicate, refused (with why). */
    outcome: text("outcome").notNull(),
    payload: text("payload").notNull(),
    receivedAt: createdAt(),
  },
  (table) => [uniqueIndex("payment_events_unique").on(table.provider, table.eventId)],
);

/** Daily check-ins: one per user per calendar day of the instance's time zone. */
export const checkIns = sqliteTable(
  "check_ins",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** YYYY-MM-DD in the instance's time zone. */
    day: text("day").notNull(),
    spaceId: text("space_id").notNull(),
    credits: integer("credits").notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] })],
);

/** Personal invitation codes (the link's inviteParam), one per user, made on first ask. */
export const invitationCodes = sqliteTable(
  "invitation_codes",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("invitation_codes_code_unique").on(table.code)],
);

/** Who registered through whose link: one row per new user, so the inviter is rewarded once. */
export const invitations = sqliteTable(
  "invitations",
  {
    inviteeUserId: text("invitee_user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    inviterUserId: text("inviter_user_id").notNull(),
    credits: integer("credits").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("invitations_inviter_idx").on(table.inviterUserId, table.createdAt)],
);

/**
 * A user's benefits account: creator benefits earned and cash-outs paid, each row carrying the
 * balance after it (computed in the INSERT, as the credit ledger does).
 */
export const benefitLedger = sqliteTable(
  "benefit_ledger",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    id: text("id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    reason: text("reason", { enum: ["creator", "cash-out", "cash-out-refused", "adjustment"] }).notNull(),
    /** The usage record (creator), or the cash-out request. */
    reference: text("reference"),
    /** The app whose use earned it (creator). */
    appId: text("app_id"),
    createdAt: createdAt(),
  },
  (table) => [index("benefit_ledger_user_idx").on(table.userId, table.seq)],
);

/** A request to pay out benefits, decided by the administrator. */
export const cashOuts = sqliteTable(
  "cash_outs",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amount: integer("amount").notNull(),
    /** Where to pay (account name and number, as the user wrote it). */
    account: text("account").notNull(),
    status: text("status", { enum: ["requested", "approved", "refused"] }).notNull(),
    reviewedBy: text("reviewed_by"),
    reviewNote: text("review_note"),
    createdAt: createdAt(),
    reviewedAt: text("reviewed_at"),
  },
  (table) => [index("cash_outs_user_idx").on(table.userId, table.createdAt), index("cash_outs_status_idx").on(table.status)],
);

/**
 * Balance alerts: a threshold per space. A notice goes out once when the balance falls below it,
 * and the alert re-arms when the balance rises above it again.
 */
export const balanceAlerts = sqliteTable("balance_alerts", {
  spaceId: text("space_id")
    .primaryKey()
    .references(() => spaces.id, { onDelete: "cascade" }),
  threshold: integer("threshold").notNull(),
  /** JSON array of where notices go: email, sms, in-app. */
  channels: text("channels").notNull(),
  /** JSON array of members told besides the owner (getCompanyNotifyMember); removed members are skipped. */
  notifyMemberIds: text("notify_member_ids").notNull().default("[]"),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  /** A notice went out and the balance has not risen above the threshold since. */
  fired: integer("fired", { mode: "boolean" }).notNull().default(false),
  firedAt: text("fired_at"),
  updatedAt: text("updated_at").notNull(),
});

/** In-app notices to a user (balance alerts now; announcements later). */
export const notices = sqliteTable(
  "notices",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    spaceId: text("space_id"),
    kind: text("kind").notNull(),
    /** JSON parameters the console formats in the reader's language. */
    params: text("params").notNull(),
    readAt: text("read_at"),
    createdAt: createdAt(),
  },
  (table) => [index("notices_user_idx").on(table.userId, table.createdAt)],
);
