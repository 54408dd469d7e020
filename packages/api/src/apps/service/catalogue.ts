import type { Language } from "../../http/messages";

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

type Localized = Record<Language, string>;

const categories: Record<AppCategoryId, { name: Localized; description: Localized; group: AppGroupId }> = {
  customer_service: {
    name: { en: "Customer service", "zh-CN": "客户服务" },
    description: { en: "Answer customers' questions and hand over to a person", "zh-CN": "解答客户问题，必要时转人工" },
    group: "business",
  },
  marketing: {
    name: { en: "Marketing", "zh-CN": "营销推广" },
    description: { en: "Copywriting, campaigns and lead qualification", "zh-CN": "文案、活动策划与线索筛选" },
    group: "business",
  },
  education: {
    name: { en: "Education", "zh-CN": "教育学习" },
    description: { en: "Tutoring, language practice and course assistants", "zh-CN": "辅导答疑、语言练习与课程助教" },
    group: "learning_work",
  },
  productivity: {
    name: { en: "Productivity", "zh-CN": "办公效率" },
    description: { en: "Writing, summaries, translation and office helpers", "zh-CN": "写作、总结、翻译等办公助手" },
    group: "learning_work",
  },
  entertainment: {
    name: { en: "Entertainment", "zh-CN": "休闲娱乐" },
    description: { en: "Games, stories and companions", "zh-CN": "游戏、故事与陪伴" },
    group: "life",
  },
  other: {
    name: { en: "Other", "zh-CN": "其他" },
    description: { en: "Anything else", "zh-CN": "其他用途" },
    group: "life",
  },
};

const groups: Record<AppGroupId, Localized> = {
  business: { en: "Business", "zh-CN": "商业服务" },
  learning_work: { en: "Learning and work", "zh-CN": "学习工作" },
  life: { en: "Life", "zh-CN": "生活娱乐" },
};

/** Whether a string names a known category. */
export function isAppCategory(value: string): value is AppCategoryId {
  return (appCategoryIds as readonly string[]).includes(value);
}

/** The category catalogue in one language, in display order. */
export function listAppCategories(language: Language) {
  return appCategoryIds.map((id) => ({
    id,
    name: categories[id].name[language],
    description: categories[id].description[language],
    groupId: categories[id].group,
  }));
}

/** The role groups in one language, each with its categories' ids. */
export function listAppGroups(language: Language) {
  return appGroupIds.map((id) => ({
    id,
    name: groups[id][language],
    categoryIds: appCategoryIds.filter((category) => categories[category].group === id),
  }));
}
