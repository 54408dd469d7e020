import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../../packages/api/src/apps/testing";
import { upgradeSpaceForTest } from "../../packages/api/src/plans/testing";
import { publishToVisitor } from "../../packages/api/src/realtime/events";
import { closeVisitorStreams, openVisitorStreams, visitorStreamTiming } from "../../packages/api/src/realtime/visitor-stream";
import { createTestContext, registerUser, type TestContext } from "../../packages/api/src/testing/harness";
import { createLive, type LiveConnection, type LiveOptions } from "../../packages/widget/src/core/live";
import type { WidgetSession } from "../../packages/widget/src/core/protocol";
import { createTransport } from "../../packages/widget/src/core/transport";

// The widget's live events (packages/widget/src/core/live.ts) through its transport against the
// real server's visitor event stream, over HTTP, in Node.
let ctx: TestContext;
let base: string;
let clientId: string;
const live: LiveConnection[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  base = await ctx.listen();
  const owner = await registerUser(ctx, "owner-live@example.com");
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  const app = await createAppVia(ctx, owner, { name: "Live bot" });
  const created = await ctx.request("/api/v1/web-clients", { method: "POST", token: owner.token, json: { appId: app.id, name: "Live widget" } });
  clientId = ((await created.json()) as { data: { id: string } }).data.id;
});
afterEach(() => {
  for (const connection of live.splice(0)) connection.disconnect();
});
afterAll(async () => ctx?.close());

const transport = () => createTransport(base, clientId, () => "en");

async function newSession(): Promise<WidgetSession> {
  return transport().createSession({});
}

function liveFor(session: WidgetSession, options: Partial<LiveOptions> = {}): LiveConnection {
  const connection = createLive({
    open: (signal, alive) => transport().events(session, signal, alive),
    reconnectionDelay: 100,
    reconnectionDelayMax: 100,
    ...options,
  });
  live.push(connection);
  return connection;
}

const record = (connection: LiveConnection, ...events: string[]) => {
  const seen: [string, unknown][] = [];
  for (const event of events) connection.on(event, (data) => seen.push([event, data]));
  return seen;
};

describe("the visitor's live events against the server's event stream", () => {
  it("stays closed until connect(), then receives the session's events and nobody else's", async () => {
    const session = await newSession();
    const other = await newSession();
    const connection = liveFor(session);
    const seen = record(connection, "connect", "message", "mode");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(openVisitorStreams(ctx.deps)).toBe(0);
    connection.connect();
    await expect.poll(() => connection.connected).toBe(true);
    const message = { id: "msg_1", role: "operator" as const, content: "Hello from Dana", createdAt: "2026-11-21T10:00:00.000Z", senderName: "Dana" };
    publishToVisitor(ctx.deps.realtime, clientId, session.sessionId, "message", message);
    publishToVisitor(ctx.deps.realtime, clientId, other.sessionId, "message", { ...message, id: "not for us" });
    publishToVisitor(ctx.deps.realtime, clientId, session.sessionId, "mode", { serviceMode: "MANUAL_MODE" });
    await expect.poll(() => seen.length).toBe(3);
    expect(seen).toEqual([
      ["connect", false],
      ["message", message],
      ["mode", { serviceMode: "MANUAL_MODE" }],
    ]);
    connection.disconnect();
    await expect.poll(() => openVisitorStreams(ctx.deps)).toBe(0);
  });

  it("reports a refusal once and does not retry it", async () => {
    const session = await newSession();
    let opened = 0;
    const connection = createLive({
      open: (signal, alive) => {
        opened++;
        return transport().events({ ...session, visitorToken: "wvt_wrong" }, signal, alive);
      },
      reconnectionDelay: 50,
      reconnectionDelayMax: 50,
    });
    live.push(connection);
    const seen = record(connection, "connect", "connect_error");
    connection.connect();
    await expect.poll(() => seen.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seen).toEqual([["connect_error", expect.objectContaining({ status: 401 })]]);
    expect(opened).toBe(1);
  });

  it("reconnects after the server ended the stream (a restart, a deploy) and says it is a reconnection", async () => {
    const session = await newSession();
    const connection = liveFor(session);
    const seen = record(connection, "connect", "disconnect", "message");
    connection.connect();
    await expect.poll(() => openVisitorStreams(ctx.deps)).toBe(1);
    closeVisitorStreams(ctx.deps);
    await expect.poll(() => seen.map(([event]) => event)).toEqual(["connect", "disconnect", "connect"]);
    expect(seen[1]).toEqual(["disconnect", "transport close"]);
    expect(seen[2]).toEqual(["connect", true]);
    await expect.poll(() => openVisitorStreams(ctx.deps)).toBe(1);
    const message = { id: "msg_after", role: "operator" as const, content: "Still here", createdAt: "2026-11-21T10:00:00.000Z" };
    publishToVisitor(ctx.deps.realtime, clientId, session.sessionId, "message", message);
    await expect.poll(() => seen[3]).toEqual(["message", message]);
  });

  it("keeps a stream the server pings past several idle periods, and reopens a silent one", async () => {
    const session = await newSession();
    const before = visitorStreamTiming.heartbeatMs;
    visitorStreamTiming.heartbeatMs = 100;
    try {
      const pinged = liveFor(session, { idleMs: 400 });
      const pingedSeen = record(pinged, "connect", "disconnect");
      pinged.connect();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(pingedSeen).toEqual([["connect", false]]);
    } finally {
      visitorStreamTiming.heartbeatMs = before;
    }
    // Heartbeats every 25 s again: a client that wants one every 300 ms takes the stream for dead.
    const silent = liveFor(session, { idleMs: 300 });
    const silentSeen = record(silent, "connect", "disconnect");
    silent.connect();
    await expect.poll(() => silentSeen.map(([event, data]) => `${event} ${data}`)).toEqual(["connect false", "disconnect ping timeout", "connect true"]);
  });
});
