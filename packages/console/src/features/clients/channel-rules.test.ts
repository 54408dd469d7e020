import { describe, expect, it } from "vitest";
import type { ChannelField } from "../../lib/api/channel-clients";
import { checkChannelField, configBody, configFieldOf, initialConfig, localized, matchesPattern } from "./channel-rules";

const label = { en: "Bot token", "zh-CN": "机器人令牌" };
const botToken: ChannelField = { key: "botToken", label, secret: true, required: true, pattern: "^\\d+:[A-Za-z0-9_-]+$" };
const secretToken: ChannelField = { key: "secretToken", label, secret: true, required: false, pattern: "^[A-Za-z0-9_-]{1,256}$" };
const mode: ChannelField = {
  key: "mode",
  label,
  secret: false,
  required: true,
  options: [
    { value: "plain", label },
    { value: "safe", label },
  ],
  default: "safe",
};
const note: ChannelField = { key: "note", label, secret: false, required: false };

describe("channel form rules", () => {
  it("picks the catalogue text of the interface language", () => {
    expect(localized(label, "zh-CN")).toBe("机器人令牌");
    expect(localized(label, "en")).toBe("Bot token");
    expect(localized(undefined, "en")).toBe("");
  });

  it("mirrors the server: required, options and the pattern on the trimmed value", () => {
    expect(checkChannelField(botToken, "", { set: false, action: "replace" })).toBe("clients.channelForm.required");
    expect(checkChannelField(botToken, "not a token", { set: false, action: "replace" })).toBe("clients.channelForm.pattern");
    expect(checkChannelField(botToken, "  123:abc_DEF  ", { set: false, action: "replace" })).toBeUndefined();
    expect(checkChannelField(mode, "other")).toBe("clients.channelForm.option");
    expect(checkChannelField(mode, "plain")).toBeUndefined();
    expect(checkChannelField(note, "")).toBeUndefined();
    expect(checkChannelField(note, "x".repeat(4001))).toBe("clients.channelForm.tooLong");
  });

  it("lets a set secret be kept, but not a required one be cleared or kept unset", () => {
    expect(checkChannelField(botToken, "", { set: true, action: "keep" })).toBeUndefined();
    expect(checkChannelField(botToken, "", { set: false, action: "keep" })).toBe("clients.channelForm.required");
    expect(checkChannelField(botToken, "", { set: true, action: "clear" })).toBe("clients.channelForm.required");
    expect(checkChannelField(secretToken, "", { set: true, action: "clear" })).toBeUndefined();
  });

  it("sends plain values, replaced or cleared secrets, and leaves kept secrets out", () => {
    const fields = [botToken, secretToken, mode, note];
    expect(configBody(fields, { botToken: " 1:a ", secretToken: "ignored", mode: "plain", note: " " }, { botToken: "replace", secretToken: "keep" })).toEqual({
      botToken: "1:a",
      mode: "plain",
      note: "",
    });
    expect(configBody(fields, { mode: "safe" }, { botToken: "keep", secretToken: "clear" })).toEqual({ secretToken: "", mode: "safe", note: "" });
  });

  it("starts from stored values or defaults, secrets empty", () => {
    expect(initialConfig([botToken, mode, note], { note: "hi", botToken: "never answered" })).toEqual({ botToken: "", mode: "safe", note: "hi" });
  });

  it("finds the field of a refusal and tolerates a pattern the browser cannot compile", () => {
    expect(configFieldOf("config.botToken")).toBe("botToken");
    expect(configFieldOf("name")).toBeUndefined();
    expect(matchesPattern("(?<", "x")).toBe(true);
  });
});
