import { describe, expect, it } from "vitest";
import en from "../../../i18n/en.json";
import zh from "../../../i18n/zh-CN.json";
import { allocationProblem, canAllocateTo, maxAllocationFor, seatsRunOut } from "./credits-rules";

function lookup(catalogue: unknown, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined), catalogue);
}

describe("the allocation dialog", () => {
  it("offers what the member holds plus the unallocated credits, never a negative pool", () => {
    expect(maxAllocationFor({ unallocated: 650 }, { allocation: 50 })).toBe(700);
    expect(maxAllocationFor({ unallocated: -3 }, { allocation: 50 })).toBe(50);
  });

  it("accepts whole numbers from 0 up to the most the balance covers, and names the problem otherwise in both languages", () => {
    expect(allocationProblem(0, 100)).toBeUndefined();
    expect(allocationProblem(100, 100)).toBeUndefined();
    const problems = [allocationProblem(null, 100), allocationProblem(-1, 100), allocationProblem(2.5, 100), allocationProblem(101, 100)];
    expect(problems).toEqual([
      "teamCredits.validation.required",
      "teamCredits.validation.whole",
      "teamCredits.validation.whole",
      "teamCredits.validation.overBalance",
    ]);
    for (const key of problems) {
      expect(typeof lookup(en, key!), `en ${key}`).toBe("string");
      expect(typeof lookup(zh, key!), `zh ${key}`).toBe("string");
    }
  });

  it("never offers an allocation to the owner or to oneself", () => {
    expect(canAllocateTo({ owner: true, userId: "usr_owner" }, "usr_admin")).toBe(false);
    expect(canAllocateTo({ owner: false, userId: "usr_admin" }, "usr_admin")).toBe(false);
    expect(canAllocateTo({ owner: false, userId: "usr_dev" }, "usr_admin")).toBe(true);
  });
});

describe("member seats", () => {
  it("calls for the upgrade only when no seat is left", () => {
    expect(seatsRunOut({ remaining: 0 })).toBe(true);
    expect(seatsRunOut({ remaining: 2 })).toBe(false);
  });
});
