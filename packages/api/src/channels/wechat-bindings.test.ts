import { startOfficialAccountFake, type OfficialAccountFake } from "@parley/channels/testing";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { channelClients, conversations, customers, keyValues, wechatBindings } from "../db/schema/index";
import { eventually, inboxSpace, type InboxSpace, setManualService, startVisitor, visitorSays } from "../inbox/testing";
import { expectError, expectOk } from "../testing/flows";
import { createTestContext, freePort, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { channelClientSchema, wechatBindingCodeSchema, wechatBindingSchema } from "./schemas";

/**
 * WeChat notices end to end on a listening Parley and the local official account fake: a member
 * binds their WeChat by sending "BIND <code>" to the account, then handover and offline notices
 * reach the fake's template (or customer-service) API for that openid with a valid token.
 */

let ctx: TestContext;
let fake: OfficialAccountFake;
let owner: TestUser;
let other: TestUser;
let space: InboxSpace;
let clientA: z.infer<typeof channelClientSchema>;
let clientOther: z.infer<typeof channelClientSchema>;
const ownerOpenid = "oOwner7fK2Qm7Yd0ZxLq1Wn9Own";

beforeAll(async () => {
  fake = await startOfficialAccountFake({ mode: "plaintext" });
  const port = await freePort();
  ctx = await createTestContext({ PARLEY_PUBLIC_URL: `http://127.0.0.1:${port}`, PARLEY_CHANNEL_API_BASES: `wechat-official-account=${fake.apiBase}` });
  await ctx.listen(port);
  owner = await registerUser(ctx, "owner-wechat@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  other = await registerUser(ctx, "other-wechat@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, other.user.spaceId);
  space = await inboxSpace(ctx, owner, { name: "Support bot" });
  clientA = await createOfficialAccount(owner, space.appId, "Our official account", { noticeTemplateId: fake.noticeTemplateId });
  const otherSpace = await inboxSpace(ctx, other, { name: "Other bot" });
  clientOther = await createOfficialAccount(other, otherSpace.appId, "Their official account");
});

afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

async function createOfficialAccount(user: TestUser, appId: string, name: string, extra: Record<string, string> = {}, offlineNotify = "none") {
  const response = await ctx.request("/api/v1/channel-clients", {
    method: "POST",
    token: user.token,
    json: { appId, name, kind: "wechat-official-account", offlineNotify, config: { ...fake.config, ...extra } },
  });
  return expectOk(response, 201, channelClientSchema);
}

async function bindingCode(user: TestUser, clientId: string) {
  return expectOk(
    await ctx.request(`/api/v1/channel-clients/${clientId}/wechat-binding-code`, { method: "POST", token: user.token }),
    200,
    wechatBindingCodeSchema,
  );
}

async function myBindings(user: TestUser) {
  return expectOk(await ctx.request("/api/v1/me/wechat-bindings", { token: user.token }), 200, z.array(wechatBindingSchema));
}

/** Posts a person's text to the client's webhook the way WeChat does; answers the passive reply's text. */
async function say(clientId: string, text: string, senderId: string, id?: string) {
  const webhook = `${ctx.config.publicUrl}/api/v1/channels/${clientId}/webhook`;
  const response = await fetch(await fake.delivery(webhook, { text, senderId, ...(id ? { id } : {}) }));
  const body = await response.text();
  expect(response.status, body).toBe(200);
  return body.match(/<Content><!\[CDATA\[(.*?)\]\]><\/Content>/s)?.[1] ?? body;
}

async function sessionsOf(clientId: string) {
  return ctx.deps.db.select().from(conversations).where(eq(conversations.clientId, clientId));
}

describe("binding a member's WeChat", () => {
  it("binds the sender of BIND <code>, answers them, and keeps the message out of the inbox", async () => {
    const issued = await bindingCode(owner, clientA.id);
    expect(issued.code).toMatch(/^\d{6}$/);
    expect(issued.command).toBe(`BIND ${issued.code}`);
    expect(Date.parse(issued.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);
    // Only a hash of the code is stored.
    const stored = await ctx.deps.db
      .select()
      .from(keyValues)
      .where(like(keyValues.key, `wechat-binding-code:${clientA.id}:%`));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.key).not.toContain(issued.code);
    expect(stored[0]!.value).not.toContain(issued.code);

    const reply = await say(clientA.id, `BIND ${issued.code}`, ownerOpenid, "bind-1");
    expect(reply).toBe("Bound to Parley notices");
    const bindings = await myBindings(owner);
    expect(bindings).toHaveLength(1);
    expect(bindings[0]).toMatchObject({ clientId: clientA.id, clientName: "Our official account", openid: ownerOpenid, lastNoticeError: null });
    const row = await ctx.deps.db.select().from(wechatBindings).where(eq(wechatBindings.id, bindings[0]!.id)).get();
    expect(row).toMatchObject({ userId: owner.user.id, spaceId: owner.user.spaceId });
    expect(await sessionsOf(clientA.id)).toHaveLength(0);
    expect(await ctx.deps.db.select().from(customers).where(eq(customers.clientId, clientA.id))).toHaveLength(0);

    // WeChat retries the delivery: nothing new, still no session.
    await say(clientA.id, `BIND ${issued.code}`, ownerOpenid, "bind-1");
    expect(await sessionsOf(clientA.id)).toHaveLength(0);
    expect(await myBindings(owner)).toHaveLength(1);
  });

  it("a used, wrong or expired code is an ordinary customer message", async () => {
    const used = await bindingCode(owner, clientA.id);
    expect(await say(clientA.id, `绑定 ${used.code}`, "oSecondPhone00000000000000001")).toBe("已绑定 Parley 通知");
    // Used once: the same code from someone else is a customer's message.
    await say(clientA.id, `BIND ${used.code}`, "oStranger000000000000000000001");
    await say(clientA.id, "BIND 000000", "oStranger000000000000000000002");
    const expired = await bindingCode(owner, clientA.id);
    await ctx.deps.db
      .update(keyValues)
      .set({ expiresAt: Date.now() - 1 })
      .where(like(keyValues.key, `wechat-binding-code:${clientA.id}:%`));
    await say(clientA.id, `BIND ${expired.code}`, "oStranger000000000000000000003");
    const sessions = await sessionsOf(clientA.id);
    expect(sessions.map((session) => session.externalConversationId).sort()).toEqual([
      "oStranger000000000000000000001",
      "oStranger000000000000000000002",
      "oStranger000000000000000000003",
    ]);
    expect((await myBindings(owner)).map((binding) => binding.openid).sort()).toEqual([ownerOpenid, "oSecondPhone00000000000000001"].sort());
    // The second phone is removed again: notices below go to one openid.
    const second = (await myBindings(owner)).find((binding) => binding.openid === "oSecondPhone00000000000000001")!;
    await expectOk(
      await ctx.request(`/api/v1/me/wechat-bindings/${second.id}`, { method: "DELETE", token: owner.token }),
      200,
      z.object({ deleted: z.literal(true) }),
    );
    expect((await myBindings(owner)).map((binding) => binding.openid)).toEqual([ownerOpenid]);
  });

  it("another space can neither use the code nor see or remove the bindings", async () => {
    await expectError(await ctx.request(`/api/v1/channel-clients/${clientA.id}/wechat-binding-code`, { method: "POST", token: other.token }), 404, {});
    expect(await myBindings(other)).toEqual([]);
    const [binding] = await myBindings(owner);
    await expectError(await ctx.request(`/api/v1/me/wechat-bindings/${binding!.id}`, { method: "DELETE", token: other.token }), 404, {});
    expect(await myBindings(owner)).toHaveLength(1);
    // The owner's code sent to another space's account is that space's customer message.
    const issued = await bindingCode(owner, clientA.id);
    expect(await say(clientOther.id, `BIND ${issued.code}`, "oIntruder0000000000000000001")).not.toContain("Bound");
    expect(await sessionsOf(clientOther.id)).toHaveLength(1);
    expect(await ctx.deps.db.select().from(wechatBindings).where(eq(wechatBindings.openid, "oIntruder0000000000000000001"))).toHaveLength(0);
    // A web client is not an official account.
    await expectError(await ctx.request(`/api/v1/channel-clients/${space.clientId}/wechat-binding-code`, { method: "POST", token: owner.token }), 404, {});
  });
});

describe("WeChat notices", () => {
  async function handover(text: string) {
    const visitor = await startVisitor(ctx, space.clientId);
    await visitorSays(ctx, visitor, text);
    return visitor.sessionId;
  }

  it("a handover notifies the bound member by template message with a valid token", async () => {
    await setManualService(ctx, space, { triggers: [{ type: "keyword", content: "human" }], notify: { wechat: true }, notifyMemberIds: [owner.user.id] });
    const before = fake.templateMessages.length;
    const sessionId = await handover("I want a human please");
    const received = await eventually(() => fake.templateMessages.length > before && fake.templateMessages.slice(before));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.templateMessages.slice(before)).toHaveLength(1);
    const notice = received[0]!;
    expect(notice).toMatchObject({
      touser: ownerOpenid,
      templateId: fake.noticeTemplateId,
      authorized: true,
      url: `${ctx.config.publicUrl}/console/chatManage?session=${sessionId}`,
    });
    expect(notice.data.first?.value).toBe("A conversation with Support bot is waiting for a person");
    expect(String(notice.data.remark?.value)).toContain("I want a human please");
    expect(String(notice.data.keyword2?.value)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    const [binding] = await eventually(async () => {
      const list = await myBindings(owner);
      return list[0]?.lastNoticeAt ? list : undefined;
    });
    expect(binding!.lastNoticeError).toBeNull();
  });

  it("without a template id the notice is a customer-service message; a refusal is recorded on the binding", async () => {
    await expectOk(
      await ctx.request(`/api/v1/channel-clients/${clientA.id}`, { method: "PATCH", token: owner.token, json: { config: { noticeTemplateId: "" } } }),
      200,
      channelClientSchema,
    );
    const templatesBefore = fake.templateMessages.length;
    const sentBefore = fake.sent.length;
    const sessionId = await handover("human, now");
    const sent = await eventually(() => fake.sent.length > sentBefore && fake.sent.slice(sentBefore));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: ownerOpenid, authorized: true });
    expect(sent[0]!.text).toContain("A conversation with Support bot is waiting for a person");
    expect(sent[0]!.text).toContain(`/console/chatManage?session=${sessionId}`);
    expect(fake.templateMessages.length).toBe(templatesBefore);

    fake.failNext("rejected");
    await handover("a human again");
    const failed = await eventually(async () => (await myBindings(owner))[0]?.lastNoticeError);
    expect(failed).toContain("40003");
    // The handover itself went through.
    const rows = await ctx.deps.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.clientId, space.clientId), eq(conversations.serviceMode, "MANUAL_MODE")));
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });

  it("a client going offline notifies the owner's binding", async () => {
    await expectOk(
      await ctx.request(`/api/v1/channel-clients/${clientA.id}`, {
        method: "PATCH",
        token: owner.token,
        json: { config: { noticeTemplateId: fake.noticeTemplateId } },
      }),
      200,
      channelClientSchema,
    );
    const broken = await createOfficialAccount(
      owner,
      space.appId,
      "Broken account",
      { appId: "wx00000000000000ff", appSecret: "not-the-secret" },
      "wechat-official-account",
    );
    expect(broken.offlineNotify).toBe("wechat-official-account");
    const before = fake.templateMessages.length;
    const check = await ctx.request(`/api/v1/channel-clients/${broken.id}/check`, { method: "POST", token: owner.token });
    expect(check.status).toBe(502);
    const [notice] = await eventually(() => fake.templateMessages.length > before && fake.templateMessages.slice(before));
    expect(notice).toMatchObject({ touser: ownerOpenid, authorized: true, url: `${ctx.config.publicUrl}/console/clients/config?id=${broken.id}` });
    expect(notice!.data.first?.value).toBe("Channel client Broken account went offline");
    expect(notice!.data.keyword1?.value).toBe("Broken account");
    const row = await ctx.deps.db.select().from(channelClients).where(eq(channelClients.id, broken.id)).get();
    expect(row?.lastError).toContain("40013");
  });
});
