import { defineMessages } from "../i18n/define";

/** Messages of chat answers and the OpenAI-compatible API. */
export const chatMessages = defineMessages({
  chat_conversation_unknown: { en: "Conversation {id} does not exist for this app", "zh-CN": "该应用中不存在会话 {id}" },
  chat_unknown_model: { en: "This app does not offer the model {model}", "zh-CN": "该应用不提供模型 {model}" },
  chat_model_rate_limited: { en: "The model provider is busy; try again in {seconds} s", "zh-CN": "模型服务繁忙，请 {seconds} 秒后重试" },
  chat_model_timeout: { en: "The model did not answer in time", "zh-CN": "模型响应超时" },
  chat_model_unavailable: { en: "The model provider is unavailable; try again later", "zh-CN": "模型服务暂不可用，请稍后重试" },
  chat_model_bad_request: { en: "The model refused the request", "zh-CN": "模型拒绝了该请求" },
  chat_model_auth: {
    en: "The model provider rejected Parley's credentials; ask the owner to check the API key",
    "zh-CN": "模型服务拒绝了凭证，请联系管理员检查 API 密钥",
  },
  chat_model_context_length: {
    en: "The conversation is too long for this model; delete the context and try again",
    "zh-CN": "对话超出模型上下文长度，请清除上下文后重试",
  },
  chat_model_malformed: { en: "The model sent a broken answer", "zh-CN": "模型返回了无法解析的内容" },
  chat_model_aborted: { en: "The answer was stopped", "zh-CN": "回答已停止" },
  openai_model_not_found: { en: "The model `{model}` does not exist or you do not have access to it", "zh-CN": "模型 `{model}` 不存在或无权访问" },
  openai_image_invalid: {
    en: "The image_url is not a JPEG or PNG image (a data URL or an http(s) address whose bytes are one)",
    "zh-CN": "image_url 不是 JPEG 或 PNG 图片（应为 data URL，或内容为图片的 http(s) 地址）",
  },
  openai_image_forbidden: {
    en: "The image_url points at an address Parley may not reach (loopback, cloud metadata or a private network)",
    "zh-CN": "image_url 指向 Parley 不允许访问的地址（本机、云元数据或内网）",
  },
  openai_image_unreachable: { en: "The image at image_url could not be fetched", "zh-CN": "无法获取 image_url 指向的图片" },
  openai_image_too_large: { en: "The image at image_url is 5 MB or larger", "zh-CN": "image_url 指向的图片不小于 5 MB" },
  openai_images_too_many: { en: "A request carries at most 20 images", "zh-CN": "一次请求最多包含 20 张图片" },
  custom_tools_unsupported: {
    en: 'Custom tools are not supported; declare your tools with type "function"',
    "zh-CN": '不支持自定义工具（custom），请以 type "function" 声明工具',
  },
  chat_failed: { en: "The answer failed; try again", "zh-CN": "回答失败，请重试" },
  chat_handover_notice: {
    en: "I could not find an answer to that. I am passing your question to a colleague, who will reply here as soon as possible.",
    "zh-CN": "暂时没有找到相关答案，已为您转接人工客服，请稍候，工作人员会尽快在此回复您。",
  },
  "thing.conversation": { en: "Conversation", "zh-CN": "会话" },
  chat_database_confirm: {
    en: "This change to the database {database} needs your confirmation before it runs:",
    "zh-CN": "以下对数据库 {database} 的修改需要您确认后才会执行：",
  },
  chat_database_write_gone: {
    en: "This change can no longer be confirmed: it already ran or expired",
    "zh-CN": "该修改已无法确认：它已执行或已过期",
  },
  "thing.database_write": { en: "Database change", "zh-CN": "数据库修改" },
});
