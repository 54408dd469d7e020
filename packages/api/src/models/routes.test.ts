import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap";
import { modelProviders } from "../db/schema/index";
import { openValue } from "../platform/sealed";
import type { LlmFake } from "../testing/fakes/llm-common";
import { startOpenAiFake } from "../testing/fakes/llm-openai";
import { capturingLogger, expectError, expectOk } from "../testing/flows";
import { createTestContext, registerUser, type TestContext } from "../testing/harness";
import { modelProviderSchema, modelSchema, providerTestSchema } from "./schemas";

// The vitest project picks one driver per run; these routes are checked on both in every run.
const drivers = ["better-sqlite3", "libsql"] as const;
const OWNER_KEY = "pk_owner-bootstrap-key-0123456789abcdef";
const ENV_KEY = "sk-env-openai-secret-7777777777";
const ROW_KEY = "sk-deepseek-secret-abcdefghijkl";
const NEW_KEY = "sk-rotated-secret-zyxwvutsrqpo";

describe.each(drivers)("model routes on %s", (driver) => {
  let ctx: TestContext;
  let fake: LlmFake;
  let member: string;
  const logger = capturingLogger();
  const bodies: string[] = [];
  const call = async (path: string, init: Parameters<TestContext["request"]>[1] = {}) => {
    const response = await ctx.request(path, { token: OWNER_KEY, ...init });
    bodies.push(await response.clone().text());
    return response;
  };

  beforeAll(async () => {
    fake = await startOpenAiFake({ apiKey: ENV_KEY });
    ctx = await createTestContext(
      // Console providers follow the address rules: the fake on loopback is listed as an allowed host.
      {
        PARLEY_DATABASE_DRIVER: driver,
        PARLEY_BOOTSTRAP_API_KEY: OWNER_KEY,
        OPENAI_BASE_URL: fake.url,
        OPENAI_API_KEY: ENV_KEY,
        PARLEY_OPENAI_MODELS: "gpt-4.1-mini,gpt-4o-mini",
        PARLEY_LOG_LEVEL: "debug",
        PARLEY_PLUGINS_ALLOWED_HOSTS: new URL(fake.url).host,
      },
      { logger },
    );
    await bootstrap(ctx.deps);
    member = (await registerUser(ctx, "member@example.com")).token;
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  it("lists all models for any signed-in caller: configured ones with the default flagged, and the offline responder", async () => {
    const models = await expectOk(await ctx.request("/api/v1/models", { token: member }), 200, z.array(modelSchema));
    expect(models.map((model) => model.id)).toEqual(["gpt-4.1-mini", "gpt-4o-mini", "parley-offline"]);
    expect(models[0]).toEqual({
      id: "gpt-4.1-mini",
      label: "GPT-4.1 mini",
      providerId: "env-openai",
      providerKind: "openai",
      offline: false,
      contextWindow: 1_047_576,
      supportsTools: true,
      supportsImages: true,
      default: true,
    });
    expect(models[2]).toMatchObject({ offline: true, default: false, providerKind: "offline", supportsTools: false, supportsImages: false });
    expect(models[2]!.label).toMatch(/offline/i);
    await expectError(await ctx.request("/api/v1/models"), 401);
  });

  it("refuses every provider setting to anyone but the instance owner", async () => {
    const attempts: Array<[string, string, unknown?]> = [
      ["GET", "/api/v1/model-providers"],
      ["POST", "/api/v1/model-providers", { kind: "openai", name: "X", models: ["gpt-4o"] }],
      ["PATCH", "/api/v1/model-providers/mp_x", { enabled: false }],
      ["DELETE", "/api/v1/model-providers/mp_x"],
      ["POST", "/api/v1/model-providers/env-openai/test"],
    ];
    for (const [method, path, json] of attempts) {
      await expectError(await ctx.request(path, { method, token: member, ...(json ? { json } : {}) }), 403, { message: "Only the instance owner can do this" });
      await expectError(await ctx.request(path, { method, ...(json ? { json } : {}) }), 401);
    }
    expect(await ctx.deps.db.select().from(modelProviders).all()).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });

  it("shows config providers read-only, with a masked key hint", async () => {
    const providers = await expectOk(await call("/api/v1/model-providers"), 200, z.array(modelProviderSchema));
    expect(providers).toEqual([
      {
        id: "env-openai",
        kind: "openai",
        name: "OpenAI",
        baseUrl: fake.url,
        hasApiKey: true,
        apiKeyHint: "sk-…7777",
        models: ["gpt-4.1-mini", "gpt-4o-mini"],
        rerankModels: [],
        rerankFormat: "cohere",
        transcriptionModels: [],
        imageModels: [],
        imageFormat: "openai",
        speechModels: [],
        speechFormat: "openai",
        speechVoices: [],
        enabled: true,
        source: "config",
        createdAt: null,
        updatedAt: null,
      },
    ]);
    await expectError(await call("/api/v1/model-providers/env-openai", { method: "PATCH", json: { enabled: false } }), 409, { field: "id" });
    await expectError(await call("/api/v1/model-providers/env-openai", { method: "DELETE" }), 409, { field: "id" });
  });

  it("names the offending field when input is invalid", async () => {
    const cases: Array<[unknown, string]> = [
      [{ kind: "openai-compatible", name: "DeepSeek", models: ["deepseek-chat"] }, "baseUrl"],
      [{ kind: "cohere", name: "X", models: ["x"] }, "kind"],
      [{ kind: "openai", name: "", models: ["x"] }, "name"],
      [{ kind: "openai", name: "X", models: [] }, "models"],
      [{ kind: "openai", name: "X" }, "models"],
      [{ kind: "openai", name: "X", models: ["x"], baseUrl: "ftp://example.com" }, "baseUrl"],
      [{ kind: "openai", name: "X", models: ["x"], apiKey: 42 }, "apiKey"],
    ];
    for (const [json, field] of cases) {
      await expectError(await call("/api/v1/model-providers", { method: "POST", json }), 400, { field });
    }
    expect(await ctx.deps.db.select().from(modelProviders).all()).toEqual([]);
  });

  it("adds, tests, changes and removes a console provider; its models follow at once", async () => {
    const created = await expectOk(
      await call("/api/v1/model-providers", {
        method: "POST",
        json: {
          kind: "openai-compatible",
          name: "DeepSeek",
          baseUrl: `${fake.url}/`,
          apiKey: ROW_KEY,
          models: ["deepseek-chat", "deepseek-chat", "deepseek-reasoner"],
        },
      }),
      201,
      modelProviderSchema,
    );
    expect(created).toMatchObject({
      id: expect.stringMatching(/^mp_/),
      kind: "openai-compatible",
      baseUrl: fake.url,
      hasApiKey: true,
      apiKeyHint: "sk-…ijkl",
      models: ["deepseek-chat", "deepseek-reasoner"],
      enabled: true,
      source: "console",
    });
    expect(created).not.toHaveProperty("apiKey");
    const stored = await ctx.deps.db.select().from(modelProviders).where(eq(modelProviders.id, created.id)).get();
    expect(stored!.apiKey).toMatch(/^sealed:/);
    expect(openValue(ctx.deps.secrets, stored!.apiKey!)).toBe(ROW_KEY);
    expect(stored).toMatchObject({ models: '["deepseek-chat","deepseek-reasoner"]', enabled: true });

    let models = await expectOk(await call("/api/v1/models"), 200, z.array(modelSchema));
    expect(models.find((model) => model.id === "deepseek-chat")).toMatchObject({
      providerId: created.id,
      providerKind: "openai-compatible",
      contextWindow: 128_000,
    });
    expect(ctx.deps.models.resolve("deepseek-reasoner")?.provider.id).toBe(created.id);

    // The fake only accepts the env key: the row's key must be the one sent.
    fake.reply({ text: "pong" });
    let tested = await expectOk(await call(`/api/v1/model-providers/${created.id}/test`, { method: "POST" }), 200, providerTestSchema);
    expect(tested).toMatchObject({ ok: false, model: "deepseek-chat", error: { kind: "auth", status: 401 } });
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${ROW_KEY}`);

    const patched = await expectOk(
      await call(`/api/v1/model-providers/${created.id}`, { method: "PATCH", json: { apiKey: ENV_KEY, name: "DeepSeek (fake)" } }),
      200,
      modelProviderSchema,
    );
    expect(patched).toMatchObject({ name: "DeepSeek (fake)", hasApiKey: true, apiKeyHint: "sk-…7777", models: ["deepseek-chat", "deepseek-reasoner"] });
    tested = await expectOk(await call(`/api/v1/model-providers/${created.id}/test?model=deepseek-reasoner`, { method: "POST" }), 200, providerTestSchema);
    expect(tested).toMatchObject({ ok: true, model: "deepseek-reasoner", reply: "pong", error: null });
    expect(tested.latencyMs).toBeGreaterThanOrEqual(0);
    expect(fake.requests.at(-1)?.body).toMatchObject({ model: "deepseek-reasoner", max_tokens: 16 });

    fake.fail(429, { retryAfter: 3 });
    tested = await expectOk(await call("/api/v1/model-providers/env-openai/test", { method: "POST" }), 200, providerTestSchema);
    expect(tested).toMatchObject({ ok: false, model: "gpt-4.1-mini", error: { kind: "rate_limited", status: 429 } });

    await expectOk(
      await call(`/api/v1/model-providers/${created.id}`, { method: "PATCH", json: { enabled: false, apiKey: NEW_KEY } }),
      200,
      modelProviderSchema,
    );
    models = await expectOk(await call("/api/v1/models"), 200, z.array(modelSchema));
    expect(models.map((model) => model.id)).not.toContain("deepseek-chat");
    expect(ctx.deps.models.resolve("deepseek-chat")).toBeUndefined();

    // An OpenAI-compatible provider cannot lose its base URL; nothing of the request is applied.
    await expectError(await call(`/api/v1/model-providers/${created.id}`, { method: "PATCH", json: { baseUrl: null, apiKey: null } }), 400, {
      field: "baseUrl",
    });
    expect(openValue(ctx.deps.secrets, (await ctx.deps.db.select().from(modelProviders).where(eq(modelProviders.id, created.id)).get())!.apiKey!)).toBe(
      NEW_KEY,
    );
    const keyless = await expectOk(await call(`/api/v1/model-providers/${created.id}`, { method: "PATCH", json: { apiKey: null } }), 200, modelProviderSchema);
    expect(keyless).toMatchObject({ hasApiKey: false, apiKeyHint: null });

    const listed = await expectOk(await call("/api/v1/model-providers"), 200, z.array(modelProviderSchema));
    expect(listed.map((provider) => [provider.id, provider.source])).toEqual([
      [created.id, "console"],
      ["env-openai", "config"],
    ]);

    await expectOk(await call(`/api/v1/model-providers/${created.id}`, { method: "DELETE" }), 200, z.object({ deleted: z.literal(true) }));
    await expectError(await call(`/api/v1/model-providers/${created.id}`, { method: "DELETE" }), 404);
    await expectError(await call(`/api/v1/model-providers/${created.id}/test`, { method: "POST" }), 404);
    expect(await ctx.deps.db.select().from(modelProviders).all()).toEqual([]);
  });

  it("never echoes an API key in any answer or log line", () => {
    expect(bodies.length).toBeGreaterThan(10);
    for (const secret of [ENV_KEY, ROW_KEY, NEW_KEY]) {
      for (const body of bodies) expect(body).not.toContain(secret);
      for (const line of logger.lines) expect(line).not.toContain(secret);
    }
  });
});
