import type { TokenUsage } from "../platform/llm/types";

/** Integer credits charged per 1,000 prompt tokens and per 1,000 completion tokens. */
export interface ModelPrice {
  prompt: number;
  completion: number;
}

/**
 * Per-model credit prices, the one table the engine charges by. One credit is about
 * US$0.0001 at the vendor's list price, rounded up to whole credits (so no model is free by
 * accident); prices in yuan were converted at about 7.2 per dollar.
 */
export const modelPrices: Readonly<Record<string, ModelPrice>> = {
  "gpt-4.1": { prompt: 20, completion: 80 },
  "gpt-4.1-mini": { prompt: 4, completion: 16 },
  "gpt-4.1-nano": { prompt: 1, completion: 4 },
  "gpt-4o": { prompt: 25, completion: 100 },
  "gpt-4o-mini": { prompt: 2, completion: 6 },
  "gpt-5": { prompt: 13, completion: 100 },
  "gpt-5-mini": { prompt: 3, completion: 20 },
  "gpt-5-nano": { prompt: 1, completion: 4 },
  o3: { prompt: 20, completion: 80 },
  "o4-mini": { prompt: 11, completion: 44 },
  "gpt-3.5-turbo": { prompt: 5, completion: 15 },
  "claude-opus-4-1": { prompt: 150, completion: 750 },
  "claude-sonnet-4-5": { prompt: 30, completion: 150 },
  "claude-sonnet-4-0": { prompt: 30, completion: 150 },
  "claude-haiku-4-5": { prompt: 10, completion: 50 },
  "claude-3-5-haiku-latest": { prompt: 8, completion: 40 },
  "gemini-2.5-pro": { prompt: 13, completion: 100 },
  "gemini-2.5-flash": { prompt: 3, completion: 25 },
  "gemini-2.5-flash-lite": { prompt: 1, completion: 4 },
  "gemini-2.0-flash": { prompt: 1, completion: 4 },
  "deepseek-chat": { prompt: 3, completion: 11 },
  "deepseek-reasoner": { prompt: 6, completion: 22 },
  "qwen-max": { prompt: 16, completion: 64 },
  "qwen-plus": { prompt: 4, completion: 12 },
  "qwen-turbo": { prompt: 1, completion: 2 },
  "qwen-long": { prompt: 1, completion: 3 },
  "qwen-vl-max": { prompt: 5, completion: 13 },
  "qwen-vl-plus": { prompt: 3, completion: 7 },
  "moonshot-v1-8k": { prompt: 17, completion: 17 },
  "moonshot-v1-32k": { prompt: 34, completion: 34 },
  "moonshot-v1-128k": { prompt: 84, completion: 84 },
  "kimi-k2-0905-preview": { prompt: 6, completion: 25 },
  "glm-4-plus": { prompt: 7, completion: 7 },
  "glm-4-flash": { prompt: 1, completion: 1 },
  "glm-4.5": { prompt: 3, completion: 11 },
  "glm-4v-plus": { prompt: 6, completion: 6 },
  // Open models usually run on the owner's own hardware: a token price that only meters use.
  "llama3.1": { prompt: 1, completion: 1 },
  "qwen2.5": { prompt: 1, completion: 1 },
  "llama3.2-vision": { prompt: 1, completion: 1 },
  gemma3: { prompt: 1, completion: 1 },
  "parley-offline": { prompt: 0, completion: 0 },
};

/** The price of a model missing from {@link modelPrices} (a self-hosted or new model). */
export const defaultModelPrice: ModelPrice = { prompt: 10, completion: 30 };

/** The price row for a model id. */
export function priceOf(modelId: string): ModelPrice {
  return modelPrices[modelId] ?? defaultModelPrice;
}

/**
 * Credits one answer costs: prompt and completion tokens at the model's per-1,000 prices, the
 * sum rounded up to a whole credit (a non-free model never charges 0 for a non-empty answer).
 * Negative or fractional token counts are treated as 0 and rounded down respectively.
 */
export function creditsFor(modelId: string, usage: TokenUsage): number {
  const price = priceOf(modelId);
  const prompt = Math.max(0, Math.floor(usage.promptTokens));
  const completion = Math.max(0, Math.floor(usage.completionTokens));
  return Math.ceil((prompt * price.prompt + completion * price.completion) / 1000);
}

/**
 * Credits per rerank call, by model: one call scores up to 30 passages. Cohere lists US$2 per
 * 1,000 searches (20 credits at one credit per US$0.0001); Jina bills tokens, about 5,000 per call.
 */
export const rerankPrices: Readonly<Record<string, number>> = {
  "rerank-v3.5": 20,
  "rerank-english-v3.0": 20,
  "rerank-multilingual-v3.0": 20,
  "jina-reranker-v2-base-multilingual": 1,
  "jina-reranker-m0": 1,
};

/** What a rerank model missing from {@link rerankPrices} costs per call: a self-hosted model, metered only. */
export const defaultRerankPrice = 1;

/** Integer credits one call to a rerank model costs. */
export function rerankCreditsPerCall(modelId: string): number {
  return rerankPrices[modelId] ?? defaultRerankPrice;
}

/**
 * Credits per started minute of audio, by transcription model, at one credit per US$0.0001:
 * OpenAI's whisper-1 and gpt-4o-transcribe list US$0.006 a minute (60 credits),
 * gpt-4o-mini-transcribe US$0.003 (30).
 */
export const transcriptionPricesPerMinute: Readonly<Record<string, number>> = {
  "whisper-1": 60,
  "gpt-4o-transcribe": 60,
  "gpt-4o-mini-transcribe": 30,
};

/** What a transcription model missing from {@link transcriptionPricesPerMinute} costs a minute: a self-hosted or copied model, priced as whisper-1. */
export const defaultTranscriptionPricePerMinute = 60;

/** Integer credits transcribing `seconds` of audio costs: the per-minute price times the minutes, rounded up to a whole credit. */
export function transcriptionCredits(modelId: string, seconds: number): number {
  const perMinute = transcriptionPricesPerMinute[modelId] ?? defaultTranscriptionPricePerMinute;
  return Math.ceil((Math.max(0, seconds) * perMinute) / 60);
}

/**
 * Credits per image, by model and size, at one credit per US$0.0001 of the vendor's list price:
 * DALL·E 3 standard US$0.04 (1024²) and US$0.08 (1792×1024, 1024×1792); DALL·E 2 US$0.016,
 * 0.018 and 0.02 (256², 512², 1024²); gpt-image-1 medium about US$0.042. Midjourney is a flat
 * 500 credits per task (a grid, an upscale or a variation), about what one fast-hour minute of
 * its Standard plan costs; any other model is metered at 400 per image.
 */
export const imagePrices: Readonly<Record<string, Readonly<Record<string, number>> & { default: number }>> = {
  "dall-e-3": { default: 400, "1024x1024": 400, "1792x1024": 800, "1024x1792": 800 },
  "dall-e-2": { default: 200, "256x256": 160, "512x512": 180, "1024x1024": 200 },
  "gpt-image-1": { default: 420 },
  midjourney: { default: 500 },
};

/** What an image of a model missing from {@link imagePrices} costs. */
export const defaultImagePrice = 400;

/** What one Midjourney task costs, whatever it draws (a grid of four counts as one). */
export const MIDJOURNEY_TASK_CREDITS = 500;

/**
 * Integer credits an image task costs: per image for OpenAI-style models, flat per task for
 * Midjourney (format `midjourney`, whatever its model id).
 */
export function imageTaskCredits(modelId: string, format: "openai" | "midjourney", size: string, count: number): number {
  if (format === "midjourney") return imagePrices[modelId]?.default ?? MIDJOURNEY_TASK_CREDITS;
  const row = imagePrices[modelId];
  const each = row ? (row[size] ?? row.default) : defaultImagePrice;
  return each * Math.max(1, Math.floor(count));
}

/**
 * US$ per million characters read aloud, by speech model (issue 21): OpenAI lists tts-1 at $15,
 * tts-1-hd at $30; Azure neural voices at $15 (pay as you go). Credits per call: characters ×
 * price, one credit per US$0.0001, rounded up.
 */
export const speechPricesPerMillionChars: Readonly<Record<string, number>> = {
  "tts-1": 15,
  "tts-1-hd": 30,
  "gpt-4o-mini-tts": 12,
  "azure-neural": 15,
};

/** What a speech model missing from {@link speechPricesPerMillionChars} costs: the price of tts-1. */
export const defaultSpeechPricePerMillionChars = 15;

/** Integer credits reading `characters` characters aloud with a speech model costs (at least 1 for any text). */
export function speechCredits(modelId: string, characters: number): number {
  const price = speechPricesPerMillionChars[modelId] ?? defaultSpeechPricePerMillionChars;
  // US$ per million characters → credits (US$0.0001 each) per character: price × 10 000 / 1 000 000.
  return Math.ceil((Math.max(0, characters) * price) / 100);
}
