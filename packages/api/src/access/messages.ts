import { defineMessages } from "../i18n/define";

/** Messages of roles and permissions: refusals name the menu resource the role lacks. */
export const accessMessages = defineMessages({
  permission_denied_view: { en: "Your role in this space cannot view {resource}", "zh-CN": "你在此空间的角色无权查看{resource}" },
  permission_denied_edit: { en: "Your role in this space cannot change {resource}", "zh-CN": "你在此空间的角色无权修改{resource}" },
  "thing.resource.apps": { en: "Apps", "zh-CN": "应用" },
  "thing.resource.knowledge": { en: "Knowledge", "zh-CN": "知识库" },
  "thing.resource.database": { en: "Databases", "zh-CN": "数据库" },
  "thing.resource.plugins": { en: "Plugins", "zh-CN": "插件" },
  "thing.resource.workflow": { en: "Workflows", "zh-CN": "工作流" },
  "thing.resource.integrations": { en: "API access", "zh-CN": "API 接入" },
  "thing.resource.clients": { en: "Clients", "zh-CN": "客户端" },
  "thing.resource.customers": { en: "Customers", "zh-CN": "客户" },
  "thing.resource.chatManage": { en: "Chat management", "zh-CN": "会话管理" },
  "thing.resource.account": { en: "Account and billing", "zh-CN": "账户与计费" },
  "thing.resource.analysis": { en: "Dashboard", "zh-CN": "数据看板" },
  "thing.resource.team": { en: "Team", "zh-CN": "团队" },
});
