import { describe, expect, it } from "vitest";
import { identifyAction, isIdentity } from "./identity";

const alice = { userId: "alice", hash: "a1" };
const bob = { userId: "bob", hash: "b1" };

describe("identify", () => {
  it("keeps things as they are before any session: the first session is created for the user", () => {
    expect(identifyAction(undefined, alice)).toBe("keep");
  });

  it("starts a new session when an anonymous visitor session exists", () => {
    expect(identifyAction({}, alice)).toBe("restart");
    expect(identifyAction({ userId: undefined }, alice)).toBe("restart");
  });

  it("is a no-op for the same user (a page that identifies on every load keeps its conversation)", () => {
    expect(identifyAction({ userId: "alice" }, alice)).toBe("keep");
    expect(identifyAction({ userId: "alice" }, { userId: "alice", hash: "another-hash" })).toBe("keep");
  });

  it("starts a new session when another user is identified", () => {
    expect(identifyAction({ userId: "alice" }, bob)).toBe("restart");
  });

  it("ignores a malformed identity rather than dropping the conversation", () => {
    expect(identifyAction({ userId: "alice" }, undefined)).toBe("keep");
    expect(identifyAction({}, { userId: "", hash: "x" })).toBe("keep");
    expect(identifyAction({}, { userId: "carol" } as never)).toBe("keep");
    expect(isIdentity("alice")).toBe(false);
    expect(isIdentity(alice)).toBe(true);
  });
});
