/**
 * The old home of the message catalogue, kept only for the modules still being moved (chat,
 * inbox, the channel pipeline, the OpenAI-compatible routes, the workflow chat turn). New code
 * imports languages from i18n/language, ids and texts from i18n/catalogue, and the edge's
 * `translate` from http/translate.
 * @deprecated
 */
export type { Language } from "../i18n/language";
export { type MessageId, messages } from "../i18n/catalogue";
export { pickLanguage } from "./translate";
export { translateStored as translate } from "./translate";
