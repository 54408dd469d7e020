import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { upgradeSpaceForTest } from "../plans/testing";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { publishToVisitor } from "./events";
import { openVisitorStreams, visitorStreamTiming } from "./visitor-stream";

// A real listening server: the stream is read over HTTP as the widget reads it (fetch + a reader).
let ctx: TestContext;
let base: string;
let alice: TestUser;
let bob: TestUser;
let appId: string;
let bobAppId: string;
const shop = "https://shop.example.com";

beforeAll(async () => {
  ctx = await createTestContext();
  base = await ctx.listen();
  alice = await registerUser(ctx, "alice-stream@example.com");
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  bob = await registerUser(ctx, "bob-stream@example.com");
  await upgradeSpaceForTest(ctx, bob.user.spaceId);
  appId = (await createAppVia(ctx, alice, { name: "Stream bot" })).id;
  bobAppId = (await createAppVia(ctx, bob, { name: "Other bot" })).id;
});
afterAll(async () => ctx.close());

async function webClient(owner = alice, app = appId) {
  const response = await ctx.request("/api/v1/web-clients", {
    method: "POST",
    token: owner.token,
    json: { appId: app, name: "Stream widget", allowedOrigins: [shop] },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

async function visitorSession(clientId: string) {
  const response = await ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", json: {}, headers: { origin: shop } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { sessionId: string; visitorToken: string } }).data;
}

/** An open stream: what it has received so far (text), whether it ended, and a way to leave. */
interface Opened {
  response: Response;
  text: () => string;
  ended: () => boolean;
  leave: () => void;
}

async function open(clientId: string, sessionId: string, token: string | undefined, origin = shop): Promise<Opened> {
  const leaving = new AbortController();
  const response = await fetch(`${base}/api/v1/widget/${clientId}/sessions/${sessionId}/events`, {
    headers: { origin, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    signal: leaving.signal,
  });
  let text = "";
  let ended = false;
  if (response.ok && response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += value;
        }
      } catch {
        // Left by the test.
      }
      ended = true;
    })();
  }
  return { response, text: () => text, ended: () => ended, leave: () => leaving.abort() };
}

/** The events of a stream's text, comments left out. */
function events(text: string): { event: string; data: unknown }[] {
  return text
    .split("\n\n")
    .filter((block) => block.startsWith("event:"))
    .map((block) => {
      const [event, data] = block.split("\n");
      return { event: event!.slice("event: ".length), data: JSON.parse(data!.slice("data: ".length)) };
    });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

describe("GET /api/v1/widget/{clientId}/sessions/{sessionId}/events", () => {
  it("streams the session's events, named and shaped as on the /visitor socket, and nobody else's", async () => {
    const clientId = await webClient();
    const session = await visitorSession(clientId);
    const sameClient = await visitorSession(clientId);
    const bobClient = await webClient(bob, bobAppId);
    const bobSession = await visitorSession(bobClient);
    const stream = await open(clientId, session.sessionId, session.visitorToken);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get("access-control-allow-origin")).toBe(shop);
    await expect.poll(() => stream.text()).toContain(": open\n\n");

    const message = { id: "msg_1", role: "operator" as const, content: "Hello from Dana\nline two", createdAt: new Date().toISOString(), senderName: "Dana" };
    // Another session of the same client and another space's session: never on this stream.
    publishToVisitor(ctx.deps.realtime, clientId, sameClient.sessionId, "message", { ...message, id: "msg_other" });
    publishToVisitor(ctx.deps.realtime, bobClient, bobSession.sessionId, "message", { ...message, id: "msg_bob" });
    ctx.deps.realtime.toSpace(alice.user.spaceId, "session.message", { sessionId: session.sessionId, message });
    publishToVisitor(ctx.deps.realtime, clientId, session.sessionId, "message", message);
    publishToVisitor(ctx.deps.realtime, clientId, session.sessionId, "mode", { serviceMode: "MANUAL_MODE" });
    await expect.poll(() => events(stream.text()).length).toBe(2);
    await settle();
    expect(events(stream.text())).toEqual([
      { event: "message", data: message },
      { event: "mode", data: { serviceMode: "MANUAL_MODE" } },
    ]);
    stream.leave();
  });

  it("answers refusals as envelopes before any stream: no or a wrong token, another session's token, a disallowed origin, a disabled client", async () => {
    const clientId = await webClient();
    const otherClient = await webClient();
    const session = await visitorSession(clientId);
    const other = await visitorSession(clientId);
    const refusal = async (opened: Opened) => {
      const body = (await opened.response.json()) as { success: boolean; code: number; message: string };
      return { status: opened.response.status, error: opened.response.headers.get("x-parley-error"), success: body.success };
    };
    expect(await refusal(await open(clientId, session.sessionId, undefined))).toEqual({ status: 401, error: "visitor_token_invalid", success: false });
    expect(await refusal(await open(clientId, session.sessionId, "wvt_wrong"))).toEqual({ status: 401, error: "visitor_token_invalid", success: false });
    expect(await refusal(await open(clientId, session.sessionId, other.visitorToken))).toEqual({ status: 401, error: "visitor_token_invalid", success: false });
    expect(await refusal(await open(clientId, session.sessionId, alice.token))).toEqual({ status: 401, error: "visitor_token_invalid", success: false });
    expect(await refusal(await open(otherClient, session.sessionId, session.visitorToken))).toEqual({
      status: 401,
      error: "visitor_token_invalid",
      success: false,
    });
    expect(await refusal(await open("no-such-client", session.sessionId, session.visitorToken))).toEqual({
      status: 404,
      error: "web_client_not_found",
      success: false,
    });
    expect(await refusal(await open(clientId, session.sessionId, session.visitorToken, "https://elsewhere.example.com"))).toEqual({
      status: 403,
      error: "origin_not_allowed",
      success: false,
    });
    const tooLong = await fetch(`${base}/api/v1/widget/${clientId}/sessions/${"s".repeat(65)}/events`, {
      headers: { authorization: `Bearer ${session.visitorToken}` },
    });
    expect(tooLong.status).toBe(400);
    expect((await ctx.request(`/api/v1/web-clients/${clientId}`, { method: "PATCH", token: alice.token, json: { enabled: false } })).status).toBe(200);
    expect(await refusal(await open(clientId, session.sessionId, session.visitorToken))).toEqual({ status: 403, error: "web_client_disabled", success: false });
    expect(openVisitorStreams(ctx.deps)).toBe(0);
  });

  it("sends a heartbeat comment while nothing happens", async () => {
    const clientId = await webClient();
    const session = await visitorSession(clientId);
    const before = visitorStreamTiming.heartbeatMs;
    visitorStreamTiming.heartbeatMs = 100;
    try {
      const stream = await open(clientId, session.sessionId, session.visitorToken);
      await expect.poll(() => stream.text().split(": ping\n\n").length - 1).toBeGreaterThanOrEqual(3);
      expect(events(stream.text())).toEqual([]);
      stream.leave();
    } finally {
      visitorStreamTiming.heartbeatMs = before;
    }
  });

  it("lets go of a stream the visitor left, and ends one whose client was disabled at the next check", async () => {
    const clientId = await webClient();
    const session = await visitorSession(clientId);
    const leaving = await open(clientId, session.sessionId, session.visitorToken);
    const staying = await open(clientId, session.sessionId, session.visitorToken);
    await expect.poll(() => openVisitorStreams(ctx.deps)).toBe(2);
    leaving.leave();
    await expect.poll(() => openVisitorStreams(ctx.deps)).toBe(1);
    // Publishing to a left stream is harmless; the other still hears.
    publishToVisitor(ctx.deps.realtime, clientId, session.sessionId, "mode", { serviceMode: "FULL_AUTO_MODE" });
    await expect.poll(() => events(staying.text())).toEqual([{ event: "mode", data: { serviceMode: "FULL_AUTO_MODE" } }]);

    await ctx.realtime()!.recheck();
    await settle();
    expect(staying.ended()).toBe(false);
    expect((await ctx.request(`/api/v1/web-clients/${clientId}`, { method: "PATCH", token: alice.token, json: { enabled: false } })).status).toBe(200);
    await ctx.realtime()!.recheck();
    await expect.poll(() => staying.ended()).toBe(true);
    expect(openVisitorStreams(ctx.deps)).toBe(0);
  });

  it("ends open streams when the realtime server closes (shutdown), so the HTTP server can close", async () => {
    const clientId = await webClient();
    const session = await visitorSession(clientId);
    const stream = await open(clientId, session.sessionId, session.visitorToken);
    await expect.poll(() => openVisitorStreams(ctx.deps)).toBe(1);
    const { closeVisitorStreams } = await import("./visitor-stream");
    closeVisitorStreams(ctx.deps);
    await expect.poll(() => stream.ended()).toBe(true);
    expect(openVisitorStreams(ctx.deps)).toBe(0);
  });
});
