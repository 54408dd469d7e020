import { type MessageId, type MessageParams, renderMessage } from "../i18n/catalogue";
import type { Language } from "../i18n/language";

/** Picks the answer language from an Accept-Language header. */
export function pickLanguage(header: string | undefined | null): Language {
  if (!header) return "en";
  const first = header.split(",")[0]?.trim().toLowerCase() ?? "";
  return first.startsWith("zh") ? "zh-CN" : "en";
}

/** Renders a message for an answer, in the request's language (the HTTP edge's one translation step). */
export function translate(language: Language, id: MessageId, params: MessageParams = {}): string {
  return renderMessage(language, id, params);
}

/**
 * Renders a message whose id is only known at run time: read from storage (a file's failure
 * reason) or carried by a schema issue. An unknown id renders as itself.
 */
export function translateStored(language: Language, id: string, params: MessageParams = {}): string {
  return renderMessage(language, id, params);
}
