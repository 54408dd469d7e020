import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appReactions, apps, balanceAlerts, rateLimitRules } from "../db/schema/index";
import { spaceSchema } from "../identity/schemas";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk } from "../testing/flows";
import { appPageSchema, rateLimitRuleSchema, thresholdSchema } from "./schemas";
import { createAppVia, validAppBody } from "./testing";

// A user of space A gets 404 for every app, rule and threshold of space B, and changes nothing.
let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let bobAppId: string;
let bobTeamAppId: string;
let bobRuleId: string;
let bobTeamId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await registerUser(ctx, "alice@example.com");
  bob = await registerUser(ctx, "bob@example.com");
  bobAppId = (await createAppVia(ctx, bob)).id;
  const rule = await ctx.request(`/api/v1/apps/${bobAppId}/rate-limits`, {
    method: "POST",
    token: bob.token,
    json: { targetChannel: "all", periodUnit: "minute", count: 5 },
  });
  bobRuleId = (await expectOk(rule, 201, rateLimitRuleSchema)).id;
  await ctx.request("/api/v1/thresholds/balance-alert", { method: "PUT", token: bob.token, json: { threshold: 100 } });
  bobTeamId = (await expectOk(await ctx.request("/api/v1/spaces", { method: "POST", token: bob.token, json: { companyName: "Bob Ltd" } }), 201, spaceSchema))
    .spaceId;
  bobTeamAppId = (await createAppVia(ctx, bob, {}, { "x-parley-space": bobTeamId })).id;
  // Alice has rows of her own, so empty answers prove nothing by accident.
  await createAppVia(ctx, alice);
});
afterAll(async () => ctx.close());

const snapshot = async () => ({
  apps: await ctx.deps.db.select().from(apps).all(),
  reactions: await ctx.deps.db.select().from(appReactions).all(),
  rules: await ctx.deps.db.select().from(rateLimitRules).all(),
  thresholds: await ctx.deps.db.select().from(balanceAlerts).all(),
});

describe("cross-space isolation", () => {
  it("every app, reaction, rule and config route answers 404 for B's apps and rules", async () => {
    const before = await snapshot();
    for (const appId of [bobAppId, bobTeamAppId]) {
      for (const [method, path, json] of [
        ["GET", `/api/v1/apps/${appId}`],
        ["GET", `/api/v1/apps/${appId}/senior`],
        ["PATCH", `/api/v1/apps/${appId}`, { name: "Taken over" }],
        ["DELETE", `/api/v1/apps/${appId}`],
        ["POST", `/api/v1/apps/${appId}/copy`],
        ["POST", `/api/v1/apps/${appId}/upgrade`],
        ["POST", `/api/v1/apps/${appId}/thumb`],
        ["DELETE", `/api/v1/apps/${appId}/thumb`],
        ["POST", `/api/v1/apps/${appId}/collect`],
        ["DELETE", `/api/v1/apps/${appId}/collect`],
        ["GET", `/api/v1/apps/${appId}/advanced-config`],
        [
          "PUT",
          `/api/v1/apps/${appId}/advanced-config`,
          {
            humanization: { splitReply: true, mergeReply: false, delayReplySeconds: 0 },
            manualService: {
              triggers: [],
              defaultReply: null,
              replyMode: "none",
              notify: { email: false, sms: false, wechat: false, webhooks: [] },
              notifyMemberIds: [],
              summaryTemplate: [],
              aiTagging: false,
            },
            database: { enabled: false, databaseIds: [] },
          },
        ],
        ["GET", `/api/v1/apps/${appId}/rate-limits`],
        ["POST", `/api/v1/apps/${appId}/rate-limits`, { targetChannel: "personal", periodUnit: "day", count: 1 }],
      ] as const) {
        const response = await ctx.request(path, { method, token: alice.token, ...(json ? { json } : {}) });
        await expectError(response, 404, { message: "App not found" });
      }
    }
    await expectError(await ctx.request(`/api/v1/rate-limits/${bobRuleId}`, { method: "PATCH", token: alice.token, json: { count: 1000 } }), 404);
    await expectError(await ctx.request(`/api/v1/rate-limits/${bobRuleId}`, { method: "DELETE", token: alice.token }), 404);
    expect(await snapshot()).toEqual(before);
  });

  it("B's apps never appear in A's list, and A's thresholds are A's own", async () => {
    const page = await expectOk(await ctx.request("/api/v1/apps", { token: alice.token }), 200, appPageSchema);
    expect(page.total).toBe(1);
    expect(page.items.map((item) => item.id)).not.toContain(bobAppId);
    const threshold = await expectOk(await ctx.request("/api/v1/thresholds/balance-alert", { token: alice.token }), 200, thresholdSchema);
    expect(threshold.config).toBeNull();
  });

  it("naming B's space in X-Parley-Space is 404 on every route", async () => {
    const before = await snapshot();
    const headers = { "x-parley-space": bobTeamId };
    for (const [method, path, json] of [
      ["GET", "/api/v1/apps"],
      ["POST", "/api/v1/apps", validAppBody()],
      ["GET", `/api/v1/apps/${bobTeamAppId}`],
      ["GET", "/api/v1/thresholds/balance-alert"],
      ["PUT", "/api/v1/thresholds/balance-alert", { threshold: 1 }],
    ] as const) {
      const response = await ctx.request(path, { method, token: alice.token, headers, ...(json ? { json } : {}) });
      await expectError(response, 404, { message: "Space not found" });
    }
    expect(await snapshot()).toEqual(before);
  });

  it("B still sees everything intact", async () => {
    // Creating the team made it Bob's current space; his personal space is named explicitly.
    const personal = { "x-parley-space": bob.user.spaceId };
    const rules = await expectOk(
      await ctx.request(`/api/v1/apps/${bobAppId}/rate-limits`, { token: bob.token, headers: personal }),
      200,
      z.array(rateLimitRuleSchema),
    );
    expect(rules.map((rule) => rule.id)).toEqual([bobRuleId]);
    const threshold = await expectOk(await ctx.request("/api/v1/thresholds/balance-alert", { token: bob.token, headers: personal }), 200, thresholdSchema);
    expect(threshold.config?.threshold).toBe(100);
  });
});
