import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { bootstrap } from "../bootstrap";
import { apps, knowledgeBases, knowledgeFiles, outbox, templates, workflows } from "../db/schema/index";
import { sessionSchema } from "../identity/schemas";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectError, expectOk } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { validateWorkflow } from "../workflows/service/validate";
import { DEFAULT_APP_AVATAR } from "../apps/service/catalogue";
import { avatarSvg } from "./service/avatar";
import { localize, shippedTemplates } from "./service/catalogue";
import { seedTemplates } from "./service/templates";
import {
  autoCreateDraftSchema,
  avatarSchema,
  contactPageSchema,
  contactResultSchema,
  templateCopySchema,
  templateDetailSchema,
  templateGroupListSchema,
  templateListSchema,
  templateSummarySchema,
} from "./schemas";

const ADMIN_KEY = "pk_admin-templates-key-0123456789abcdef";
const zh = { "accept-language": "zh-CN" };

let ctx: TestContext;
let admin: { token: string; spaceId: string };
let member: TestUser;
let other: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({ PARLEY_BOOTSTRAP_API_KEY: ADMIN_KEY, PARLEY_SALES_EMAIL: "sales@example.com", PARLEY_THROTTLE_CODES_PER_IP: "6" });
  const { signInUrl } = await bootstrap(ctx.deps);
  const loginCode = new URL(signInUrl!).searchParams.get("loginCode");
  const session = await expectOk(await ctx.request("/api/v1/auth/exchange", { method: "POST", json: { loginCode } }), 200, sessionSchema);
  admin = { token: session.token, spaceId: String((session.user as { spaceId?: string }).spaceId) };
  member = await registerUser(ctx, "member-templates@example.com");
  other = await registerUser(ctx, "other-templates@example.com");
  await upgradeSpaceForTest(ctx, member.user.spaceId);
  await upgradeSpaceForTest(ctx, admin.spaceId);
});
afterAll(async () => ctx.close());

describe("template list and detail", () => {
  it("lists at least 12 shipped templates of both kinds, in groups, in English and Chinese, to guests", async () => {
    const list = await expectOk(await ctx.request("/api/v1/templates"), 200, templateListSchema);
    expect(list.total).toBeGreaterThanOrEqual(12);
    expect(new Set(list.items.map((item) => item.kind))).toEqual(new Set(["app", "workflow"]));
    for (const code of [
      "customer-service-handover",
      "knowledge-qa",
      "faq-from-csv",
      "translator",
      "sales-lead-capture",
      "daily-report",
      "sql-analyst",
      "intent-router",
    ]) {
      expect(list.items.map((item) => item.code)).toContain(code);
    }
    expect(list.items.every((item) => item.avatarUrl.startsWith("data:image/svg+xml") && item.avatarUrl !== DEFAULT_APP_AVATAR)).toBe(true);
    const chinese = await expectOk(await ctx.request("/api/v1/templates?kind=app", { headers: zh }), 200, templateListSchema);
    expect(chinese.items.find((item) => item.code === "translator")?.name).toBe("翻译助手");
    expect(chinese.items.every((item) => item.kind === "app")).toBe(true);
    const groups = await expectOk(await ctx.request("/api/v1/templates/groups"), 200, templateGroupListSchema);
    expect(groups.reduce((sum, group) => sum + group.count, 0)).toBe(list.total);
  });

  it("matches keywords literally and survives wildcards and 10 KB of text", async () => {
    const found = await expectOk(await ctx.request("/api/v1/templates?keyword=translat"), 200, templateListSchema);
    expect(found.items.map((item) => item.code)).toEqual(["translator"]);
    expect((await expectOk(await ctx.request("/api/v1/templates?keyword=%25"), 200, templateListSchema)).total).toBe(0);
    expect((await expectOk(await ctx.request(`/api/v1/templates?keyword=${"x".repeat(10_000)}`), 200, templateListSchema)).total).toBe(0);
  });

  it("details a template and answers 404 for an unknown code", async () => {
    const detail = await expectOk(await ctx.request("/api/v1/templates/daily-report"), 200, templateDetailSchema);
    expect(detail.workflow?.cron).toBe("0 9 * * 1-5");
    const faq = await expectOk(await ctx.request("/api/v1/templates/faq-from-csv", { headers: zh }), 200, templateDetailSchema);
    expect(faq.knowledgeBase).toEqual({ name: "常见问题", sampleQaCount: 5 });
    const sql = await expectOk(await ctx.request("/api/v1/templates/sql-analyst"), 200, templateDetailSchema);
    expect(sql.app?.database).toBe(true);
    await expectError(await ctx.request("/api/v1/templates/no-such-template"), 404);
  });

  it("seeds idempotently and replaces a shipped template whose version rose", async () => {
    const before = (await ctx.deps.db.select().from(templates)).length;
    await seedTemplates(ctx.deps);
    await seedTemplates(ctx.deps);
    expect((await ctx.deps.db.select().from(templates)).length).toBe(before);
    // An older stored version (as after an upgrade of Parley) is replaced by the data file's.
    await ctx.deps.db.update(templates).set({ version: 0, nameEn: "Old translator" }).where(eq(templates.code, "translator"));
    await seedTemplates(ctx.deps);
    const row = await ctx.deps.db.select().from(templates).where(eq(templates.code, "translator")).get();
    expect(row?.nameEn).toBe("Translator");
    expect(row?.version).toBe(1);
  });
});

describe("copying templates", () => {
  it("every shipped workflow template passes the workflow validator", async () => {
    for (const template of shippedTemplates.filter((entry) => entry.kind === "workflow")) {
      for (const language of ["en", "zh-CN"] as const) {
        const flow = localize(template.payload, language, ctx.deps.models.defaultModelId).workflow as { elements: never[]; lines: never[]; cron?: string };
        const { issues } = await validateWorkflow(ctx.deps, member.user.spaceId, { graph: flow, cron: flow.cron ?? null });
        expect({ code: template.code, issues }).toEqual({ code: template.code, issues: [] });
      }
    }
  });

  it("every shipped template copies into a space with what it references", async () => {
    for (const template of shippedTemplates) {
      const copy = await expectOk(
        await ctx.request(`/api/v1/templates/${template.code}/copy`, { method: "POST", token: member.token }),
        201,
        templateCopySchema,
      );
      expect(copy.kind).toBe(template.kind);
      if (copy.kind === "workflow") {
        const row = await ctx.deps.db.select().from(workflows).where(eq(workflows.id, copy.workflowId!)).get();
        expect(row?.spaceId).toBe(member.user.spaceId);
        const check = await expectOk(
          await ctx.request(`/api/v1/workflows/${copy.workflowId}/validate`, { method: "POST", token: member.token, json: {} }),
          200,
          z.unknown(),
        );
        expect(check).toMatchObject({ valid: true, issues: [] });
      } else {
        const row = await ctx.deps.db.select().from(apps).where(eq(apps.id, copy.appId!)).get();
        expect(row?.spaceId).toBe(member.user.spaceId);
        expect(row?.name).toBe(template.name.en);
      }
    }
    const handover = await ctx.deps.db
      .select()
      .from(apps)
      .where(and(eq(apps.spaceId, member.user.spaceId), eq(apps.name, "Customer service with handover")))
      .get();
    expect(JSON.parse(handover!.advancedConfig).manualService.triggers).toHaveLength(3);
    const sql = await ctx.deps.db
      .select()
      .from(apps)
      .where(and(eq(apps.spaceId, member.user.spaceId), eq(apps.name, "SQL analyst")))
      .get();
    expect(JSON.parse(sql!.advancedConfig).database.enabled).toBe(true);
    const report = await ctx.deps.db
      .select()
      .from(workflows)
      .where(and(eq(workflows.spaceId, member.user.spaceId), eq(workflows.name, "Daily report on a schedule")))
      .get();
    expect({ cron: report?.cron, enabled: report?.cronEnabled }).toEqual({ cron: "0 9 * * 1-5", enabled: true });
    const faqBase = await ctx.deps.db
      .select()
      .from(knowledgeBases)
      .where(and(eq(knowledgeBases.spaceId, member.user.spaceId), eq(knowledgeBases.name, "FAQ")))
      .get();
    const files = await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.knowledgeBaseId, faqBase!.id));
    expect(files.map((file) => file.type)).toEqual(["qa"]);
    const emptyBase = await ctx.deps.db
      .select()
      .from(knowledgeBases)
      .where(and(eq(knowledgeBases.spaceId, member.user.spaceId), eq(knowledgeBases.name, "Knowledge Q&A documents")))
      .get();
    expect(await ctx.deps.db.select().from(knowledgeFiles).where(eq(knowledgeFiles.knowledgeBaseId, emptyBase!.id))).toEqual([]);
  });

  it("a second copy gets a distinct name, in the request's language", async () => {
    const first = await expectOk(
      await ctx.request("/api/v1/templates/translator/copy", { method: "POST", token: other.token, headers: zh }),
      201,
      templateCopySchema,
    );
    const second = await expectOk(
      await ctx.request("/api/v1/templates/translator/copy", { method: "POST", token: other.token, headers: zh }),
      201,
      templateCopySchema,
    );
    expect([first.name, second.name]).toEqual(["翻译助手", "翻译助手 (2)"]);
    const row = await ctx.deps.db.select().from(apps).where(eq(apps.id, second.appId!)).get();
    expect(row?.settingsPrompt).toContain("专业译者");
  });

  it("a guest cannot copy and an unknown template changes nothing", async () => {
    await expectError(await ctx.request("/api/v1/templates/translator/copy", { method: "POST" }), 401);
    const before = (await ctx.deps.db.select().from(apps)).length;
    await expectError(await ctx.request("/api/v1/templates/nope/copy", { method: "POST", token: member.token }), 404);
    expect((await ctx.deps.db.select().from(apps)).length).toBe(before);
  });
});

describe("administrator templates", () => {
  it("the administrator adds a template from an app and deletes it; others are refused; shipped ones stay", async () => {
    const copy = await expectOk(await ctx.request("/api/v1/templates/email-reply/copy", { method: "POST", token: admin.token }), 201, templateCopySchema);
    const body = { appId: copy.appId, groupId: "productivity", nameEn: "Our reply drafter", nameZh: "我们的回复助手" };
    await expectError(await ctx.request("/api/v1/instance/templates", { method: "POST", token: member.token, json: body }), 403);
    await expectError(await ctx.request("/api/v1/instance/templates", { method: "POST", token: admin.token, json: { ...body, groupId: "nope" } }), 400, {
      field: "groupId",
    });
    await expectError(await ctx.request("/api/v1/instance/templates", { method: "POST", token: admin.token, json: { groupId: "productivity" } }), 400, {
      field: "appId",
    });
    const added = await expectOk(
      await ctx.request("/api/v1/instance/templates", { method: "POST", token: admin.token, json: body }),
      201,
      templateSummarySchema,
    );
    expect(added.source).toBe("custom");
    const list = await expectOk(await ctx.request("/api/v1/templates?keyword=回复助手", { headers: zh }), 200, templateListSchema);
    expect(list.items.map((item) => item.name)).toContain("我们的回复助手");
    const copied = await expectOk(await ctx.request(`/api/v1/templates/${added.code}/copy`, { method: "POST", token: member.token }), 201, templateCopySchema);
    expect(copied.name).toBe("Our reply drafter");
    await expectError(await ctx.request("/api/v1/instance/templates/translator", { method: "DELETE", token: admin.token }), 409, { message: /shipped/ });
    await expectError(await ctx.request(`/api/v1/instance/templates/${added.code}`, { method: "DELETE", token: member.token }), 403);
    await expectOk(await ctx.request(`/api/v1/instance/templates/${added.code}`, { method: "DELETE", token: admin.token }), 200, z.unknown());
    await expectError(await ctx.request(`/api/v1/templates/${added.code}`), 404);
  });
});

describe("one-sentence creation", () => {
  it("offline, autoCreate says so and points to the templates; nothing is stored", async () => {
    const error = await expectError(
      await ctx.request("/api/v1/apps/auto-create", { method: "POST", token: member.token, json: { description: "A bot that plans weekly menus" } }),
      409,
      { message: /No language model/, field: "description" },
    );
    expect(error.message).toMatch(/template/);
    await expectError(await ctx.request("/api/v1/apps/auto-create", { method: "POST", token: member.token, json: { description: "abc" } }), 400, {
      field: "description",
    });
  });

  it("avatars are deterministic SVGs from the name, never the default avatar", async () => {
    const first = await expectOk(
      await ctx.request("/api/v1/apps/avatar/auto-create", { method: "POST", token: member.token, json: { name: "Menu planner" } }),
      200,
      avatarSchema,
    );
    const again = await expectOk(
      await ctx.request("/api/v1/apps/avatar/auto-create", { method: "POST", token: member.token, json: { name: "Menu planner" } }),
      200,
      avatarSchema,
    );
    const otherName = await expectOk(
      await ctx.request("/api/v1/apps/avatar/auto-create", { method: "POST", token: member.token, json: { name: "Tax helper" } }),
      200,
      avatarSchema,
    );
    expect(first.avatarUrl).toBe(again.avatarUrl);
    expect(first.avatarUrl).not.toBe(otherName.avatarUrl);
    expect(first.avatarUrl).not.toBe(DEFAULT_APP_AVATAR);
    expect(Buffer.from(first.avatarUrl.split(",")[1]!, "base64").toString()).toBe(avatarSvg("Menu planner"));
    expect(avatarSvg("Menu planner")).toContain(">MP<");
    expect(avatarSvg("<script>")).not.toContain("<script>");
    await expectError(await ctx.request("/api/v1/apps/avatar/auto-create", { method: "POST", token: member.token, json: { name: " " } }), 400, {
      field: "name",
    });
  });
});

describe("one-sentence creation with a model", () => {
  let fake: LlmFake;
  let withModel: TestContext;
  let user: TestUser;
  const draft = {
    name: "Menu planner",
    description: "Plans healthy weekly menus for a family.",
    settingsPrompt: "You plan healthy weekly menus. Ask about allergies first.",
    openingIntroduction: "Hi! Let's plan your week. [Plan a vegetarian week] [Cheap meals for four]",
    category: "productivity",
    model: "gpt-4.1-mini",
  };

  beforeAll(async () => {
    fake = await startOpenAiFake();
    withModel = await createTestContext({ OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini,gpt-3.5-turbo" });
    await withModel.deps.models.ready();
    user = await registerUser(withModel, "drafter@example.com");
  });
  afterAll(async () => {
    await withModel.close();
    await fake.close();
  });

  it("drafts the app as validated JSON, retrying once on an invalid answer", async () => {
    fake.reset();
    fake.reply("Sure! Here is your app: name Menu planner").reply(`\`\`\`json\n${JSON.stringify(draft)}\n\`\`\``);
    const result = await expectOk(
      await withModel.request("/api/v1/apps/auto-create", {
        method: "POST",
        token: user.token,
        json: { description: "An assistant that plans healthy weekly menus" },
      }),
      200,
      autoCreateDraftSchema,
    );
    expect(result).toMatchObject(draft);
    expect(result.avatarUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(fake.requests).toHaveLength(2);
    // The draft is accepted by app creation as it is.
    await upgradeSpaceForTest(withModel, user.user.spaceId);
    const { model, ...settings } = result;
    await expectOk(
      await withModel.request("/api/v1/apps", { method: "POST", token: user.token, json: { ...settings, defaultModel: model } }),
      201,
      z.unknown(),
    );
  });

  it("refuses after a second invalid answer (a wrong category counts), storing nothing", async () => {
    fake.reset();
    fake.reply(JSON.stringify({ ...draft, category: "astrology" })).reply("not json at all");
    await expectError(
      await withModel.request("/api/v1/apps/auto-create", {
        method: "POST",
        token: user.token,
        json: { description: "An assistant that plans healthy weekly menus" },
      }),
      502,
      { message: /usable draft/ },
    );
    expect(fake.requests).toHaveLength(2);
  });
});

describe("contact form", () => {
  const good = { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com", companyName: "Analytical Engines Ltd" };

  it("refuses each bad field by name and stores nothing", async () => {
    for (const [field, value] of [
      ["firstName", ""],
      ["firstName", "x".repeat(51)],
      ["lastName", " "],
      ["email", "not-an-email"],
      ["email", ""],
      ["companyName", "y".repeat(101)],
    ] as const) {
      const error = await expectError(await ctx.request("/api/v1/contact-requests", { method: "POST", json: { ...good, [field]: value } }), 400, { field });
      expect(error.message.length).toBeGreaterThan(0);
    }
    const chinese = await expectError(await ctx.request("/api/v1/contact-requests", { method: "POST", headers: zh, json: { ...good, email: "bad" } }), 400, {
      field: "email",
    });
    expect(chinese.message).toContain("邮箱");
    await expectError(await ctx.request("/api/v1/contact-requests", { method: "POST", json: { firstName: "A" } }), 400);
    const page = await expectOk(await ctx.request("/api/v1/instance/contact-requests", { token: admin.token }), 200, contactPageSchema);
    expect(page.total).toBe(0);
  });

  it("a guest's request is stored, mailed to sales, promised a reply within 48 hours and shown to the administrator only", async () => {
    const result = await expectOk(await ctx.request("/api/v1/contact-requests", { method: "POST", json: good }), 201, contactResultSchema);
    expect(result).toMatchObject({ replyWithinHours: 48, mailed: true });
    const mail = await ctx.deps.db.select().from(outbox).where(eq(outbox.to, "sales@example.com")).get();
    expect(mail?.text).toContain("ada@example.com");
    expect(mail?.text).toContain("Analytical Engines Ltd");
    const page = await expectOk(await ctx.request("/api/v1/instance/contact-requests", { token: admin.token }), 200, contactPageSchema);
    expect(page.items[0]).toMatchObject({ firstName: "Ada", email: "ada@example.com", mailed: true });
    await expectError(await ctx.request("/api/v1/instance/contact-requests", { token: member.token }), 403);
    await expectError(await ctx.request("/api/v1/instance/contact-requests"), 401);
  });

  it("is throttled per IP", async () => {
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 10 && !refused; attempt++) {
      const response = await ctx.request("/api/v1/contact-requests", { method: "POST", json: good });
      if (response.status === 429) refused = response;
      else expect(response.status).toBe(201);
    }
    expect(refused).toBeDefined();
    await expectError(refused!, 429);
    expect(refused!.headers.get("retry-after")).toMatch(/^\d+$/);
  });
});
