import { defineMessages } from "../i18n/define";

/** Messages of channel clients, their webhooks and WeChat notice bindings. */
export const channelsMessages = defineMessages({
  channel_client_not_found: { en: "Channel client not found", "zh-CN": "未找到渠道客户端" },
  channel_client_disabled: { en: "This channel client is turned off", "zh-CN": "该渠道客户端已停用" },
  channel_kind_unknown: { en: "Unknown channel type {kind}", "zh-CN": "未知的渠道类型 {kind}" },
  channel_kind_fixed: { en: "A client's channel type cannot be changed", "zh-CN": "客户端的渠道类型不能修改" },
  channel_config_field_unknown: { en: "This channel has no setting {field}", "zh-CN": "该渠道没有配置项 {field}" },
  channel_config_invalid: { en: "The value of {field} is not valid", "zh-CN": "{field} 的值无效" },
  channel_config_missing: { en: "Fill in the required settings first: {fields}", "zh-CN": "请先填写必填配置：{fields}" },
  channel_check_failed: { en: "The platform did not accept these settings: {reason}", "zh-CN": "平台未接受这些配置：{reason}" },
  channel_request_rejected: { en: "The request could not be verified", "zh-CN": "请求校验失败" },
  channel_platform_unavailable: { en: "The platform could not be reached; try again later", "zh-CN": "暂时无法连接平台，请稍后重试" },
  wechat_binding_official_account_only: { en: "WeChat notices are bound to a WeChat official account client", "zh-CN": "微信通知只能绑定到微信公众号客户端" },
  wechat_binding_not_found: { en: "WeChat binding not found", "zh-CN": "未找到微信绑定" },
  wechat_binding_done: { en: "Bound to Parley notices", "zh-CN": "已绑定 Parley 通知" },
  channel_media_kind_image: { en: "image", "zh-CN": "图片" },
  channel_media_kind_file: { en: "file", "zh-CN": "文件" },
  channel_media_refused: { en: "[{kind} not received: the platform refused to hand it over]", "zh-CN": "[{kind}未能接收：平台拒绝提供该文件]" },
  channel_media_too_large: { en: "[{kind} not received: larger than {megabytes} MB]", "zh-CN": "[{kind}未能接收：超过 {megabytes} MB]" },
  channel_media_not_accepted: { en: "[{kind} not accepted: {reason}]", "zh-CN": "[{kind}未被接受：{reason}]" },
  channel_client_offline_title: { en: "Channel client {client} went offline", "zh-CN": "渠道客户端 {client} 已离线" },
  channel_client_offline_notice: {
    en: "Parley: the channel client {client} went offline ({reason})",
    "zh-CN": "Parley：渠道客户端 {client} 已离线（{reason}）",
  },
});
