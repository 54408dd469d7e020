import { messageText } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";

/** The avatar the console offers when none is uploaded; refused when publishing to the square. */
export const DEFAULT_APP_AVATAR = "/assets/default-app-avatar.png";

/** The model a new app answers with unless told otherwise (spec §3 App, §9). */
export const DEFAULT_APP_MODEL = "gpt-4.1-mini";

/** Page size of the apps list: the default and the maximum (spec §9). */
export const APP_PAGE_SIZE = 100;

/** Known app categories, as stored in `apps.category`. */
export const appCategoryIds = ["customer_service", "marketing", "education", "productivity", "entertainment", "other"] as const;

/** One of {@link appCategoryIds}. */
export type AppCategoryId = (typeof appCategoryIds)[number];

/** Role groups: how categories are grouped in the square and the create dialog. */
export const appGroupIds = ["business", "learning_work", "life"] as const;

/** One of {@link appGroupIds}. */
export type AppGroupId = (typeof appGroupIds)[number];

const groupOf: Record<AppCategoryId, AppGroupId> = {
  customer_service: "business",
  marketing: "business",
  education: "learning_work",
  productivity: "learning_work",
  entertainment: "life",
  other: "life",
};

/** Whether a string names a known category. */
export function isAppCategory(value: string): value is AppCategoryId {
  return (appCategoryIds as readonly string[]).includes(value);
}

/** The category catalogue in one language, in display order. */
export function listAppCategories(language: Language) {
  return appCategoryIds.map((id) => ({
    id,
    name: messageText(language, `app.category.${id}.name`),
    description: messageText(language, `app.category.${id}.description`),
    groupId: groupOf[id],
  }));
}

/** The role groups in one language, each with its categories' ids. */
export function listAppGroups(language: Language) {
  return appGroupIds.map((id) => ({
    id,
    name: messageText(language, `app.group.${id}`),
    categoryIds: appCategoryIds.filter((category) => groupOf[category] === id),
  }));
}
