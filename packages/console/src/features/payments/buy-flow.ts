import type { Order, PaymentCatalogue, ProviderName } from "../../lib/api/payments";

/** How often a paying order is asked for its status. */
export const POLL_INTERVAL_MS = 2_000;

/** Where a buy stands: choosing a provider, paying (QR shown or redirected), done, or given up. */
export type BuyPhase = "choose" | "paying" | "fulfilled" | "closed" | "refunded";

/** The phase an order's status puts the buy in (`paid` is still paying: fulfilment follows at once). */
export function phaseOf(order: Pick<Order, "status"> | undefined): BuyPhase {
  if (!order) return "choose";
  switch (order.status) {
    case "created":
    case "paid":
      return "paying";
    case "fulfilled":
      return "fulfilled";
    case "refunded":
      return "refunded";
    default:
      return "closed";
  }
}

/** Whether the order is still worth polling. */
export function shouldPoll(order: Pick<Order, "status"> | undefined): number | false {
  return phaseOf(order) === "paying" ? POLL_INTERVAL_MS : false;
}

/** The currency prices are shown in: that of the providers here (CNY first), CNY when there are none. */
export function displayCurrency(providers: PaymentCatalogue["providers"]): "CNY" | "USD" {
  if (providers.length === 0 || providers.some((provider) => provider.currency === "CNY")) return "CNY";
  return "USD";
}

/** The providers that take a currency, in the catalogue's order. */
export function providersFor(providers: PaymentCatalogue["providers"], currency: "CNY" | "USD"): ProviderName[] {
  return providers.filter((provider) => provider.currency === currency).map((provider) => provider.name);
}

/** What a year saves against twelve months: two months' price. */
export function yearlySaving(monthly: number): number {
  return monthly * 12 - monthly * 10;
}

/** An amount in the currency's smallest unit, as money in the reader's language. */
export function formatMoney(amount: number, currency: string, language: string): string {
  return new Intl.NumberFormat(language, { style: "currency", currency, minimumFractionDigits: amount % 100 === 0 ? 0 : 2 }).format(amount / 100);
}

/** Plans offered on the price page, cheapest first (Custom is arranged with sales). */
export function offeredPlans(catalogue: PaymentCatalogue): PaymentCatalogue["plans"] {
  return catalogue.plans.filter((plan) => plan.offered && plan.code !== "custom");
}
