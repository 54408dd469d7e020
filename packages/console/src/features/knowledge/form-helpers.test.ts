import { describe, expect, it } from "vitest";
import { fileNameRule } from "./form-helpers";

describe("fileNameRule (checkRule over the file-name check)", () => {
  const rule = fileNameRule();
  const optionalRule = fileNameRule(true);

  it("passes a value the check accepts", async () => {
    await expect(rule.validator(undefined, "returns-policy")).resolves.toBeUndefined();
  });

  it("refuses with the translated message of the check", async () => {
    await expect(rule.validator(undefined, "a".repeat(51))).rejects.toThrow(/50/);
    await expect(rule.validator(undefined, "")).rejects.toThrow();
  });

  it("lets an empty value through only when optional", async () => {
    await expect(optionalRule.validator(undefined, "  ")).resolves.toBeUndefined();
    await expect(optionalRule.validator(undefined, "a".repeat(51))).rejects.toThrow(/50/);
  });
});
