import { type CallContext, type FakeFailOptions, type LlmFake, type Resolved, sseEvent, startLlmFake, type VendorWire } from "./llm-common";

export type { LlmFake } from "./llm-common";

/** Options for {@link startAnthropicFake}. */
export interface AnthropicFakeOptions {
  /** When set, requests without `x-api-key: <apiKey>` get Anthropic's 401 authentication_error. */
  apiKey?: string;
}

const errorTypes: Record<number, { type: string; message: string }> = {
  400: { type: "invalid_request_error", message: "Invalid request." },
  401: { type: "authentication_error", message: "invalid x-api-key" },
  403: { type: "permission_error", message: "Your API key does not have permission to use the specified resource." },
  404: { type: "not_found_error", message: "The requested resource could not be found." },
  413: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." },
  429: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit." },
  500: { type: "api_error", message: "Internal server error" },
  529: { type: "overloaded_error", message: "Overloaded" },
};

function stopReasonOf(resolved: Resolved): string {
  return resolved.finishReason ?? (resolved.calls.length > 0 ? "tool_use" : "end_turn");
}

function messageStart(resolved: Resolved, context: CallContext) {
  return {
    type: "message_start",
    message: {
      id: `msg_${context.id}`,
      type: "message",
      role: "assistant",
      content: [],
      model: context.model,
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: resolved.usage.promptTokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
    },
  };
}

/** The Messages API wire format (`/v1/messages`), as Anthropic documents its streaming events. */
export const anthropicWire: VendorWire = {
  basePath: "/v1",
  match(request) {
    if (request.method !== "POST" || request.path !== "/v1/messages") return undefined;
    const body = (request.body ?? {}) as { model?: string; stream?: boolean };
    return { model: body.model ?? "unknown", stream: body.stream === true };
  },
  streamEvents(resolved, context) {
    const start = [sseEvent(messageStart(resolved, context), "message_start")];
    const content: string[] = [];
    let index = 0;
    if (resolved.pieces.length > 0) {
      content.push(sseEvent({ type: "content_block_start", index, content_block: { type: "text", text: "" } }, "content_block_start"));
      content.push(sseEvent({ type: "ping" }, "ping"));
      for (const piece of resolved.pieces) {
        content.push(sseEvent({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }, "content_block_delta"));
      }
      content.push(sseEvent({ type: "content_block_stop", index }, "content_block_stop"));
      index += 1;
    }
    for (const call of resolved.calls) {
      content.push(
        sseEvent({ type: "content_block_start", index, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } }, "content_block_start"),
      );
      const middle = Math.ceil(call.arguments.length / 2);
      for (const piece of [call.arguments.slice(0, middle), call.arguments.slice(middle)]) {
        if (piece)
          content.push(sseEvent({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } }, "content_block_delta"));
      }
      content.push(sseEvent({ type: "content_block_stop", index }, "content_block_stop"));
      index += 1;
    }
    const end = [
      sseEvent(
        {
          type: "message_delta",
          delta: { stop_reason: stopReasonOf(resolved), stop_sequence: null },
          usage: { output_tokens: resolved.usage.completionTokens },
        },
        "message_delta",
      ),
      sseEvent({ type: "message_stop" }, "message_stop"),
    ];
    return { start, content, end };
  },
  whole(resolved, context) {
    const text = resolved.pieces.join("");
    return {
      id: `msg_${context.id}`,
      type: "message",
      role: "assistant",
      model: context.model,
      content: [
        ...(text ? [{ type: "text", text }] : []),
        ...resolved.calls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: JSON.parse(call.arguments || "{}") as unknown })),
      ],
      stop_reason: stopReasonOf(resolved),
      stop_sequence: null,
      usage: { input_tokens: resolved.usage.promptTokens, output_tokens: resolved.usage.completionTokens },
    };
  },
  error(status, options: FakeFailOptions) {
    const known = errorTypes[status] ?? errorTypes[status >= 500 ? 500 : 400]!;
    return {
      body: { type: "error", error: { type: options.type ?? known.type, message: options.message ?? known.message } },
      headers: { "request-id": `req_${Date.now().toString(36)}` },
    };
  },
  streamError(options) {
    return sseEvent({ type: "error", error: { type: options.type ?? "overloaded_error", message: options.message ?? "Overloaded" } }, "error");
  },
  malformedEvent() {
    return 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del\n\n';
  },
};

/**
 * Starts a fake Anthropic Messages API on 127.0.0.1: `POST /v1/messages` streaming
 * `message_start`, `content_block_start` / `content_block_delta` (`text_delta`,
 * `input_json_delta`) / `content_block_stop`, `message_delta` with usage and `message_stop`, or a
 * whole message; errors as `{ type: "error", error: { type, message } }` (429
 * `rate_limit_error` with `retry-after`, 529 `overloaded_error`). Configure `fake.url` as the
 * base URL.
 */
export function startAnthropicFake(options: AnthropicFakeOptions = {}): Promise<LlmFake> {
  return startLlmFake({
    ...anthropicWire,
    ...(options.apiKey
      ? { authorize: (request) => (request.headers["x-api-key"] === options.apiKey ? undefined : { kind: "fail" as const, status: 401 }) }
      : {}),
  });
}
