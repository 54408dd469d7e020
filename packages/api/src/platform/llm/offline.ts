import { describeModel } from "./known-models";
import { estimatePromptTokens, estimateTokens } from "./tokens";
import { type LanguageModelProvider, ModelError, type ModelInfo, type ModelRequest, type ModelStreamPart } from "./types";

/** The model id of the offline responder. */
export const OFFLINE_MODEL_ID = "parley-offline";

/** The provider id of the offline responder. */
export const OFFLINE_PROVIDER_ID = "offline";

const QUOTE_LIMIT = 600;

/** Where the console configures model providers: API access → Models (owner only). */
export const MODELS_PAGE_PATH = "/console/Integrations?tab=models";

const texts = {
  en: {
    intro: (source?: string, cite = "") => (source ? `Here is what I found in "${source}"${cite}:` : `Here is what I found in the knowledge base${cite}:`),
    also: (sources: string[]) => `Related sources: ${sources.map((source) => `"${source}"`).join(", ")}.`,
    note: "(Answered from the knowledge base without a language model.)",
    noModel: (place: string) =>
      `No language model is set up for this app yet, so I cannot answer this question. The owner can add one in the Parley console under ${place}.`,
    place: "API access → Models",
  },
  "zh-CN": {
    intro: (source?: string, cite = "") => (source ? `在《${source}》${cite}中找到以下内容：` : `在知识库${cite}中找到以下内容：`),
    also: (sources: string[]) => `相关来源：${sources.map((source) => `《${source}》`).join("、")}。`,
    note: "（此回答直接来自知识库，未使用语言模型。）",
    noModel: (place: string) => `这个应用还没有可用的语言模型，暂时无法回答这个问题。所有者可以在 Parley 控制台的${place}中添加。`,
    place: "“API 接入 → 模型”",
  },
} as const;

/**
 * The one answer given when no model serves the app and nothing was found, in the request's
 * language. The console (operator audience) gets the place as a Markdown link it routes
 * internally; a visitor, whose widget may sit on another site, gets the same words unlinked.
 */
export function offlineNoModelText(language: "en" | "zh-CN", audience: ModelRequest["audience"]): string {
  const text = texts[language];
  const place = text.place.replace(/^“|”$/g, "");
  const shown = audience === "customer" ? text.place : language === "zh-CN" ? `“[${place}](${MODELS_PAGE_PATH})”` : `[${place}](${MODELS_PAGE_PATH})`;
  return text.noModel(shown);
}

function quote(content: string): string {
  const trimmed = content.trim().replace(/\s+\n/g, "\n");
  const cut = trimmed.length > QUOTE_LIMIT ? `${trimmed.slice(0, QUOTE_LIMIT).trimEnd()}…` : trimmed;
  return cut
    .split("\n")
    .map((line) => `> ${line}`)
    .join("\n");
}

/**
 * Composes the offline answer: with knowledge hits, the best one (highest score, else first)
 * answers. A Q&A pair answers with its answer text as it stands; any other hit is quoted (an
 * extract of at most 600 characters) with its source named and cited as [index] when it has
 * one, then the other hits' sources. Without hits, {@link offlineNoModelText}.
 */
export function composeOfflineAnswer(request: Pick<ModelRequest, "knowledge" | "language" | "audience">): string {
  const language = request.language === "zh-CN" ? "zh-CN" : "en";
  const text = texts[language];
  const hits = (request.knowledge ?? []).filter((hit) => hit.content.trim().length > 0);
  if (hits.length === 0) return offlineNoModelText(language, request.audience);
  const ranked = hits
    .map((hit, index) => ({ hit, index }))
    .sort((a, b) => (b.hit.score ?? Number.NEGATIVE_INFINITY) - (a.hit.score ?? Number.NEGATIVE_INFINITY) || a.index - b.index)
    .map(({ hit }) => hit);
  const best = ranked[0]!;
  if (best.answer !== undefined && best.answer.trim() !== "") return best.answer.trim();
  const others = [
    ...new Set(
      ranked
        .slice(1)
        .map((hit) => hit.source)
        .filter((source): source is string => !!source && source !== best.source),
    ),
  ];
  const parts = [text.intro(best.source, best.index !== undefined ? ` [${best.index}]` : ""), quote(best.content)];
  if (others.length > 0) parts.push(text.also(others));
  parts.push(text.note);
  return parts.join("\n\n");
}

/**
 * Splits text into word-sized deltas that concatenate back to it: a run of Latin letters or
 * digits with the spacing after it, or one CJK character (with trailing punctuation) at a time.
 */
export function wordDeltas(text: string): string[] {
  return text.match(/[\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF][\u3000-\u303F\uFF00-\uFFEF]*\s*|[^\s\u2E80-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF]+\s*|\s+/gu) ?? [];
}

/**
 * The offline responder: always available, needs no network, costs nothing. It answers from
 * `request.knowledge` when the engine found hits, and otherwise says plainly that no language
 * model is configured. Usage is estimated with {@link estimateTokens}.
 */
export function createOfflineProvider(): LanguageModelProvider {
  const info: ModelInfo = {
    id: OFFLINE_MODEL_ID,
    providerId: OFFLINE_PROVIDER_ID,
    providerKind: "offline",
    label: describeModel(OFFLINE_MODEL_ID).label,
    contextWindow: describeModel(OFFLINE_MODEL_ID).contextWindow,
    supportsTools: false,
    supportsImages: false,
    offline: true,
  };
  return {
    id: OFFLINE_PROVIDER_ID,
    kind: "offline",
    models: () => [info],
    async *stream(request: ModelRequest): AsyncGenerator<ModelStreamPart> {
      const answer = composeOfflineAnswer(request);
      for (const text of wordDeltas(answer)) {
        if (request.signal?.aborted) throw new ModelError("aborted", "The request was cancelled", { provider: "offline" });
        yield { type: "text-delta", text };
      }
      yield {
        type: "finish",
        reason: "stop",
        usage: { promptTokens: estimatePromptTokens(request.messages), completionTokens: estimateTokens(answer) },
      };
    },
  };
}
