import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apps, conversations, messages, userKeys } from "../db/schema/index";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectError } from "../testing/flows";
import { createAppVia, validAppBody } from "./testing";

// Every write field that names an object refuses another space's id and an unknown one with a
// 400 naming the field, and stores nothing (issue 13 item 7).
let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let aliceApp: { id: string; code: string };
let aliceKeyId: string;
const foreign = { appCode: "", pluginCode: "", clientId: "", conversationId: "" };

async function data<T>(response: Response, status = 201): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (JSON.parse(text) as { data: T }).data;
}

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await registerUser(ctx, "alice@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  bob = await registerUser(ctx, "bob@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, bob.user.spaceId);
  aliceApp = await createAppVia(ctx, alice);
  aliceKeyId = (await data<{ id: string }>(await ctx.request("/api/v1/user-keys", { method: "POST", token: alice.token, json: { name: "Alice key" } }))).id;
  const bobApp = await createAppVia(ctx, bob);
  foreign.appCode = bobApp.code;
  const plugin = await ctx.request("/api/v1/plugins", {
    method: "POST",
    token: bob.token,
    json: {
      name: "Bob tool",
      description: "d",
      avatar: "https://cdn.example.com/a.png",
      requestUrl: "https://api.example.com/v1/x",
      requestMethod: "GET",
      requestParams: [{ name: "q", type: "string", description: "Query", required: true }],
      responseParams: [],
      headers: {},
    },
  });
  foreign.pluginCode = (await data<{ code: string }>(plugin)).code;
  foreign.clientId = (
    await data<{ id: string }>(await ctx.request("/api/v1/web-clients", { method: "POST", token: bob.token, json: { appId: bobApp.id, name: "Bob widget" } }))
  ).id;
  const stream = await ctx.request("/api/v1/chat/stream", { method: "POST", token: bob.token, json: { appCode: bobApp.code, message: "hello" } });
  expect(stream.status).toBe(200);
  foreign.conversationId = /"conversationId":"([^"]+)"/.exec(await stream.text())![1]!;
});
afterAll(async () => ctx.close());

const snapshot = async () => ({
  apps: await ctx.deps.db.select().from(apps).all(),
  keys: await ctx.deps.db.select().from(userKeys).all(),
  conversations: await ctx.deps.db.select().from(conversations).all(),
  messages: await ctx.deps.db.select().from(messages).all(),
});

type Attempt = [label: string, method: string, path: () => string, body: (id: string) => unknown, field: string, foreignId: () => string];

const attempts: Attempt[] = [
  ["user key create appCode", "POST", () => "/api/v1/user-keys", (id) => ({ name: "k", appCode: id }), "appCode", () => foreign.appCode],
  ["user key update appCode", "PATCH", () => `/api/v1/user-keys/${aliceKeyId}`, (id) => ({ appCode: id }), "appCode", () => foreign.appCode],
  ["app create plugins", "POST", () => "/api/v1/apps", (id) => validAppBody({ plugins: ["calculator", id] }), "plugins", () => foreign.pluginCode],
  ["app update plugins", "PATCH", () => `/api/v1/apps/${aliceApp.id}`, (id) => ({ plugins: [id] }), "plugins", () => foreign.pluginCode],
  ["app update databaseIds", "PATCH", () => `/api/v1/apps/${aliceApp.id}`, (id) => ({ databaseIds: [id] }), "databaseIds", () => foreign.appCode],
  [
    "advanced config databaseIds",
    "PUT",
    () => `/api/v1/apps/${aliceApp.id}/advanced-config`,
    (id) => ({
      humanization: { splitReply: false, mergeReply: false, delayReplySeconds: 0 },
      manualService: {
        triggers: [],
        defaultReply: null,
        replyMode: "none",
        notify: { email: false, sms: false, wechat: false, webhooks: [] },
        notifyMemberIds: [],
        summaryTemplate: [],
        aiTagging: false,
      },
      database: { enabled: true, databaseIds: [id] },
    }),
    "databaseIds",
    () => foreign.appCode,
  ],
  [
    "chat stream conversationId",
    "POST",
    () => "/api/v1/chat/stream",
    (id) => ({ appCode: aliceApp.code, message: "hi", conversationId: id }),
    "conversationId",
    () => foreign.conversationId,
  ],
  ["inbox read-all clientId", "POST", () => "/api/v1/inbox/read-all", (id) => ({ clientId: id }), "clientId", () => foreign.clientId],
];

describe("object-naming fields are checked against the caller's space", () => {
  for (const [label, method, path, body, field, foreignId] of attempts) {
    it(`${label}: another space's id and an unknown id are a 400 naming ${field}, nothing stored`, async () => {
      const before = await snapshot();
      for (const id of [foreignId(), "nope_0123456789"]) {
        const response = await ctx.request(path(), { method, token: alice.token, json: body(id) });
        const error = await expectError(response, 400, { field });
        expect(error.message).toContain(id);
      }
      const zh = await ctx.request(path(), { method, token: alice.token, json: body(foreignId()), headers: { "accept-language": "zh-CN" } });
      expect((await expectError(zh, 400)).message).toMatch(/[\u4e00-\u9fff]/);
      expect(await snapshot()).toEqual(before);
    });
  }

  it("a user key keeps its bound app after the app is deleted: only a changed appCode is checked", async () => {
    const doomed = await createAppVia(ctx, alice);
    const key = await data<{ id: string }>(
      await ctx.request("/api/v1/user-keys", { method: "POST", token: alice.token, json: { name: "Bound", appCode: doomed.code } }),
    );
    await data(await ctx.request(`/api/v1/apps/${doomed.id}`, { method: "DELETE", token: alice.token }), 200);
    const kept = await data<{ appCode: string; enabled: boolean }>(
      await ctx.request(`/api/v1/user-keys/${key.id}`, { method: "PATCH", token: alice.token, json: { appCode: doomed.code, enabled: false } }),
      200,
    );
    expect(kept).toMatchObject({ appCode: doomed.code, enabled: false });
  });

  it("the caller's own objects are still accepted", async () => {
    const ownPlugin = await ctx.request("/api/v1/plugins", {
      method: "POST",
      token: alice.token,
      json: {
        name: "Alice tool",
        description: "d",
        avatar: "https://cdn.example.com/a.png",
        requestUrl: "https://api.example.com/v1/y",
        requestMethod: "GET",
        requestParams: [{ name: "q", type: "string", description: "Query", required: true }],
        responseParams: [],
        headers: {},
      },
    });
    const pluginCode = (await data<{ code: string }>(ownPlugin)).code;
    await data(await ctx.request(`/api/v1/apps/${aliceApp.id}`, { method: "PATCH", token: alice.token, json: { plugins: ["calculator", pluginCode] } }), 200);
    await data(await ctx.request(`/api/v1/user-keys/${aliceKeyId}`, { method: "PATCH", token: alice.token, json: { appCode: aliceApp.code } }), 200);
    const client = await data<{ id: string }>(
      await ctx.request("/api/v1/web-clients", { method: "POST", token: alice.token, json: { appId: aliceApp.id, name: "Alice widget" } }),
    );
    await data(await ctx.request("/api/v1/inbox/read-all", { method: "POST", token: alice.token, json: { clientId: client.id } }), 200);
    const stream = await ctx.request("/api/v1/chat/stream", { method: "POST", token: alice.token, json: { appCode: aliceApp.code, message: "hello" } });
    const conversationId = /"conversationId":"([^"]+)"/.exec(await stream.text())![1]!;
    const again = await ctx.request("/api/v1/chat/stream", {
      method: "POST",
      token: alice.token,
      json: { appCode: aliceApp.code, message: "again", conversationId },
    });
    expect(again.status).toBe(200);
    await again.text();
  });
});
