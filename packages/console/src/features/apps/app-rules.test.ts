import { describe, expect, it } from "vitest";
import { appRules, DEFAULT_APP_AVATAR, formPathOf, guidingQuestionsOf, rateLimitRules } from "./app-rules";

describe("spec §5 App rules as the console checks them", () => {
  it("requires a name of at most 50 characters", () => {
    expect(appRules.name("")).toBe("apps.validation.nameRequired");
    expect(appRules.name("   ")).toBe("apps.validation.nameRequired");
    expect(appRules.name("x".repeat(51))).toBe("apps.validation.nameLong");
    expect(appRules.name("Support bot")).toBeUndefined();
  });

  it("requires description and opening introduction longer than 5 characters", () => {
    expect(appRules.description("")).toBe("apps.validation.descriptionRequired");
    expect(appRules.description("12345")).toBe("apps.validation.descriptionShort");
    expect(appRules.description(" 12345 ")).toBe("apps.validation.descriptionShort");
    expect(appRules.description("123456")).toBeUndefined();
    expect(appRules.openingIntroduction(undefined)).toBe("apps.validation.openingRequired");
    expect(appRules.openingIntroduction("Hello")).toBe("apps.validation.openingShort");
    expect(appRules.openingIntroduction("Hello!")).toBeUndefined();
  });

  it("requires an avatar, and refuses the default one when publishing to the square", () => {
    expect(appRules.avatarUrl("")).toBe("apps.validation.avatarRequired");
    expect(appRules.avatarUrl(DEFAULT_APP_AVATAR)).toBeUndefined();
    expect(appRules.avatarUrl(DEFAULT_APP_AVATAR, true)).toBe("apps.validation.avatarDefaultPublic");
    expect(appRules.avatarUrl("javascript:alert(1)")).toBe("apps.validation.avatarUrl");
    expect(appRules.avatarUrl("https://cdn.test/a.png", true)).toBeUndefined();
  });

  it("requires category, settings prompt, default model and at least one model", () => {
    expect(appRules.category("")).toBe("apps.validation.categoryRequired");
    expect(appRules.settingsPrompt(" ")).toBe("apps.validation.promptRequired");
    expect(appRules.defaultModel(undefined)).toBe("apps.validation.modelRequired");
    expect(appRules.models(undefined, [])).toBe("apps.validation.modelsRequired");
    expect(appRules.models("gpt-4.1-mini", [])).toBeUndefined();
  });

  it("limits the bottom slogan to 20 characters", () => {
    expect(appRules.bottomSlogan("x".repeat(20))).toBeUndefined();
    expect(appRules.bottomSlogan("x".repeat(21))).toBe("apps.validation.sloganLong");
    expect(appRules.bottomSlogan(null)).toBeUndefined();
  });

  it("merge reply needs a delay", () => {
    expect(appRules.mergeDelay(true, null)).toBe("apps.validation.mergeDelayRequired");
    expect(appRules.mergeDelay(true, 0)).toBe("apps.validation.mergeDelayRequired");
    expect(appRules.mergeDelay(true, 5)).toBeUndefined();
    expect(appRules.mergeDelay(false, null)).toBeUndefined();
  });
});

describe("spec §5 Rate limit rules", () => {
  it("the count cannot be 0 and must be a whole number", () => {
    expect(rateLimitRules.count(0)).toBe("apps.rateLimit.validation.countMin");
    expect(rateLimitRules.count(null)).toBe("apps.rateLimit.validation.countRequired");
    expect(rateLimitRules.count(1.5)).toBe("apps.rateLimit.validation.countMin");
    expect(rateLimitRules.count(1)).toBeUndefined();
  });
});

describe("guidingQuestionsOf", () => {
  it("reads [bracketed] questions, not Markdown links or images", () => {
    expect(guidingQuestionsOf("Hi! [Where is my parcel?] [How do I return?] see [docs](https://x.test) ![a](b.png) [Where is my parcel?]")).toEqual([
      "Where is my parcel?",
      "How do I return?",
    ]);
  });
});

describe("formPathOf", () => {
  it("maps server field names onto form paths", () => {
    expect(formPathOf("optionalModels.1")).toEqual(["optionalModels"]);
    expect(formPathOf("humanization.mergeDelaySeconds")).toEqual(["humanization", "mergeDelaySeconds"]);
    expect(formPathOf("nope")).toBeUndefined();
    expect(formPathOf(undefined)).toBeUndefined();
  });
});
