import { describe, expect, it } from "vitest";
import { changeLanguage, i18n } from "../../i18n";
import { IMAGE_STATUSES, imageStatusMessage } from "./statuses";

// Spec §8: each image status has its own warning, in English and Chinese.
describe("image status warnings", () => {
  it("gives every §8 image status its own message in both languages", async () => {
    for (const language of ["en", "zh-CN"] as const) {
      await changeLanguage(language);
      const texts = IMAGE_STATUSES.map((code) => imageStatusMessage(i18n.t, code));
      expect(new Set(texts).size).toBe(IMAGE_STATUSES.length);
      expect(texts.every((text) => text && !text.startsWith("paint."))).toBe(true);
    }
    await changeLanguage("en");
    expect(imageStatusMessage(i18n.t, 410)).toBe("Image generation failed: the content is not compliant, try another prompt");
    expect(imageStatusMessage(i18n.t, 511)).toBe("Please wait for the current task to complete");
  });

  it("shows the server's message for another status, and 599's when there is none", () => {
    expect(imageStatusMessage(i18n.t, 400, "the prompt is required")).toBe("the prompt is required");
    expect(imageStatusMessage(i18n.t, undefined)).toBe("Unknown error");
  });
});
