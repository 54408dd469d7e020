import { describe, expect, it } from "vitest";
import { knownModels } from "../platform/llm/known-models";
import { creditsFor, defaultModelPrice, modelPrices, priceOf } from "./pricing";

describe("model pricing", () => {
  it("charges per 1,000 tokens and rounds the sum up to whole credits", () => {
    // gpt-4.1-mini: 4 per 1k prompt, 16 per 1k completion.
    expect(creditsFor("gpt-4.1-mini", { promptTokens: 1000, completionTokens: 1000 })).toBe(20);
    expect(creditsFor("gpt-4.1-mini", { promptTokens: 1, completionTokens: 0 })).toBe(1);
    expect(creditsFor("gpt-4.1-mini", { promptTokens: 250, completionTokens: 250 })).toBe(5);
    expect(creditsFor("gpt-4.1-mini", { promptTokens: 251, completionTokens: 250 })).toBe(6);
    expect(creditsFor("gpt-4.1-mini", { promptTokens: 0, completionTokens: 0 })).toBe(0);
  });

  it("answers integers only, whatever the token counts", () => {
    for (const id of Object.keys(modelPrices)) {
      const credits = creditsFor(id, { promptTokens: 1234.7, completionTokens: 77.2 });
      expect(Number.isInteger(credits)).toBe(true);
    }
    expect(creditsFor("gpt-4o", { promptTokens: -50, completionTokens: -1 })).toBe(0);
  });

  it("uses the default row for unknown models", () => {
    expect(priceOf("my-local-llama")).toEqual(defaultModelPrice);
    expect(creditsFor("my-local-llama", { promptTokens: 1000, completionTokens: 1000 })).toBe(defaultModelPrice.prompt + defaultModelPrice.completion);
  });

  it("makes the offline responder free", () => {
    expect(creditsFor("parley-offline", { promptTokens: 100_000, completionTokens: 100_000 })).toBe(0);
  });

  it("prices every model the catalogue knows, with integer prices", () => {
    for (const id of Object.keys(knownModels)) expect(modelPrices[id], id).toBeDefined();
    for (const price of Object.values(modelPrices)) {
      expect(Number.isInteger(price.prompt) && Number.isInteger(price.completion)).toBe(true);
    }
  });
});
