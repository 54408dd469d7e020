import { afterEach, describe, expect, it } from "vitest";
import type { ServerResponse } from "node:http";
import { createClient, isInsufficientCredits, parseEventStream, ParleyError } from "./index";
import type { ServerSentEvent } from "./index";
import { sendEnvelope, startServer } from "./test-server";
import type { TestServer } from "./test-server";

const encoder = new TextEncoder();
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect(body: ReadableStream<Uint8Array>): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of parseEventStream(body)) events.push(event);
  return events;
}

// Every rule of the WHATWG parser that matters to us, with all three line endings.
const tricky =
  "\uFEFF: a comment first\r\n" +
  "event: text-delta\r\n" +
  'data: {"text":"你好 👋"}\r\n' +
  "\r\n" +
  "data: first line\n" +
  "data:second line\n" +
  "data:  kept space\n" +
  "retry: 1000\n" +
  "unknown: ignored\n" +
  "\n" +
  "id: 7\r" +
  "data: carriage returns\r" +
  "\r" +
  "event: ping\n" +
  "\n" +
  "data\n" +
  "\n" +
  "id\n" +
  "data: forgot the id\n" +
  "\n" +
  "data: never finished";

const expected: ServerSentEvent[] = [
  { event: "text-delta", data: '{"text":"你好 👋"}' },
  { event: "message", data: "first line\nsecond line\n kept space" },
  { event: "message", data: "carriage returns", id: "7" },
  { event: "message", data: "", id: "7" },
  { event: "message", data: "forgot the id" },
];

describe("parseEventStream", () => {
  const bytes = encoder.encode(tricky);

  it("parses a body that arrives in one chunk", async () => {
    expect(await collect(streamOf([bytes]))).toEqual(expected);
  });

  it("parses the same body split in two at every byte", async () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await collect(streamOf([bytes.slice(0, cut), bytes.slice(cut)])), `cut at ${cut}`).toEqual(expected);
    }
  });

  it("parses the same body one byte at a time", async () => {
    const chunks = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(await collect(streamOf(chunks))).toEqual(expected);
  });
});

// What the chat endpoint will stream, once it exists.
type ChatEvent = { type: "message-start"; messageId: string } | { type: "text-delta"; text: string } | { type: "message-end"; usage: { credits: number } };
type Json<Body> = { headers: { [name: string]: unknown }; content: { "application/json": Body } };
interface ChatPaths {
  "/api/v1/apps/{appId}/chat": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    post: {
      parameters: { query?: never; header?: never; path: { appId: string }; cookie?: never };
      requestBody: { content: { "application/json": { message: string } } };
      responses: { 200: { headers: { [name: string]: unknown }; content: { "text/event-stream": string } } };
    };
    get?: never;
    put?: never;
    delete?: never;
    patch?: never;
  };
  "/api/v1/failing": {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
    post: { parameters: { query?: never }; responses: { 402: Json<{ success: boolean; code: number; message: string; data: null }> } };
  };
}

const chat =
  ": keep-alive\r\n" +
  "event: message-start\r\n" +
  'data: {"type":"message-start","messageId":"msg_1"}\r\n' +
  "\r\n" +
  "event: text-delta\r\n" +
  'data: {"type":"text-delta",\r\n' +
  'data: "text":"你好，世界 👋"}\r\n' +
  "\r\n" +
  "event: message-end\r\n" +
  'data: {"type":"message-end","usage":{"credits":3}}\r\n' +
  "\r\n";

function openEventStream(response: ServerResponse): void {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  response.flushHeaders();
  response.socket?.setNoDelay(true);
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("client.stream", () => {
  it("POSTs and yields typed events from a body written to the socket in tiny pieces", async () => {
    server = await startServer(async (_request, response) => {
      openEventStream(response);
      // Single bytes split every UTF-8 character and every CRLF somewhere.
      for (const byte of encoder.encode(chat)) {
        response.write(Uint8Array.of(byte));
        await delay(1);
      }
      response.end();
    });
    const client = createClient<ChatPaths>({ baseUrl: server.url, apiKey: "pk_test" });

    const events: ChatEvent[] = [];
    for await (const event of client.stream<ChatEvent>("/api/v1/apps/{appId}/chat", {
      params: { path: { appId: "app_1" } },
      body: { message: "Hello" },
    })) {
      events.push(event);
    }

    expect(events).toEqual([
      { type: "message-start", messageId: "msg_1" },
      { type: "text-delta", text: "你好，世界 👋" },
      { type: "message-end", usage: { credits: 3 } },
    ]);
    const request = server.requests[0];
    expect(request).toMatchObject({ method: "POST", url: "/api/v1/apps/app_1/chat", body: '{"message":"Hello"}' });
    expect(request?.headers.accept).toBe("text/event-stream");
    expect(request?.headers.authorization).toBe("Bearer pk_test");
  }, 15_000);

  it("throws a ParleyError when the server refuses before the stream starts", async () => {
    server = await startServer((_request, response) => sendEnvelope(response, 870, null, { httpStatus: 402, message: "Not enough credits" }));
    const seen: ParleyError[] = [];
    const client = createClient<ChatPaths>({ baseUrl: server.url, onError: (error) => seen.push(error) });

    let thrown: unknown;
    try {
      for await (const event of client.stream("/api/v1/failing")) throw new Error(`unexpected ${event.type}`);
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(ParleyError);
    expect(isInsufficientCredits(thrown)).toBe(true);
    expect(thrown).toMatchObject({ kind: "http", status: 402, message: "Not enough credits" });
    expect(seen).toEqual([thrown]);
  });

  it("ends cleanly and closes the connection when aborted mid-stream", async () => {
    let closed!: Promise<void>;
    server = await startServer((_request, response) => {
      closed = new Promise((resolve) => response.on("close", resolve));
      openEventStream(response);
      response.write('data: {"type":"message-start","messageId":"msg_2"}\n\n');
    });
    const client = createClient<ChatPaths>({ baseUrl: server.url });
    const controller = new AbortController();

    const events: ChatEvent[] = [];
    for await (const event of client.stream<ChatEvent>("/api/v1/apps/{appId}/chat", {
      params: { path: { appId: "app_1" } },
      body: { message: "Hi" },
      signal: controller.signal,
    })) {
      events.push(event);
      setTimeout(() => controller.abort(), 20);
    }

    expect(events).toEqual([{ type: "message-start", messageId: "msg_2" }]);
    await closed;
  });

  it("ends cleanly when aborted before the answer arrives", async () => {
    server = await startServer(() => {});
    const client = createClient<ChatPaths>({ baseUrl: server.url });
    const stream = client.stream("/api/v1/apps/{appId}/chat", {
      params: { path: { appId: "app_1" } },
      signal: AbortSignal.timeout(100),
    });

    const events: unknown[] = [];
    for await (const event of stream) events.push(event);

    expect(events).toEqual([]);
  });

  it("closes the connection when the caller leaves the loop early", async () => {
    let closed!: Promise<void>;
    server = await startServer((_request, response) => {
      closed = new Promise((resolve) => response.on("close", resolve));
      openEventStream(response);
      response.write('data: {"type":"text-delta","text":"a"}\n\ndata: {"type":"text-delta","text":"b"}\n\n');
    });
    const client = createClient<ChatPaths>({ baseUrl: server.url });

    for await (const event of client.stream<ChatEvent>("/api/v1/apps/{appId}/chat", { params: { path: { appId: "a" } } })) {
      expect(event).toEqual({ type: "text-delta", text: "a" });
      break;
    }

    await closed;
  });

  it("throws a network ParleyError when the connection drops mid-stream", async () => {
    server = await startServer(async (_request, response, raw) => {
      openEventStream(response);
      response.write('data: {"type":"text-delta","text":"a"}\n\n');
      await delay(50);
      raw.socket.destroy();
    });
    const client = createClient<ChatPaths>({ baseUrl: server.url });

    const events: ChatEvent[] = [];
    const iterate = async () => {
      for await (const event of client.stream<ChatEvent>("/api/v1/apps/{appId}/chat", { params: { path: { appId: "a" } } })) {
        events.push(event);
      }
    };

    await expect(iterate()).rejects.toMatchObject({ name: "ParleyError", kind: "network" });
    expect(events).toHaveLength(1);
  });
});
