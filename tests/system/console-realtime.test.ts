import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConsoleRealtime, CONSOLE_SOCKET_OPTIONS, createConsoleRealtime, type RealtimeState } from "../../packages/console/src/lib/realtime";
import { publishToSpace } from "../../packages/api/src/realtime/events";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../../packages/api/src/testing/harness";

// The console's realtime module (socket.io-client) against the real server, in Node.
let ctx: TestContext;
let base: string;
let alice: TestUser;
let bob: TestUser;
const opened: ConsoleRealtime[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  base = await ctx.listen();
  alice = await registerUser(ctx, "alice-console-realtime@example.com");
  bob = await registerUser(ctx, "bob-console-realtime@example.com");
});
afterAll(async () => {
  for (const realtime of opened) realtime.close();
  await ctx.close();
});

function connection(token: string, spaceId?: string) {
  const realtime = createConsoleRealtime({ token, url: base, ...(spaceId ? { spaceId } : {}) });
  opened.push(realtime);
  const states: RealtimeState[] = [];
  realtime.onState((state) => states.push(state));
  return { realtime, states };
}

describe("packages/console/src/lib/realtime.ts", () => {
  it("stays idle until a screen listens, then receives its space's events until unsubscribed", async () => {
    const { realtime, states } = connection(alice.token);
    const other = connection(bob.token);
    expect(realtime.state()).toBe("idle");
    expect(realtime.socket.connected).toBe(false);
    const seen: unknown[] = [];
    const off = realtime.on("session.message", (data) => seen.push(data));
    const bobSeen: unknown[] = [];
    other.realtime.on("session.message", (data) => bobSeen.push(data));
    await expect.poll(() => realtime.state()).toBe("connected");
    await expect.poll(() => other.realtime.state()).toBe("connected");
    expect(states).toEqual(["connecting", "connected"]);

    const data = { sessionId: "conv_1", message: { id: "msg_1", role: "user" as const, content: "Hello", createdAt: new Date().toISOString() } };
    publishToSpace(ctx.deps.realtime, alice.user.spaceId, "session.message", data);
    await expect.poll(() => seen).toEqual([data]);
    off();
    publishToSpace(ctx.deps.realtime, alice.user.spaceId, "session.message", data);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(seen).toHaveLength(1);
    expect(bobSeen).toEqual([]);
  });

  it("says unauthorized for a bad token and does not retry", async () => {
    const { realtime, states } = connection("pst_not-a-session");
    realtime.on("session.read", () => {});
    await expect.poll(() => realtime.state()).toBe("unauthorized");
    expect(states).toEqual(["connecting", "unauthorized"]);
    expect(realtime.socket.active).toBe(false);
  });

  it("is reconnecting after a drop, with the spec's options: 100 attempts, 10 s apart", async () => {
    const { realtime } = connection(alice.token, alice.user.spaceId);
    realtime.on("session.mode", () => {});
    await expect.poll(() => realtime.state()).toBe("connected");
    const manager = realtime.socket.io;
    expect(manager.reconnectionAttempts()).toBe(100);
    expect(manager.reconnectionDelay()).toBe(10_000);
    expect(manager.reconnectionDelayMax()).toBe(10_000);
    expect(manager.randomizationFactor()).toBe(0);
    expect(CONSOLE_SOCKET_OPTIONS.autoConnect).toBe(false);
    const backoff = (manager as unknown as { backoff: { duration(): number; reset(): void } }).backoff;
    expect([backoff.duration(), backoff.duration(), backoff.duration()]).toEqual([10_000, 10_000, 10_000]);
    backoff.reset();

    for (const socket of ctx.realtime()!.io.of("/console").sockets.values()) if (socket.handshake.auth.spaceId) socket.conn.close();
    await expect.poll(() => realtime.state()).toBe("reconnecting");
    realtime.close();
    expect(realtime.state()).toBe("idle");
  });
});
