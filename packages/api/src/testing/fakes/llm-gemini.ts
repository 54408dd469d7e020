import { type CallContext, type FakeFailOptions, type LlmFake, type Resolved, sseEvent, startLlmFake, type VendorWire } from "./llm-common";

export type { LlmFake } from "./llm-common";

/** Options for {@link startGeminiFake}. */
export interface GeminiFakeOptions {
  /** When set, requests without this key (`x-goog-api-key` header or `key` query) get Google's 400 API_KEY_INVALID. */
  apiKey?: string;
}

const statusNames: Record<number, { status: string; message: string }> = {
  400: { status: "INVALID_ARGUMENT", message: "Request contains an invalid argument." },
  401: { status: "UNAUTHENTICATED", message: "Request had invalid authentication credentials." },
  403: { status: "PERMISSION_DENIED", message: "The caller does not have permission" },
  404: { status: "NOT_FOUND", message: "models/unknown is not found for API version v1beta." },
  429: { status: "RESOURCE_EXHAUSTED", message: "Resource has been exhausted (e.g. check quota)." },
  500: {
    status: "INTERNAL",
    message: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
  },
  503: { status: "UNAVAILABLE", message: "The model is overloaded. Please try again later." },
  504: { status: "DEADLINE_EXCEEDED", message: "Deadline expired before operation could complete." },
};

function usageMetadata(resolved: Resolved) {
  return {
    promptTokenCount: resolved.usage.promptTokens,
    candidatesTokenCount: resolved.usage.completionTokens,
    totalTokenCount: resolved.usage.promptTokens + resolved.usage.completionTokens,
  };
}

function candidate(parts: unknown[], finishReason?: string) {
  return { content: { parts, role: "model" }, ...(finishReason ? { finishReason } : {}), index: 0 };
}

function callParts(resolved: Resolved) {
  return resolved.calls.map((call) => ({ functionCall: { name: call.name, args: JSON.parse(call.arguments || "{}") as unknown } }));
}

function response(resolved: Resolved, context: CallContext, parts: unknown[], finish: boolean) {
  return {
    candidates: [candidate(parts, finish ? (resolved.finishReason ?? "STOP") : undefined)],
    usageMetadata: finish ? usageMetadata(resolved) : { promptTokenCount: resolved.usage.promptTokens, totalTokenCount: resolved.usage.promptTokens },
    modelVersion: context.model,
    responseId: context.id,
  };
}

/** The Gemini API wire format (`models/{model}:generateContent` / `:streamGenerateContent?alt=sse`). */
export const geminiWire: VendorWire = {
  basePath: "/v1beta",
  retryAfterHeader: false,
  match(request) {
    const match = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(request.path);
    if (request.method !== "POST" || !match) return undefined;
    return { model: decodeURIComponent(match[1]!), stream: match[2] === "streamGenerateContent" };
  },
  streamEvents(resolved, context) {
    // Gemini has no separate opening event: every chunk is a GenerateContentResponse, the last
    // one carrying finishReason and the full usage.
    const content = resolved.pieces.map((piece) => sseEvent(response(resolved, context, [{ text: piece }], false)));
    const end = [sseEvent(response(resolved, context, resolved.calls.length > 0 ? callParts(resolved) : [{ text: "" }], true))];
    return { start: [], content, end };
  },
  whole(resolved, context) {
    const text = resolved.pieces.join("");
    return response(resolved, context, [...(text ? [{ text }] : []), ...callParts(resolved)], true);
  },
  error(status, options: FakeFailOptions) {
    const known = statusNames[status] ?? statusNames[status >= 500 ? 500 : 400]!;
    const details =
      status === 429 && options.retryAfter !== undefined
        ? [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${options.retryAfter}s` }]
        : undefined;
    return {
      body: { error: { code: status, message: options.message ?? known.message, status: options.type ?? known.status, ...(details ? { details } : {}) } },
    };
  },
  streamError(options) {
    return sseEvent({
      error: { code: 503, message: options.message ?? "The model is overloaded. Please try again later.", status: options.type ?? "UNAVAILABLE" },
    });
  },
  malformedEvent() {
    return 'data: {"candidates":[{"content":{"parts":[{"text":"cut\n\n';
  },
};

/**
 * Starts a fake Gemini API on 127.0.0.1: `POST /v1beta/models/{model}:streamGenerateContent?alt=sse`
 * (SSE of GenerateContentResponse chunks with `candidates[].content.parts` text or
 * `functionCall`, `usageMetadata` on the last) and `:generateContent`; errors as
 * `{ error: { code, message, status } }` (429 RESOURCE_EXHAUSTED with a RetryInfo detail).
 * Configure `fake.url` as the base URL.
 */
export function startGeminiFake(options: GeminiFakeOptions = {}): Promise<LlmFake> {
  return startLlmFake({
    ...geminiWire,
    ...(options.apiKey
      ? {
          authorize: (request) =>
            request.headers["x-goog-api-key"] === options.apiKey || request.query.key === options.apiKey
              ? undefined
              : { kind: "fail" as const, status: 400, message: "API key not valid. Please pass a valid API key.", type: "INVALID_ARGUMENT" },
        }
      : {}),
  });
}
