import { describe, expect, it } from "vitest";
import { en, zh } from "./i18n";
import { createTransport, readChatEvents, WidgetHttpError } from "./transport";

const streamOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });

describe("SSE chat events", () => {
  it("reads named events split across chunks and skips malformed data", async () => {
    const events = [];
    for await (const event of readChatEvents(
      streamOf(
        'event: message-start\ndata: {"type":"message-start","messageId":"m1"}\n\nevent: text-de',
        'lta\ndata: {"type":"text-delta","text":"Hel"}\r\n\r\n',
        'data: not json\n\nevent: text-delta\ndata: {"type":"text-delta","text":"lo"}\n\n',
      ),
    ))
      events.push(event);
    expect(events).toEqual([
      { type: "message-start", messageId: "m1" },
      { type: "text-delta", text: "Hel" },
      { type: "text-delta", text: "lo" },
    ]);
  });
});

describe("transport", () => {
  it("creates a session, then streams with the bearer token", async () => {
    const calls: [string, RequestInit][] = [];
    const fetcher = (async (url: string, init: RequestInit) => {
      calls.push([url, init]);
      if (url.endsWith("/sessions")) return Response.json({ success: true, data: { sessionId: "s1", visitorToken: "tok", visitorId: "v1" } }, { status: 201 });
      return new Response(streamOf('event: text-delta\ndata: {"type":"text-delta","text":"hi"}\n\n'), { headers: { "content-type": "text/event-stream" } });
    }) as typeof fetch;
    const transport = createTransport("https://api.test", "demo", () => "zh-CN", fetcher);
    const session = await transport.createSession({ language: "zh-CN" });
    const events = [];
    for await (const event of transport.send(session, "hello", new AbortController().signal)) events.push(event);
    expect(events).toEqual([{ type: "text-delta", text: "hi" }]);
    expect(calls[1]![0]).toBe("https://api.test/api/v1/widget/demo/sessions/s1/messages");
    expect(calls[1]![1].headers).toMatchObject({ Authorization: "Bearer tok", "Accept-Language": "zh-CN" });
    expect(calls[1]![1].credentials).toBe("omit");
  });

  it("reports HTTP errors with status and the server message, and network failure as status 0", async () => {
    const refused = createTransport("https://api.test", "x", () => "en", (async () =>
      Response.json({ success: false, message: "Origin not allowed" }, { status: 403 })) as typeof fetch);
    await expect(refused.createSession({})).rejects.toMatchObject({ status: 403, message: "Origin not allowed" });
    const down = createTransport("https://api.test", "x", () => "en", (async () => {
      throw new TypeError("Failed to fetch");
    }) as typeof fetch);
    const error = await down.createSession({}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(WidgetHttpError);
    expect((error as WidgetHttpError).status).toBe(0);
  });
});

describe("strings", () => {
  it("has the same keys in Chinese as in English", () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  });
});

describe("transport: handover and refusals", () => {
  it("asks for a person with the bearer token and answers the mode and the reply", async () => {
    const calls: [string, RequestInit][] = [];
    const fetcher = (async (url: string, init: RequestInit) => {
      calls.push([url, init]);
      return Response.json({ success: true, data: { serviceMode: "MANUAL_MODE", reply: "A member of our team will be with you shortly." } });
    }) as typeof fetch;
    const transport = createTransport("https://api.test", "demo", () => "en", fetcher);
    expect(await transport.handover({ sessionId: "s 1", visitorToken: "tok", visitorId: "v1" })).toEqual({
      serviceMode: "MANUAL_MODE",
      reply: "A member of our team will be with you shortly.",
    });
    expect(calls[0]![0]).toBe("https://api.test/api/v1/widget/demo/sessions/s%201/handover");
    expect(calls[0]![1]).toMatchObject({ method: "POST", credentials: "omit", headers: { Authorization: "Bearer tok" } });
  });

  it("reads the message id and Retry-After of a refusal", async () => {
    const off = createTransport("https://api.test", "demo", () => "en", (async () =>
      Response.json(
        { success: false, code: 403, message: "Not offered" },
        { status: 403, headers: { "X-Parley-Error": "manual_transfer_off" } },
      )) as typeof fetch);
    await expect(off.handover({ sessionId: "s1", visitorToken: "t", visitorId: "v" })).rejects.toMatchObject({
      status: 403,
      code: "manual_transfer_off",
      message: "Not offered",
    });
    const busy = createTransport("https://api.test", "demo", () => "en", (async () =>
      Response.json(
        { success: false, code: 429, message: "Too many attempts, try again in 42 s" },
        { status: 429, headers: { "Retry-After": "42", "X-Parley-Error": "rate_limited" } },
      )) as typeof fetch);
    await expect(busy.createSession({})).rejects.toMatchObject({ status: 429, retryAfter: 42, code: "rate_limited" });
    const long = createTransport("https://api.test", "demo", () => "en", (async () =>
      Response.json({ success: false, code: 400, message: "content: at most 2000 characters" }, { status: 400 })) as typeof fetch);
    const refused = long.send({ sessionId: "s1", visitorToken: "t", visitorId: "v" }, "x".repeat(2001), new AbortController().signal);
    await expect(refused.next()).rejects.toMatchObject({ status: 400, message: "content: at most 2000 characters", retryAfter: 0 });
  });
});
