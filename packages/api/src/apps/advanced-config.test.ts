import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apps } from "../db/schema/index";
import { openValue } from "../platform/sealed";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk } from "../testing/flows";
import { advancedConfigSchema, appSeniorSchema } from "./schemas";
import { getAppForChat } from "./service/index";
import { createAppVia } from "./testing";

let ctx: TestContext;

/** Stored webhooks with their sealed URL and secret opened (and checked to be sealed). */
function openWebhooks(webhooks: Array<{ kind: string; url: string; secret: string }>) {
  return webhooks.map((webhook) => {
    expect(webhook.url.startsWith("sealed:") && webhook.secret.startsWith("sealed:")).toBe(true);
    return { kind: webhook.kind, url: openValue(ctx.deps.secrets, webhook.url), secret: openValue(ctx.deps.secrets, webhook.secret) };
  });
}
let user: TestUser;
let appId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  user = await registerUser(ctx, "advanced@example.com");
  appId = (await createAppVia(ctx, user)).id;
});
afterAll(async () => ctx.close());

function fullConfig(overrides: { humanization?: object; manualService?: object; notify?: object; database?: object } = {}) {
  return {
    humanization: { splitReply: true, mergeReply: true, mergeDelaySeconds: 8, delayReplySeconds: 2, ...overrides.humanization },
    manualService: {
      triggers: [
        { type: "keyword", content: " human " },
        { type: "intent", content: "wants a refund" },
      ],
      defaultReply: "A colleague will be with you shortly.",
      replyMode: "delayed",
      delayMinutes: 15,
      notify: {
        email: true,
        sms: false,
        wechat: false,
        webhook: true,
        webhooks: [{ kind: "feishu", url: "https://open.feishu.cn/open-apis/bot/v2/hook/abc", secret: "SEC123" }],
        ...overrides.notify,
      },
      notifyMemberIds: [user.user.id],
      summaryTemplate: [{ property: "Order number", content: "The order asked about", description: "Digits only" }],
      aiTagging: true,
      ...overrides.manualService,
    },
    database: { enabled: true, databaseIds: ["db_1", "db_2"], confirmWrites: false, ...overrides.database },
  };
}

const put = (json: unknown) => ctx.request(`/api/v1/apps/${appId}/advanced-config`, { method: "PUT", token: user.token, json });
const get = async () => expectOk(await ctx.request(`/api/v1/apps/${appId}/advanced-config`, { token: user.token }), 200, advancedConfigSchema);

describe("advanced configuration", () => {
  it("starts from defaults", async () => {
    expect(await get()).toEqual({
      humanization: { splitReply: false, mergeReply: false, mergeDelaySeconds: null, delayReplySeconds: 0 },
      manualService: {
        triggers: [],
        defaultReply: null,
        replyMode: "none",
        delayMinutes: null,
        notify: { email: false, sms: false, wechat: false, webhook: false, webhooks: [] },
        notifyMemberIds: [],
        summaryTemplate: [],
        aiTagging: false,
      },
      database: { enabled: false, databaseIds: [], confirmWrites: true },
    });
  });

  it("round-trips; the database list is the app's bound databases", async () => {
    // Bound databases predate this version's checks (no database is stored yet, so a new id is
    // refused); ids already bound are kept, which is what these round-trips exercise.
    await ctx.deps.db.update(apps).set({ databaseIds: '["db_1","db_2"]' }).where(eq(apps.id, appId));
    const saved = await expectOk(await put(fullConfig()), 200, advancedConfigSchema);
    // The hook id in a Feishu URL is its credential: answered masked.
    const expected = fullConfig({
      notify: { webhooks: [{ kind: "feishu", url: "https://open.feishu.cn/open-apis/bot/v2/hook/••••", secret: "", secretSet: true }] },
    });
    expected.manualService.triggers[0]!.content = "human";
    expect(saved).toEqual(expected);
    expect(await get()).toEqual(expected);

    const row = await ctx.deps.db.select().from(apps).where(eq(apps.id, appId)).get();
    expect(row?.databaseIds).toBe('["db_1","db_2"]');
    expect(JSON.parse(row!.advancedConfig)).toMatchObject({ humanization: { mergeDelaySeconds: 8 }, database: { enabled: true } });
    expect(JSON.parse(row!.advancedConfig).database).not.toHaveProperty("databaseIds");
    // Stored sealed under the instance key: neither the URL nor the secret is in the row.
    expect(row!.advancedConfig).not.toContain("SEC123");
    expect(row!.advancedConfig).not.toContain("hook/abc");
    expect(openWebhooks(JSON.parse(row!.advancedConfig).manualService.notify.webhooks)).toEqual([
      { kind: "feishu", url: "https://open.feishu.cn/open-apis/bot/v2/hook/abc", secret: "SEC123" },
    ]);

    const senior = await expectOk(await ctx.request(`/api/v1/apps/${appId}/senior`, { token: user.token }), 200, appSeniorSchema);
    expect(senior.databaseIds).toEqual(["db_1", "db_2"]);
    expect(senior.advancedConfig).toEqual(expected);
    expect((await getAppForChat(ctx.deps, { appId })).advancedConfig.humanization).toEqual(expected.humanization);
  });

  it("accepts WeChat notices (members bind their WeChat to an official account client)", async () => {
    const saved = await expectOk(await put(fullConfig({ notify: { wechat: true } })), 200, advancedConfigSchema);
    expect(saved.manualService.notify.wechat).toBe(true);
    expect((await get()).manualService.notify.wechat).toBe(true);
    await expectOk(await put(fullConfig()), 200, advancedConfigSchema);
  });

  it("merge reply needs a delay time", async () => {
    const before = await get();
    await expectError(await put(fullConfig({ humanization: { mergeDelaySeconds: null } })), 400, {
      field: "humanization.mergeDelaySeconds",
      message: "Merge reply needs a delay time",
    });
    const withoutDelay = fullConfig();
    delete (withoutDelay.humanization as { mergeDelaySeconds?: number }).mergeDelaySeconds;
    await expectError(await put(withoutDelay), 400, { field: "humanization.mergeDelaySeconds" });
    await expectError(await put(fullConfig({ humanization: { mergeDelaySeconds: 0 } })), 400, { field: "humanization.mergeDelaySeconds" });
    expect(await get()).toEqual(before);
    // Without merging, no delay is needed.
    const saved = await expectOk(await put(fullConfig({ humanization: { mergeReply: false, mergeDelaySeconds: null } })), 200, advancedConfigSchema);
    expect(saved.humanization).toMatchObject({ mergeReply: false, mergeDelaySeconds: null });
  });

  it("the webhook channel needs webhook config", async () => {
    await expectError(await put(fullConfig({ notify: { webhooks: [] } })), 400, {
      field: "manualService.notify.webhooks",
      message: "The webhook channel needs a webhook URL and secret",
    });
    await expectError(await put(fullConfig({ notify: { webhooks: [{ kind: "dingtalk", url: "not a url", secret: "s" }] } })), 400, {
      field: "manualService.notify.webhooks.0.url",
    });
    await expectError(await put(fullConfig({ notify: { webhooks: [{ kind: "wecom", url: "https://qyapi.weixin.qq.com/x", secret: " " }] } })), 400, {
      field: "manualService.notify.webhooks.0.secret",
    });
    await expectError(await put(fullConfig({ notify: { webhooks: [{ kind: "slack", url: "https://x", secret: "s" }] } })), 400, {
      field: "manualService.notify.webhooks.0.kind",
    });
    const off = await expectOk(await put(fullConfig({ notify: { webhook: false, webhooks: [] } })), 200, advancedConfigSchema);
    expect(off.manualService.notify).toMatchObject({ webhook: false, webhooks: [] });
  });

  it("delayed reply needs minutes; other handover fields are checked", async () => {
    await expectError(await put(fullConfig({ manualService: { delayMinutes: null } })), 400, { field: "manualService.delayMinutes" });
    await expectError(await put(fullConfig({ manualService: { triggers: [{ type: "keyword", content: "  " }] } })), 400, {
      field: "manualService.triggers.0.content",
    });
    await expectError(await put(fullConfig({ manualService: { triggers: [{ type: "regex", content: "x" }] } })), 400, {
      field: "manualService.triggers.0.type",
    });
    await expectError(await put(fullConfig({ manualService: { replyMode: "sometimes" } })), 400, { field: "manualService.replyMode" });
    await expectError(await put(fullConfig({ manualService: { summaryTemplate: [{ property: "", content: "c", description: "d" }] } })), 400, {
      field: "manualService.summaryTemplate.0.property",
    });
    const stranger = await registerUser(ctx, "stranger@example.com");
    await expectError(await put(fullConfig({ manualService: { notifyMemberIds: [user.user.id, stranger.user.id] } })), 400, {
      field: "manualService.notifyMemberIds.1",
      message: "Only members of this space can be notified",
    });
    const continuing = await expectOk(await put(fullConfig({ manualService: { replyMode: "continue", delayMinutes: 30 } })), 200, advancedConfigSchema);
    expect(continuing.manualService).toMatchObject({ replyMode: "continue", delayMinutes: null });
  });

  it("never answers a webhook secret; an empty secret keeps the stored one while the URL is unchanged", async () => {
    const storedWebhooks = async () => {
      const row = await ctx.deps.db.select().from(apps).where(eq(apps.id, appId)).get();
      return openWebhooks(JSON.parse(row!.advancedConfig).manualService.notify.webhooks as Array<{ kind: string; url: string; secret: string }>);
    };
    const ding = { kind: "dingtalk", url: "https://oapi.dingtalk.com/robot/send?access_token=tok-very-secret-1a2b", secret: "SECding-very-secret" };
    const feishu = { kind: "feishu", url: "https://open.feishu.cn/open-apis/bot/v2/hook/hook-very-secret-9f8e", secret: "feishu-very-secret" };
    const saved = await expectOk(await put(fullConfig({ notify: { webhooks: [ding, feishu] } })), 200, advancedConfigSchema);
    for (const answer of [
      JSON.stringify(saved),
      await (await ctx.request(`/api/v1/apps/${appId}/advanced-config`, { token: user.token })).text(),
      await (await ctx.request(`/api/v1/apps/${appId}/senior`, { token: user.token })).text(),
    ]) {
      expect(answer).not.toContain("very-secret");
    }
    const read = await get();
    expect(read.manualService.notify.webhooks).toEqual([
      { kind: "dingtalk", url: "https://oapi.dingtalk.com/robot/send?access_token=••••1a2b", secret: "", secretSet: true },
      { kind: "feishu", url: "https://open.feishu.cn/open-apis/bot/v2/hook/••••9f8e", secret: "", secretSet: true },
    ]);

    // What was read, sent back as it is (the console does this): the secrets stay, in the new order too.
    await expectOk(
      await put({
        ...read,
        manualService: { ...read.manualService, notify: { ...read.manualService.notify, webhooks: [...read.manualService.notify.webhooks].reverse() } },
      }),
      200,
      advancedConfigSchema,
    );
    expect(await storedWebhooks()).toEqual([feishu, ding]);
    // The chat side still signs with them.
    expect((await getAppForChat(ctx.deps, { appId })).advancedConfig.manualService.notify.webhooks).toEqual([feishu, ding]);

    // A new secret replaces the stored one.
    await expectOk(
      await put(
        fullConfig({
          notify: {
            webhooks: [
              { ...ding, secret: "SECrotated" },
              { ...feishu, secret: "" },
            ],
          },
        }),
      ),
      200,
      advancedConfigSchema,
    );
    expect(await storedWebhooks()).toEqual([{ ...ding, secret: "SECrotated" }, feishu]);

    // A changed URL (or kind) with an empty secret needs the secret again, and nothing changes.
    await expectError(
      await put(fullConfig({ notify: { webhooks: [{ ...ding, url: "https://oapi.dingtalk.com/robot/send?access_token=t2", secret: "" }] } })),
      400,
      {
        field: "manualService.notify.webhooks.0.secret",
      },
    );
    await expectError(await put(fullConfig({ notify: { webhooks: [{ ...feishu, kind: "wecom", secret: "" }] } })), 400, {
      field: "manualService.notify.webhooks.0.secret",
    });
    expect(await storedWebhooks()).toEqual([{ ...ding, secret: "SECrotated" }, feishu]);
    // Removing a webhook forgets its secret: adding the URL back needs it.
    await expectOk(await put(fullConfig({ notify: { webhooks: [{ ...feishu, secret: "" }] } })), 200, advancedConfigSchema);
    await expectError(
      await put(
        fullConfig({
          notify: {
            webhooks: [
              { ...feishu, secret: "" },
              { ...ding, secret: "" },
            ],
          },
        }),
      ),
      400,
      { field: "manualService.notify.webhooks.1.secret" },
    );
    // A masked URL that masks no stored webhook is not an address: refused, nothing stored.
    await expectError(
      await put(fullConfig({ notify: { webhooks: [{ kind: "dingtalk", url: "https://oapi.dingtalk.com/robot/send?access_token=••••zzzz", secret: "s" }] } })),
      400,
      {
        field: "manualService.notify.webhooks.0.url",
      },
    );
    expect(await storedWebhooks()).toEqual([feishu]);
  });

  it("answers 404 for an unknown app", async () => {
    await expectError(await ctx.request("/api/v1/apps/app_nope/advanced-config", { token: user.token }), 404);
    await expectError(await ctx.request("/api/v1/apps/app_nope/advanced-config", { method: "PUT", token: user.token, json: fullConfig() }), 404);
  });
});
