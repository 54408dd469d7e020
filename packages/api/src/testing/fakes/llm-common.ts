import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** Token counts a scripted reply reports. */
export interface FakeUsage {
  promptTokens: number;
  completionTokens: number;
}

/** A tool call a scripted reply makes. `arguments` may be an object (sent as JSON) or raw JSON text. */
export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

/** A streamed or whole text answer. */
export interface FakeReplyOptions {
  text: string;
  /** How many stream chunks the text is split into (default: one per word-ish piece, at most 8). */
  chunks?: number;
  /** Reported usage; estimated from the request and the text when absent. */
  usage?: Partial<FakeUsage>;
  /** Pause between chunks, in ms (default 0). */
  delayMs?: number;
  /** The vendor's finish reason for the reply; defaults to its "stop" value. */
  finishReason?: string;
}

/** An HTTP error answer with the vendor's error body. */
export interface FakeFailOptions {
  /** Retry-After header in seconds (sent for any status when given). */
  retryAfter?: number;
  message?: string;
  /** Vendor error type/code; each fake picks the vendor's usual one for the status when absent. */
  type?: string;
}

/** One scripted answer, consumed by the next model call. */
export type FakeScript =
  | ({ kind: "reply" } & FakeReplyOptions)
  | { kind: "tool-call"; calls: FakeToolCall[]; text?: string; usage?: Partial<FakeUsage>; chunks?: number }
  | ({ kind: "fail"; status: number } & FakeFailOptions)
  | { kind: "hang"; afterText?: string }
  | { kind: "drop" }
  | { kind: "malformed"; afterText?: string }
  | { kind: "stream-error"; afterText?: string; type?: string; message?: string };

/** A request the fake received. */
export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** The parsed JSON body (undefined for GET or non-JSON). */
  body: any;
  /** Whether the request asked for a stream. */
  stream: boolean;
}

/** What every vendor fake offers; see `startOpenAiFake`, `startAnthropicFake`, `startGeminiFake`. */
export interface LlmFake {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The base URL to configure: the origin plus the vendor's version segment (`/v1`, `/v1beta`). */
  readonly url: string;
  /** Every model request received, oldest first (not filled in `always` mode with `record: false`). */
  readonly requests: FakeRequest[];
  /** Queues a text answer. */
  reply(options: FakeReplyOptions | string): LlmFake;
  /** Queues an answer that calls one or more tools (optionally after some text). */
  replyToolCall(call: FakeToolCall | FakeToolCall[], options?: { text?: string; usage?: Partial<FakeUsage>; chunks?: number }): LlmFake;
  /** Queues an HTTP error with the vendor's error body, e.g. `fail(429, { retryAfter: 2 })`. */
  fail(status: number, options?: FakeFailOptions): LlmFake;
  /** Queues a call that never answers (or stops answering after `afterText`), until the client gives up. */
  hang(options?: { afterText?: string }): LlmFake;
  /** Queues a call whose connection is closed once the request is read, before any answer byte (a stale kept-alive socket). */
  dropConnection(): LlmFake;
  /** Queues a stream with a chunk that is not valid JSON (after `afterText`). */
  malformed(options?: { afterText?: string }): LlmFake;
  /** Queues a stream that starts, then carries the vendor's in-stream error event. */
  streamError(options?: { afterText?: string; type?: string; message?: string }): LlmFake;
  /**
   * Sets the answer given when the queue is empty (default: "Hello from the fake model."),
   * written in one go with no delays: the benchmark mode. `record: false` stops keeping requests.
   */
  always(options: FakeReplyOptions & { record?: boolean }): LlmFake;
  /** Scripts not consumed yet. */
  pending(): number;
  /** Clears the queue, the recorded requests and the standing answer. */
  reset(): void;
  close(): Promise<void>;
}

/** How one vendor's wire format is written; implemented by each vendor fake. */
export interface VendorWire {
  /** Version path segment appended to the origin for `url`. */
  basePath: string;
  /** False when the vendor signals back-off in the body, not a Retry-After header (Google). */
  retryAfterHeader?: boolean;
  /**
   * Decides whether a request is a model call. Answers the model id and whether to stream, or
   * undefined to let {@link VendorWire.other} handle it.
   */
  match(request: FakeRequest): { model: string; stream: boolean } | undefined;
  /** Non-model routes (model lists); answer false for 404. */
  other?(request: FakeRequest, response: ServerResponse): boolean;
  /** Checks credentials; answers an error script to send when they are wrong. */
  authorize?(request: FakeRequest): FakeScript | undefined;
  /**
   * The SSE events (already framed) of a streamed answer: the opening events, the content
   * (text and tool-call deltas) and the events that finish it.
   */
  streamEvents(script: Resolved, context: CallContext): { start: string[]; content: string[]; end: string[] };
  /** A whole (non-stream) answer body. */
  whole(script: Resolved, context: CallContext): unknown;
  /** Status, headers and body of an error. */
  error(status: number, options: FakeFailOptions): { body: unknown; headers?: Record<string, string> };
  /** An SSE event carrying an in-stream error. */
  streamError(options: { type?: string; message?: string }): string;
  /** A line that breaks the stream's JSON. */
  malformedEvent(): string;
}

/** A reply with its parts decided: text pieces, tool calls with ids, usage. */
export interface Resolved {
  pieces: string[];
  calls: Array<{ id: string; name: string; arguments: string }>;
  usage: FakeUsage;
  finishReason?: string;
}

/** Per-call facts the wire needs. */
export interface CallContext {
  model: string;
  id: string;
  created: number;
  /** OpenAI: whether `stream_options.include_usage` was asked. */
  includeUsage: boolean;
}

let counter = 0;

/** A short unique suffix for ids the fakes mint. */
export function fakeId(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter.toString(36).padStart(4, "0")}`;
}

/** Splits text into `count` pieces of about equal length (never splitting a code point). */
export function splitText(text: string, count?: number): string[] {
  if (text === "") return [];
  const characters = Array.from(text);
  if (count === undefined) {
    const words = text.match(/\S+\s*|\s+/g) ?? [text];
    if (words.length <= 8) return words;
    count = 8;
  }
  const size = Math.max(1, Math.ceil(characters.length / Math.max(1, count)));
  const pieces: string[] = [];
  for (let index = 0; index < characters.length; index += size) pieces.push(characters.slice(index, index + size).join(""));
  return pieces;
}

function estimate(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function resolveScript(script: Extract<FakeScript, { kind: "reply" | "tool-call" }>, request: FakeRequest): Resolved {
  const text = script.text ?? "";
  const calls =
    script.kind === "tool-call"
      ? script.calls.map((call) => ({
          id: call.id ?? `call_${fakeId()}`,
          name: call.name,
          arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
        }))
      : [];
  const completionText = text + calls.map((call) => call.name + call.arguments).join("");
  return {
    pieces: splitText(text, script.chunks),
    calls,
    usage: {
      promptTokens: script.usage?.promptTokens ?? estimate(JSON.stringify(request.body ?? "")),
      completionTokens: script.usage?.completionTokens ?? estimate(completionText || " "),
    },
    ...(script.kind === "reply" && script.finishReason ? { finishReason: script.finishReason } : {}),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Starts a vendor fake on 127.0.0.1 (random port) speaking `wire`. */
export async function startLlmFake(wire: VendorWire): Promise<LlmFake> {
  const queue: FakeScript[] = [];
  const requests: FakeRequest[] = [];
  const defaultAnswer: FakeReplyOptions = { text: "Hello from the fake model." };
  let standing: (FakeReplyOptions & { record?: boolean }) | undefined;
  const hanging = new Set<ServerResponse>();

  const sendError = (response: ServerResponse, status: number, options: FakeFailOptions) => {
    const { body, headers } = wire.error(status, options);
    response.writeHead(status, {
      "content-type": "application/json",
      ...(options.retryAfter !== undefined && wire.retryAfterHeader !== false ? { "retry-after": String(options.retryAfter) } : {}),
      ...headers,
    });
    response.end(JSON.stringify(body));
  };

  const startStream = (response: ServerResponse) => {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    response.flushHeaders();
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
    const raw = incoming.method === "GET" ? "" : await readBody(incoming);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers[name] = value;
    const request: FakeRequest = {
      method: incoming.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers,
      body,
      stream: false,
    };
    const matched = wire.match(request);
    if (!matched) {
      if (wire.other?.(request, response)) return;
      sendError(response, 404, { message: `No route for ${request.method} ${request.path}` });
      return;
    }
    request.stream = matched.stream;
    const denied = wire.authorize?.(request);
    let script: FakeScript = denied ?? queue.shift() ?? { kind: "reply", ...(standing ?? defaultAnswer) };
    const instant = !denied && script.kind === "reply" && standing !== undefined && queue.length === 0 && script.text === standing.text;
    if (!(instant && standing?.record === false)) requests.push(request);

    const body_ = (request.body ?? {}) as { stream_options?: { include_usage?: boolean } };
    const context: CallContext = {
      model: matched.model,
      id: fakeId(),
      created: Math.floor(Date.now() / 1000),
      includeUsage: body_.stream_options?.include_usage === true,
    };

    if (script.kind === "fail") return sendError(response, script.status, script);
    if (script.kind === "drop") {
      incoming.socket.destroy();
      return;
    }
    if (script.kind === "hang" && script.afterText === undefined) {
      hanging.add(response);
      response.on("close", () => hanging.delete(response));
      return;
    }
    if (script.kind === "hang" || script.kind === "malformed" || script.kind === "stream-error") {
      const before = resolveScript({ kind: "reply", text: script.afterText ?? "" }, request);
      const events = wire.streamEvents(before, context);
      // The opening events and the text so far; never the events that would finish the answer.
      const opening = [...events.start, ...events.content];
      if (!matched.stream && script.kind !== "hang") return sendError(response, 500, { message: "The fake cannot break a whole answer" });
      startStream(response);
      for (const event of opening) response.write(event);
      if (script.kind === "malformed") {
        response.write(wire.malformedEvent());
        response.end();
      } else if (script.kind === "stream-error") {
        response.write(wire.streamError(script));
        response.end();
      } else {
        hanging.add(response);
        response.on("close", () => hanging.delete(response));
      }
      return;
    }
    script = script as Extract<FakeScript, { kind: "reply" | "tool-call" }>;
    const resolved = resolveScript(script, request);
    if (!matched.stream) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(wire.whole(resolved, context)));
      return;
    }
    const parts = wire.streamEvents(resolved, context);
    const events = [...parts.start, ...parts.content, ...parts.end];
    startStream(response);
    if (instant) {
      response.end(events.join(""));
      return;
    }
    const delay = script.kind === "reply" ? (script.delayMs ?? 0) : 0;
    for (const event of events) {
      if (response.destroyed) return;
      response.write(event);
      if (delay > 0) await sleep(delay);
    }
    response.end();
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end(String(error));
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: LlmFake = {
    origin,
    url: `${origin}${wire.basePath}`,
    requests,
    reply(options) {
      queue.push({ kind: "reply", ...(typeof options === "string" ? { text: options } : options) });
      return fake;
    },
    replyToolCall(call, options = {}) {
      queue.push({ kind: "tool-call", calls: Array.isArray(call) ? call : [call], ...options });
      return fake;
    },
    fail(status, options = {}) {
      queue.push({ kind: "fail", status, ...options });
      return fake;
    },
    hang(options = {}) {
      queue.push({ kind: "hang", ...options });
      return fake;
    },
    dropConnection() {
      queue.push({ kind: "drop" });
      return fake;
    },
    malformed(options = {}) {
      queue.push({ kind: "malformed", ...options });
      return fake;
    },
    streamError(options = {}) {
      queue.push({ kind: "stream-error", ...options });
      return fake;
    },
    always(options) {
      standing = options;
      return fake;
    },
    pending: () => queue.length,
    reset() {
      queue.length = 0;
      requests.length = 0;
      standing = undefined;
    },
    async close() {
      for (const response of hanging) response.destroy();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
  return fake;
}

/** Frames one server-sent event: `event:` line when named, then the JSON `data:` line. */
export function sseEvent(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}
