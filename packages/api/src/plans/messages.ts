import { defineMessages } from "../i18n/define";

/** Messages of plans, quotas and feature gates. */
export const plansMessages = defineMessages({
  upgrade_required_quota: {
    en: "The {plan} plan allows up to {limit} {quota}; upgrade your plan to add more",
    "zh-CN": "{plan}的{quota}上限为 {limit}，请升级套餐后再添加",
  },
  upgrade_required_feature: {
    en: "{feature} is not included in the {plan} plan; upgrade your plan to use it",
    "zh-CN": "{plan}不包含{feature}，请升级套餐后使用",
  },
  plan_change_required: { en: "Send at least one field to change", "zh-CN": "请至少提供一个要修改的字段" },
  "thing.plan": { en: "Plan", "zh-CN": "套餐" },
  "thing.plan_free": { en: "Free", "zh-CN": "免费版" },
  "thing.plan_pro": { en: "Pro", "zh-CN": "专业版" },
  "thing.plan_team": { en: "Team", "zh-CN": "团队版" },
  "thing.plan_enterprise": { en: "Enterprise", "zh-CN": "企业版" },
  "thing.plan_custom": { en: "Custom", "zh-CN": "定制版" },
  "thing.quota_apps": { en: "apps", "zh-CN": "应用数" },
  "thing.quota_workflows": { en: "workflows", "zh-CN": "工作流数" },
  "thing.quota_knowledgeTokens": { en: "knowledge tokens", "zh-CN": "知识库容量（tokens）" },
  "thing.quota_knowledgeEntries": { en: "knowledge files", "zh-CN": "知识库文件数" },
  "thing.quota_databaseRows": { en: "database rows", "zh-CN": "数据库行数" },
  "thing.quota_customPlugins": { en: "custom plugins", "zh-CN": "自定义插件数" },
  "thing.quota_clients": { en: "clients", "zh-CN": "客户端数" },
  "thing.quota_members": { en: "members", "zh-CN": "成员数" },
  "thing.quota_customerService": { en: "chat-management seats", "zh-CN": "会话管理席位" },
  "thing.feature_hosting": { en: "Channel account hosting", "zh-CN": "渠道账号托管" },
  "thing.feature_manualTransfer": { en: "Manual transfer in the web embed", "zh-CN": "网页嵌入的转人工" },
  "thing.feature_remoteDatabase": { en: "Remote database", "zh-CN": "远程数据库" },
});
