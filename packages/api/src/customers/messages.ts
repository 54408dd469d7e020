import { defineMessages } from "../i18n/define";

/** Messages of customers, tags and tag groups. */
export const customersMessages = defineMessages({
  "thing.customer": { en: "Customer", "zh-CN": "客户" },
  "thing.customer_tag": { en: "Tag", "zh-CN": "标签" },
  "thing.tagGroup": { en: "Tag group", "zh-CN": "标签组" },
  customer_range_inverted: { en: "{field} must not be before from", "zh-CN": "{field} 不能早于开始时间" },
  customer_range_too_long: { en: "{field}: a time range spans at most {days} days", "zh-CN": "{field}：时间范围最多 {days} 天" },
  customer_export_too_many: {
    en: "The export has {count} customers; at most {max} can be exported at a time — narrow the filters",
    "zh-CN": "导出结果有 {count} 位客户，每次最多导出 {max} 位，请缩小筛选范围",
  },
  customer_no_conversation: { en: "This customer has no conversation to tag", "zh-CN": "该客户还没有可供打标签的会话" },
  customer_no_tags: { en: "The space has no tags to choose from; create tags first", "zh-CN": "当前空间还没有可选的标签，请先创建标签" },
  customer_ai_offline: {
    en: "The app's model cannot choose tags (it answers offline); give the app a real model",
    "zh-CN": "应用的模型无法选择标签（离线应答），请为应用配置真实模型",
  },
  customer_ai_failed: { en: "The model could not choose tags: {reason}", "zh-CN": "模型未能选择标签：{reason}" },
  customer_foreign_ids: { en: "{field}: {id} is not in this space", "zh-CN": "{field}：{id} 不属于当前空间" },
  tag_name_required: { en: "Tag name is required", "zh-CN": "请填写标签名称" },
  tag_name_taken: { en: 'The group already has a tag named "{name}"', "zh-CN": "该标签组中已有名为“{name}”的标签" },
  tag_group_name_required: { en: "Tag group name is required", "zh-CN": "请填写标签组名称" },
  tag_group_name_taken: { en: 'A tag group named "{name}" already exists', "zh-CN": "已有名为“{name}”的标签组" },
  tag_group_in_use: {
    en: 'The tag group "{name}" still has {count} tags; delete or move them first',
    "zh-CN": "标签组“{name}”中还有 {count} 个标签，请先删除或移走这些标签",
  },
  tag_sync_refused_wecom: { en: "WeCom refused the tag sync; nothing was changed: {reason}", "zh-CN": "企业微信拒绝了标签同步，未做任何更改：{reason}" },
  tag_sync_refused_wechat: {
    en: "The WeChat official account refused the tag sync; nothing was changed: {reason}",
    "zh-CN": "微信公众号拒绝了标签同步，未做任何更改：{reason}",
  },
  customer_sync_kind: {
    en: "Contacts can be synced only from a WeCom app or a WeChat official account connection, not from {kind}",
    "zh-CN": "只能从企业微信应用或微信公众号连接同步客户，不能从 {kind} 同步",
  },
  customer_sync_none: {
    en: "The space has no enabled connection of that platform that you can reach",
    "zh-CN": "当前空间没有您可访问的该平台可用连接",
  },
  customer_sync_refused_wecom: {
    en: "WeCom refused to give its customers; customers pulled before the refusal are kept: {reason}",
    "zh-CN": "企业微信拒绝提供客户列表；拒绝前已拉取的客户已保留：{reason}",
  },
  customer_sync_refused_wechat: {
    en: "The WeChat official account refused to give its followers; customers pulled before the refusal are kept: {reason}",
    "zh-CN": "微信公众号拒绝提供关注者列表；拒绝前已拉取的客户已保留：{reason}",
  },
  customer_column_nickname: { en: "Nickname", "zh-CN": "昵称" },
  customer_column_company: { en: "Company", "zh-CN": "公司" },
  customer_column_tags: { en: "Tags", "zh-CN": "标签" },
  customer_column_wechat: { en: "WeChat", "zh-CN": "微信" },
  customer_column_gender: { en: "Gender", "zh-CN": "性别" },
  customer_column_remark: { en: "Remark", "zh-CN": "备注" },
  customer_column_type: { en: "Type", "zh-CN": "类型" },
  customer_column_channel: { en: "Channel", "zh-CN": "渠道" },
  customer_column_client: { en: "Client", "zh-CN": "客户端" },
  customer_column_createdAt: { en: "Added", "zh-CN": "添加时间" },
  customer_column_lastConversationAt: { en: "Last conversation", "zh-CN": "最近会话时间" },
  customer_column_id: { en: "Customer ID", "zh-CN": "客户 ID" },
});
