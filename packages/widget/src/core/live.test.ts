import { Manager } from "socket.io-client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { backoffDelay, createLive, type LiveConnection, VISITOR_RECONNECTION } from "./live";
import { createTransport } from "./transport";

// The stream against the real server: tests/system/widget-live.test.ts. Here: the transport's
// reading of a stream and the reconnection rules, on fetch answers made in the test.
const live: LiveConnection[] = [];
afterEach(() => {
  for (const connection of live.splice(0)) connection.disconnect();
  vi.useRealTimers();
});

const session = { sessionId: "wcs_1", visitorToken: "tok", visitorId: "v1" };
const encoder = new TextEncoder();

describe("transport.events", () => {
  it("opens GET …/events with the bearer token, counts every chunk as alive (pings too) and skips malformed events", async () => {
    const calls: [string, RequestInit][] = [];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of [
          ": open\n\n",
          'event: message\ndata: {"id":"m1","role":"operator","content":"Hi"}\n\n: ping\n\n',
          "event: mode\ndata: not json\n\n",
          'event: mode\ndata: {"serviceMode":"MANUAL_MODE"}\n\n',
        ])
          controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    const transport = createTransport("https://api.test", "demo", () => "zh-CN", (async (url: string, init: RequestInit) => {
      calls.push([url, init]);
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    }) as typeof fetch);
    let alive = 0;
    const events = [];
    for await (const event of await transport.events(session, new AbortController().signal, () => alive++)) events.push(event);
    expect(events).toEqual([
      { event: "message", data: { id: "m1", role: "operator", content: "Hi" } },
      { event: "mode", data: { serviceMode: "MANUAL_MODE" } },
    ]);
    expect(alive).toBe(4);
    expect(calls[0]![0]).toBe("https://api.test/api/v1/widget/demo/sessions/wcs_1/events");
    expect(calls[0]![1].headers).toMatchObject({ Authorization: "Bearer tok", "Accept-Language": "zh-CN" });
    expect(calls[0]![1].credentials).toBe("omit");
  });

  it("rejects a refusal with its status, before any stream", async () => {
    const transport = createTransport("https://api.test", "demo", () => "en", (async () =>
      Response.json({ success: false, message: "Origin not allowed" }, { status: 403, headers: { "X-Parley-Error": "origin_not_allowed" } })) as typeof fetch);
    await expect(transport.events(session, new AbortController().signal, () => {})).rejects.toMatchObject({ status: 403, code: "origin_not_allowed" });
  });
});

describe("reconnection: 100 attempts, 10 s apart", () => {
  it("is what socket.io-client would do with the same options", () => {
    const manager = new Manager("http://127.0.0.1:9", { autoConnect: false, ...VISITOR_RECONNECTION });
    const backoff = (manager as unknown as { backoff: { duration(): number } }).backoff;
    const theirs = [backoff.duration(), backoff.duration(), backoff.duration(), backoff.duration()];
    expect(theirs).toEqual([10_000, 10_000, 10_000, 10_000]);
    expect(manager.reconnectionAttempts()).toBe(100);
    expect([0, 1, 2, 3].map((attempt) => backoffDelay(attempt, 10_000, 10_000, 0))).toEqual(theirs);
    // The gotcha: the delay alone is capped at the default maximum of 5 s.
    const capped = new Manager("http://127.0.0.1:9", { autoConnect: false, reconnectionDelay: 10_000 }) as unknown as { backoff: { duration(): number } };
    expect(capped.backoff.duration()).toBeLessThanOrEqual(5000);
  });

  it("tries 100 times, every 10 s, while the network is down, then gives up", async () => {
    vi.useFakeTimers();
    const opened: number[] = [];
    // A network that is down: every request fails at once (status 0, retried).
    const down = createTransport("https://api.test", "demo", () => "en", (async () => {
      opened.push(Date.now());
      throw new TypeError("Failed to fetch");
    }) as typeof fetch);
    const start = Date.now();
    const connection = createLive({ open: (signal, alive) => down.events(session, signal, alive), ...VISITOR_RECONNECTION });
    live.push(connection);
    const failed = vi.fn();
    connection.on("reconnect_failed", failed);
    connection.connect();
    await vi.advanceTimersByTimeAsync(100 * 10_000 + 1000);
    expect(opened).toHaveLength(101);
    const gaps = opened.slice(1).map((time, index) => time - opened[index]!);
    expect(new Set(gaps)).toEqual(new Set([10_000]));
    expect(opened[0]! - start).toBe(0);
    expect(failed).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(opened).toHaveLength(101);
  });

  it("retries a server error or a stream that ended, not a refusal", async () => {
    vi.useFakeTimers();
    const answers = [
      () => Response.json({ success: false }, { status: 503 }),
      () => new Response(": open\n\n", { headers: { "content-type": "text/event-stream" } }),
      () => Response.json({ success: false }, { status: 401 }),
    ];
    let opened = 0;
    const transport = createTransport("https://api.test", "demo", () => "en", (async () => answers[Math.min(opened++, answers.length - 1)]!()) as typeof fetch);
    const connection = createLive({ open: (signal, alive) => transport.events(session, signal, alive), ...VISITOR_RECONNECTION });
    live.push(connection);
    const seen: string[] = [];
    for (const event of ["connect", "disconnect", "connect_error"]) connection.on(event, (data) => seen.push(`${event} ${JSON.stringify(data)}`));
    connection.connect();
    await vi.advanceTimersByTimeAsync(10_000 * 5);
    expect(opened).toBe(3);
    expect(seen).toEqual(["connect false", 'disconnect "transport close"', expect.stringMatching(/^connect_error .*"status":401/)]);
  });
});
