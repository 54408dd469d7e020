import { defineMessages } from "../i18n/define";

/** Messages of a team space's roles: system role names, and what the role editor refuses. */
export const rolesMessages = defineMessages({
  "roles.system.owner.name": { en: "Owner", "zh-CN": "所有者" },
  "roles.system.owner.description": {
    en: "Everything, and alone transfers the space; cannot be removed",
    "zh-CN": "拥有全部权限，唯一可转让空间的人，不能被移除",
  },
  "roles.system.admin.name": { en: "Administrator", "zh-CN": "管理员" },
  "roles.system.admin.description": { en: "Everything in the space", "zh-CN": "空间内的全部权限" },
  "roles.system.developer.name": { en: "Developer", "zh-CN": "开发者" },
  "roles.system.developer.description": {
    en: "Builds apps, knowledge, databases, plugins, workflows and API access; sees clients and the dashboard",
    "zh-CN": "搭建应用、知识库、数据库、插件、工作流和 API 接入；可查看客户端和数据看板",
  },
  "roles.system.operator.name": { en: "Operator (customer service)", "zh-CN": "客服" },
  "roles.system.operator.description": {
    en: "Serves customers in chat management; sees apps, knowledge, clients and the dashboard",
    "zh-CN": "在会话管理中服务客户；可查看应用、知识库、客户端和数据看板",
  },
  "roles.system.viewer.name": { en: "Viewer", "zh-CN": "访客" },
  "roles.system.viewer.description": { en: "Views everything and changes nothing", "zh-CN": "可查看全部内容，不能修改" },
  role_name_required: { en: "Role name is required", "zh-CN": "请填写角色名称" },
  role_name_taken: { en: 'A role named "{name}" already exists in this space', "zh-CN": "此空间已有名为“{name}”的角色" },
  role_name_system: { en: '"{name}" is the name of a system role', "zh-CN": "“{name}”是系统角色的名称" },
  roles_team_only: { en: "Roles belong to team spaces; a personal space has only its owner", "zh-CN": "角色属于团队空间；个人空间只有所有者一人" },
  role_system_fixed: { en: "System roles cannot be changed or deleted", "zh-CN": "系统角色不能修改或删除" },
  role_unknown_grant: { en: '"{grant}" is not a permission', "zh-CN": "“{grant}”不是有效的权限" },
  role_grant_not_held: {
    en: "You cannot grant {grant}: your own role does not hold it",
    "zh-CN": "你不能授予 {grant}：你自己的角色没有该权限",
  },
  role_range_foreign: { en: "This {what} does not belong to the space", "zh-CN": "该{what}不属于此空间" },
  role_range_empty: {
    en: "Choose at least one app, knowledge base or client, or pick another scope",
    "zh-CN": "请至少选择一个应用、知识库或客户端，或选择其他范围",
  },
  role_in_use: {
    en: "{count} member(s) hold this role; give them another role before deleting it",
    "zh-CN": "有 {count} 名成员使用此角色，请先为他们更换角色再删除",
  },
  "thing.teamRole": { en: "Role", "zh-CN": "角色" },
  "thing.range.app": { en: "app", "zh-CN": "应用" },
  "thing.range.knowledgeBase": { en: "knowledge base", "zh-CN": "知识库" },
  "thing.range.client": { en: "client", "zh-CN": "客户端" },
});
