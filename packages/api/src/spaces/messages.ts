import { defineMessages } from "../i18n/define";

/** Messages of spaces and their members. */
export const spacesMessages = defineMessages({
  space_admin_only: { en: "Only the space owner or an admin can do this", "zh-CN": "只有空间所有者或管理员可以执行此操作" },
  company_name_required: { en: "Company name is required", "zh-CN": "请填写企业名称" },
  last_owner: { en: "The owner cannot leave their own space", "zh-CN": "所有者不能退出自己的空间" },
  "thing.space": { en: "Space", "zh-CN": "空间" },
});
