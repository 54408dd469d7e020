import { io, type Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createAppVia } from "../apps/testing";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../config";
import { startServer } from "../server";
import { createTestContext, registerUser, testDriver, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { publishToSpace, publishToVisitor, visitorEventSchemas } from "./events";

let ctx: TestContext;
let base: string;
let alice: TestUser;
let bob: TestUser;
let appId: string;
const open: Socket[] = [];
const shop = "https://shop.example.com";

beforeAll(async () => {
  ctx = await createTestContext();
  base = await ctx.listen();
  alice = await registerUser(ctx, "alice-realtime@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  bob = await registerUser(ctx, "bob-realtime@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, bob.user.spaceId);
  appId = (await createAppVia(ctx, alice, { name: "Realtime bot" })).id;
});
afterEach(() => {
  for (const socket of open.splice(0)) socket.disconnect();
});
afterAll(async () => ctx.close());

/** A real socket.io-client socket (websocket only, no retries), connected or refused. */
function connect(namespace: string, auth: Record<string, unknown>, origin?: string): Promise<{ socket: Socket; error?: Error }> {
  const socket = io(`${base}${namespace}`, {
    auth,
    forceNew: true,
    reconnection: false,
    transports: ["websocket"],
    ...(origin ? { extraHeaders: { origin } } : {}),
  });
  open.push(socket);
  return new Promise((resolve) => {
    socket.once("connect", () => resolve({ socket }));
    socket.once("connect_error", (error) => resolve({ socket, error }));
  });
}

/** Collects what a socket hears of one event. */
function heard(socket: Socket, event: string): unknown[] {
  const seen: unknown[] = [];
  socket.on(event, (data) => seen.push(data));
  return seen;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

async function visitorSession(clientId: string, origin = shop) {
  const response = await ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", json: {}, headers: { origin } });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { sessionId: string; visitorToken: string } }).data;
}

async function webClient(body: Record<string, unknown> = {}) {
  const response = await ctx.request("/api/v1/web-clients", {
    method: "POST",
    token: alice.token,
    json: { appId, name: "Realtime widget", allowedOrigins: [shop], ...body },
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data.id;
}

describe("/console", () => {
  it("delivers a space's events to its consoles only", async () => {
    const [a, b] = await Promise.all([connect("/console", { token: alice.token }), connect("/console", { token: bob.token })]);
    expect(a.error).toBeUndefined();
    expect(b.error).toBeUndefined();
    const aliceHeard = heard(a.socket, "session.message");
    const bobHeard = heard(b.socket, "session.message");
    const message = {
      sessionId: "conv_1",
      message: { id: "msg_1", role: "user" as const, content: "Where is my parcel?", createdAt: "2026-11-21T10:00:00.000Z" },
    };
    publishToSpace(ctx.deps.realtime, alice.user.spaceId, "session.message", message);
    await expect.poll(() => aliceHeard).toEqual([message]);
    await settle();
    expect(bobHeard).toEqual([]);

    const modes = heard(b.socket, "session.mode");
    publishToSpace(ctx.deps.realtime, bob.user.spaceId, "session.mode", { sessionId: "conv_2", serviceMode: "MANUAL_MODE" });
    await expect.poll(() => modes).toEqual([{ sessionId: "conv_2", serviceMode: "MANUAL_MODE" }]);
    expect(aliceHeard).toHaveLength(1);
  });

  it("joins the space named in auth.spaceId only when the user is a member", async () => {
    const own = await connect("/console", { token: alice.token, spaceId: alice.user.spaceId });
    expect(own.error).toBeUndefined();
    const reads = heard(own.socket, "session.read");
    publishToSpace(ctx.deps.realtime, alice.user.spaceId, "session.read", { sessionId: "conv_1", readStatus: "HAVE_READ" });
    await expect.poll(() => reads).toHaveLength(1);

    const stranger = await connect("/console", { token: alice.token, spaceId: bob.user.spaceId });
    expect(stranger.error?.message).toBe("unauthorized");
  });

  it("refuses a bad or missing token and a page of another origin", async () => {
    expect((await connect("/console", { token: "pst_not-a-real-session" })).error?.message).toBe("unauthorized");
    expect((await connect("/console", {})).error?.message).toBe("unauthorized");
    expect((await connect("/console", { token: 42 })).error?.message).toBe("unauthorized");
    expect((await connect("/console", { token: alice.token }, "https://evil.example.com")).error?.message).toBe("unauthorized");
    // The instance's own origin is the console's.
    expect((await connect("/console", { token: alice.token }, "http://127.0.0.1:3000")).error).toBeUndefined();
  });

  it("refuses a signed-out session", async () => {
    const carol = await registerUser(ctx, "carol-realtime@example.com");
    expect((await ctx.request("/api/v1/auth/logout", { method: "POST", token: carol.token })).status).toBeLessThan(300);
    expect((await connect("/console", { token: carol.token })).error?.message).toBe("unauthorized");
  });
});

describe("/visitor", () => {
  it("delivers a session's events to that session only", async () => {
    const clientId = await webClient();
    const [one, two] = await Promise.all([visitorSession(clientId), visitorSession(clientId)]);
    const [first, second] = await Promise.all([
      connect("/visitor", { clientId, sessionId: one.sessionId, token: one.visitorToken }, shop),
      connect("/visitor", { clientId, sessionId: two.sessionId, token: two.visitorToken }, shop),
    ]);
    expect(first.error).toBeUndefined();
    expect(second.error).toBeUndefined();
    const firstHeard = heard(first.socket, "message");
    const secondHeard = heard(second.socket, "message");
    const consoleSocket = await connect("/console", { token: alice.token });
    const consoleHeard = heard(consoleSocket.socket, "message");

    const message = {
      id: "msg_9",
      role: "operator" as const,
      content: "Hi, this is Dana. Let me check.",
      createdAt: "2026-11-21T10:01:00.000Z",
      senderName: "Dana",
    };
    publishToVisitor(ctx.deps.realtime, clientId, one.sessionId, "message", message);
    await expect.poll(() => firstHeard).toEqual([message]);
    expect(visitorEventSchemas.message.parse(firstHeard[0])).toEqual(message);
    const modes = heard(first.socket, "mode");
    publishToVisitor(ctx.deps.realtime, clientId, one.sessionId, "mode", { serviceMode: "MANUAL_MODE" });
    await expect.poll(() => modes).toEqual([{ serviceMode: "MANUAL_MODE" }]);
    await settle();
    expect(secondHeard).toEqual([]);
    expect(consoleHeard).toEqual([]);
  });

  it("accepts a page without an Origin header and the instance's own pages", async () => {
    const clientId = await webClient();
    const session = await visitorSession(clientId);
    expect((await connect("/visitor", { clientId, sessionId: session.sessionId, token: session.visitorToken })).error).toBeUndefined();
    expect((await connect("/visitor", { clientId, sessionId: session.sessionId, token: session.visitorToken }, "http://127.0.0.1:3000")).error).toBeUndefined();
  });

  it("refuses a wrong session token, another client's session, a disabled client and a disallowed origin", async () => {
    const clientId = await webClient();
    const otherClientId = await webClient();
    const session = await visitorSession(clientId);
    const refused = async (auth: Record<string, unknown>, origin = shop) => (await connect("/visitor", auth, origin)).error?.message;

    expect(await refused({ clientId, sessionId: session.sessionId, token: "wvt_wrong" })).toBe("unauthorized");
    expect(await refused({ clientId, sessionId: session.sessionId })).toBe("unauthorized");
    expect(await refused({ clientId: otherClientId, sessionId: session.sessionId, token: session.visitorToken })).toBe("unauthorized");
    expect(await refused({ clientId: "no-such-client", sessionId: session.sessionId, token: session.visitorToken })).toBe("unauthorized");
    expect(await refused({ clientId, sessionId: session.sessionId, token: session.visitorToken }, "https://elsewhere.example.com")).toBe("unauthorized");
    // A console token is not a visitor token.
    expect(await refused({ clientId, sessionId: session.sessionId, token: alice.token })).toBe("unauthorized");

    const patched = await ctx.request(`/api/v1/web-clients/${clientId}`, { method: "PATCH", token: alice.token, json: { enabled: false } });
    expect(patched.status).toBe(200);
    expect(await refused({ clientId, sessionId: session.sessionId, token: session.visitorToken })).toBe("unauthorized");
  });
});

describe("credentials checked again", () => {
  it("sends away a console that signed out and a visitor whose client was disabled", async () => {
    const dana = await registerUser(ctx, "dana-realtime@example.com");
    const consoleSocket = await connect("/console", { token: dana.token });
    const clientId = await webClient();
    const session = await visitorSession(clientId);
    const visitor = await connect("/visitor", { clientId, sessionId: session.sessionId, token: session.visitorToken }, shop);
    const staying = await connect("/console", { token: alice.token });
    expect([consoleSocket.error, visitor.error, staying.error]).toEqual([undefined, undefined, undefined]);
    const reasons: string[] = [];
    consoleSocket.socket.on("disconnect", (reason) => reasons.push(`console ${reason}`));
    visitor.socket.on("disconnect", (reason) => reasons.push(`visitor ${reason}`));

    await ctx.realtime()!.recheck();
    await settle();
    expect(reasons).toEqual([]);

    expect((await ctx.request("/api/v1/auth/logout", { method: "POST", token: dana.token })).status).toBeLessThan(300);
    expect((await ctx.request(`/api/v1/web-clients/${clientId}`, { method: "PATCH", token: alice.token, json: { enabled: false } })).status).toBe(200);
    await ctx.realtime()!.recheck();
    await expect.poll(() => reasons.sort()).toEqual(["console io server disconnect", "visitor io server disconnect"]);
    expect(staying.socket.connected).toBe(true);
  });
});

describe("robustness", () => {
  /** Sends raw Engine.IO frames over a WebSocket and resolves when the server closes it (or after 2 s). */
  function raw(frames: (string | Buffer)[]): Promise<{ closed: boolean; received: string[] }> {
    const socket = new WebSocket(`${base.replace("http", "ws")}/socket.io/?EIO=4&transport=websocket`);
    const received: string[] = [];
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        socket.terminate();
        resolve({ closed: false, received });
      }, 2000);
      socket.on("message", (data) => received.push(String(data)));
      socket.on("open", () => {
        for (const frame of frames) socket.send(frame);
      });
      socket.on("close", () => {
        clearTimeout(timer);
        resolve({ closed: true, received });
      });
      socket.on("error", () => {});
    });
  }

  it("survives malformed packets, oversized frames and junk handshakes", async () => {
    const results = await Promise.all([
      raw(["garbage"]),
      raw(["42/visitor,[not json"]),
      raw(['40/visitor,{"clientId":{"$gt":""},"sessionId":[1],"token":null}']),
      raw(["40/nowhere,"]),
      raw([`4${"x".repeat(64 * 1024)}`]),
      raw([Buffer.from([0xff, 0x00, 0x13, 0x37])]),
      raw([`40/console,{"token":"${"a".repeat(10_000)}"}`]),
    ]);
    // The server closes the garbage connections rather than falling over.
    expect(results[0]!.closed).toBe(true);
    expect(results[1]!.closed).toBe(true);
    expect(results[4]!.closed).toBe(true);
    expect(results[2]!.received.some((frame) => frame.startsWith('44/visitor,{"message":"unauthorized"'))).toBe(true);
    expect(results[6]!.received.some((frame) => frame.startsWith('44/console,{"message":"unauthorized"'))).toBe(true);
    const polling = await fetch(`${base}/socket.io/?EIO=4&transport=polling&sid=nonsense`, { method: "POST", body: "garbage" });
    expect(polling.status).toBe(400);

    // Still serving: HTTP and a fresh socket.
    expect((await fetch(`${base}/api/v1/widget/nope/config`)).status).toBe(404);
    const fine = await connect("/console", { token: alice.token });
    expect(fine.error).toBeUndefined();
  });

  it("skips events a publisher got wrong and keeps delivering", async () => {
    const { socket } = await connect("/console", { token: alice.token });
    const messages = heard(socket, "session.updated");
    const circular: Record<string, unknown> = { id: "conv_3" };
    circular.self = circular;
    expect(() => ctx.deps.realtime.toSpace(alice.user.spaceId, "connect", {})).not.toThrow();
    expect(() => ctx.deps.realtime.toSpace(alice.user.spaceId, "session.updated", { sessionId: "conv_3", session: circular })).not.toThrow();
    publishToSpace(ctx.deps.realtime, alice.user.spaceId, "session.updated", { sessionId: "conv_3", tags: ["refund"] });
    await expect.poll(() => messages).toEqual([{ sessionId: "conv_3", tags: ["refund"] }]);
    expect(socket.connected).toBe(true);
  });
});

describe("the server process", () => {
  it("serves the namespaces next to the API and shuts down with sockets still open", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-realtime-"));
    const running = await startServer(
      loadConfig({
        PARLEY_DATA_DIR: dataDir,
        PORT: "0",
        HOST: "127.0.0.1",
        PARLEY_LOG_LEVEL: "silent",
        PARLEY_DATABASE_DRIVER: testDriver(),
        PARLEY_SEED_DEMO: "false",
      }),
    );
    try {
      const url = `http://127.0.0.1:${running.port}`;
      const refused = io(`${url}/console`, { auth: { token: "pst_nope" }, forceNew: true, reconnection: false, transports: ["websocket"] });
      const error = await new Promise<Error>((resolve) => refused.once("connect_error", resolve));
      expect(error.message).toBe("unauthorized");
      refused.disconnect();
      expect((await fetch(`${url}/api/v1/widget/nope/config`)).status).toBe(404);
      // An Engine.IO session left open, as a tab would: close() must not wait for it.
      const idle = new WebSocket(`${url.replace("http", "ws")}/socket.io/?EIO=4&transport=websocket`);
      await new Promise((resolve) => idle.once("message", resolve));
      const started = Date.now();
      await running.close();
      expect(Date.now() - started).toBeLessThan(3000);
      await expect.poll(() => idle.readyState).toBe(WebSocket.CLOSED);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
