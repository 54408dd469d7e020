import { describe, expect, it } from "vitest";
import { isTeamInvite, readStartupParams, stripStartupParams } from "./startup-params";

describe("start-up parameters", () => {
  it("reads code, loginCode, inviteParam, ref as source and share", () => {
    expect(readStartupParams("?code=c1&loginCode=l1&inviteParam=i1&ref=blog&share=s1&other=x")).toEqual({
      code: "c1",
      loginCode: "l1",
      inviteParam: "i1",
      source: "blog",
      share: "s1",
    });
  });

  it("ignores empty values", () => {
    expect(readStartupParams("?code=&ref=%20")).toEqual({});
  });

  it("removes only the start-up parameters from the address", () => {
    expect(stripStartupParams("?code=c1&tab=keys&loginCode=l")).toBe("?tab=keys");
    expect(stripStartupParams("?code=c1")).toBe("");
  });

  it("tells a team invitation (tm_…) from a referral code", () => {
    expect(isTeamInvite("tm_abc")).toBe(true);
    expect(isTeamInvite("K7M2Q9XZ")).toBe(false);
    expect(isTeamInvite(undefined)).toBe(false);
  });
});
