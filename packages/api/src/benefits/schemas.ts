import { z } from "@hono/zod-openapi";
import { alertChannels, ALERT_THRESHOLD_MAX } from "./service/alerts";
import { ADJUSTMENT_MAX } from "./service/adjustments";
import { CASH_OUT_MAX } from "./service/cash-outs";

const timestamp = z.string().openapi({ format: "date-time", example: "2026-11-21T08:00:00.000Z" });
const credits = (description: string) => z.number().int().openapi({ description });

/** Today's check-in. */
export const checkInStatusSchema = z
  .object({
    day: z.string().openapi({ description: "Today in the instance's time zone (YYYY-MM-DD)", example: "2026-11-21" }),
    checkedIn: z.boolean(),
    credits: z.number().int().nullable().openapi({ description: "Credits today's check-in gave; null before it" }),
    min: credits("Smallest daily reward"),
    max: credits("Largest daily reward"),
  })
  .openapi("CheckInStatus");

/** What a check-in answers. */
export const checkInResultSchema = checkInStatusSchema.extend({ balance: credits("Balance of the personal space after the reward") }).openapi("CheckInResult");

/** The caller's invitation link and rewards. */
export const invitationSchema = z
  .object({
    code: z.string().openapi({ example: "K7M2Q9XZ" }),
    link: z
      .string()
      .openapi({ description: "Registration address carrying the code as `inviteParam`", example: "https://parley.example.com/register?inviteParam=K7M2Q9XZ" }),
    reward: credits("Credits per person who registers through the link"),
    invited: z.number().int(),
    credits: credits("Credits earned by invitations so far"),
  })
  .openapi("Invitation");

/** One person who registered through the caller's link. */
export const invitedSchema = z.object({ userId: z.string(), name: z.string(), credits: z.number().int(), createdAt: timestamp }).openapi("InvitedUser");

/** The caller's benefits account. */
export const benefitsAccountSchema = z
  .object({
    balance: credits("What can be cashed out now"),
    totalEarned: credits("Creator benefits earned in all"),
    cashedOut: credits("Paid out (approved cash-outs)"),
    pending: credits("Held by cash-outs awaiting review"),
    sharePercent: z.number().int().openapi({ description: "Percent of the credits others spend on your published apps you earn", example: 20 }),
  })
  .openapi("BenefitsAccount");

/** One movement of a benefits account. */
export const benefitMovementSchema = z
  .object({
    id: z.string(),
    delta: z.number().int(),
    balanceAfter: z.number().int(),
    reason: z.enum(["creator", "cash-out", "cash-out-refused", "adjustment"]),
    reference: z.string().nullable(),
    appId: z.string().nullable(),
    createdAt: timestamp,
  })
  .openapi("BenefitMovement");

/** A cash-out request. */
export const cashOutSchema = z
  .object({
    id: z.string(),
    userId: z.string(),
    amount: z.number().int(),
    account: z.string(),
    status: z.enum(["requested", "approved", "refused"]),
    reviewNote: z.string().nullable(),
    createdAt: timestamp,
    reviewedAt: z.string().nullable(),
  })
  .openapi("CashOut");

/** A cash-out request as the administrator reviews it. */
export const reviewedCashOutSchema = cashOutSchema.extend({ userName: z.string(), userEmail: z.string().nullable() }).openapi("CashOutForReview");

/** Body of POST /api/v1/cash-outs. */
export const cashOutBody = z
  .object({
    amount: z.number().int().min(1).max(CASH_OUT_MAX).openapi({ example: 500 }),
    account: z.string().max(200).openapi({ description: "Where to pay, as the user writes it", example: "Alipay lin@example.com" }),
  })
  .openapi("CashOutRequest");

/** Body of the administrator's decision. */
export const cashOutDecisionBody = z.object({ note: z.string().max(500).optional() }).openapi("CashOutDecision");

/** Body of an administrator's credit adjustment. */
export const adjustmentBody = z
  .object({
    delta: z.number().int().min(-ADJUSTMENT_MAX).max(ADJUSTMENT_MAX).openapi({ description: "Credits to add (positive) or remove (negative)", example: 500 }),
    note: z.string().max(200).openapi({ description: "Why; kept with the movement", example: "Goodwill for the outage" }),
  })
  .openapi("CreditAdjustmentRequest");

/** What an adjustment answers. */
export const adjustmentResultSchema = z.object({ spaceId: z.string(), balance: z.number().int() }).openapi("CreditAdjustment");

/** The balance alert of a space. */
export const balanceAlertSchema = z
  .object({
    threshold: z.number().int().nullable().openapi({ description: "Credits; null until saved" }),
    channels: z.array(z.enum(alertChannels)),
    notifyMemberIds: z.array(z.string()).openapi({ description: "Members told besides the owner (team spaces)" }),
    enabled: z.boolean(),
    fired: z.boolean().openapi({ description: "A notice went out and the balance has not risen to the threshold since" }),
    firedAt: z.string().nullable(),
    updatedAt: z.string().nullable(),
  })
  .openapi("BalanceAlert");

/** Body of PUT /api/v1/balance-alert. */
export const balanceAlertBody = z
  .object({
    threshold: z.number().int().min(1).max(ALERT_THRESHOLD_MAX).nullable().optional().openapi({ description: "Required: credits", example: 500 }),
    channels: z.array(z.enum(alertChannels)).max(3).optional().openapi({ description: "At least one; in-app by default" }),
    notifyMemberIds: z
      .array(z.string().max(64))
      .max(100)
      .optional()
      .openapi({ description: "Members of the space told besides the owner, by the same channels (see GET /api/v1/team/notify-members); kept when left out" }),
    enabled: z.boolean().optional(),
  })
  .openapi("BalanceAlertRequest");

/** An in-app notice. */
export const noticeSchema = z
  .object({
    id: z.string(),
    kind: z.string().openapi({ example: "balance-alert" }),
    spaceId: z.string().nullable(),
    params: z.record(z.string(), z.union([z.string(), z.number()])).openapi({ description: "Parameters the console formats in the reader's language" }),
    readAt: z.string().nullable(),
    createdAt: timestamp,
  })
  .openapi("Notice");

/** The caller's notices. */
export const noticePageSchema = z.object({ unread: z.number().int(), items: z.array(noticeSchema) }).openapi("NoticePage");

/** One row of the model price table (billing rules). */
export const modelPriceSchema = z
  .object({
    model: z.string().openapi({ example: "gpt-4.1-mini" }),
    prompt: z.number().int().openapi({ description: "Credits per 1,000 prompt tokens" }),
    completion: z.number().int().openapi({ description: "Credits per 1,000 completion tokens" }),
  })
  .openapi("ModelPrice");

/** The price table the server charges by. */
export const billingRulesSchema = z.object({ prices: z.array(modelPriceSchema), defaultPrice: modelPriceSchema.omit({ model: true }) }).openapi("BillingRules");
