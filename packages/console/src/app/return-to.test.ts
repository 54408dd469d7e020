import { describe, expect, it } from "vitest";
import { safeReturnTo } from "./return-to";

describe("safeReturnTo", () => {
  it("keeps same-site paths with their query", () => {
    expect(safeReturnTo("/console/account?tab=apiKeys")).toBe("/console/account?tab=apiKeys");
  });
  it("refuses other sites, protocol-relative and sign-in pages", () => {
    expect(safeReturnTo("https://evil.example")).toBe("/console/agents");
    expect(safeReturnTo("//evil.example")).toBe("/console/agents");
    expect(safeReturnTo("/\\evil.example")).toBe("/console/agents");
    expect(safeReturnTo("/login?returnTo=/x")).toBe("/console/agents");
    expect(safeReturnTo(undefined)).toBe("/console/agents");
  });
});
