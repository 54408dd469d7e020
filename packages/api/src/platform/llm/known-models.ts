/**
 * What Parley knows about common model ids, in one table: context window (tokens), whether the
 * model takes tools, and a label. Ids not listed get {@link unknownModel}'s values. The windows
 * are the vendors' published input limits; an owner serving a model with another limit (a local
 * vLLM with a shorter `--max-model-len`, say) gets the published figure here.
 */
export interface KnownModel {
  contextWindow: number;
  supportsTools: boolean;
  /** Whether the model reads images given with a message (vision). */
  supportsImages?: boolean;
  label: string;
}

/** Context windows and capabilities of common model ids, keyed by the id vendors use. */
export const knownModels: Readonly<Record<string, KnownModel>> = {
  // OpenAI
  "gpt-4.1": { supportsImages: true, contextWindow: 1_047_576, supportsTools: true, label: "GPT-4.1" },
  "gpt-4.1-mini": { supportsImages: true, contextWindow: 1_047_576, supportsTools: true, label: "GPT-4.1 mini" },
  "gpt-4.1-nano": { supportsImages: true, contextWindow: 1_047_576, supportsTools: true, label: "GPT-4.1 nano" },
  "gpt-4o": { supportsImages: true, contextWindow: 128_000, supportsTools: true, label: "GPT-4o" },
  "gpt-4o-mini": { supportsImages: true, contextWindow: 128_000, supportsTools: true, label: "GPT-4o mini" },
  "gpt-5": { supportsImages: true, contextWindow: 400_000, supportsTools: true, label: "GPT-5" },
  "gpt-5-mini": { supportsImages: true, contextWindow: 400_000, supportsTools: true, label: "GPT-5 mini" },
  "gpt-5-nano": { supportsImages: true, contextWindow: 400_000, supportsTools: true, label: "GPT-5 nano" },
  o3: { supportsImages: true, contextWindow: 200_000, supportsTools: true, label: "o3" },
  "o4-mini": { supportsImages: true, contextWindow: 200_000, supportsTools: true, label: "o4-mini" },
  "gpt-3.5-turbo": { contextWindow: 16_385, supportsTools: true, label: "GPT-3.5 Turbo" },
  // Anthropic
  "claude-opus-4-1": { supportsImages: true, contextWindow: 200_000, supportsTools: true, label: "Claude Opus 4.1" },
  "claude-sonnet-4-5": { supportsImages: true, contextWindow: 200_000, supportsTools: true, label: "Claude Sonnet 4.5" },
  "claude-sonnet-4-0": { supportsImages: true, contextWindow: 200_000, supportsTools: true, label: "Claude Sonnet 4" },
  "claude-haiku-4-5": { supportsImages: true, contextWindow: 200_000, supportsTools: true, label: "Claude Haiku 4.5" },
  "claude-3-5-haiku-latest": { supportsImages: true, contextWindow: 200_000, supportsTools: true, label: "Claude 3.5 Haiku" },
  // Google
  "gemini-2.5-pro": { supportsImages: true, contextWindow: 1_048_576, supportsTools: true, label: "Gemini 2.5 Pro" },
  "gemini-2.5-flash": { supportsImages: true, contextWindow: 1_048_576, supportsTools: true, label: "Gemini 2.5 Flash" },
  "gemini-2.5-flash-lite": { supportsImages: true, contextWindow: 1_048_576, supportsTools: true, label: "Gemini 2.5 Flash-Lite" },
  "gemini-2.0-flash": { supportsImages: true, contextWindow: 1_048_576, supportsTools: true, label: "Gemini 2.0 Flash" },
  // DeepSeek
  "deepseek-chat": { contextWindow: 128_000, supportsTools: true, label: "DeepSeek-V3 (chat)" },
  "deepseek-reasoner": { contextWindow: 128_000, supportsTools: false, label: "DeepSeek-R1 (reasoner)" },
  // Qwen (DashScope)
  "qwen-max": { contextWindow: 32_768, supportsTools: true, label: "Qwen Max" },
  "qwen-plus": { contextWindow: 131_072, supportsTools: true, label: "Qwen Plus" },
  "qwen-turbo": { contextWindow: 1_000_000, supportsTools: true, label: "Qwen Turbo" },
  "qwen-long": { contextWindow: 10_000_000, supportsTools: false, label: "Qwen Long" },
  // Moonshot
  "moonshot-v1-8k": { contextWindow: 8_192, supportsTools: true, label: "Moonshot v1 8k" },
  "moonshot-v1-32k": { contextWindow: 32_768, supportsTools: true, label: "Moonshot v1 32k" },
  "moonshot-v1-128k": { contextWindow: 131_072, supportsTools: true, label: "Moonshot v1 128k" },
  "kimi-k2-0905-preview": { contextWindow: 262_144, supportsTools: true, label: "Kimi K2" },
  // Zhipu
  "glm-4-plus": { contextWindow: 128_000, supportsTools: true, label: "GLM-4 Plus" },
  "glm-4-flash": { contextWindow: 128_000, supportsTools: true, label: "GLM-4 Flash" },
  "glm-4.5": { contextWindow: 128_000, supportsTools: true, label: "GLM-4.5" },
  "qwen-vl-max": { supportsImages: true, contextWindow: 131_072, supportsTools: true, label: "Qwen-VL Max" },
  "qwen-vl-plus": { supportsImages: true, contextWindow: 131_072, supportsTools: true, label: "Qwen-VL Plus" },
  "glm-4v-plus": { supportsImages: true, contextWindow: 16_000, supportsTools: false, label: "GLM-4V Plus" },
  // Ollama / vLLM favourites
  "llama3.2-vision": { supportsImages: true, contextWindow: 128_000, supportsTools: false, label: "Llama 3.2 Vision" },
  gemma3: { supportsImages: true, contextWindow: 128_000, supportsTools: false, label: "Gemma 3" },
  "llama3.1": { contextWindow: 128_000, supportsTools: true, label: "Llama 3.1" },
  "qwen2.5": { contextWindow: 32_768, supportsTools: true, label: "Qwen2.5" },
  // Parley
  "parley-offline": { contextWindow: 32_768, supportsTools: false, label: "Offline responder (no language model)" },
};

/** What an id missing from {@link knownModels} is assumed to offer. */
export const unknownModel: Omit<KnownModel, "label"> = { contextWindow: 8_192, supportsTools: true };

/**
 * Ids of models served under names the table does not list that read images: dated snapshots and
 * fine-tunes of vision families, and the usual names of vision models on local servers.
 */
const visionNames = /^(gpt-4o|gpt-4\.1|gpt-5|o3|o4|claude-|gemini-)|vision|[-_.]vl\b|\bvl[-_]|llava|pixtral|gemma-?3|glm-4(\.\d)?v/i;

/** The table entry for a model id, or the conservative defaults with the id as its label. */
export function describeModel(modelId: string): KnownModel {
  return knownModels[modelId] ?? { ...unknownModel, supportsImages: visionNames.test(modelId), label: modelId };
}

/** Whether a model id reads images. */
export function readsImages(modelId: string): boolean {
  return describeModel(modelId).supportsImages === true;
}
