/** The interface languages the console ships. English is the canonical one (spec §1). */
export const LANGUAGES = ["en", "zh-CN"] as const;
/** An interface language. */
export type Language = (typeof LANGUAGES)[number];
/** The language used when nothing is stored. */
export const DEFAULT_LANGUAGE: Language = "en";

/** Maps a stored or server value ('zh', 'zh_CN', 'en-US' …) to a shipped language. */
export function normaliseLanguage(value: string | null | undefined): Language {
  if (!value) return DEFAULT_LANGUAGE;
  const lower = value.trim().toLowerCase().replace("_", "-");
  if (lower === "zh" || lower.startsWith("zh-") || lower === "cn") return "zh-CN";
  return DEFAULT_LANGUAGE;
}
