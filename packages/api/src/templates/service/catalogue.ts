import type { Language } from "../../i18n/language";
import shipped from "../shipped/templates.json";

/** A text in both languages, as the data files hold it. */
export interface Bilingual {
  en: string;
  zh: string;
}

/** A template as the data files describe it. */
export interface ShippedTemplate {
  code: string;
  kind: "app" | "workflow";
  group: string;
  version: number;
  category: string;
  name: Bilingual;
  description: Bilingual;
  payload: Record<string, unknown>;
}

/** Stands for the instance's default model in shipped workflow nodes. */
export const DEFAULT_MODEL_MARK = "$default";

/** The template groups. */
export const templateGroups: ReadonlyArray<{ id: string; name: Bilingual }> = shipped.groups;

/** The templates shipped with Parley. */
export const shippedTemplates = shipped.templates as unknown as ShippedTemplate[];

function isBilingual(value: unknown): value is Bilingual {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 2 && typeof (value as Bilingual).en === "string" && typeof (value as Bilingual).zh === "string";
}

/**
 * The payload in one language: every `{ en, zh }` pair becomes its text, and the default-model
 * mark becomes the instance's default model.
 */
export function localize<T>(value: T, language: Language, defaultModel: string): T {
  if (isBilingual(value)) return (language === "zh-CN" ? value.zh : value.en) as T;
  if (value === DEFAULT_MODEL_MARK) return defaultModel as T;
  if (Array.isArray(value)) return value.map((item) => localize(item, language, defaultModel)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, localize(item, language, defaultModel)])) as T;
  }
  return value;
}

/** A group's name in a language. */
export function groupName(id: string, language: Language): string {
  const group = templateGroups.find((entry) => entry.id === id);
  return group ? (localize(group.name, language, "") as unknown as string) : id;
}
