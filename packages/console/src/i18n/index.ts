import i18next from "i18next";
import { initReactI18next } from "react-i18next";
import { readString, writeString } from "../lib/api/storage";
import chatManageEn from "../features/chat-manage/i18n/en.json";
import chatManageZhCN from "../features/chat-manage/i18n/zh-CN.json";
import clientsEn from "../features/clients/i18n/en.json";
import clientsZhCN from "../features/clients/i18n/zh-CN.json";
import knowledgeEn from "../features/knowledge/i18n/en.json";
import knowledgeZhCN from "../features/knowledge/i18n/zh-CN.json";
import paymentsEn from "../features/payments/i18n/en.json";
import paymentsZhCN from "../features/payments/i18n/zh-CN.json";
import workflowsEn from "../features/workflows/i18n/en.json";
import workflowsZhCN from "../features/workflows/i18n/zh-CN.json";
import en from "./en.json";
import zhCN from "./zh-CN.json";
import { normaliseLanguage, type Language } from "./language";

export { LANGUAGES, DEFAULT_LANGUAGE, normaliseLanguage, type Language } from "./language";

/** The console's i18next instance: resources bundled, language from local storage. */
export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: {
    en: { translation: { ...en, knowledge: knowledgeEn, clients: clientsEn, chatManage: chatManageEn } },
    "zh-CN": { translation: { ...zhCN, knowledge: knowledgeZhCN, clients: clientsZhCN, chatManage: chatManageZhCN } },
  },
  lng: normaliseLanguage(readString("language")),
  fallbackLng: "en",
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

// Feature bundles added after init merge under their own top-level key, like those above.
i18n.addResourceBundle("en", "translation", { workflows: workflowsEn }, true, false);
i18n.addResourceBundle("zh-CN", "translation", { workflows: workflowsZhCN }, true, false);
// Payments bring two namespaces of their own: price and billing.
i18n.addResourceBundle("en", "translation", paymentsEn, true, false);
i18n.addResourceBundle("zh-CN", "translation", paymentsZhCN, true, false);

if (typeof document !== "undefined") document.documentElement.lang = i18n.language;

/** The current interface language. */
export function currentLanguage(): Language {
  return normaliseLanguage(i18n.language);
}

/** Switches the interface language and remembers it under the 'language' key. */
export async function changeLanguage(language: Language): Promise<void> {
  writeString("language", language);
  await i18n.changeLanguage(language);
  if (typeof document !== "undefined") document.documentElement.lang = language;
}
