import { describe, expect, it } from "vitest";
import { catalogues, isMessageId, messageText, messages, renderMessage } from "./catalogue";
import { languages } from "./language";

const parametersOf = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe("the message catalogue", () => {
  it("has every message of every area in every language, with the same parameters", () => {
    const gaps: string[] = [];
    for (const [area, catalogue] of Object.entries(catalogues)) {
      for (const [id, message] of Object.entries(catalogue)) {
        const texts = message as Partial<Record<string, string>>;
        for (const language of languages) {
          if (typeof texts[language] !== "string" || !texts[language]?.trim()) gaps.push(`${area}/${id}: no ${language}`);
        }
        const expected = parametersOf(texts.en ?? "");
        for (const language of languages) {
          const found = parametersOf(texts[language] ?? "");
          if (found.join() !== expected.join()) gaps.push(`${area}/${id}: ${language} has {${found}} but en has {${expected}}`);
        }
        for (const language of Object.keys(texts)) {
          if (!(languages as readonly string[]).includes(language)) gaps.push(`${area}/${id}: unknown language ${language}`);
        }
      }
    }
    expect(gaps).toEqual([]);
  });

  it("gives each id to exactly one area, and the composed catalogue holds them all", () => {
    const owners = new Map<string, string[]>();
    for (const [area, catalogue] of Object.entries(catalogues)) {
      for (const id of Object.keys(catalogue)) owners.set(id, [...(owners.get(id) ?? []), area]);
    }
    expect([...owners].filter(([, areas]) => areas.length > 1)).toEqual([]);
    expect(Object.keys(messages).sort()).toEqual([...owners.keys()].sort());
  });

  it("fills parameters, translating those that name a thing", () => {
    expect(messageText("en", "not_found", { what: "app" })).toBe("App not found");
    expect(messageText("zh-CN", "not_found", { what: "app" })).toBe("未找到应用");
    expect(messageText("en", "rate_limited", { seconds: 30 })).toBe("Too many attempts, try again in 30 s");
    expect(messageText("en", "validation_failed", { field: "name" })).toBe("Invalid name: {reason}");
  });

  it("shows other parameters as given, even when they spell a thing's name", () => {
    // A field, a plugin parameter or a user's text called "app" or "user" is not a thing.
    expect(messageText("en", "validation_failed", { field: "app", reason: "user" })).toBe("Invalid app: user");
    expect(messageText("zh-CN", "permission_denied_view", { resource: "resource.customers" })).not.toContain("resource.customers");
  });

  it("names every thing a service reports as not found, model providers included", () => {
    expect(messageText("en", "not_found", { what: "model_provider" })).toBe("Model provider not found");
    expect(messageText("zh-CN", "not_found", { what: "model_provider" })).toBe("未找到模型服务商");
  });

  it("renders an id known only at run time, and an unknown one as itself", () => {
    expect(isMessageId("file_empty")).toBe(true);
    expect(isMessageId("toString")).toBe(false);
    expect(renderMessage("zh-CN", "file_empty")).toBe("文件为空");
    expect(renderMessage("en", "no such message {x}", { x: 1 })).toBe("no such message 1");
  });
});
