import type { ServerResponse } from "node:http";
import { type CallContext, type FakeFailOptions, type LlmFake, type Resolved, sseEvent, startLlmFake, type VendorWire } from "./llm-common";

export type { FakeFailOptions, FakeReplyOptions, FakeRequest, FakeToolCall, FakeUsage, LlmFake } from "./llm-common";

/** Options for {@link startOpenAiFake}. */
export interface OpenAiFakeOptions {
  /** When set, requests without `Authorization: Bearer <apiKey>` get OpenAI's 401. */
  apiKey?: string;
  /** Ids `GET /v1/models` lists (default: gpt-4.1-mini, gpt-4o-mini). */
  models?: string[];
}

const errorTypes: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: "invalid_request_error", code: null, message: "Invalid request." },
  401: {
    type: "invalid_request_error",
    code: "invalid_api_key",
    message: "Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.",
  },
  403: { type: "invalid_request_error", code: "unsupported_country_region_territory", message: "Country, region, or territory not supported" },
  404: { type: "invalid_request_error", code: "model_not_found", message: "The model does not exist or you do not have access to it." },
  429: { type: "requests", code: "rate_limit_exceeded", message: "Rate limit reached for requests. Please try again later." },
  500: { type: "server_error", code: null, message: "The server had an error while processing your request. Sorry about that!" },
  503: { type: "server_error", code: null, message: "The engine is currently overloaded, please try again later" },
};

function openAiError(status: number, options: FakeFailOptions) {
  const known = errorTypes[status] ?? errorTypes[status >= 500 ? 500 : 400]!;
  return { error: { message: options.message ?? known.message, type: options.type ?? known.type, param: null, code: known.code } };
}

function finishReasonOf(resolved: Resolved): string {
  return resolved.finishReason ?? (resolved.calls.length > 0 ? "tool_calls" : "stop");
}

function chunk(context: CallContext, delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: `chatcmpl-${context.id}`,
    object: "chat.completion.chunk",
    created: context.created,
    model: context.model,
    system_fingerprint: "fp_fake",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
}

/** The Chat Completions wire format (`/v1/chat/completions`), as OpenAI documents it. */
export const openAiWire: VendorWire = {
  basePath: "/v1",
  match(request) {
    if (request.method !== "POST" || request.path !== "/v1/chat/completions") return undefined;
    const body = (request.body ?? {}) as { model?: string; stream?: boolean };
    return { model: body.model ?? "unknown", stream: body.stream === true };
  },
  other(request, response: ServerResponse) {
    if (request.method === "GET" && request.path === "/v1/models") {
      const ids = ((this as VendorWire & { models?: string[] }).models ?? ["gpt-4.1-mini", "gpt-4o-mini"]) as string[];
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ object: "list", data: ids.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "system" })) }));
      return true;
    }
    return false;
  },
  streamEvents(resolved, context) {
    const start = [sseEvent(chunk(context, { role: "assistant", content: "", refusal: null }))];
    const content = resolved.pieces.map((piece) => sseEvent(chunk(context, { content: piece })));
    resolved.calls.forEach((call, index) => {
      content.push(sseEvent(chunk(context, { tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] })));
      // Arguments arrive in pieces, as the real API streams them.
      const middle = Math.ceil(call.arguments.length / 2);
      for (const piece of [call.arguments.slice(0, middle), call.arguments.slice(middle)]) {
        if (piece) content.push(sseEvent(chunk(context, { tool_calls: [{ index, function: { arguments: piece } }] })));
      }
    });
    const end = [sseEvent(chunk(context, {}, finishReasonOf(resolved)))];
    if (context.includeUsage) {
      end.push(
        sseEvent({
          id: `chatcmpl-${context.id}`,
          object: "chat.completion.chunk",
          created: context.created,
          model: context.model,
          system_fingerprint: "fp_fake",
          choices: [],
          usage: {
            prompt_tokens: resolved.usage.promptTokens,
            completion_tokens: resolved.usage.completionTokens,
            total_tokens: resolved.usage.promptTokens + resolved.usage.completionTokens,
          },
        }),
      );
    }
    end.push("data: [DONE]\n\n");
    return { start, content, end };
  },
  whole(resolved, context) {
    const text = resolved.pieces.join("");
    return {
      id: `chatcmpl-${context.id}`,
      object: "chat.completion",
      created: context.created,
      model: context.model,
      system_fingerprint: "fp_fake",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: text === "" && resolved.calls.length > 0 ? null : text,
            refusal: null,
            ...(resolved.calls.length > 0
              ? { tool_calls: resolved.calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })) }
              : {}),
          },
          logprobs: null,
          finish_reason: finishReasonOf(resolved),
        },
      ],
      usage: {
        prompt_tokens: resolved.usage.promptTokens,
        completion_tokens: resolved.usage.completionTokens,
        total_tokens: resolved.usage.promptTokens + resolved.usage.completionTokens,
      },
    };
  },
  error(status, options) {
    return { body: openAiError(status, options) };
  },
  streamError(options) {
    return sseEvent({
      error: {
        message: options.message ?? "The server had an error while processing your request.",
        type: options.type ?? "server_error",
        param: null,
        code: null,
      },
    });
  },
  malformedEvent() {
    return 'data: {"id":"chatcmpl-broken","choices":[{"delta":{"content":"unterminated\n\n';
  },
};

/**
 * Starts a fake OpenAI Chat Completions server on 127.0.0.1: `POST /v1/chat/completions`
 * (stream and non-stream, `usage` chunk when `stream_options.include_usage`, `data: [DONE]`),
 * `GET /v1/models`, and OpenAI's error bodies `{ error: { message, type, param, code } }`.
 * Point `OPENAI_BASE_URL` (or a provider's base URL) at `fake.url`.
 */
export function startOpenAiFake(options: OpenAiFakeOptions = {}): Promise<LlmFake> {
  const wire: VendorWire & { models?: string[] } = {
    ...openAiWire,
    ...(options.models ? { models: options.models } : {}),
    ...(options.apiKey
      ? {
          authorize: (request) => (request.headers.authorization === `Bearer ${options.apiKey}` ? undefined : { kind: "fail" as const, status: 401 }),
        }
      : {}),
  };
  wire.other = openAiWire.other!.bind(wire);
  return startLlmFake(wire);
}
