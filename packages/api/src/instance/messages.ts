import { defineMessages } from "../i18n/define";

/** Messages of instance administration. */
export const instanceMessages = defineMessages({
  owner_only: { en: "Only the instance owner can do this", "zh-CN": "只有实例所有者可以执行此操作" },
  instance_admin_only: { en: "Only the instance administrator can do this", "zh-CN": "只有实例管理员可以执行此操作" },
  instance_space_change_required: { en: "send memberGrade, quotas or both", "zh-CN": "请提供 memberGrade、quotas 或两者" },
});
