import { type Currency, PERIOD_MONTHS, type Plan, type PlanCode, type PlanPeriod, planCatalogue, priceFor } from "../../billing/service/plans";
import { fail } from "../../errors";
import type { Deps } from "../../kernel";

/** A credit pack: credits for a fixed price per currency. */
export interface CreditPack {
  code: string;
  credits: number;
  prices: Record<Currency, number>;
}

/** The packs on sale: bigger packs cost less per credit. */
export const CREDIT_PACKS: readonly CreditPack[] = [
  { code: "credits-1000", credits: 1_000, prices: { CNY: 1_000, USD: 150 } },
  { code: "credits-5000", credits: 5_000, prices: { CNY: 4_500, USD: 650 } },
  { code: "credits-20000", credits: 20_000, prices: { CNY: 16_000, USD: 2_300 } },
];

/** What an order sells. */
export type Product = { type: "plan"; planCode: PlanCode; period: PlanPeriod } | { type: "credits"; packCode: string };

/** A product priced in one currency, as an order fixes it. */
export interface PricedProduct {
  productType: "plan" | "credits";
  planCode: PlanCode | null;
  period: PlanPeriod | null;
  credits: number | null;
  amount: number;
  currency: Currency;
  /** What the payer sees at the provider. */
  description: string;
}

/** Prices a product from the catalogue as sold here; a plan that is not offered or costs nothing is not for sale. */
export async function priceProduct(deps: Pick<Deps, "db">, product: Product, currency: Currency): Promise<PricedProduct> {
  if (product.type === "credits") {
    const pack = CREDIT_PACKS.find((item) => item.code === product.packCode);
    if (!pack) throw fail.invalid("payments_pack_unknown", "product.packCode", { pack: product.packCode });
    return {
      productType: "credits",
      planCode: null,
      period: null,
      credits: pack.credits,
      amount: pack.prices[currency],
      currency,
      description: `Parley ${pack.credits} credits`,
    };
  }
  const plan = (await planCatalogue(deps)).find((item) => item.code === product.planCode);
  const amount = plan ? priceFor(plan, product.period, currency) : 0;
  if (!plan?.offered || !(amount > 0)) throw fail.invalid("payments_plan_not_for_sale", "product.planCode", { plan: product.planCode });
  return {
    productType: "plan",
    planCode: plan.code,
    period: product.period,
    credits: null,
    amount,
    currency,
    description: `Parley ${plan.code} (${product.period === "year" ? "1 year" : "1 month"})`,
  };
}

/** Credits a plan period includes: the plan's monthly credits for each month of the period. */
export function includedCreditsOf(plan: Plan, period: PlanPeriod): number {
  return plan.includedCredits * PERIOD_MONTHS[period];
}
