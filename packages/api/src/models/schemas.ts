import { z } from "@hono/zod-openapi";
import { rerankFormats } from "../platform/rerank/types";
import { imageFormats } from "../platform/images/types";

const imageFormatSchema = z.enum(imageFormats).openapi({
  description:
    "Its image API: `openai` (`POST {baseUrl}/images/generations`, DALL·E and copies) or `midjourney` (a midjourney-proxy at `baseUrl`, key sent as `mj-api-secret`)",
  example: "openai",
});

const imageModelIds = z
  .array(z.string().trim().min(1).max(200))
  .max(50)
  .openapi({ description: "Image model ids it draws with (the /paint page and the image task API offer them)", example: ["dall-e-3"] });
import { speechFormats } from "../platform/speech/types";

const speechFormatSchema = z.enum(speechFormats).openapi({
  description:
    "Wire format of its speech models: `openai` (`POST {baseUrl}/audio/speech`, OpenAI and compatible servers) or `azure` (Azure Speech REST at `{baseUrl}/cognitiveservices/…`, e.g. `https://westeurope.tts.speech.microsoft.com`)",
  example: "openai",
});

const speechModelIds = z
  .array(z.string().trim().min(1).max(200))
  .max(50)
  .openapi({ description: "Text-to-speech model ids this provider serves; apps may read answers aloud with them", example: ["tts-1"] });

const speechVoiceIds = z
  .array(z.string().trim().min(1).max(100))
  .max(200)
  .openapi({ description: "Voices its `openai`-format speech models offer; empty: OpenAI's documented voices (Azure lists its own)", example: [] });

const rerankFormatSchema = z.enum(rerankFormats).openapi({
  description: "Request body of its `/rerank`: `cohere` (Cohere, Jina: `documents`) or `tei` (`texts`); both answer shapes are read",
  example: "cohere",
});

const providerKinds = ["openai", "openai-compatible", "anthropic", "gemini", "offline"] as const;
const vendorKinds = ["openai", "openai-compatible", "anthropic", "gemini"] as const;

/** A model of the catalogue. */
export const modelSchema = z
  .object({
    id: z.string().openapi({ description: "The id apps and API callers use", example: "gpt-4.1-mini" }),
    label: z.string().openapi({ description: "Human-readable name", example: "GPT-4.1 mini" }),
    providerId: z.string().openapi({ description: "The provider entry serving it: `env-…` (config), `mp_…` (console) or `offline`", example: "env-openai" }),
    providerKind: z.enum(providerKinds).openapi({ description: "Vendor family", example: "openai" }),
    offline: z.boolean().openapi({ description: "True for the built-in offline responder, which answers without a language model", example: false }),
    contextWindow: z.number().int().openapi({ description: "Input limit in tokens", example: 1047576 }),
    supportsTools: z.boolean().openapi({ description: "Whether the model can call plugins (function calling)", example: true }),
    supportsImages: z.boolean().openapi({ description: "Whether the model reads images attached to a message (vision)", example: true }),
    default: z
      .boolean()
      .openapi({ description: "The model used when an app names none (the configured default when served, else the offline responder)", example: true }),
  })
  .openapi("Model");

/** A provider entry as the console shows it; the API key never leaves the server. */
export const modelProviderSchema = z
  .object({
    id: z.string().openapi({ description: "`mp_…` for console entries, `env-…` for entries set by environment variables", example: "mp_01jd7w3k5q9x2m4n6p8r" }),
    kind: z.enum(vendorKinds).openapi({ description: "Wire protocol", example: "openai-compatible" }),
    name: z.string().openapi({ description: "Display name", example: "DeepSeek" }),
    baseUrl: z.string().nullable().openapi({ description: "API root; null means the vendor's public endpoint", example: "https://api.deepseek.com/v1" }),
    hasApiKey: z.boolean().openapi({ description: "Whether an API key is stored (the key itself is write-only)", example: true }),
    apiKeyHint: z.string().nullable().openapi({ description: "A masked hint of the stored key, to tell keys apart", example: "sk-…9f2c" }),
    models: z.array(z.string()).openapi({ description: "Model ids this provider serves", example: ["deepseek-chat", "deepseek-reasoner"] }),
    rerankModels: z.array(z.string()).openapi({ description: "Rerank model ids this provider serves at `POST {baseUrl}/rerank`", example: [] }),
    rerankFormat: rerankFormatSchema,
    transcriptionModels: z
      .array(z.string())
      .openapi({ description: "Speech-to-text model ids this provider serves at `POST {baseUrl}/audio/transcriptions`", example: [] }),
    imageModels: z.array(z.string()).openapi({ description: "Image model ids this provider draws with", example: [] }),
    imageFormat: imageFormatSchema,
    speechModels: z.array(z.string()).openapi({ description: "Text-to-speech model ids this provider serves", example: [] }),
    speechFormat: speechFormatSchema,
    speechVoices: z.array(z.string()).openapi({ description: "Voices of its `openai`-format speech models; empty: OpenAI's documented list", example: [] }),
    enabled: z.boolean().openapi({ description: "Disabled providers serve no models", example: true }),
    source: z
      .enum(["console", "config"])
      .openapi({ description: "`config` entries come from environment variables and are read-only here", example: "console" }),
    createdAt: z.string().nullable().openapi({ description: "ISO time; null for config entries", example: "2025-01-01T00:00:00.000Z" }),
    updatedAt: z.string().nullable().openapi({ description: "ISO time; null for config entries", example: "2025-01-01T00:00:00.000Z" }),
  })
  .openapi("ModelProvider");

const modelIds = z
  .array(z.string().trim().min(1).max(200))
  .max(200)
  .openapi({ description: "Chat model ids this provider serves; a provider needs at least one chat, rerank or speech model", example: ["deepseek-chat"] });

const rerankModelIds = z
  .array(z.string().trim().min(1).max(200))
  .max(50)
  .openapi({
    description: "Rerank model ids served at `POST {baseUrl}/rerank` (TEI, Jina, Cohere-compatible); apps may pick them as their rerank model",
    example: ["bge-reranker-v2-m3"],
  });

const transcriptionModelIds = z
  .array(z.string().trim().min(1).max(200))
  .max(50)
  .openapi({
    description:
      "Speech-to-text model ids served at `POST {baseUrl}/audio/transcriptions` (OpenAI's wire format: whisper-1, gpt-4o-transcribe, and servers that copy it)",
    example: ["whisper-1"],
  });

/** Body of POST /api/v1/model-providers. */
export const createModelProviderBody = z
  .object({
    kind: z
      .enum(vendorKinds)
      .openapi({ description: "`openai-compatible` covers DeepSeek, Qwen/DashScope, Moonshot, Zhipu, Doubao, Ollama, vLLM", example: "openai-compatible" }),
    name: z.string().trim().min(1).max(60).openapi({ description: "Display name", example: "DeepSeek" }),
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .max(500)
      .optional()
      .openapi({ description: "API root including its version path; required for `openai-compatible`", example: "https://api.deepseek.com/v1" }),
    apiKey: z.string().trim().min(1).max(1000).optional().openapi({ description: "Write-only secret; never returned", example: "sk-…" }),
    models: modelIds,
    rerankModels: rerankModelIds.default([]),
    rerankFormat: rerankFormatSchema.default("cohere"),
    transcriptionModels: transcriptionModelIds.default([]),
    imageModels: imageModelIds.default([]),
    imageFormat: imageFormatSchema.default("openai"),
    speechModels: speechModelIds.default([]),
    speechFormat: speechFormatSchema.default("openai"),
    speechVoices: speechVoiceIds.default([]),
    enabled: z.boolean().default(true).openapi({ description: "Serve its models at once", example: true }),
  })
  .openapi("CreateModelProviderRequest");

/** Body of PATCH /api/v1/model-providers/{id}: any subset; `apiKey: null` removes the key. */
export const updateModelProviderBody = z
  .object({
    name: z.string().trim().min(1).max(60).optional().openapi({ example: "DeepSeek (prod)" }),
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .max(500)
      .nullable()
      .optional()
      .openapi({ description: "null returns to the vendor's public endpoint", example: "https://api.deepseek.com/v1" }),
    apiKey: z.string().trim().min(1).max(1000).nullable().optional().openapi({ description: "A new write-only key, or null to remove it", example: "sk-…" }),
    models: modelIds.optional(),
    rerankModels: rerankModelIds.optional(),
    rerankFormat: rerankFormatSchema.optional(),
    transcriptionModels: transcriptionModelIds.optional(),
    imageModels: imageModelIds.optional(),
    imageFormat: imageFormatSchema.optional(),
    speechModels: speechModelIds.optional(),
    speechFormat: speechFormatSchema.optional(),
    speechVoices: speechVoiceIds.optional(),
    enabled: z.boolean().optional().openapi({ example: false }),
  })
  .openapi("UpdateModelProviderRequest");

/** Result of POST /api/v1/model-providers/{id}/test. */
export const providerTestSchema = z
  .object({
    ok: z.boolean().openapi({ description: "Whether the provider answered", example: true }),
    model: z.string().openapi({ description: "The model asked", example: "deepseek-chat" }),
    latencyMs: z.number().int().openapi({ description: "Time until the answer finished (or failed)", example: 412 }),
    reply: z.string().nullable().openapi({ description: "The start of the answer", example: "pong" }),
    error: z
      .object({
        kind: z.enum(["rate_limited", "timeout", "unavailable", "bad_request", "auth", "context_length", "malformed", "aborted"]).openapi({ example: "auth" }),
        message: z.string().openapi({ example: "Incorrect API key provided" }),
        status: z.number().int().nullable().openapi({ description: "The vendor's HTTP status, when there was one", example: 401 }),
      })
      .nullable()
      .openapi({ description: "Why it failed; null when ok" }),
  })
  .openapi("ModelProviderTestResult");

/** A rerank model an app may choose (GET /api/v1/rerank-models). */
export const rerankModelSchema = z
  .object({
    id: z.string().openapi({ description: "The id an app's `rerankModel` names", example: "bge-reranker-v2-m3" }),
    providerId: z.string().openapi({ description: "The provider entry serving it", example: "mp_01jd7w3k5q9x2m4n6p8r" }),
    providerName: z.string().openapi({ description: "The provider's display name", example: "Local TEI" }),
    creditsPerCall: z.number().int().openapi({ description: "Credits one rerank call costs the space", example: 1 }),
  })
  .openapi("RerankModel");

/** A speech-to-text model (GET /api/v1/transcription-models). */
export const transcriptionModelSchema = z
  .object({
    id: z.string().openapi({ description: "The model id", example: "whisper-1" }),
    providerId: z.string().openapi({ description: "The provider entry serving it", example: "mp_01jd7w3k5q9x2m4n6p8r" }),
    providerName: z.string().openapi({ description: "The provider's display name", example: "OpenAI" }),
    creditsPerMinute: z.number().int().openapi({ description: "Credits one minute of audio costs the space", example: 60 }),
  })
  .openapi("TranscriptionModel");
