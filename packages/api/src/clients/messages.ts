import { defineMessages } from "../i18n/define";

/** Messages of web clients (the widget) and their visitors. */
export const clientsMessages = defineMessages({
  web_client_not_found: { en: "This chat is not available (unknown client)", "zh-CN": "该聊天不可用（客户端不存在）" },
  web_client_disabled: { en: "This chat is turned off", "zh-CN": "该聊天已停用" },
  origin_not_allowed: { en: "This site is not allowed to use this chat", "zh-CN": "此网站无权使用该聊天" },
  identity_invalid: { en: "The visitor identity could not be verified", "zh-CN": "访客身份校验失败" },
  visitor_token_invalid: { en: "The chat session is invalid or has ended", "zh-CN": "聊天会话无效或已结束" },
  manual_transfer_off: { en: "This chat does not offer a person to talk to", "zh-CN": "该聊天未开启转人工" },
  web_client_color_invalid: { en: "must be a colour like #2563eb", "zh-CN": "必须是 #2563eb 这样的颜色" },
  web_client_origin_invalid: { en: "must be a site origin like https://shop.example.com", "zh-CN": "必须是 https://shop.example.com 这样的网站来源" },
});
