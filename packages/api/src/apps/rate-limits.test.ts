import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceAlerts, rateLimitRules } from "../db/schema/index";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk, manualClock } from "../testing/flows";
import { balanceAlertSchema } from "../benefits/schemas";
import { rateLimitRuleSchema, thresholdSchema } from "./schemas";
import { rateLimitRulesFor } from "./service/index";
import { createAppVia } from "./testing";

const clock = manualClock(Date.parse("2026-05-01T00:00:00.000Z"));
let ctx: TestContext;
let user: TestUser;
let appId: string;

beforeAll(async () => {
  ctx = await createTestContext({}, { now: clock.now });
  user = await registerUser(ctx, "limits@example.com");
  appId = (await createAppVia(ctx, user)).id;
});
afterAll(async () => ctx.close());

const create = (json: unknown, id = appId) => ctx.request(`/api/v1/apps/${id}/rate-limits`, { method: "POST", token: user.token, json });
const patch = (id: string, json: unknown) => ctx.request(`/api/v1/rate-limits/${id}`, { method: "PATCH", token: user.token, json });
const list = async () => expectOk(await ctx.request(`/api/v1/apps/${appId}/rate-limits`, { token: user.token }), 200, z.array(rateLimitRuleSchema));
const storedRules = () => ctx.deps.db.select().from(rateLimitRules).where(eq(rateLimitRules.appId, appId)).all();

describe("rate-limit rules", () => {
  it("create, list, update, delete; no reply by default", async () => {
    const rule = await expectOk(await create({ targetChannel: "all", periodUnit: "minute", count: 5 }), 201, rateLimitRuleSchema);
    expect(rule).toMatchObject({ appId, targetChannel: "all", periodUnit: "minute", count: 5, replyWhenExceeded: null, createdAt: clock.now().toISOString() });
    expect(rule.id).toMatch(/^rlr_/);
    expect(await storedRules()).toMatchObject([{ id: rule.id, spaceId: user.user.spaceId, count: 5, replyWhenExceeded: null }]);

    clock.advance(1000);
    const second = await expectOk(
      await create({ targetChannel: "wecom_internal", periodUnit: "day", count: 100, replyWhenExceeded: "  Come back tomorrow  " }),
      201,
      rateLimitRuleSchema,
    );
    expect(second.replyWhenExceeded).toBe("Come back tomorrow");
    expect((await list()).map((entry) => entry.id)).toEqual([rule.id, second.id]);

    clock.advance(1000);
    const updated = await expectOk(await patch(rule.id, { count: 10, replyWhenExceeded: "Too fast", periodUnit: "hour" }), 200, rateLimitRuleSchema);
    expect(updated).toMatchObject({ count: 10, replyWhenExceeded: "Too fast", periodUnit: "hour", targetChannel: "all", updatedAt: clock.now().toISOString() });
    const cleared = await expectOk(await patch(rule.id, { replyWhenExceeded: null }), 200, rateLimitRuleSchema);
    expect(cleared.replyWhenExceeded).toBeNull();
    expect((await storedRules()).find((row) => row.id === rule.id)).toMatchObject({ count: 10, periodUnit: "hour", replyWhenExceeded: null });

    expect(await rateLimitRulesFor(ctx.deps, appId, "official_account")).toMatchObject([{ id: rule.id }]);
    expect((await rateLimitRulesFor(ctx.deps, appId, "wecom_internal")).map((entry) => entry.id)).toEqual([rule.id, second.id]);

    expect(
      await expectOk(
        await ctx.request(`/api/v1/rate-limits/${second.id}`, { method: "DELETE", token: user.token }),
        200,
        z.object({ deleted: z.literal(true) }),
      ),
    ).toEqual({
      deleted: true,
    });
    expect((await storedRules()).map((row) => row.id)).toEqual([rule.id]);
    await expectError(await ctx.request(`/api/v1/rate-limits/${second.id}`, { method: "DELETE", token: user.token }), 404, {
      message: "Rate-limit rule not found",
    });
    await expectError(await patch(second.id, { count: 3 }), 404);
  });

  it("the count cannot be 0", async () => {
    const before = await storedRules();
    await expectError(await create({ targetChannel: "personal", periodUnit: "second", count: 0 }), 400, { field: "count", message: "The count cannot be 0" });
    await expectError(await create({ targetChannel: "personal", periodUnit: "second", count: 0 }, "app_x"), 404);
    await expectError(
      await ctx.request(`/api/v1/apps/${appId}/rate-limits`, {
        method: "POST",
        token: user.token,
        headers: { "accept-language": "zh-CN" },
        json: { targetChannel: "personal", periodUnit: "second", count: 0 },
      }),
      400,
      { field: "count", message: "次数不能为 0" },
    );
    await expectError(await create({ targetChannel: "personal", periodUnit: "second", count: -2 }), 400, { field: "count" });
    await expectError(await create({ targetChannel: "personal", periodUnit: "second", count: 1.5 }), 400, { field: "count" });
    await expectError(await patch(before[0]!.id, { count: 0 }), 400, { field: "count", message: "The count cannot be 0" });
    expect(await storedRules()).toEqual(before);
  });

  it("refuses unknown channels and periods, and a second rule for the same channel and period", async () => {
    await expectError(await create({ targetChannel: "telegram", periodUnit: "minute", count: 1 }), 400, { field: "targetChannel" });
    await expectError(await create({ targetChannel: "all", periodUnit: "week", count: 1 }), 400, { field: "periodUnit" });
    await expectError(await create({ targetChannel: "all", periodUnit: "minute" }), 400, { field: "count" });
    const rule = await expectOk(await create({ targetChannel: "personal", periodUnit: "minute", count: 3 }), 201, rateLimitRuleSchema);
    await expectError(await create({ targetChannel: "personal", periodUnit: "minute", count: 9 }), 409);
    const [existing] = await storedRules();
    await expectError(await patch(existing!.id, { targetChannel: "personal", periodUnit: "minute" }), 409);
    // Changing a rule to its own channel and period is not a duplicate.
    await expectOk(await patch(rule.id, { targetChannel: "personal", periodUnit: "minute", count: 4 }), 200, rateLimitRuleSchema);
  });
});

describe("thresholds", () => {
  const put = (json: unknown, scene = "balance-alert") => ctx.request(`/api/v1/thresholds/${scene}`, { method: "PUT", token: user.token, json });

  it("the balance alert is empty until saved, then round-trips", async () => {
    expect(await expectOk(await ctx.request("/api/v1/thresholds/balance-alert", { token: user.token }), 200, thresholdSchema)).toEqual({
      scene: "balance-alert",
      config: null,
      updatedAt: null,
    });
    const saved = await expectOk(await put({ threshold: 500 }), 200, thresholdSchema);
    expect(saved).toEqual({
      scene: "balance-alert",
      config: { enabled: true, threshold: 500, notify: { email: true, sms: false } },
      updatedAt: clock.now().toISOString(),
    });
    clock.advance(5000);
    const changed = await expectOk(await put({ threshold: 50, enabled: false, notify: { sms: true } }), 200, thresholdSchema);
    expect(changed.config).toEqual({ enabled: false, threshold: 50, notify: { email: true, sms: true } });
    expect(await expectOk(await ctx.request("/api/v1/thresholds/balance-alert", { token: user.token }), 200, thresholdSchema)).toEqual(changed);
    // One alert per space, the one the balance watcher fires (also behind /api/v1/balance-alert).
    const rows = await ctx.deps.db.select().from(balanceAlerts).where(eq(balanceAlerts.spaceId, user.user.spaceId)).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ threshold: 50, enabled: false });
    expect(JSON.parse(rows[0]!.channels)).toEqual(["in-app", "email", "sms"]);
    const current = await expectOk(await ctx.request("/api/v1/balance-alert", { token: user.token }), 200, balanceAlertSchema);
    expect(current).toMatchObject({ threshold: 50, enabled: false, channels: ["in-app", "email", "sms"] });
  });

  it("the balance alarm needs a threshold", async () => {
    const before = await ctx.deps.db.select().from(balanceAlerts).all();
    await expectError(await put({ enabled: true }), 400, { field: "threshold", message: "The balance alarm needs a threshold" });
    await expectError(await put({ threshold: null }), 400, { field: "threshold" });
    await expectError(await put({ threshold: 0 }), 400, { field: "threshold" });
    await expectError(await put({ threshold: 10 }, "weather"), 400, { field: "scene" });
    await expectError(await ctx.request("/api/v1/thresholds/weather", { token: user.token }), 400, { field: "scene" });
    expect(await ctx.deps.db.select().from(balanceAlerts).all()).toEqual(before);
  });
});
