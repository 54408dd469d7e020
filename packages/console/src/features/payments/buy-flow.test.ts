import { describe, expect, it } from "vitest";
import { displayCurrency, formatMoney, offeredPlans, phaseOf, POLL_INTERVAL_MS, providersFor, shouldPoll, yearlySaving } from "./buy-flow";

const wechat = { name: "wechat" as const, currency: "CNY" as const, kind: "qr" as const };
const stripe = { name: "stripe" as const, currency: "USD" as const, kind: "redirect" as const };

describe("buy flow", () => {
  it("follows an order until it is fulfilled, closed or refunded, polling only while paying", () => {
    expect(phaseOf(undefined)).toBe("choose");
    expect(phaseOf({ status: "created" })).toBe("paying");
    expect(phaseOf({ status: "paid" })).toBe("paying");
    expect(phaseOf({ status: "fulfilled" })).toBe("fulfilled");
    expect(phaseOf({ status: "closed" })).toBe("closed");
    expect(phaseOf({ status: "refunded" })).toBe("refunded");
    expect(shouldPoll({ status: "created" })).toBe(POLL_INTERVAL_MS);
    expect(shouldPoll({ status: "fulfilled" })).toBe(false);
    expect(shouldPoll(undefined)).toBe(false);
  });

  it("shows prices in the currency of the configured providers", () => {
    expect(displayCurrency([])).toBe("CNY");
    expect(displayCurrency([stripe])).toBe("USD");
    expect(displayCurrency([stripe, wechat])).toBe("CNY");
    expect(providersFor([wechat, stripe], "CNY")).toEqual(["wechat"]);
    expect(providersFor([wechat, stripe], "USD")).toEqual(["stripe"]);
  });

  it("tells the yearly saving as two months and formats money from the smallest unit", () => {
    expect(yearlySaving(9_900)).toBe(19_800);
    expect(formatMoney(99_000, "CNY", "en")).toBe("CN¥990");
    expect(formatMoney(1_550, "USD", "en")).toBe("$15.50");
  });

  it("offers neither plans the administrator withdrew nor Custom", () => {
    const plan = (code: "free" | "pro" | "custom", offered: boolean) => ({
      code,
      grade: "FREE",
      monthlyPrices: { CNY: 0, USD: 0 },
      yearlyPrices: { CNY: 0, USD: 0 },
      includedCredits: 0,
      quotas: {},
      offered,
    });
    const catalogue = { plans: [plan("free", true), plan("pro", false), plan("custom", true)], packs: [], providers: [], salesEmail: null, current: null };
    expect(offeredPlans(catalogue).map((item) => item.code)).toEqual(["free"]);
  });
});
