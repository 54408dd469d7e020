import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { streamFromLanguageModel } from "./ai-sdk-stream";
import { describeModel } from "./known-models";
import type { LanguageModelProvider, ModelInfo, ModelRequest, ModelStreamPart } from "./types";

/** Vendor kinds that call a remote API. */
export type VendorKind = "openai" | "openai-compatible" | "anthropic" | "gemini";

/** Settings of one remote provider, from config or from the owner's `model_providers` row. */
export interface VendorSettings {
  /** Catalogue id of the provider: `env-openai` for config entries, the row id otherwise. */
  id: string;
  kind: VendorKind;
  /** Display name, e.g. `DeepSeek`. */
  name: string;
  /** API root including its version segment where the vendor has one; defaults per kind. */
  baseUrl?: string;
  apiKey?: string;
  /** Model ids this provider serves. */
  models: readonly string[];
  /** Idle timeout per call (ms): for the answer to start and between chunks. Default 60 000. */
  timeoutMs?: number;
  /** HTTP client; tests and proxies may pass their own. */
  fetch?: typeof globalThis.fetch;
}

/** The API root a kind uses when none is configured. */
export const defaultBaseUrls: Record<VendorKind, string | undefined> = {
  openai: "https://api.openai.com/v1",
  "openai-compatible": undefined,
  anthropic: "https://api.anthropic.com/v1",
  gemini: "https://generativelanguage.googleapis.com/v1beta",
};

/**
 * Normalizes a configured base URL: no trailing slash; Anthropic's root gains `/v1` and Gemini's
 * `/v1beta` when the operator gave the bare host (as the vendors' own SDKs take it).
 */
export function normalizeBaseUrl(kind: VendorKind, baseUrl: string | undefined): string | undefined {
  const trimmed = baseUrl?.trim().replace(/\/+$/, "");
  if (!trimmed) return defaultBaseUrls[kind];
  if (kind === "anthropic" && !/\/v\d+$/.test(trimmed)) return `${trimmed}/v1`;
  if (kind === "gemini" && !/\/v\d+(alpha|beta)?$/.test(trimmed)) return `${trimmed}/v1beta`;
  return trimmed;
}

// Local servers (Ollama, vLLM) take no key: send no Authorization header rather than an empty one.
function withoutEmptyAuthorization(base: typeof globalThis.fetch): typeof globalThis.fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (/^Bearer\s*$/i.test(headers.get("authorization") ?? "x")) headers.delete("authorization");
    return base(input, { ...init, headers });
  };
}

// Connection failures that happen before any byte of an answer: most often a kept-alive socket
// the vendor (or a proxy) closed just as it was reused. Vendors' own SDKs retry these.
const connectionResetCodes = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED"]);

function isConnectionReset(error: unknown): boolean {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && connectionResetCodes.has(code)) return true;
  }
  return false;
}

/**
 * Sends a request again, up to twice, when its connection was reset before the answer began.
 * Several pooled sockets can go stale at once (a busy event loop reads the vendor's close late),
 * so one retry is not always enough: in a loaded soak 1 of 37 retries met a second stale socket.
 * Only a rejected fetch is retried (a reset after the headers surfaces from the body, where bytes
 * may already have reached the reader), and only a body that can be sent again.
 */
export function retryingConnectionResets(base: typeof globalThis.fetch, retries = 2): typeof globalThis.fetch {
  return async (input, init) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await base(input, init);
      } catch (error) {
        const body = init?.body;
        const resendable = body === undefined || body === null || typeof body === "string";
        if (attempt >= retries || !resendable || init?.signal?.aborted || !isConnectionReset(error)) throw error;
      }
    }
  };
}

function languageModelFactory(settings: VendorSettings): (modelId: string) => LanguageModelV3 {
  const apiKey = settings.apiKey ?? "";
  const baseURL = normalizeBaseUrl(settings.kind, settings.baseUrl);
  const fetch = retryingConnectionResets(withoutEmptyAuthorization(settings.fetch ?? globalThis.fetch));
  switch (settings.kind) {
    case "openai": {
      // `.chat` speaks Chat Completions, which every OpenAI-compatible server also serves.
      const provider = createOpenAI({ apiKey, ...(baseURL ? { baseURL } : {}), fetch });
      return (modelId) => provider.chat(modelId);
    }
    case "openai-compatible": {
      if (!baseURL) throw new Error(`Provider ${settings.name} needs a base URL`);
      const provider = createOpenAICompatible({ name: "openai-compatible", baseURL, apiKey, includeUsage: true, fetch });
      return (modelId) => provider.chatModel(modelId);
    }
    case "anthropic": {
      const provider = createAnthropic({ apiKey, ...(baseURL ? { baseURL } : {}), fetch });
      return (modelId) => provider.messages(modelId);
    }
    case "gemini": {
      const provider = createGoogleGenerativeAI({ apiKey, ...(baseURL ? { baseURL } : {}), fetch });
      return (modelId) => provider.chat(modelId);
    }
  }
}

/**
 * A provider that calls a vendor API through its AI SDK provider package (`@ai-sdk/openai`,
 * `@ai-sdk/openai-compatible`, `@ai-sdk/anthropic`, `@ai-sdk/google`). No retries happen here:
 * failures surface at once as {@link ModelError}s and the engine decides what to do.
 */
export function createVendorProvider(settings: VendorSettings): LanguageModelProvider {
  const build = languageModelFactory(settings);
  const cache = new Map<string, LanguageModelV3>();
  const timeoutMs = settings.timeoutMs ?? 60_000;
  const redact = settings.apiKey ? [settings.apiKey] : [];
  const infos: ModelInfo[] = settings.models.map((id) => {
    const known = describeModel(id);
    return {
      id,
      providerId: settings.id,
      providerKind: settings.kind,
      label: known.label === id ? `${id} (${settings.name})` : known.label,
      contextWindow: known.contextWindow,
      supportsTools: known.supportsTools,
      supportsImages: known.supportsImages === true,
      offline: false,
    };
  });
  return {
    id: settings.id,
    kind: settings.kind,
    models: () => infos,
    stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      let model = cache.get(request.model);
      if (!model) {
        model = build(request.model);
        cache.set(request.model, model);
      }
      return streamFromLanguageModel(model, request, { provider: settings.name, timeoutMs, redact });
    },
  };
}
