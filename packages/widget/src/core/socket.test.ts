import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import { Manager } from "socket.io-client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { backoffDelay, type ClientSocket, createSocket, type SocketOptions, VISITOR_RECONNECTION } from "./socket";

let http: HttpServer;
let io: Server;
let url: string;
const sockets: ClientSocket[] = [];

/** A real socket.io 4.8 server with a /visitor namespace that wants auth.token === "good". */
beforeEach(async () => {
  http = createServer();
  io = new Server(http, { pingInterval: 100, pingTimeout: 100 });
  io.of("/visitor").use((socket, next) => (socket.handshake.auth.token === "good" ? next() : next(new Error("unauthorized"))));
  io.of("/visitor").on("connection", (socket) => void socket.join(`visitor:${socket.handshake.auth.sessionId}`));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  vi.useRealTimers();
  const closed = new Promise<void>((resolve) => io.close(() => resolve()));
  // fetch keeps idle connections alive; the server would wait for them.
  http.closeAllConnections();
  await closed;
});

function socketFor(options: Partial<SocketOptions> = {}): ClientSocket {
  const socket = createSocket({ url, namespace: "/visitor", auth: { sessionId: "s1", token: "good" }, ...options });
  sockets.push(socket);
  return socket;
}

const record = (socket: ClientSocket, ...events: string[]) => {
  const seen: [string, unknown][] = [];
  for (const event of events) socket.on(event, (data) => seen.push([event, data]));
  return seen;
};

describe("the compact socket against socket.io 4.8", () => {
  it("stays disconnected until connect(), joins the namespace with auth and receives events", async () => {
    const socket = socketFor();
    const seen = record(socket, "connect", "message", "mode");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(io.of("/visitor").sockets.size).toBe(0);
    socket.connect();
    await expect.poll(() => socket.connected).toBe(true);
    const message = { id: "msg_1", role: "operator", content: "Hello from Dana", createdAt: "2026-11-21T10:00:00.000Z", senderName: "Dana" };
    io.of("/visitor").to("visitor:s1").emit("message", message);
    io.of("/visitor").to("visitor:other").emit("message", { id: "not for us" });
    io.of("/visitor").to("visitor:s1").emit("mode", { serviceMode: "MANUAL_MODE" });
    await expect.poll(() => seen.length).toBe(3);
    expect(seen).toEqual([
      ["connect", false],
      ["message", message],
      ["mode", { serviceMode: "MANUAL_MODE" }],
    ]);
  });

  it("answers the server pings (the server keeps it past several ping timeouts)", async () => {
    const socket = socketFor();
    const seen = record(socket, "disconnect");
    socket.connect();
    await expect.poll(() => socket.connected).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(seen).toEqual([]);
    expect(io.of("/visitor").sockets.size).toBe(1);
  });

  it("reports a refusal as connect_error and does not retry", async () => {
    const socket = socketFor({ auth: { sessionId: "s1", token: "bad" }, reconnectionDelay: 20, reconnectionDelayMax: 20 });
    const seen = record(socket, "connect", "connect_error", "reconnect_attempt");
    socket.connect();
    await expect.poll(() => seen).toEqual([["connect_error", { message: "unauthorized" }]]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toHaveLength(1);
  });

  it("reconnects after the transport drops, and tells it is a reconnection", async () => {
    const socket = socketFor({ reconnectionDelay: 50, reconnectionDelayMax: 50, randomizationFactor: 0 });
    const seen = record(socket, "connect", "disconnect", "reconnect_attempt");
    socket.connect();
    await expect.poll(() => socket.connected).toBe(true);
    for (const server of io.of("/visitor").sockets.values()) server.conn.close();
    await expect
      .poll(() => seen)
      .toEqual([
        ["connect", false],
        ["disconnect", "transport close"],
        ["reconnect_attempt", 1],
        ["connect", true],
      ]);
    const heard: unknown[] = [];
    socket.on("message", (data) => heard.push(data));
    io.of("/visitor").to("visitor:s1").emit("message", { id: "after" });
    await expect.poll(() => heard).toEqual([{ id: "after" }]);
  });

  it("is not reconnected after the server disconnects it, nor after disconnect()", async () => {
    const socket = socketFor({ reconnectionDelay: 20, reconnectionDelayMax: 20 });
    const seen = record(socket, "disconnect", "reconnect_attempt");
    socket.connect();
    await expect.poll(() => socket.connected).toBe(true);
    io.of("/visitor").disconnectSockets();
    await expect.poll(() => seen).toEqual([["disconnect", "io server disconnect"]]);
    socket.connect();
    await expect.poll(() => socket.connected).toBe(true);
    socket.disconnect();
    await expect.poll(() => io.of("/visitor").sockets.size).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toEqual([
      ["disconnect", "io server disconnect"],
      ["disconnect", "io client disconnect"],
    ]);
  });

  it("drops a server that stops pinging (ping timeout) and reconnects", async () => {
    // A bare server speaking just enough Engine.IO polling: open, namespace connect, then silence.
    let handshakes = 0;
    const pending: string[] = [];
    const silent = createServer((request, response) => {
      const sid = new URL(request.url!, "http://x").searchParams.get("sid");
      if (!sid) {
        handshakes++;
        response.end('0{"sid":"x","upgrades":[],"pingInterval":60,"pingTimeout":40,"maxPayload":100000}');
      } else if (request.method === "POST") {
        let body = "";
        request.on("data", (chunk) => (body += chunk));
        request.on("end", () => {
          if (body.startsWith("40/visitor,")) pending.push('40/visitor,{"sid":"y"}');
          response.end("ok");
        });
      } else if (pending.length) response.end(pending.shift());
      else setTimeout(() => pending.length && response.end(pending.shift()), 30);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const socket = socketFor({ url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, reconnectionDelay: 30, reconnectionDelayMax: 30 });
    const seen = record(socket, "connect", "disconnect");
    socket.connect();
    await expect
      .poll(() => seen.slice(0, 3))
      .toEqual([
        ["connect", false],
        ["disconnect", "ping timeout"],
        ["connect", true],
      ]);
    expect(handshakes).toBeGreaterThanOrEqual(2);
    socket.disconnect();
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
});

describe("reconnection: 100 attempts, 10 s apart", () => {
  it("is what socket.io-client would do with the same options", () => {
    const manager = new Manager(url, { autoConnect: false, ...VISITOR_RECONNECTION });
    const backoff = (manager as unknown as { backoff: { duration(): number } }).backoff;
    const theirs = [backoff.duration(), backoff.duration(), backoff.duration(), backoff.duration()];
    expect(theirs).toEqual([10_000, 10_000, 10_000, 10_000]);
    expect(manager.reconnectionAttempts()).toBe(100);
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 10_000, 10_000, 0))).toEqual(theirs);
    // The gotcha: the delay alone is capped at the default maximum of 5 s.
    const capped = new Manager(url, { autoConnect: false, reconnectionDelay: 10_000 }) as unknown as { backoff: { duration(): number } };
    expect(capped.backoff.duration()).toBeLessThanOrEqual(5000);
  });

  it("tries 100 times, every 10 s, then gives up", async () => {
    vi.useFakeTimers();
    const opened: number[] = [];
    // A network that is down: every request fails at once.
    const refused = (async () => {
      opened.push(Date.now());
      throw new TypeError("Failed to fetch");
    }) as typeof fetch;
    const start = Date.now();
    const socket = socketFor({ ...VISITOR_RECONNECTION, fetch: refused });
    const failed = vi.fn();
    socket.on("reconnect_failed", failed);
    socket.connect();
    await vi.advanceTimersByTimeAsync(100 * 10_000 + 1000);
    expect(opened).toHaveLength(101);
    const gaps = opened.slice(1).map((time, index) => time - opened[index]!);
    expect(new Set(gaps)).toEqual(new Set([10_000]));
    expect(opened[0]! - start).toBe(0);
    expect(failed).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(opened).toHaveLength(101);
  });
});
