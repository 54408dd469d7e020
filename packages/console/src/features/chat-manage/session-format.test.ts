import { describe, expect, it } from "vitest";
import { formatListTime, sessionTitle } from "./session-format";

describe("session list format", () => {
  it("shows the clock today and the date before", () => {
    const now = new Date(2026, 10, 21, 15, 0);
    expect(formatListTime(new Date(2026, 10, 21, 9, 5).toISOString(), "en", now)).toMatch(/9:05|09:05/);
    expect(formatListTime(new Date(2026, 10, 19, 9, 5).toISOString(), "en", now)).toBe("Nov 19");
    expect(formatListTime(null, "en", now)).toBe("");
    expect(formatListTime("later", "en", now)).toBe("");
  });

  it("names a group by the group, a person by the sender", () => {
    expect(sessionTitle({ isGroup: true, groupName: "Testers", senderName: "Ada" })).toBe("Testers");
    expect(sessionTitle({ isGroup: false, groupName: null, senderName: "Ada" })).toBe("Ada");
    expect(sessionTitle({ isGroup: true, groupName: null, senderName: null })).toBe("");
  });
});
