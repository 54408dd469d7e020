import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../../packages/api/src/apps/testing";
import { loadConfig } from "../../packages/api/src/config";
import { spaceRoles } from "../../packages/api/src/db/schema/index";
import { addWebClient, type InboxSpace, inboxSpace, startVisitor, type Visitor, visitorSays } from "../../packages/api/src/inbox/testing";
import { upgradeSpaceForTest } from "../../packages/api/src/plans/testing";
import { openVisitorStreams } from "../../packages/api/src/realtime/visitor-stream";
import { type RunningServer, startServer } from "../../packages/api/src/server";
import { registerUser, requestInit, type TestContext, type TestUser, testDriver } from "../../packages/api/src/testing/harness";
import { type RedisServer, skipWithoutRedis, startRedis } from "../../packages/api/src/testing/redis-server";

// Two API processes (two servers in this process, each with its own socket.io, hub and Redis
// connections) on one data directory and one Redis, as behind a load balancer (decision 0031).
let redis: RedisServer;
let dataDir: string;
let a: RunningServer;
let b: RunningServer;
let viaA: TestContext;
let viaB: TestContext;
const sockets: Socket[] = [];

/** The test helpers' view of a running server: requests over real HTTP to it. */
function over(running: RunningServer): TestContext {
  const base = `http://127.0.0.1:${running.port}`;
  return {
    deps: running.deps,
    config: running.deps.config,
    dataDir,
    app: undefined as never,
    request(url, init = {}) {
      return fetch(`${base}${url}`, requestInit(init));
    },
    listen: async () => base,
    realtime: () => undefined,
    close: async () => {},
  };
}

const start = () =>
  startServer(
    loadConfig({
      PARLEY_DATA_DIR: dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
      PARLEY_LOG_LEVEL: "silent",
      PARLEY_DATABASE_DRIVER: testDriver(),
      PARLEY_SEED_DEMO: "false",
      PARLEY_PUBLIC_URL: "http://127.0.0.1:3000",
      PARLEY_REDIS_URL: redis.url,
    }),
  );

function connect(running: RunningServer, namespace: string, auth: Record<string, unknown>, transport: "websocket" | "polling"): Promise<Socket> {
  const socket = io(`http://127.0.0.1:${running.port}${namespace}`, {
    auth,
    forceNew: true,
    reconnection: true,
    reconnectionDelay: 200,
    transports: [transport],
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
}

function heard<T>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (data: T) => seen.push(data));
  return seen;
}

describe.skipIf(skipWithoutRedis())("two API processes sharing Redis", () => {
  let owner: TestUser;
  let ranged: TestUser;
  let space: InboxSpace;
  let otherClient: string;

  beforeAll(async () => {
    redis = await startRedis();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-scale-"));
    // One after the other: the first migrates the shared database.
    a = await start();
    b = await start();
    viaA = over(a);
    viaB = over(b);
    owner = await registerUser(viaA, "owner-scale@example.com");
    await upgradeSpaceForTest(viaA, owner.user.spaceId);
    space = await inboxSpace(viaA, owner);
    otherClient = await addWebClient(viaA, space, "Other widget");
    // A member whose data range is the first web client only.
    ranged = await registerUser(viaB, "ranged-scale@example.com");
    await a.deps.db.insert(spaceRoles).values({
      id: "role_scale_ranged",
      spaceId: owner.user.spaceId,
      name: "Ranged",
      grants: JSON.stringify(["customers.view", "customers.edit"]),
      dataRange: JSON.stringify({ scope: "chosen", appIds: [space.appId], knowledgeBaseIds: [], clientIds: [space.clientId] }),
      createdBy: owner.user.id,
      updatedAt: new Date().toISOString(),
    });
    await addMember(viaA, owner.user.spaceId, ranged, "role_scale_ranged");
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await a?.close();
    await b?.close();
    await redis?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("a visitor polling process A receives the operator's reply sent through process B", async () => {
    const visitor = await startVisitor(viaA, space.clientId);
    // The widget's transport: long-polling, all of it to process A.
    const socket = await connect(a, "/visitor", { clientId: space.clientId, sessionId: visitor.widgetSessionId, token: visitor.visitorToken }, "polling");
    const messages = heard<{ role: string; content: string }>(socket, "message");
    const sent = await viaB.request(`/api/v1/inbox/sessions/${visitor.sessionId}/messages`, {
      method: "POST",
      token: owner.token,
      json: { content: "Your parcel ships today" },
    });
    expect(sent.status, await sent.clone().text()).toBe(201);
    await expect.poll(() => messages).toEqual([expect.objectContaining({ role: "operator", content: "Your parcel ships today" })]);
  });

  it("a visitor's event stream opened on process A receives the operator's reply sent through process B (no affinity)", async () => {
    const visitor = await startVisitor(viaA, space.clientId);
    // The widget's transport: one GET …/events, read with fetch, to process A only.
    const leaving = new AbortController();
    const stream = await fetch(`http://127.0.0.1:${a.port}/api/v1/widget/${space.clientId}/sessions/${visitor.widgetSessionId}/events`, {
      headers: { authorization: `Bearer ${visitor.visitorToken}` },
      signal: leaving.signal,
    });
    expect(stream.status).toBe(200);
    let text = "";
    const reading = (async () => {
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          text += value;
        }
      } catch {
        // Left by the test.
      }
    })();
    await expect.poll(() => text).toContain(": open");
    const sent = await viaB.request(`/api/v1/inbox/sessions/${visitor.sessionId}/messages`, {
      method: "POST",
      token: owner.token,
      json: { content: "Shipped from B" },
    });
    expect(sent.status, await sent.clone().text()).toBe(201);
    await expect.poll(() => text).toMatch(/event: message\ndata: \{[^\n]*"role":"operator"[^\n]*"content":"Shipped from B"/);
    // The stream lives on A only; the reply was made on B.
    expect([openVisitorStreams(a.deps), openVisitorStreams(b.deps)]).toEqual([1, 0]);
    leaving.abort();
    await reading;
  });

  it("consoles on A hear events caused on B; a ranged member's console does not hear other clients' sessions", async () => {
    const ownerConsole = await connect(a, "/console", { token: owner.token, spaceId: owner.user.spaceId }, "websocket");
    const rangedConsole = await connect(a, "/console", { token: ranged.token, spaceId: owner.user.spaceId }, "websocket");
    const ownerHeard = heard<{ sessionId: string }>(ownerConsole, "session.message");
    const rangedHeard = heard<{ sessionId: string }>(rangedConsole, "session.message");
    const inRange = await startVisitor(viaB, space.clientId);
    const outOfRange = await startVisitor(viaB, otherClient);
    // Out of range first: a socket's events keep their order, so it would arrive before the other.
    await visitorSays(viaB, outOfRange, "Where is my order?");
    await visitorSays(viaB, inRange, "Where is my order?");
    await expect.poll(() => ownerHeard.map((event) => event.sessionId)).toEqual(expect.arrayContaining([inRange.sessionId, outOfRange.sessionId]));
    await expect.poll(() => rangedHeard.some((event) => event.sessionId === inRange.sessionId)).toBe(true);
    expect(rangedHeard.map((event) => event.sessionId)).not.toContain(outOfRange.sessionId);
  });

  it("an app's rate limit of N per day admits exactly N turns spread over both processes", async () => {
    const limit = 3;
    const rule = await viaA.request(`/api/v1/apps/${space.appId}/rate-limits`, {
      method: "POST",
      token: owner.token,
      json: { targetChannel: "all", periodUnit: "day", count: limit, replyWhenExceeded: "Slow down, please." },
    });
    expect(rule.status, await rule.clone().text()).toBe(201);
    const visitor: Visitor = await startVisitor(viaA, space.clientId);
    const outcomes: Array<string | undefined> = [];
    for (let turn = 0; turn < 8; turn++) outcomes.push((await visitorSays(turn % 2 ? viaB : viaA, visitor, `Turn ${turn}`)).finishReason);
    expect(outcomes.filter((reason) => reason !== "rate-limited")).toHaveLength(limit);
    expect(outcomes.slice(limit).every((reason) => reason === "rate-limited")).toBe(true);
    // Concurrent turns of another visitor, half through each process: still exactly N.
    const second = await startVisitor(viaB, space.clientId);
    const parallel = await Promise.all(Array.from({ length: 6 }, (_, turn) => visitorSays(turn % 2 ? viaB : viaA, second, `Together ${turn}`)));
    expect(parallel.filter((answer) => answer.finishReason !== "rate-limited")).toHaveLength(limit);
  });

  it("Redis down: an operator's reply is stored and answered 201, turns still run; events cross processes again once Redis is back", async () => {
    const visitor = await startVisitor(viaA, space.clientId);
    const socket = await connect(a, "/visitor", { clientId: space.clientId, sessionId: visitor.widgetSessionId, token: visitor.visitorToken }, "polling");
    const messages = heard<{ content: string }>(socket, "message");
    await redis.kill();
    try {
      const sent = await viaB.request(`/api/v1/inbox/sessions/${visitor.sessionId}/messages`, {
        method: "POST",
        token: owner.token,
        json: { content: "Sent while Redis is down" },
      });
      expect(sent.status, await sent.clone().text()).toBe(201);
      // Sign-in fails closed, clearly (429 with Retry-After), in the reader's language.
      const login = await viaA.request("/api/v1/auth/login", {
        method: "POST",
        form: { username: "owner-scale@example.com", password: "passw0rd-ok" },
        headers: { "accept-language": "zh-CN" },
      });
      expect(login.status).toBe(429);
      expect(login.headers.get("retry-after")).toBe("5");
      expect(((await login.json()) as { message: string }).message).toBe("登录暂时不可用，请 5 秒后再试");
      // Visitor sessions and the app's rate limit are counted in each process's memory meanwhile.
      const during = await startVisitor(viaB, space.clientId);
      expect((await visitorSays(viaB, during, "Still there?")).finishReason).not.toBe("rate-limited");
    } finally {
      await redis.start();
    }
    const history = await viaA.request(`/api/v1/inbox/sessions/${visitor.sessionId}/messages`, { token: owner.token });
    expect(await history.text()).toContain("Sent while Redis is down");
    // Back: B's next reply reaches the visitor on A (the subscriber resubscribed).
    await expect
      .poll(
        async () => {
          await viaB.request(`/api/v1/inbox/sessions/${visitor.sessionId}/messages`, { method: "POST", token: owner.token, json: { content: "Back again" } });
          return messages.some((message) => message.content === "Back again");
        },
        { timeout: 15_000, interval: 500 },
      )
      .toBe(true);
    const login = await viaB.request("/api/v1/auth/login", { method: "POST", form: { username: "owner-scale@example.com", password: "passw0rd-ok" } });
    expect(login.status).toBe(200);
  });
});
