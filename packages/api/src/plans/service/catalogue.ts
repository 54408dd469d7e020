import { eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import { type Currency, type Plan, planCatalogue, type PlanCode, planOf, priceFor } from "../../billing/service/plans";
import { planSettings } from "../../db/schema/index";
import type { Auth, Deps } from "../../kernel";
import type { updatePlanBody } from "../schemas";
import { entitlementOf, quotaKeys, usageOf } from "./quotas";

const currencies: Currency[] = ["CNY", "USD"];

/** A plan as clients see it, with its yearly prices worked out. */
export function planView(plan: Plan) {
  return {
    ...plan,
    yearlyPrices: Object.fromEntries(currencies.map((currency) => [currency, priceFor(plan, "year", currency)])) as Record<Currency, number>,
  };
}

/** The catalogue as sold on this instance. */
export async function getCatalogue(deps: Pick<Deps, "db">) {
  return { plans: (await planCatalogue(deps)).map(planView) };
}

/** The plan the caller's space runs on now and how much of each quota it uses. */
export async function getSpacePlan(deps: Pick<Deps, "db" | "now">, auth: Auth) {
  const [entitlement, usage] = await Promise.all([entitlementOf(deps, auth.spaceId), usageOf(deps, auth.spaceId)]);
  return {
    spaceId: auth.spaceId,
    planCode: entitlement.plan.code,
    memberGrade: entitlement.grade,
    period: entitlement.plan.period,
    startedAt: entitlement.plan.startedAt,
    expiresAt: entitlement.plan.expiresAt,
    usage: quotaKeys.map((quota) => ({ quota, used: usage[quota], limit: entitlement.quotas[quota] })),
  };
}

function parsed<T>(value: string | null): Partial<T> {
  if (!value) return {};
  try {
    return JSON.parse(value) as Partial<T>;
  } catch {
    return {};
  }
}

/**
 * The administrator's edit of a plan: the fields sent are merged into the stored edits, so a
 * field never edited keeps following the release's default.
 */
export async function updatePlan(deps: Pick<Deps, "db" | "now">, code: PlanCode, input: z.infer<typeof updatePlanBody>) {
  const now = deps.now().toISOString();
  const row = await deps.db.select().from(planSettings).where(eq(planSettings.code, code)).get();
  const values = {
    monthlyPrices: input.monthlyPrices ? JSON.stringify({ ...parsed(row?.monthlyPrices ?? null), ...input.monthlyPrices }) : (row?.monthlyPrices ?? null),
    includedCredits: input.includedCredits ?? row?.includedCredits ?? null,
    quotas: input.quotas ? JSON.stringify({ ...parsed(row?.quotas ?? null), ...input.quotas }) : (row?.quotas ?? null),
    offered: input.offered ?? row?.offered ?? null,
    updatedAt: now,
  };
  await deps.db
    .insert(planSettings)
    .values({ code, ...values })
    .onConflictDoUpdate({ target: planSettings.code, set: values });
  return planView(await planOf(deps, code));
}
