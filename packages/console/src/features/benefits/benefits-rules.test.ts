import { describe, expect, it } from "vitest";
import en from "../../i18n/en.json";
import zh from "../../i18n/zh-CN.json";
import { adjustmentRules, balanceAlertRules, cashOutRules, checkInButtonState } from "./benefits-rules";

/** Reads a dotted key of a catalogue. */
function lookup(catalogue: unknown, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), catalogue);
}

const everyKey = (keys: (string | undefined)[]) => {
  for (const key of keys.filter((key): key is string => key !== undefined)) {
    expect(typeof lookup(en, key), `en ${key}`).toBe("string");
    expect(typeof lookup(zh, key), `zh ${key}`).toBe("string");
  }
};

describe("the balance alert form", () => {
  it("requires a whole positive threshold", () => {
    expect(balanceAlertRules.threshold(undefined)).toBe("balanceAlert.validation.thresholdRequired");
    expect(balanceAlertRules.threshold(null)).toBe("balanceAlert.validation.thresholdRequired");
    expect(balanceAlertRules.threshold(0)).toBe("balanceAlert.validation.thresholdRange");
    expect(balanceAlertRules.threshold(-3)).toBe("balanceAlert.validation.thresholdRange");
    expect(balanceAlertRules.threshold(2.5)).toBe("balanceAlert.validation.thresholdRange");
    expect(balanceAlertRules.threshold(1_000_000_001)).toBe("balanceAlert.validation.thresholdRange");
    expect(balanceAlertRules.threshold(1)).toBeUndefined();
    expect(balanceAlertRules.threshold(500)).toBeUndefined();
  });

  it("requires at least one channel", () => {
    expect(balanceAlertRules.channels(undefined)).toBe("balanceAlert.validation.channelsRequired");
    expect(balanceAlertRules.channels([])).toBe("balanceAlert.validation.channelsRequired");
    expect(balanceAlertRules.channels(["in-app"])).toBeUndefined();
    expect(balanceAlertRules.channels(["email", "sms"])).toBeUndefined();
  });
});

describe("the cash-out form", () => {
  it("refuses a missing, non-whole, non-positive or over-balance amount", () => {
    expect(cashOutRules.amount(undefined, 100)).toBe("benefits.cashOut.validation.amountRequired");
    expect(cashOutRules.amount(0, 100)).toBe("benefits.cashOut.validation.amountPositive");
    expect(cashOutRules.amount(1.5, 100)).toBe("benefits.cashOut.validation.amountPositive");
    expect(cashOutRules.amount(101, 100)).toBe("benefits.cashOut.validation.amountOverBalance");
    expect(cashOutRules.amount(1, 0)).toBe("benefits.cashOut.validation.amountOverBalance");
    expect(cashOutRules.amount(100, 100)).toBeUndefined();
  });

  it("requires where to pay", () => {
    expect(cashOutRules.account(undefined)).toBe("benefits.cashOut.validation.accountRequired");
    expect(cashOutRules.account("   ")).toBe("benefits.cashOut.validation.accountRequired");
    expect(cashOutRules.account("x".repeat(201))).toBe("benefits.cashOut.validation.accountLong");
    expect(cashOutRules.account("Alipay lin@example.com")).toBeUndefined();
  });
});

describe("the administrator's adjustment form", () => {
  it("requires a whole non-zero change within bounds and a note", () => {
    expect(adjustmentRules.delta(undefined)).toBe("benefits.adjust.validation.deltaRequired");
    expect(adjustmentRules.delta(0)).toBe("benefits.adjust.validation.deltaRange");
    expect(adjustmentRules.delta(0.5)).toBe("benefits.adjust.validation.deltaRange");
    expect(adjustmentRules.delta(100_000_001)).toBe("benefits.adjust.validation.deltaRange");
    expect(adjustmentRules.delta(-500)).toBeUndefined();
    expect(adjustmentRules.delta(500)).toBeUndefined();
    expect(adjustmentRules.note("  ")).toBe("benefits.adjust.validation.noteRequired");
    expect(adjustmentRules.note("x".repeat(201))).toBe("benefits.adjust.validation.noteLong");
    expect(adjustmentRules.note("Goodwill")).toBeUndefined();
  });
});

describe("the check-in button", () => {
  it("is pressable until today's check-in, then shows the result and is disabled", () => {
    expect(checkInButtonState(undefined)).toEqual({ labelKey: "checkIn.action", disabled: true, credits: null });
    expect(checkInButtonState({ day: "2026-11-21", checkedIn: false, credits: null, min: 10, max: 50 })).toEqual({
      labelKey: "checkIn.action",
      disabled: false,
      credits: null,
    });
    expect(checkInButtonState({ day: "2026-11-21", checkedIn: true, credits: 23, min: 10, max: 50 })).toEqual({
      labelKey: "checkIn.done",
      disabled: true,
      credits: 23,
    });
  });
});

describe("the messages the rules answer", () => {
  it("exist in English and Chinese", () => {
    everyKey([
      balanceAlertRules.threshold(undefined),
      balanceAlertRules.threshold(0),
      balanceAlertRules.channels([]),
      cashOutRules.amount(undefined, 0),
      cashOutRules.amount(0, 0),
      cashOutRules.amount(5, 0),
      cashOutRules.account(""),
      cashOutRules.account("x".repeat(201)),
      adjustmentRules.delta(undefined),
      adjustmentRules.delta(0),
      adjustmentRules.note(""),
      adjustmentRules.note("x".repeat(201)),
      checkInButtonState(undefined).labelKey,
      checkInButtonState({ day: "d", checkedIn: true, credits: 1, min: 1, max: 1 }).labelKey,
    ]);
  });
});
