import { z } from "@hono/zod-openapi";
import { planCodes } from "../billing/service/plans";
import { orderStatuses } from "../db/schema/billing";

const currency = z.enum(["CNY", "USD"]);
const period = z.enum(["month", "year"]);

/** What an order sells. */
export const productSchema = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("plan"), planCode: z.enum(planCodes), period }),
    z.object({ type: z.literal("credits"), packCode: z.string().min(1).max(40).openapi({ example: "credits-5000" }) }),
  ])
  .openapi("Product");

/** Body of order creation: the product and the provider; the price comes from the catalogue. */
export const createOrderBody = z
  .object({ product: productSchema, provider: z.enum(["wechat", "alipay", "stripe"]) })
  .strict()
  .openapi("CreateOrderRequest");

const grantedSchema = z
  .object({
    credits: z.number().int(),
    applied: z.boolean().optional().openapi({ description: "False only while a grant is being applied (finished at start-up after a crash)" }),
    plan: z.object({ planCode: z.string(), period, expiresAt: z.string() }).passthrough().optional(),
    refund: z.object({ creditsReversed: z.number().int(), creditsShort: z.number().int(), providerReference: z.string().optional() }).optional(),
  })
  .openapi("OrderGranted");

/** An order (a payment record). */
export const orderSchema = z
  .object({
    id: z.string(),
    number: z.string().openapi({ example: "PL20261125223012004821" }),
    spaceId: z.string(),
    userId: z.string(),
    productType: z.enum(["plan", "credits"]),
    planCode: z.string().nullable(),
    period: period.nullable(),
    credits: z.number().int().nullable(),
    amount: z.number().int().openapi({ description: "In the smallest unit of the currency (fen, cents)" }),
    currency: z.string(),
    provider: z.string().openapi({ description: "wechat, alipay, stripe or manual" }),
    status: z.enum(orderStatuses),
    payUrl: z.string().nullable().openapi({ description: "While created: the QR code's content (wechat, alipay) or the checkout page (stripe)" }),
    providerReference: z.string().nullable(),
    granted: grantedSchema.nullable(),
    note: z.string().nullable(),
    actorUserId: z.string().nullable(),
    createdAt: z.string(),
    paidAt: z.string().nullable(),
    fulfilledAt: z.string().nullable(),
    closedAt: z.string().nullable(),
    refundedAt: z.string().nullable(),
  })
  .openapi("Order");

/** A page of orders. */
export const orderPageSchema = z
  .object({ records: z.array(orderSchema), total: z.number().int(), pageNo: z.number().int(), pageSize: z.number().int() })
  .openapi("OrderPage");

/** Paging of order lists. */
export const orderListQuery = z.object({
  pageNo: z.coerce.number().int().min(1).max(100_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
});

const prices = z.object({ CNY: z.number().int(), USD: z.number().int() });

/** What is on sale here and how it can be paid. */
export const catalogueSchema = z
  .object({
    plans: z.array(
      z.object({
        code: z.enum(planCodes),
        grade: z.string(),
        monthlyPrices: prices,
        yearlyPrices: prices.openapi({ description: "Ten months' price: two months free" }),
        includedCredits: z.number().int().openapi({ description: "Per month of the period" }),
        quotas: z.record(z.string(), z.number()),
        offered: z.boolean(),
      }),
    ),
    packs: z.array(z.object({ code: z.string(), credits: z.number().int(), prices })),
    providers: z.array(z.object({ name: z.enum(["wechat", "alipay", "stripe"]), currency, kind: z.enum(["qr", "redirect"]) })),
    salesEmail: z.string().nullable().openapi({ description: "Where 'contact sales' writes to when no provider is configured" }),
    current: z.object({ code: z.enum(planCodes), period: period.nullable(), expiresAt: z.string().nullable() }).nullable(),
  })
  .openapi("PaymentCatalogue");

/** The administrator's grant of a plan period or credits to a space. */
export const manualGrantBody = z
  .object({
    spaceId: z.string().min(1).max(64),
    product: z.discriminatedUnion("type", [z.object({ type: z.literal("plan"), planCode: z.enum(planCodes), period })]).optional(),
    credits: z.number().int().min(1).max(100_000_000).optional(),
    amount: z.number().int().min(0).max(1_000_000_000).optional().openapi({ description: "What was paid outside Parley, if anything" }),
    currency: currency.optional(),
    note: z.string().max(500).optional(),
  })
  .strict()
  .openapi("ManualGrantRequest");

/** Optional note of a refund. */
export const refundBody = z
  .object({ note: z.string().max(500).optional() })
  .strict()
  .openapi("RefundRequest");

/** The administrator's list of orders. */
export const adminOrderListQuery = orderListQuery.extend({ status: z.enum(orderStatuses).optional() });
