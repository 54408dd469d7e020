import { z } from "@hono/zod-openapi";
import { planCodes } from "../billing/service/plans";
import { planOnlyQuotaShape, QUOTA_MAX } from "../instance/schemas";
import { memberGrades } from "../spaces/service/privileges";
import { quotaKeys } from "./service/quotas";

/** Largest monthly price the administrator can set, in a currency's smallest unit. */
export const PRICE_MAX = 100_000_000;
/** Largest number of credits a plan can include per month. */
export const INCLUDED_CREDITS_MAX = 100_000_000;

const quota = (description: string, example: number) => z.number().int().min(0).max(QUOTA_MAX).openapi({ description, example });
const price = (example: number) => z.number().int().min(0).max(PRICE_MAX).openapi({ description: "In the currency's smallest unit (fen, cent)", example });

/** Every quota of a plan. */
export const planQuotasSchema = z
  .object({
    ...planOnlyQuotaShape,
    clients: quota("Clients: web clients and channel clients", 3),
    members: quota("Members of a team space besides the owner (a team space always has room for 3)", 0),
    customerService: quota("Chat-management seats; > 0 opens chat management, manual transfer and the remote database", 0),
  })
  .openapi("PlanQuotas");

/** Prices per currency. */
export const pricesSchema = z.object({ CNY: price(9900), USD: price(1500) }).openapi("PlanPrices");

/** A plan of the catalogue as sold on this instance. */
export const planSchema = z
  .object({
    code: z.enum(planCodes).openapi({ example: "pro" }),
    grade: z.enum(memberGrades).openapi({ description: "The member grade the plan gives", example: "NORMAL" }),
    monthlyPrices: pricesSchema,
    yearlyPrices: pricesSchema.openapi({ description: "A year costs ten months (two months free)" }),
    includedCredits: z.number().int().openapi({ description: "Credits granted per month of a period bought", example: 10000 }),
    quotas: planQuotasSchema,
    offered: z.boolean().openapi({ description: "Shown on the price page (Custom is arranged with sales)" }),
  })
  .openapi("Plan");

/** The catalogue. */
export const planCatalogueSchema = z.object({ plans: z.array(planSchema) }).openapi("PlanCatalogue");

/** One quota's use. */
export const quotaUsageSchema = z
  .object({
    quota: z.enum(quotaKeys).openapi({ example: "apps" }),
    used: z.number().int().openapi({ example: 4 }),
    limit: z.number().int().openapi({ example: 5 }),
  })
  .openapi("QuotaUsage");

/** The current space's plan and its use of every quota. */
export const spacePlanSchema = z
  .object({
    spaceId: z.string().openapi({ example: "spc_01jd7w3k5q9x2m4n6p8r" }),
    planCode: z.enum(planCodes).openapi({ example: "pro" }),
    memberGrade: z.enum(memberGrades).openapi({ description: "The effective grade: Free once the plan's period has ended", example: "NORMAL" }),
    period: z.enum(["month", "year"]).nullable().openapi({ description: "The period last bought or granted (null: Free, or a grade set without a period)" }),
    startedAt: z.string().nullable().openapi({ format: "date-time" }),
    expiresAt: z.string().nullable().openapi({ format: "date-time", description: "When the space falls back to Free (null: no end)" }),
    usage: z.array(quotaUsageSchema),
  })
  .openapi("SpacePlan");

/** Body of PATCH /api/v1/instance/plans/{code}: only the fields sent change. */
export const updatePlanBody = z
  .object({
    monthlyPrices: z
      .object({ CNY: price(9900).optional(), USD: price(1500).optional() })
      .strict()
      .optional()
      .openapi({ description: "Monthly prices to change; a year costs ten months" }),
    includedCredits: z.number().int().min(0).max(INCLUDED_CREDITS_MAX).optional().openapi({ example: 10000 }),
    quotas: planQuotasSchema.partial().strict().optional().openapi({ description: "Quotas to change; the others stay" }),
    offered: z.boolean().optional(),
  })
  .strict()
  .refine((body) => Object.values(body).some((value) => value !== undefined), { message: "msg:plan_change_required", path: ["offered"] })
  .openapi("UpdatePlanRequest", { example: { monthlyPrices: { CNY: 12900 }, quotas: { apps: 40 } } });

/** Path parameter naming a plan. */
export const planCodeParam = z.object({ code: z.enum(planCodes).openapi({ param: { name: "code", in: "path" }, example: "pro" }) });
