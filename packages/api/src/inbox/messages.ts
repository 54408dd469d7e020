import { defineMessages } from "../i18n/define";

/** Messages of the inbox: sessions, handover notices and stored messages. */
export const inboxMessages = defineMessages({
  session_not_found: { en: "Session not found", "zh-CN": "未找到会话" },
  session_export_too_many: { en: "Export at most {max} sessions at a time", "zh-CN": "每次最多导出 {max} 个会话" },
  session_export_span: { en: "Export at most {days} days at a time", "zh-CN": "每次最多导出 {days} 天" },
  session_mode_confirm: { en: "Confirm the switch of reply mode", "zh-CN": "请确认切换回复模式" },
  handover_notice_title: { en: "A conversation with {app} is waiting for a person", "zh-CN": "{app} 有一个会话等待人工接待" },
  handover_notice_customer: { en: "Customer", "zh-CN": "客户" },
  handover_notice_channel: { en: "Channel", "zh-CN": "渠道" },
  handover_notice_last: { en: "Last message", "zh-CN": "最后一条消息" },
  handover_default_reply: { en: "A member of our team will be with you shortly.", "zh-CN": "正在为您转接人工客服，请稍候。" },
  inbox_client_unknown: { en: "Client {id} does not exist in this space", "zh-CN": "当前空间中不存在客户端 {id}" },
  message_not_found: { en: "Message not found", "zh-CN": "未找到消息" },
  message_retry_not_failed: { en: "Only a message whose delivery failed can be sent again", "zh-CN": "只有发送失败的消息才能重新发送" },
});
