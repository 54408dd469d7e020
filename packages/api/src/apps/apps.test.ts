import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appReactions, apps, rateLimitRules } from "../db/schema/index";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectError, expectOk, manualClock } from "../testing/flows";
import { appCategorySchema, appGroupSchema, appPageSchema, appSchema, appSeniorSchema, deletedAppSchema, rateLimitRuleSchema } from "./schemas";
import { getAppForChat, listRateLimitRules } from "./service/index";
import { createAppVia, validAppBody } from "./testing";
import { createKnowledgeBaseVia } from "../knowledge/testing";

const clock = manualClock(Date.parse("2026-03-01T10:00:00.000Z"));
let ctx: TestContext;
let owner: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({}, { now: clock.now });
  owner = await registerUser(ctx, "owner@example.com");
  // More than Free's quotas allow is created below.
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
});
afterAll(async () => ctx.close());

const storedApp = (id: string) => ctx.deps.db.select().from(apps).where(eq(apps.id, id)).get();

describe("create", () => {
  it("stores every setting with its defaults, a unique code and gpt-4.1-mini as the default model", async () => {
    const created = await createAppVia(ctx, owner, { bottomSlogan: "  Powered by Acme  " });
    expect(created.id).toMatch(/^app_/);
    expect(created.code).toMatch(/^[A-Z2-9]{10}$/);
    expect(created).toMatchObject({
      type: "LIGHT",
      name: "Support bot",
      defaultModel: "gpt-4.1-mini",
      optionalModels: ["gpt-4.1-mini"],
      isPublic: false,
      memoryTurns: 10,
      temperature: 0.7,
      retrievalLength: 4000,
      semanticCount: 6,
      fullTextCount: 4,
      bottomSlogan: "Powered by Acme",
      thumbCount: 0,
      collectCount: 0,
      thumbed: false,
      collected: false,
      createdBy: owner.user.id,
      createdAt: clock.now().toISOString(),
    });
    expect(created.advancedConfig.humanization).toEqual({ splitReply: false, mergeReply: false, mergeDelaySeconds: null, delayReplySeconds: 0 });

    const row = await storedApp(created.id);
    expect(row).toMatchObject({
      spaceId: owner.user.spaceId,
      code: created.code,
      description: "Answers questions about orders",
      category: "customer_service",
      optionalModels: '["gpt-4.1-mini"]',
      knowledgeBaseIds: "[]",
      bottomSlogan: "Powered by Acme",
      createdBy: owner.user.id,
    });
  });

  it("puts the default model first among the optional models when it is missing, without duplicates", async () => {
    const created = await createAppVia(ctx, owner, { defaultModel: "gpt-4.1", optionalModels: ["deepseek-chat", "deepseek-chat", " "] });
    expect(created.optionalModels).toEqual(["gpt-4.1", "deepseek-chat"]);
    expect((await storedApp(created.id))?.optionalModels).toBe('["gpt-4.1","deepseek-chat"]');
    const kept = await createAppVia(ctx, owner, { defaultModel: "gpt-4.1", optionalModels: ["deepseek-chat", "gpt-4.1"] });
    expect(kept.optionalModels).toEqual(["deepseek-chat", "gpt-4.1"]);
  });

  it("gives every app its own code", async () => {
    const codes = new Set<string>();
    for (let index = 0; index < 5; index++) codes.add((await createAppVia(ctx, owner)).code);
    expect(codes.size).toBe(5);
  });

  it("creates knowledge apps and agents, but not workflows", async () => {
    expect((await createAppVia(ctx, owner, { type: "AGENT" })).type).toBe("AGENT");
    await expectError(await ctx.request("/api/v1/apps", { method: "POST", token: owner.token, json: validAppBody({ type: "WORKFLOW" }) }), 400, {
      field: "type",
    });
  });

  it("needs a session or key", async () => {
    await expectError(await ctx.request("/api/v1/apps", { method: "POST", json: validAppBody() }), 401);
    await expectError(await ctx.request("/api/v1/apps"), 401);
  });
});

describe("list", () => {
  let lister: TestUser;
  const ids: string[] = [];
  beforeAll(async () => {
    lister = await registerUser(ctx, "lister@example.com");
    // More than Free's quotas allow is created below.
    await upgradeSpaceForTest(ctx, lister.user.spaceId, "ENTERPRISE");
    for (let index = 0; index < 105; index++) {
      clock.advance(1000);
      ids.push((await createAppVia(ctx, lister, { name: `App ${index}` })).id);
    }
  });

  it("answers the newest first, 100 per page by default", async () => {
    const page = await expectOk(await ctx.request("/api/v1/apps", { token: lister.token }), 200, appPageSchema);
    expect(page).toMatchObject({ total: 105, pageNo: 1, pageSize: 100 });
    expect(page.items).toHaveLength(100);
    expect(page.items[0]?.id).toBe(ids[104]);
    expect(page.items[99]?.id).toBe(ids[5]);
    const second = await expectOk(await ctx.request("/api/v1/apps?pageNo=2", { token: lister.token }), 200, appPageSchema);
    expect(second.items.map((item) => item.id)).toEqual(ids.slice(0, 5).reverse());
  });

  it("caps the page size at 100 and honours smaller ones", async () => {
    const capped = await expectOk(await ctx.request("/api/v1/apps?pageSize=500", { token: lister.token }), 200, appPageSchema);
    expect(capped.pageSize).toBe(100);
    expect(capped.items).toHaveLength(100);
    const small = await expectOk(await ctx.request("/api/v1/apps?pageNo=3&pageSize=10", { token: lister.token }), 200, appPageSchema);
    expect(small.items.map((item) => item.id)).toEqual(ids.slice(75, 85).reverse());
    await expectError(await ctx.request("/api/v1/apps?pageSize=0", { token: lister.token }), 400, { field: "pageSize" });
    await expectError(await ctx.request("/api/v1/apps?pageNo=abc", { token: lister.token }), 400, { field: "pageNo" });
  });

  it("shows the caller's marks", async () => {
    await ctx.request(`/api/v1/apps/${ids[104]}/thumb`, { method: "POST", token: lister.token });
    await ctx.request(`/api/v1/apps/${ids[103]}/collect`, { method: "POST", token: lister.token });
    const page = await expectOk(await ctx.request("/api/v1/apps?pageSize=3", { token: lister.token }), 200, appPageSchema);
    expect(page.items.map((item) => [item.thumbed, item.thumbCount, item.collected, item.collectCount])).toEqual([
      [true, 1, false, 0],
      [false, 0, true, 1],
      [false, 0, false, 0],
    ]);
  });
});

describe("detail and update", () => {
  it("answers the basic detail without, and the senior detail with, retrieval and advanced settings", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const created = await createAppVia(ctx, owner, { knowledgeBaseIds: [base.id], citationEnabled: true, citationThreshold: 0.9 });
    const basic = await expectOk(await ctx.request(`/api/v1/apps/${created.id}`, { token: owner.token }), 200, appSchema);
    expect(basic).toMatchObject({ id: created.id, code: created.code, settingsPrompt: "You are a friendly support agent." });
    expect(basic).not.toHaveProperty("knowledgeBaseIds");
    expect(basic).not.toHaveProperty("advancedConfig");
    const senior = await expectOk(await ctx.request(`/api/v1/apps/${created.id}/senior`, { token: owner.token }), 200, appSeniorSchema);
    expect(senior).toMatchObject({ knowledgeBaseIds: [base.id], citationEnabled: true, citationThreshold: 0.9 });
    expect(senior.advancedConfig.manualService.replyMode).toBe("none");
  });

  it("changes what it is given, keeps the rest, and moves updatedAt", async () => {
    const created = await createAppVia(ctx, owner);
    clock.advance(60_000);
    const updated = await expectOk(
      await ctx.request(`/api/v1/apps/${created.id}`, {
        method: "PATCH",
        token: owner.token,
        json: { name: "Renamed", temperature: 1.2, plugins: ["current_time"], multiRoundThinking: true, maxRounds: 5, isPublic: true },
      }),
      200,
      appSeniorSchema,
    );
    expect(updated).toMatchObject({ name: "Renamed", temperature: 1.2, plugins: ["current_time"], multiRoundThinking: true, maxRounds: 5, isPublic: true });
    expect(updated.description).toBe(created.description);
    expect(updated.updatedAt).toBe(clock.now().toISOString());
    expect(updated.createdAt).toBe(created.createdAt);
    expect(await storedApp(created.id)).toMatchObject({ name: "Renamed", temperature: 1.2, plugins: '["current_time"]', isPublic: true, code: created.code });
  });

  it("checks the rules on the result of a change, not only on the fields sent", async () => {
    const created = await createAppVia(ctx, owner, { avatarUrl: "/assets/default-app-avatar.png" });
    await expectError(await ctx.request(`/api/v1/apps/${created.id}`, { method: "PATCH", token: owner.token, json: { isPublic: true } }), 400, {
      field: "avatarUrl",
    });
    expect((await storedApp(created.id))?.isPublic).toBe(false);
  });

  it("answers 404 for an unknown app", async () => {
    await expectError(await ctx.request("/api/v1/apps/app_missing", { token: owner.token }), 404, { message: "App not found" });
    await expectError(await ctx.request("/api/v1/apps/app_missing", { token: owner.token, headers: { "accept-language": "zh-CN" } }), 404, {
      message: "未找到应用",
    });
    await expectError(await ctx.request("/api/v1/apps/app_missing", { method: "PATCH", token: owner.token, json: { name: "x" } }), 404);
  });
});

describe("delete", () => {
  it("answers the next app in the list, then the previous one, then null", async () => {
    const deleter = await registerUser(ctx, "deleter@example.com");
    const made = [];
    for (let index = 0; index < 3; index++) {
      clock.advance(1000);
      made.push(await createAppVia(ctx, deleter, { name: `App ${index}` }));
    }
    // Newest first: [2, 1, 0]. Deleting 1 selects 0, the one after it.
    const remove = (id: string) => ctx.request(`/api/v1/apps/${id}`, { method: "DELETE", token: deleter.token });
    expect(await expectOk(await remove(made[1]!.id), 200, deletedAppSchema)).toEqual({ deleted: true, nextAppId: made[0]!.id });
    // [2, 0]: deleting the last selects the one before it.
    expect((await expectOk(await remove(made[0]!.id), 200, deletedAppSchema)).nextAppId).toBe(made[2]!.id);
    expect((await expectOk(await remove(made[2]!.id), 200, deletedAppSchema)).nextAppId).toBeNull();
    expect((await expectOk(await ctx.request("/api/v1/apps", { token: deleter.token }), 200, appPageSchema)).total).toBe(0);
    await expectError(await remove(made[2]!.id), 404);
  });

  it("removes the app's marks and rate-limit rules with it", async () => {
    const created = await createAppVia(ctx, owner);
    await ctx.request(`/api/v1/apps/${created.id}/thumb`, { method: "POST", token: owner.token });
    await ctx.request(`/api/v1/apps/${created.id}/rate-limits`, {
      method: "POST",
      token: owner.token,
      json: { targetChannel: "all", periodUnit: "minute", count: 5 },
    });
    await expectOk(await ctx.request(`/api/v1/apps/${created.id}`, { method: "DELETE", token: owner.token }), 200, deletedAppSchema);
    expect(await storedApp(created.id)).toBeUndefined();
    expect(await ctx.deps.db.select().from(appReactions).where(eq(appReactions.appId, created.id)).all()).toEqual([]);
    expect(await ctx.deps.db.select().from(rateLimitRules).where(eq(rateLimitRules.appId, created.id)).all()).toEqual([]);
  });
});

describe("copy", () => {
  it("makes a private copy with a new id and code, counts reset, settings and rate limits kept", async () => {
    const base = await createKnowledgeBaseVia(ctx, owner);
    const source = await createAppVia(ctx, owner, { isPublic: true, temperature: 0.3, knowledgeBaseIds: [base.id] });
    await ctx.request(`/api/v1/apps/${source.id}/thumb`, { method: "POST", token: owner.token });
    await ctx.request(`/api/v1/apps/${source.id}/collect`, { method: "POST", token: owner.token });
    await ctx.request(`/api/v1/apps/${source.id}/rate-limits`, {
      method: "POST",
      token: owner.token,
      json: { targetChannel: "personal", periodUnit: "hour", count: 20, replyWhenExceeded: "Slow down" },
    });
    clock.advance(1000);
    const copy = await expectOk(await ctx.request(`/api/v1/apps/${source.id}/copy`, { method: "POST", token: owner.token }), 201, appSeniorSchema);
    expect(copy.id).not.toBe(source.id);
    expect(copy.code).not.toBe(source.code);
    expect(copy).toMatchObject({
      name: "Support bot (copy)",
      isPublic: false,
      temperature: 0.3,
      knowledgeBaseIds: [base.id],
      thumbCount: 0,
      collectCount: 0,
      thumbed: false,
      collected: false,
      createdAt: clock.now().toISOString(),
    });
    expect(await storedApp(copy.id)).toMatchObject({ thumbCount: 0, collectCount: 0, spaceId: owner.user.spaceId });
    expect(await storedApp(source.id)).toMatchObject({ thumbCount: 1, collectCount: 1, isPublic: true });
    const rules = await expectOk(await ctx.request(`/api/v1/apps/${copy.id}/rate-limits`, { token: owner.token }), 200, z.array(rateLimitRuleSchema));
    expect(rules).toMatchObject([{ appId: copy.id, targetChannel: "personal", periodUnit: "hour", count: 20, replyWhenExceeded: "Slow down" }]);

    const zh = await expectOk(
      await ctx.request(`/api/v1/apps/${source.id}/copy`, { method: "POST", token: owner.token, headers: { "accept-language": "zh-CN" } }),
      201,
      appSeniorSchema,
    );
    expect(zh.name).toBe("Support bot（副本）");
  });
});

describe("upgrade", () => {
  it("turns a light app into a knowledge app, once", async () => {
    const light = await createAppVia(ctx, owner);
    const upgraded = await expectOk(await ctx.request(`/api/v1/apps/${light.id}/upgrade`, { method: "POST", token: owner.token }), 200, appSeniorSchema);
    expect(upgraded.type).toBe("KNOWLEDGE");
    expect((await storedApp(light.id))?.type).toBe("KNOWLEDGE");
    await expectError(await ctx.request(`/api/v1/apps/${light.id}/upgrade`, { method: "POST", token: owner.token }), 409);
    const agent = await createAppVia(ctx, owner, { type: "AGENT" });
    await expectError(await ctx.request(`/api/v1/apps/${agent.id}/upgrade`, { method: "POST", token: owner.token }), 409, {
      message: "Only a light app can be upgraded to a knowledge app (this one is AGENT)",
    });
    expect((await storedApp(agent.id))?.type).toBe("AGENT");
  });
});

describe("catalogue", () => {
  it("lists categories and role groups in the request's language", async () => {
    const en = await expectOk(await ctx.request("/api/v1/app-categories", { token: owner.token }), 200, z.array(appCategorySchema));
    expect(en.map((category) => category.id)).toEqual(["customer_service", "marketing", "education", "productivity", "entertainment", "other"]);
    expect(en[0]?.name).toBe("Customer service");
    const zh = await expectOk(
      await ctx.request("/api/v1/app-categories", { token: owner.token, headers: { "accept-language": "zh-CN" } }),
      200,
      z.array(appCategorySchema),
    );
    expect(zh[0]?.name).toBe("客户服务");
    // Guests browse the square, so the catalogue needs no sign-in.
    const groups = await expectOk(await ctx.request("/api/v1/app-groups"), 200, z.array(appGroupSchema));
    expect(groups.map((group) => group.name)).toEqual(["Business", "Learning and work", "Life"]);
    expect(await expectOk(await ctx.request("/api/v1/app-categories"), 200, z.array(appCategorySchema))).toEqual(en);
    expect(groups.flatMap((group) => group.categoryIds).sort()).toEqual(en.map((category) => category.id).sort());
  });
});

describe("engine exports", () => {
  it("loads an app by code or id with its JSON parsed, and its rate-limit rules", async () => {
    const created = await createAppVia(ctx, owner, { plugins: ["calculator"], optionalModels: ["gpt-4.1"] });
    await ctx.request(`/api/v1/apps/${created.id}/rate-limits`, {
      method: "POST",
      token: owner.token,
      json: { targetChannel: "all", periodUnit: "day", count: 100 },
    });
    const byCode = await getAppForChat(ctx.deps, { appCode: created.code });
    expect(byCode).toMatchObject({ id: created.id, spaceId: owner.user.spaceId, plugins: ["calculator"], optionalModels: ["gpt-4.1-mini", "gpt-4.1"] });
    expect(byCode.advancedConfig.humanization.mergeReply).toBe(false);
    expect((await getAppForChat(ctx.deps, { appId: created.id })).code).toBe(created.code);
    await expect(getAppForChat(ctx.deps, { appId: created.id, spaceId: "spc_other" })).rejects.toMatchObject({ kind: "not_found" });
    await expect(getAppForChat(ctx.deps, { appCode: "NOPE" })).rejects.toMatchObject({ kind: "not_found" });
    expect(await listRateLimitRules(ctx.deps, created.id)).toMatchObject([{ targetChannel: "all", periodUnit: "day", count: 100, replyWhenExceeded: null }]);
  });
});
