import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { conversations, webClients } from "../db/schema/index";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";

let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let appId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await registerUser(ctx, "alice-clients@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  bob = await registerUser(ctx, "bob-clients@example.com");
  appId = (await createAppVia(ctx, alice, { name: "Shop bot", openingIntroduction: "Hello there! [Where is my parcel?] [Return policy]" })).id;
});
afterAll(async () => ctx.close());

async function json(response: Response) {
  return (await response.json()) as { success: boolean; code: number; message: string; data: any };
}

async function createClient(user: TestUser, body: Record<string, unknown> = {}) {
  const response = await ctx.request("/api/v1/web-clients", { method: "POST", token: user.token, json: { appId, name: "Shop widget", ...body } });
  return { status: response.status, body: await json(response) };
}

describe("web clients: owner API", () => {
  it("creates, lists, reads, changes and deletes; the secret is shown on create and rotate only", async () => {
    const created = await createClient(alice, { slogan: "Powered by Parley", primaryColor: "#112233", allowedOrigins: ["https://shop.example.com"] });
    expect(created.status).toBe(201);
    const client = created.body.data;
    expect(client.id).toMatch(/^[A-Za-z0-9_-]{6,32}$/);
    expect(client.identitySecret).toMatch(/^wcs_/);
    expect(client).toMatchObject({ appId, position: "right", enabled: true, manualTransfer: false, status: "offline", lastActiveAt: null });

    const list = await json(await ctx.request("/api/v1/web-clients", { token: alice.token }));
    expect(list.data.map((item: { id: string }) => item.id)).toContain(client.id);
    expect(JSON.stringify(list.data)).not.toContain(client.identitySecret);
    expect(list.data[0].identitySecret).toBeUndefined();

    const read = await json(await ctx.request(`/api/v1/web-clients/${client.id}`, { token: alice.token }));
    expect(read.data.identitySecret).toBeUndefined();
    expect(read.data.allowedOrigins).toEqual(["https://shop.example.com"]);

    const patched = await json(
      await ctx.request(`/api/v1/web-clients/${client.id}`, {
        method: "PATCH",
        token: alice.token,
        json: { position: "left", enabled: false, manualTransfer: true },
      }),
    );
    expect(patched.data).toMatchObject({ position: "left", enabled: false, manualTransfer: true, slogan: "Powered by Parley" });
    expect(patched.data.identitySecret).toBeUndefined();

    const rotated = await json(await ctx.request(`/api/v1/web-clients/${client.id}/rotate-secret`, { method: "POST", token: alice.token }));
    expect(rotated.data.identitySecret).toMatch(/^wcs_/);
    expect(rotated.data.identitySecret).not.toBe(client.identitySecret);

    expect((await ctx.request(`/api/v1/web-clients/${client.id}`, { method: "DELETE", token: alice.token })).status).toBe(200);
    expect((await ctx.request(`/api/v1/web-clients/${client.id}`, { token: alice.token })).status).toBe(404);
  });

  it("names the field of bad input", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ slogan: "x".repeat(21) }, "slogan"],
      [{ primaryColor: "blue" }, "primaryColor"],
      [{ allowedOrigins: ["https://shop.example.com/path"] }, "allowedOrigins.0"],
      [{ allowedOrigins: ["ftp://shop.example.com"] }, "allowedOrigins.0"],
      [{ position: "top" }, "position"],
      [{ appId: "app_nope" }, "appId"],
    ];
    for (const [body, field] of cases) {
      const { status, body: answer } = await createClient(alice, body);
      expect(status, field).toBe(400);
      expect(answer.data.field).toBe(field);
    }
    const created = await createClient(alice);
    const response = await ctx.request(`/api/v1/web-clients/${created.body.data.id}`, {
      method: "PATCH",
      token: alice.token,
      json: { slogan: "y".repeat(21) },
    });
    expect(response.status).toBe(400);
    expect((await json(response)).data.field).toBe("slogan");
    const zh = await ctx.request("/api/v1/web-clients", {
      method: "POST",
      token: alice.token,
      headers: { "accept-language": "zh-CN" },
      json: { appId, name: "x", primaryColor: "red" },
    });
    expect((await json(zh)).message).toContain("颜色");
  });

  it("needs a session, and another space's client is 404", async () => {
    expect((await ctx.request("/api/v1/web-clients")).status).toBe(401);
    const created = (await createClient(alice)).body.data;
    for (const [method, path] of [
      ["GET", `/api/v1/web-clients/${created.id}`],
      ["PATCH", `/api/v1/web-clients/${created.id}`],
      ["DELETE", `/api/v1/web-clients/${created.id}`],
      ["POST", `/api/v1/web-clients/${created.id}/rotate-secret`],
    ] as const) {
      const response = await ctx.request(path, { method, token: bob.token, ...(method === "PATCH" ? { json: { name: "taken" } } : {}) });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    const list = await json(await ctx.request("/api/v1/web-clients", { token: bob.token }));
    expect(list.data).toEqual([]);
    // Bob cannot bind his client to Alice's app.
    const response = await ctx.request("/api/v1/web-clients", { method: "POST", token: bob.token, json: { appId, name: "theft" } });
    expect(response.status).toBe(400);
    expect((await json(response)).data.field).toBe("appId");
  });
});

describe("widget: visitor API", () => {
  let clientId: string;
  let secret: string;
  beforeAll(async () => {
    const created = (await createClient(alice, { welcome: "Hi!", slogan: "Ask us", allowedOrigins: ["https://shop.example.com"] })).body.data;
    clientId = created.id;
    secret = created.identitySecret;
  });

  it("answers the config with guiding questions, cacheable, with the Origin echoed", async () => {
    const response = await ctx.request(`/api/v1/widget/${clientId}/config`, { headers: { origin: "https://shop.example.com" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=60");
    expect(response.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    const { data } = await json(response);
    expect(data).toMatchObject({
      clientId,
      name: "Shop widget",
      welcome: "Hi!",
      slogan: "Ask us",
      position: "right",
      appName: "Shop bot",
      openingIntroduction: "Hello there!",
      guidingQuestions: ["Where is my parcel?", "Return policy"],
      manualTransfer: false,
    });
    expect(data.identitySecret).toBeUndefined();
  });

  it("answers a CORS preflight for the site", async () => {
    const response = await ctx.request(`/api/v1/widget/${clientId}/sessions`, {
      method: "OPTIONS",
      headers: { origin: "https://shop.example.com", "access-control-request-method": "POST", "access-control-request-headers": "content-type, authorization" },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("https://shop.example.com");
    expect(response.headers.get("access-control-allow-headers")).toContain("Authorization");
  });

  it("refuses unknown clients, disabled clients and other origins, in the visitor's language", async () => {
    const unknown = await ctx.request("/api/v1/widget/nope-nope/config");
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).message).toContain("not available");
    const foreign = await ctx.request(`/api/v1/widget/${clientId}/config`, { headers: { origin: "https://evil.example.com", "accept-language": "zh-CN" } });
    expect(foreign.status).toBe(403);
    expect((await json(foreign)).message).toBe("此网站无权使用该聊天");
    expect(foreign.headers.get("x-parley-error")).toBe("origin_not_allowed");
    expect(foreign.headers.get("access-control-allow-origin")).toBe("https://evil.example.com");
    expect(unknown.headers.get("x-parley-error")).toBe("web_client_not_found");
    const session = await ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", headers: { origin: "https://evil.example.com" }, json: {} });
    expect(session.status).toBe(403);

    const off = (await createClient(alice, { enabled: false })).body.data;
    const disabled = await ctx.request(`/api/v1/widget/${off.id}/config`);
    expect(disabled.status).toBe(403);
    expect((await json(disabled)).message).toBe("This chat is turned off");
    expect(disabled.headers.get("x-parley-error")).toBe("web_client_disabled");
  });

  it("starts sessions, verifying a signed identity", async () => {
    const plain = await ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", json: { visitorId: "visitor-1", language: "en" } });
    expect(plain.status).toBe(201);
    const body = (await json(plain)).data;
    expect(body.visitorId).toBe("visitor-1");
    expect(body.visitorToken.length).toBeGreaterThan(40);
    const conversation = (await ctx.deps.db.select().from(conversations).where(eq(conversations.channel, "web-embed"))).at(0);
    expect(conversation?.appId).toBe(appId);
    const row = await ctx.deps.db.select().from(webClients).where(eq(webClients.id, clientId)).get();
    expect(row?.lastActiveAt).not.toBeNull();
    const view = await json(await ctx.request(`/api/v1/web-clients/${clientId}`, { token: alice.token }));
    expect(view.data.status).toBe("online");

    const hash = createHmac("sha256", secret).update("user-42").digest("hex");
    const good = await ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", json: { identity: { userId: "user-42", hash } } });
    expect(good.status).toBe(201);
    const bad = await ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", json: { identity: { userId: "user-43", hash } } });
    expect(bad.status).toBe(401);
    expect((await json(bad)).message).toContain("identity");
    const long = await ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", json: { visitorId: "v".repeat(65) } });
    expect(long.status).toBe(400);
    expect((await json(long)).data.field).toBe("visitorId");
  });

  it("streams an answer from the offline responder over a real server, then lists the history", async () => {
    const base = await ctx.listen();
    const origin = "https://shop.example.com";
    const started = await fetch(`${base}/api/v1/widget/${clientId}/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: JSON.stringify({ visitorId: "visitor-stream" }),
    });
    expect(started.status).toBe(201);
    const { sessionId, visitorToken } = (await json(started)).data;

    const response = await fetch(`${base}/api/v1/widget/${clientId}/sessions/${sessionId}/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${visitorToken}`, origin },
      body: JSON.stringify({ content: "Where is my parcel?" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    const text = await response.text();
    const events = [...text.matchAll(/^event: ([\w-]+)\ndata: (.*)$/gm)].map((match) => ({ name: match[1], data: JSON.parse(match[2]!) }));
    expect(events[0]?.name).toBe("message-start");
    expect(events[0]?.data.offline).toBe(true);
    expect(events.some((event) => event.name === "text-delta")).toBe(true);
    expect(events.at(-1)?.name).toBe("message-end");
    const answer = events
      .filter((event) => event.name === "text-delta")
      .map((event) => event.data.text)
      .join("");
    expect(answer.length).toBeGreaterThan(0);

    const history = await fetch(`${base}/api/v1/widget/${clientId}/sessions/${sessionId}/messages`, { headers: { authorization: `Bearer ${visitorToken}` } });
    expect(history.status).toBe(200);
    const items = (await json(history)).data.items;
    expect(items.map((item: { role: string }) => item.role)).toEqual(["user", "assistant"]);
    expect(items[0].content).toBe("Where is my parcel?");
    expect(items[1].content).toBe(answer);
  });

  it("refuses a bad token and a message over 2000 characters before streaming", async () => {
    const { sessionId, visitorToken } = (await json(await ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", json: {} }))).data;
    const path = `/api/v1/widget/${clientId}/sessions/${sessionId}/messages`;
    expect((await ctx.request(path, { method: "POST", token: "wvt_wrong", json: { content: "hi" } })).status).toBe(401);
    expect((await ctx.request(path, { method: "POST", json: { content: "hi" } })).status).toBe(401);
    expect((await ctx.request(path, { token: "wvt_wrong" })).status).toBe(401);
    const other = (await json(await ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", json: {} }))).data;
    expect((await ctx.request(path, { token: other.visitorToken })).status).toBe(401);
    const tooLong = await ctx.request(path, { method: "POST", token: visitorToken, json: { content: "x".repeat(2001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.headers.get("content-type")).toContain("application/json");
    expect((await json(tooLong)).data.field).toBe("content");
    const history = await json(await ctx.request(path, { token: visitorToken }));
    expect(history.data.items).toEqual([]);
  });
});
