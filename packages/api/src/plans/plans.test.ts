import { count, eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia, validAppBody } from "../apps/testing";
import { bootstrap } from "../bootstrap";
import { grantPlanPeriod } from "../billing/service/plans";
import { apps, type plugins, webClients, workflows } from "../db/schema/index";
import { privilegesSchema, sessionSchema, spaceSchema, userSchema } from "../identity/schemas";
import { instanceSpaceSchema } from "../instance/schemas";
import { createKnowledgeBaseVia, uploadVia } from "../knowledge/testing";
import { expectError, expectOk, manualClock } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { validWorkflowBody } from "../workflows/testing";
import { planCatalogueSchema, planSchema, spacePlanSchema } from "./schemas";
import { checkQuota, registerQuotaCounter, usageOf } from "./service/quotas";

const anything = z.unknown();
const ADMIN_KEY = "pk_admin-bootstrap-key-0123456789abcdef";
const zh = { "accept-language": "zh-CN" };
const DAY = 24 * 60 * 60 * 1000;
const clock = manualClock(Date.parse("2026-03-01T10:00:00.000Z"));

let ctx: TestContext;
let admin: { token: string };

beforeAll(async () => {
  ctx = await createTestContext({ PARLEY_BOOTSTRAP_API_KEY: ADMIN_KEY }, { now: clock.now });
  const { signInUrl } = await bootstrap(ctx.deps);
  const loginCode = new URL(signInUrl!).searchParams.get("loginCode");
  const session = await expectOk(await ctx.request("/api/v1/auth/exchange", { method: "POST", json: { loginCode } }), 200, sessionSchema);
  admin = { token: session.token };
});
afterAll(async () => ctx.close());

const countIn = async (table: typeof apps | typeof workflows | typeof plugins | typeof webClients, spaceId: string) =>
  (await ctx.deps.db.select({ value: count() }).from(table).where(eq(table.spaceId, spaceId)).get())?.value ?? 0;
const createApp = (user: TestUser, headers: Record<string, string> = {}) =>
  ctx.request("/api/v1/apps", { method: "POST", token: user.token, json: validAppBody(), headers });
const usage = async (user: TestUser) => expectOk(await ctx.request("/api/v1/plans/current", { token: user.token }), 200, spacePlanSchema);
const usageOfQuota = async (user: TestUser, quota: string) => (await usage(user)).usage.find((entry) => entry.quota === quota);

describe("the app quota of a FREE space", () => {
  let free: TestUser;
  beforeAll(async () => {
    free = await registerUser(ctx, "free-apps@example.com");
    for (let index = 0; index < 5; index++) await createAppVia(ctx, free);
  });

  it("refuses the 6th app with 701 naming the quota and its limit, in English and Chinese, and creates nothing", async () => {
    const en = await expectError(await createApp(free), 402, { code: 701, message: "The Free plan allows up to 5 apps; upgrade your plan to add more" });
    expect(en.data).toEqual({ quota: "apps", limit: 5, plan: "free" });
    const cn = await expectError(await createApp(free, zh), 402, { code: 701, message: "免费版的应用数上限为 5，请升级套餐后再添加" });
    expect(cn.data).toMatchObject({ quota: "apps", limit: 5 });
    // A copy is an app too.
    const [first] = await ctx.deps.db.select().from(apps).where(eq(apps.spaceId, free.user.spaceId)).limit(1);
    await expectError(await ctx.request(`/api/v1/apps/${first!.id}/copy`, { method: "POST", token: free.token }), 402, { code: 701 });
    expect(await countIn(apps, free.user.spaceId)).toBe(5);
    expect(await usageOfQuota(free, "apps")).toEqual({ quota: "apps", used: 5, limit: 5 });
  });

  it("allows it once the space runs on Pro, and refuses again when Pro has ended, keeping every app", async () => {
    await grantPlanPeriod(ctx.deps, { spaceId: free.user.spaceId, planCode: "pro", period: "month" });
    await expectOk(await createApp(free), 201, anything);
    expect(await countIn(apps, free.user.spaceId)).toBe(6);
    const pro = await usage(free);
    expect(pro).toMatchObject({ planCode: "pro", memberGrade: "NORMAL", period: "month", expiresAt: "2026-04-01T10:00:00.000Z" });
    expect(pro.usage.find((entry) => entry.quota === "apps")).toEqual({ quota: "apps", used: 6, limit: 30 });
    const me = await expectOk(await ctx.request("/api/v1/me", { token: free.token }), 200, userSchema);
    expect(me).toMatchObject({ memberGrade: "NORMAL", clientManage: 3 });

    // Sessions end with time; an API key acts for the owner after the clock has moved.
    const { key } = await expectOk(
      await ctx.request("/api/v1/me/api-keys", { method: "POST", token: free.token, json: { name: "later" } }),
      201,
      z.object({ key: z.string() }),
    );
    clock.advance(31 * DAY + 1000);
    free = { ...free, token: key };
    try {
      // Every reader sees Free at once, though nothing rewrote the stored grade.
      const after = await usage(free);
      expect(after).toMatchObject({ planCode: "free", memberGrade: "FREE", expiresAt: null });
      expect(after.usage.find((entry) => entry.quota === "apps")).toEqual({ quota: "apps", used: 6, limit: 5 });
      const meAfter = await expectOk(await ctx.request("/api/v1/me", { token: free.token }), 200, userSchema);
      expect(meAfter).toMatchObject({ memberGrade: "FREE", clientManage: 0 });
      const privileges = await expectOk(await ctx.request("/api/v1/privileges", { token: free.token }), 200, privilegesSchema);
      expect(privileges.memberGrade).toBe("FREE");
      expect(privileges.menus.find((menu) => menu.key === "clients")?.visible).toBe(false);
      const spaces = await expectOk(await ctx.request("/api/v1/me/spaces", { token: free.token }), 200, spaceSchema.array());
      expect(spaces[0]?.memberGrade).toBe("FREE");

      await expectError(await createApp(free), 402, { code: 701, message: /allows up to 5 apps/ });
      expect(await countIn(apps, free.user.spaceId)).toBe(6);
      // Existing apps stay usable: they can still be read and changed.
      const [first] = await ctx.deps.db.select().from(apps).where(eq(apps.spaceId, free.user.spaceId)).limit(1);
      await expectOk(await ctx.request(`/api/v1/apps/${first!.id}`, { method: "PATCH", token: free.token, json: { name: "Renamed" } }), 200, anything);
    } finally {
      clock.set(new Date("2026-03-01T10:00:00.000Z"));
    }
  });

  it("lets only one of two creates at quota − 1 pass", async () => {
    const racer = await registerUser(ctx, "free-race@example.com");
    for (let index = 0; index < 4; index++) await createAppVia(ctx, racer);
    const answers = await Promise.all(Array.from({ length: 6 }, () => createApp(racer)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 402, 402, 402, 402, 402]);
    expect(await countIn(apps, racer.user.spaceId)).toBe(5);
  });
});

describe("the other quotas", () => {
  let user: TestUser;
  beforeAll(async () => {
    user = await registerUser(ctx, "free-others@example.com");
  });

  it("refuses a 4th workflow on Free", async () => {
    for (let index = 0; index < 3; index++) {
      await expectOk(await ctx.request("/api/v1/workflows", { method: "POST", token: user.token, json: validWorkflowBody() }), 201, anything);
    }
    const refused = await expectError(
      await ctx.request("/api/v1/workflows", { method: "POST", token: user.token, json: validWorkflowBody(), headers: zh }),
      402,
      {
        code: 701,
        message: "免费版的工作流数上限为 3，请升级套餐后再添加",
      },
    );
    expect(refused.data).toMatchObject({ quota: "workflows", limit: 3 });
    expect(await countIn(workflows, user.user.spaceId)).toBe(3);
  });

  it("refuses a web client on Free (clients start at Pro) and opens them on Pro", async () => {
    const app = await createAppVia(ctx, user);
    const body = { appId: app.id, name: "Shop widget" };
    const refused = await expectError(await ctx.request("/api/v1/web-clients", { method: "POST", token: user.token, json: body }), 402, {
      code: 701,
      message: /allows up to 0 clients/,
    });
    expect(refused.data).toMatchObject({ quota: "clients", limit: 0 });
    expect(await countIn(webClients, user.user.spaceId)).toBe(0);
  });

  it("refuses knowledge files over a Custom space's entry quota set by the administrator", async () => {
    const listed = await expectOk(
      await ctx.request(`/api/v1/instance/spaces/${user.user.spaceId}`, {
        method: "PATCH",
        token: admin.token,
        json: { memberGrade: "CUSTOM", quotas: { knowledgeEntries: 1, apps: 7 } },
      }),
      200,
      instanceSpaceSchema,
    );
    expect(listed).toMatchObject({ memberGrade: "CUSTOM", planCode: "custom", quotas: { knowledgeEntries: 1, apps: 7, workflows: 2000 } });
    const base = await createKnowledgeBaseVia(ctx, user);
    expect((await uploadVia(ctx, user, base.id, "one.txt", "first file")).status).toBe(201);
    await expectError(await uploadVia(ctx, user, base.id, "two.txt", "second file"), 402, { code: 701, message: /allows up to 1 knowledge files/ });
    expect(await usageOfQuota(user, "knowledgeEntries")).toEqual({ quota: "knowledgeEntries", used: 1, limit: 1 });
    expect(await usageOfQuota(user, "apps")).toMatchObject({ limit: 7 });
  });

  it("refuses manual transfer in the web embed below Team, as a feature", async () => {
    const pro = await registerUser(ctx, "pro-transfer@example.com");
    await grantPlanPeriod(ctx.deps, { spaceId: pro.user.spaceId, planCode: "pro", period: "year" });
    const app = await createAppVia(ctx, pro);
    const refused = await expectError(
      await ctx.request("/api/v1/web-clients", { method: "POST", token: pro.token, json: { appId: app.id, name: "Shop", manualTransfer: true } }),
      402,
      { code: 701, message: "Manual transfer in the web embed is not included in the Pro plan; upgrade your plan to use it" },
    );
    expect(refused.data).toEqual({ feature: "manualTransfer", plan: "pro" });
    expect(await countIn(webClients, pro.user.spaceId)).toBe(0);
    await expectOk(await ctx.request("/api/v1/web-clients", { method: "POST", token: pro.token, json: { appId: app.id, name: "Shop" } }), 201, anything);
  });

  it("lets the database feature count its rows against the databaseRows quota (issue 18)", async () => {
    const rows = new Map<string, number>([[user.user.spaceId, 49_999_999]]);
    registerQuotaCounter("databaseRows", async (_deps, spaceId) => rows.get(spaceId) ?? 0);
    await checkQuota(ctx.deps, user.user.spaceId, "databaseRows", 1);
    await expect(checkQuota(ctx.deps, user.user.spaceId, "databaseRows", 2)).rejects.toMatchObject({
      kind: "upgrade_required",
      extra: { upgrade: { quota: "databaseRows", limit: 50_000_000 } },
    });
    expect((await usageOf(ctx.deps, user.user.spaceId)).databaseRows).toBe(49_999_999);
    registerQuotaCounter("databaseRows", async () => 0);
  });
});

describe("the catalogue", () => {
  it("is public: five plans with grade, monthly and yearly prices per currency, credits, quotas and offered", async () => {
    const { plans } = await expectOk(await ctx.request("/api/v1/plans"), 200, planCatalogueSchema);
    expect(plans.map((plan) => `${plan.code}:${plan.grade}`)).toEqual(["free:FREE", "pro:NORMAL", "team:PROFESSION", "enterprise:ENTERPRISE", "custom:CUSTOM"]);
    const pro = plans.find((plan) => plan.code === "pro")!;
    expect(pro).toMatchObject({ monthlyPrices: { CNY: 9900, USD: 1500 }, yearlyPrices: { CNY: 99000, USD: 15000 }, includedCredits: 10000, offered: true });
    expect(pro.quotas).toMatchObject({ apps: 30, clients: 3 });
    expect(plans.find((plan) => plan.code === "custom")!.offered).toBe(false);
  });

  it("is edited by the administrator only; the change reaches spaces at once and other fields keep their defaults", async () => {
    const member = await registerUser(ctx, "catalogue-member@example.com");
    await expectError(await ctx.request("/api/v1/instance/plans/free", { method: "PATCH", token: member.token, json: { quotas: { apps: 9 } } }), 403);
    await expectError(await ctx.request("/api/v1/instance/plans/free", { method: "PATCH", token: admin.token, json: { quotas: { apps: -1 } } }), 400, {
      field: "quotas.apps",
    });
    await expectError(await ctx.request("/api/v1/instance/plans/free", { method: "PATCH", token: admin.token, json: {} }), 400);
    await expectError(await ctx.request("/api/v1/instance/plans/gold", { method: "PATCH", token: admin.token, json: { offered: true } }), 400);
    const { plans: before } = await expectOk(await ctx.request("/api/v1/plans"), 200, planCatalogueSchema);
    expect(before.find((plan) => plan.code === "free")!.quotas.apps).toBe(5);

    const edited = await expectOk(
      await ctx.request("/api/v1/instance/plans/free", { method: "PATCH", token: admin.token, json: { quotas: { apps: 1 }, monthlyPrices: { USD: 0 } } }),
      200,
      planSchema,
    );
    expect(edited.quotas).toMatchObject({ apps: 1, workflows: 3 });
    await expectOk(
      await ctx.request("/api/v1/instance/plans/pro", { method: "PATCH", token: admin.token, json: { monthlyPrices: { CNY: 12900 } } }),
      200,
      planSchema,
    );
    const { plans } = await expectOk(await ctx.request("/api/v1/plans"), 200, planCatalogueSchema);
    expect(plans.find((plan) => plan.code === "pro")).toMatchObject({ monthlyPrices: { CNY: 12900, USD: 1500 }, yearlyPrices: { CNY: 129000, USD: 15000 } });

    await createAppVia(ctx, member);
    await expectError(await createApp(member), 402, { code: 701, message: /allows up to 1 apps/ });
    await expectOk(await ctx.request("/api/v1/instance/plans/free", { method: "PATCH", token: admin.token, json: { quotas: { apps: 5 } } }), 200, planSchema);
    await createAppVia(ctx, member);
  });
});
