import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { modelProviders } from "../db/schema/index";
import { createTestContext, type TestContext } from "../testing/harness";
import { createModelCatalog } from "./catalog";

const llm = (providers: Parameters<typeof createModelCatalog>[0]["llm"]["providers"], defaultModel = "gpt-4.1-mini") => ({
  defaultModel,
  timeoutSeconds: 60,
  providers,
});

describe("model catalogue", () => {
  it("with nothing configured serves only the offline responder, which is the default", async () => {
    const catalog = createModelCatalog({ llm: llm([]) });
    await catalog.ready();
    expect(catalog.list().map((model) => model.id)).toEqual(["parley-offline"]);
    expect(catalog.list()[0]).toMatchObject({ offline: true, providerKind: "offline" });
    expect(catalog.resolve("gpt-4.1-mini")).toBeUndefined();
    expect(catalog.defaultModelId).toBe("gpt-4.1-mini");
    expect(catalog.defaultModel().id).toBe("parley-offline");
    expect(catalog.fallback().model.id).toBe("parley-offline");
    expect(catalog.resolve("parley-offline")?.provider.kind).toBe("offline");
  });

  it("resolves config models to their provider, with context windows from the table", async () => {
    const catalog = createModelCatalog({
      llm: llm([
        { id: "env-openai", kind: "openai", name: "OpenAI", apiKey: "sk-x", models: ["gpt-4.1-mini", "gpt-4o"] },
        {
          id: "env-openai-compatible",
          kind: "openai-compatible",
          name: "Ollama",
          baseUrl: "http://127.0.0.1:11434/v1",
          models: ["qwen2.5", "gpt-4o", "my-finetune"],
        },
      ]),
    });
    expect(catalog.list().map((model) => model.id)).toEqual(["gpt-4.1-mini", "gpt-4o", "qwen2.5", "my-finetune", "parley-offline"]);
    expect(catalog.resolve("gpt-4o")?.provider.id).toBe("env-openai");
    expect(catalog.resolve("qwen2.5")?.model).toMatchObject({ providerId: "env-openai-compatible", providerKind: "openai-compatible", contextWindow: 32_768 });
    expect(catalog.resolve("my-finetune")?.model).toMatchObject({ contextWindow: 8_192, label: "my-finetune (Ollama)" });
    expect(catalog.resolve("gpt-4.1-mini")?.model.contextWindow).toBe(1_047_576);
    expect(catalog.defaultModel().id).toBe("gpt-4.1-mini");
    expect(catalog.resolve("claude-haiku-4-5")).toBeUndefined();
    expect(catalog.providers().map((entry) => [entry.provider.id, entry.source])).toEqual([
      ["env-openai", "config"],
      ["env-openai-compatible", "config"],
      ["offline", "config"],
    ]);
  });

  describe("with the owner's rows", () => {
    let ctx: TestContext;
    beforeAll(async () => {
      ctx = await createTestContext();
    });
    afterAll(async () => ctx.close());

    it("loads enabled rows, lets them win over config, and reloads on demand", async () => {
      const now = new Date().toISOString();
      await ctx.deps.db.insert(modelProviders).values([
        {
          id: "mp_a",
          kind: "openai-compatible",
          name: "DeepSeek",
          baseUrl: "https://api.deepseek.com/v1",
          apiKey: "sk-d",
          models: '["deepseek-chat","gpt-4.1-mini"]',
          enabled: true,
          createdAt: now,
          updatedAt: now,
        },
        { id: "mp_b", kind: "anthropic", name: "Claude", apiKey: "sk-c", models: '["claude-haiku-4-5"]', enabled: false, createdAt: now, updatedAt: now },
      ]);
      const catalog = createModelCatalog({
        llm: llm([{ id: "env-openai", kind: "openai", name: "OpenAI", apiKey: "sk-x", models: ["gpt-4.1-mini"] }]),
        db: ctx.deps.db,
      });
      await catalog.ready();
      expect(catalog.resolve("deepseek-chat")?.provider.id).toBe("mp_a");
      expect(catalog.resolve("gpt-4.1-mini")?.provider.id).toBe("mp_a");
      expect(catalog.resolve("claude-haiku-4-5")).toBeUndefined();
      expect(catalog.provider("mp_a")).toMatchObject({ name: "DeepSeek", source: "console" });

      await ctx.deps.db.delete(modelProviders);
      expect(catalog.resolve("deepseek-chat")).toBeDefined();
      await catalog.reload();
      expect(catalog.resolve("deepseek-chat")).toBeUndefined();
      expect(catalog.resolve("gpt-4.1-mini")?.provider.id).toBe("env-openai");
    });
  });
});
