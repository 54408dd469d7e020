import type { ModelMessage } from "./types";

// CJK ideographs, kana, hangul and full-width punctuation: tokenizers of the common model
// families spend about one token on each such character.
const WIDE = /[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF00-\uFFEF]/gu;

/**
 * Estimates how many tokens a text costs, for when a vendor reports no usage and for the offline
 * responder. The heuristic: each CJK (wide) character is one token; the rest of the text is one
 * token per four characters, rounded up. It over-counts dense code slightly and under-counts
 * rare scripts; it is meant for credits and context checks, not for exact limits.
 */
export function estimateTokens(text: string): number {
  if (text.length === 0) return 0;
  const wide = text.match(WIDE)?.length ?? 0;
  const rest = text.length - wide;
  return wide + Math.ceil(rest / 4);
}

/**
 * What one image is estimated to cost in prompt tokens when the vendor does not say: OpenAI
 * bills a 1024×1024 image at high detail as 765 tokens, Anthropic about (width × height) / 750
 * (≈ 1,400 for 1024²); the estimate takes the larger so holds do not fall short.
 */
export const IMAGE_TOKENS = 1_500;

/**
 * Estimates the prompt tokens of a message list: the text of every message plus four tokens of
 * framing per message (role markers and separators, as chat formats add them), and
 * {@link IMAGE_TOKENS} per image.
 */
export function estimatePromptTokens(messages: readonly ModelMessage[]): number {
  let total = 0;
  for (const message of messages) {
    total += 4 + estimateTokens(message.content);
    if (message.role === "user" && message.images) total += message.images.length * IMAGE_TOKENS;
    if (message.role === "assistant" && message.toolCalls) {
      for (const call of message.toolCalls) total += estimateTokens(call.name) + estimateTokens(call.arguments);
    }
  }
  return total;
}
