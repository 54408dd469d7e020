import { defineMessages } from "../i18n/define";

/** Messages of announcements. */
export const announcementsMessages = defineMessages({
  announcement_title_required: { en: "the title is required", "zh-CN": "请填写标题" },
  announcement_title_too_long: { en: "the title has at most 100 characters", "zh-CN": "标题最多 100 个字符" },
  announcement_body_too_long: { en: "the body has at most 20,000 characters", "zh-CN": "正文最多 20,000 个字符" },
  announcement_audience_invalid: {
    en: "the audience is everyone or a member grade (FREE, NORMAL, PROFESSION, ENTERPRISE, CUSTOM)",
    "zh-CN": "受众应为 everyone 或会员等级（FREE、NORMAL、PROFESSION、ENTERPRISE、CUSTOM）",
  },
  announcement_change_required: { en: "send title, body, audience or publishAt", "zh-CN": "请提供 title、body、audience 或 publishAt" },
  "thing.announcement": { en: "Announcement", "zh-CN": "公告" },
});
