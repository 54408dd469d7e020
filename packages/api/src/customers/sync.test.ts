import { type OfficialAccountFake, startOfficialAccountFake, startWecomFake, type WecomFake } from "@parley/channels/testing";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../apps/testing";
import { customers, customerTags, spaceRoles, tags } from "../db/schema/index";
import { eventually, inboxSpace, type InboxSpace } from "../inbox/testing";
import { upgradeSpaceForTest } from "../plans/testing";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { createTestContext, freePort, registerUser, type TestContext, type TestUser } from "../testing/harness";

// Tag and customer sync (issue 17) over a real listening Parley, a real SQLite file and the
// local WeCom and official account fakes, which check tokens and payloads as the platforms do.
let ctx: TestContext;
let model: LlmFake;
let base: string;
let wecom: WecomFake;
let wechat: OfficialAccountFake;
let alice: TestUser;
let bob: TestUser;
let viewer: TestUser;
let ranged: TestUser;
let shop: InboxSpace;
let bobShop: InboxSpace;
let wecomClient: string;
let wechatClient: string;
let groupId: string;

beforeAll(async () => {
  wecom = await startWecomFake();
  wechat = await startOfficialAccountFake({ mode: "plaintext" });
  model = await startOpenAiFake();
  const port = await freePort();
  ctx = await createTestContext({
    OPENAI_API_KEY: "sk-test-parley",
    OPENAI_BASE_URL: model.url,
    PARLEY_OPENAI_MODELS: "gpt-4.1-mini",
    PARLEY_PUBLIC_URL: `http://127.0.0.1:${port}`,
    PARLEY_CHANNEL_API_BASES: `wechat-work=${wecom.apiBase},wechat-official-account=${wechat.apiBase}`,
  });
  await ctx.deps.models.ready();
  base = await ctx.listen(port);
  alice = await registerUser(ctx, "alice-sync@example.com");
  bob = await registerUser(ctx, "bob-sync@example.com");
  viewer = await registerUser(ctx, "viewer-sync@example.com");
  ranged = await registerUser(ctx, "ranged-sync@example.com");
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  await upgradeSpaceForTest(ctx, bob.user.spaceId);
  shop = await inboxSpace(ctx, alice, { name: "Shop bot" });
  bobShop = await inboxSpace(ctx, bob, { name: "Bob bot" });
  wecomClient = await channelClient(alice, shop.appId, "wechat-work", wecom.config);
  wechatClient = await channelClient(alice, shop.appId, "wechat-official-account", wechat.config);
  groupId = (await data<{ id: string }>(await call(alice, "POST", "/api/v1/tag-groups", { name: "Level" }), 201)).id;
  await ctx.deps.db.insert(spaceRoles).values({
    id: "role_sync_viewer",
    spaceId: alice.user.spaceId,
    name: "Customer viewers",
    grants: JSON.stringify(["customers.view"]),
    dataRange: JSON.stringify({ scope: "all" }),
    createdBy: alice.user.id,
    updatedAt: new Date().toISOString(),
  });
  await addMember(ctx, alice.user.spaceId, viewer, "role_sync_viewer");
  await ctx.deps.db.insert(spaceRoles).values({
    id: "role_sync_ranged",
    spaceId: alice.user.spaceId,
    name: "Official account operators",
    grants: JSON.stringify(["customers.view", "customers.edit"]),
    dataRange: JSON.stringify({ scope: "chosen", appIds: [], knowledgeBaseIds: [], clientIds: [wechatClient] }),
    createdBy: alice.user.id,
    updatedAt: new Date().toISOString(),
  });
  await addMember(ctx, alice.user.spaceId, ranged, "role_sync_ranged");
});
afterAll(async () => {
  await ctx?.close();
  await wecom?.close();
  await wechat?.close();
  await model?.close();
});

async function call(user: TestUser, method: string, path: string, json?: unknown, language?: string, spaceId?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${user.token}` };
  if (spaceId) headers["x-parley-space"] = spaceId;
  if (json !== undefined) headers["content-type"] = "application/json";
  if (language) headers["accept-language"] = language;
  return fetch(`${base}${path}`, { method, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
}

async function data<T = any>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (JSON.parse(text) as { data: T }).data;
}

async function refused(response: Response, status: number): Promise<{ message: string; data: { field?: string } | null }> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const body = JSON.parse(text) as { success: boolean; code: number; message: string; data: { field?: string } | null };
  expect(body.success).toBe(false);
  expect(body.code).toBe(status);
  return body;
}

async function channelClient(user: TestUser, appId: string, kind: string, config: Record<string, string>): Promise<string> {
  return (await data<{ id: string }>(await call(user, "POST", "/api/v1/channel-clients", { appId, name: kind, kind, config }), 201)).id;
}

async function customerOf(clientId: string, externalId: string) {
  return ctx.deps.db
    .select()
    .from(customers)
    .where(and(eq(customers.clientId, clientId), eq(customers.externalId, externalId)))
    .get();
}

async function tagRow(id: string) {
  return ctx.deps.db.select().from(tags).where(eq(tags.id, id)).get();
}

describe("customer sync", () => {
  it("pulls the official account's followers and the corp's customers into customers, merged with who already wrote", async () => {
    // A follower who wrote to the account is already a customer, through the channel pipeline.
    const webhook = `${ctx.config.publicUrl}/api/v1/channels/${wechatClient}/webhook`;
    const delivered = await fetch(await wechat.delivery(webhook, { text: "hello", senderId: "oWroteFirst000000000000000001" }));
    expect(delivered.status).toBe(200);
    const wrote = await eventually(() => customerOf(wechatClient, "oWroteFirst000000000000000001"));
    wechat.users.pageSize = 2;
    for (let index = 0; index < 4; index += 1) wechat.users.follow({ openid: `oFollower${index}00000000000000000000` });

    const first = await data(await call(alice, "POST", "/api/v1/customers/sync", { clientId: wechatClient }));
    expect(first).toMatchObject({ created: 4, updated: 1, connections: [{ clientId: wechatClient, platform: "wechat", created: 4, updated: 1 }] });
    expect((await customerOf(wechatClient, "oWroteFirst000000000000000001"))?.id).toBe(wrote.id);
    const again = await data(await call(alice, "POST", "/api/v1/customers/sync", { platform: "wechat" }));
    expect(again).toMatchObject({ created: 0, updated: 5 });

    for (let index = 0; index < 130; index += 1)
      wecom.customers.addContact({
        externalUserid: `wmCustomer${index}`,
        name: `Customer ${index}`,
        followUserid: index % 2 ? "ZhangSan" : "LiSi",
        gender: 2,
        corpName: index === 0 ? "Acme" : "",
      });
    const corp = await data(await call(alice, "POST", "/api/v1/customers/sync", { platform: "wecom" }));
    expect(corp).toMatchObject({ created: 130, updated: 0 });
    expect(await customerOf(wecomClient, "wmCustomer0")).toMatchObject({
      channel: "wechat-work",
      nickname: "Customer 0",
      gender: "female",
      company: "Acme",
      platformOwner: "LiSi",
      spaceId: alice.user.spaceId,
    });
    // A member's edit is kept; the platform's name still follows the platform.
    await ctx.deps.db.update(customers).set({ company: "Edited" }).where(eq(customers.externalId, "wmCustomer0"));
    wecom.customers.contacts.get("wmCustomer0")!.name = "Renamed";
    expect(await data(await call(alice, "POST", "/api/v1/customers/sync", { clientId: wecomClient }))).toMatchObject({ created: 0, updated: 130 });
    expect(await customerOf(wecomClient, "wmCustomer0")).toMatchObject({ nickname: "Renamed", company: "Edited" });
  });

  it("another space can neither sync the connection nor see its customers; members without customers.edit cannot sync; bad bodies are 400", async () => {
    const foreign = await refused(await call(bob, "POST", "/api/v1/customers/sync", { clientId: wechatClient }), 400);
    expect(foreign.data?.field).toBe("clientId");
    const bobList = await data<{ items: { externalId?: string; nickname: string }[] }>(await call(bob, "GET", "/api/v1/customers?limit=100"));
    expect(bobList.items.filter((item) => item.nickname.startsWith("Customer"))).toHaveLength(0);
    await refused(await call(bob, "POST", "/api/v1/customers/sync", { platform: "wecom" }), 409);
    await refused(await call(viewer, "POST", "/api/v1/customers/sync", { platform: "wecom" }, undefined, alice.user.spaceId), 403);
    await refused(await call(alice, "POST", "/api/v1/customers/sync", {}), 400);
    await refused(await call(alice, "POST", "/api/v1/customers/sync", { clientId: wechatClient, platform: "wecom" }), 400);
    const web = await refused(await call(alice, "POST", "/api/v1/customers/sync", { clientId: shop.clientId }), 400);
    expect(web.data?.field).toBe("clientId");
    expect(bobShop.clientId).not.toBe(shop.clientId);
    // What the console's button asks: the sources the caller reaches and whether they may sync.
    expect(await data(await call(alice, "GET", "/api/v1/customers/sync-sources"))).toEqual({
      canSync: true,
      sources: [
        { clientId: wecomClient, name: "wechat-work", platform: "wecom" },
        { clientId: wechatClient, name: "wechat-official-account", platform: "wechat" },
      ],
    });
    expect(await data(await call(viewer, "GET", "/api/v1/customers/sync-sources", undefined, undefined, alice.user.spaceId))).toMatchObject({ canSync: false });
    expect(await data(await call(bob, "GET", "/api/v1/customers/sync-sources"))).toEqual({ canSync: true, sources: [] });
    // A member whose range holds only the official account sees and syncs only it.
    const rangedSources = await data(await call(ranged, "GET", "/api/v1/customers/sync-sources", undefined, undefined, alice.user.spaceId));
    expect(rangedSources).toEqual({ canSync: true, sources: [{ clientId: wechatClient, name: "wechat-official-account", platform: "wechat" }] });
    await refused(await call(ranged, "POST", "/api/v1/customers/sync", { clientId: wecomClient }, undefined, alice.user.spaceId), 400);
    await refused(await call(ranged, "POST", "/api/v1/customers/sync", { platform: "wecom" }, undefined, alice.user.spaceId), 409);
    expect(await data(await call(ranged, "POST", "/api/v1/customers/sync", { platform: "wechat" }, undefined, alice.user.spaceId))).toMatchObject({
      created: 0,
    });
  });

  it("a platform refusal during the pull is a 502 naming the platform's reason, in the caller's language", async () => {
    wecom.customers.refuseNext({ errcode: 60020, errmsg: "not allow to access from your ip" });
    const body = await refused(await call(alice, "POST", "/api/v1/customers/sync", { clientId: wecomClient }, "zh-CN"), 502);
    expect(body.message).toContain("企业微信");
    expect(body.message).toContain("60020");
  });
});

describe("tag sync", () => {
  it("creates, renames and deletes a WeCom tag and an official account tag on the platform, recording the remote id and sync state", async () => {
    const gold = await data(await call(alice, "POST", "/api/v1/tags", { name: "Gold", groupId, syncTarget: "wecom" }), 201);
    expect(gold).toMatchObject({ syncTarget: "wecom", syncState: "synced", syncError: null });
    expect(gold.syncedAt).toBeTruthy();
    const remoteGold = JSON.parse((await tagRow(gold.id))!.remoteIds)[wecomClient] as string;
    expect(wecom.customers.tag(remoteGold)).toEqual({ id: remoteGold, name: "Gold", groupName: "Level" });

    const renamed = await data(await call(alice, "PATCH", `/api/v1/tags/${gold.id}`, { name: "Platinum" }));
    expect(renamed).toMatchObject({ name: "Platinum", syncState: "synced" });
    expect(wecom.customers.tag(remoteGold)?.name).toBe("Platinum");

    const vip = await data(await call(alice, "POST", "/api/v1/tags", { name: "VIP", groupId, syncTarget: "wechat" }), 201);
    const remoteVip = Number(JSON.parse((await tagRow(vip.id))!.remoteIds)[wechatClient]);
    expect(wechat.users.tagNamed("VIP")?.id).toBe(remoteVip);

    // Moving a tag from WeChat to WeCom creates it there and deletes it on the account.
    const moved = await data(await call(alice, "PATCH", `/api/v1/tags/${vip.id}`, { syncTarget: "wecom" }));
    expect(moved).toMatchObject({ syncTarget: "wecom", syncState: "synced" });
    expect(wechat.users.tagNamed("VIP")).toBeUndefined();
    const remoteVipWecom = JSON.parse((await tagRow(vip.id))!.remoteIds)[wecomClient] as string;
    expect(wecom.customers.tag(remoteVipWecom)?.name).toBe("VIP");
    // Not mirrored any more: deleted on the platform, state none.
    expect(await data(await call(alice, "PATCH", `/api/v1/tags/${vip.id}`, { syncTarget: "none" }))).toMatchObject({ syncState: "none", syncedAt: null });
    expect(wecom.customers.tag(remoteVipWecom)).toBeUndefined();

    await data(await call(alice, "DELETE", `/api/v1/tags/${gold.id}`));
    expect(wecom.customers.tag(remoteGold)).toBeUndefined();
    expect(await tagRow(gold.id)).toBeUndefined();
    await data(await call(alice, "DELETE", `/api/v1/tags/${vip.id}`));
  });

  it("mapping mirrored tags to customers marks them on the platform for customers whose identity is there", async () => {
    const gold = await data(await call(alice, "POST", "/api/v1/tags", { name: "Gold", groupId, syncTarget: "wecom" }), 201);
    const fans = await data(await call(alice, "POST", "/api/v1/tags", { name: "Fans", groupId, syncTarget: "wechat" }), 201);
    const corpCustomer = (await customerOf(wecomClient, "wmCustomer1"))!;
    const follower = (await customerOf(wechatClient, "oFollower000000000000000000000"))!;
    const mapped = await data(
      await call(alice, "POST", "/api/v1/customers/tags", {
        customerIds: [corpCustomer.id, follower.id, (await customerOf(wechatClient, "oWroteFirst000000000000000001"))!.id],
        addTagIds: [gold.id, fans.id],
      }),
    );
    expect(mapped).toEqual({ added: 6, removed: 0 });
    expect(wecom.customers.tagNamesOf("wmCustomer1")).toEqual(["Gold"]);
    expect(wechat.users.tagNamesOf("oFollower000000000000000000000")).toEqual(["Fans"]);
    expect(wechat.users.tagNamesOf("oWroteFirst000000000000000001")).toEqual(["Fans"]);

    await data(await call(alice, "POST", "/api/v1/customers/tags", { customerIds: [corpCustomer.id, follower.id], removeTagIds: [gold.id, fans.id] }));
    expect(wecom.customers.tagNamesOf("wmCustomer1")).toEqual([]);
    expect(wechat.users.tagNamesOf("oFollower000000000000000000000")).toEqual([]);
    expect(wechat.users.tagNamesOf("oWroteFirst000000000000000001")).toEqual(["Fans"]);
    await data(await call(alice, "DELETE", `/api/v1/tags/${gold.id}`));
    await data(await call(alice, "DELETE", `/api/v1/tags/${fans.id}`));
  });

  it("a platform refusal is a clear 502 and leaves nothing half-written: no tag, no mapping, no rename, no delete", async () => {
    // 11 Chinese characters are 33 UTF-8 bytes, over WeChat's 30: 45158.
    const long = await refused(await call(alice, "POST", "/api/v1/tags", { name: "一二三四五六七八九十一", groupId, syncTarget: "wechat" }, "zh-CN"), 502);
    expect(long.message).toContain("微信公众号拒绝了标签同步");
    expect(long.message).toContain("45158");
    expect(await ctx.deps.db.select().from(tags).where(eq(tags.name, "一二三四五六七八九十一"))).toHaveLength(0);
    // The name already exists on the account (made there by hand): 45157.
    wechat.users.tags.set(9_000, { name: "Handmade", openids: new Set() });
    const taken = await refused(await call(alice, "POST", "/api/v1/tags", { name: "Handmade", groupId, syncTarget: "wechat" }), 502);
    expect(taken.message).toMatch(/official account refused the tag sync.*45157/);
    expect(await ctx.deps.db.select().from(tags).where(eq(tags.name, "Handmade"))).toHaveLength(0);
    // No connection of that platform in the space yet: kept as not synced, and nothing reaches alice's corp.
    const bobGroup = await data<{ id: string }>(await call(bob, "POST", "/api/v1/tag-groups", { name: "Bob level" }), 201);
    const unsynced = await data(await call(bob, "POST", "/api/v1/tags", { name: "Bob gold", groupId: bobGroup.id, syncTarget: "wecom" }), 201);
    expect(unsynced).toMatchObject({ syncTarget: "wecom", syncState: "none", syncedAt: null });
    expect([...wecom.customers.groups.values()].some((group) => group.name === "Bob level")).toBe(false);

    const gold = await data(await call(alice, "POST", "/api/v1/tags", { name: "Gold", groupId, syncTarget: "wecom" }), 201);
    const fans = await data(await call(alice, "POST", "/api/v1/tags", { name: "Fans", groupId, syncTarget: "wechat" }), 201);
    const remoteGold = JSON.parse((await tagRow(gold.id))!.remoteIds)[wecomClient] as string;
    const corpCustomer = (await customerOf(wecomClient, "wmCustomer3"))!;
    const follower = (await customerOf(wechatClient, "oFollower100000000000000000000"))!;

    // WeCom marks the customer, then the account refuses: the WeCom mark is taken back, nothing is mapped here.
    wechat.users.refuseNext({ errcode: 45059, errmsg: "has too many tags" });
    const mapping = await refused(
      await call(alice, "POST", "/api/v1/customers/tags", { customerIds: [corpCustomer.id, follower.id], addTagIds: [gold.id, fans.id] }),
      502,
    );
    expect(mapping.message).toContain("45059");
    expect(wecom.customers.tagNamesOf("wmCustomer3")).toEqual([]);
    expect(wechat.users.tagNamesOf("oFollower100000000000000000000")).toEqual([]);
    expect(await ctx.deps.db.select().from(customerTags).where(eq(customerTags.customerId, corpCustomer.id))).toHaveLength(0);
    const listed = await data<{ id: string; syncState: string; syncError: string | null }[]>(await call(alice, "GET", "/api/v1/tags"));
    expect(listed.find((tag) => tag.id === fans.id)).toMatchObject({ syncState: "failed" });
    expect(listed.find((tag) => tag.id === fans.id)?.syncError).toContain("45059");
    // Tried again once the account accepts: mapped on both sides, and synced again.
    expect(
      await data(await call(alice, "POST", "/api/v1/customers/tags", { customerIds: [corpCustomer.id, follower.id], addTagIds: [gold.id, fans.id] })),
    ).toEqual({
      added: 4,
      removed: 0,
    });
    expect(wecom.customers.tagNamesOf("wmCustomer3")).toEqual(["Gold"]);
    expect((await tagRow(fans.id))?.syncState).toBe("synced");

    // A refused rename keeps the old name on both sides and records the failure.
    wecom.customers.refuseNext({ errcode: 40071, errmsg: "UserTag Name Already Exist" });
    const rename = await refused(await call(alice, "PATCH", `/api/v1/tags/${gold.id}`, { name: "Golden" }), 502);
    expect(rename.message).toMatch(/WeCom refused the tag sync.*40071/);
    expect(await tagRow(gold.id)).toMatchObject({ name: "Gold", syncState: "failed" });
    expect(wecom.customers.tag(remoteGold)?.name).toBe("Gold");
    // A refused delete keeps the tag and its customers.
    wecom.customers.refuseNext({ errcode: -1, errmsg: "system busy" });
    await refused(await call(alice, "DELETE", `/api/v1/tags/${gold.id}`), 502);
    expect(await tagRow(gold.id)).toBeTruthy();
    expect(wecom.customers.tag(remoteGold)).toBeTruthy();
    expect(await ctx.deps.db.select().from(customerTags).where(eq(customerTags.tagId, gold.id))).toHaveLength(2);
    // A tag already deleted on the platform is deleted here too.
    wecom.customers.groups.forEach((group) => group.tags.delete(remoteGold));
    await data(await call(alice, "DELETE", `/api/v1/tags/${gold.id}`));
    expect(await tagRow(gold.id)).toBeUndefined();
  });

  it("tags the model chooses for a customer are marked on the platform too", async () => {
    const loyal = await data(await call(alice, "POST", "/api/v1/tags", { name: "Loyal", groupId, syncTarget: "wechat" }), 201);
    const wrote = (await customerOf(wechatClient, "oWroteFirst000000000000000001"))!;
    model.reply("Level / Loyal");
    const chosen = await data(await call(alice, "POST", `/api/v1/customers/${wrote.id}/ai-tags`));
    expect(chosen.chosenTagIds).toEqual([loyal.id]);
    expect(wechat.users.tagNamesOf("oWroteFirst000000000000000001")).toContain("Loyal");
    expect((await tagRow(loyal.id))?.syncState).toBe("synced");
  });
});
