import { defineMessages } from "./define";

/** Messages that belong to no one area: the envelope's words, request errors, access, limits and credits. */
export const generalMessages = defineMessages({
  ok: { en: "OK", "zh-CN": "成功" },
  created: { en: "Created", "zh-CN": "已创建" },
  validation_failed: { en: "Invalid {field}: {reason}", "zh-CN": "{field} 无效：{reason}" },
  json_too_deep: { en: "nested more than 64 levels deep", "zh-CN": "嵌套超过 64 层" },
  malformed_json: { en: "The request body is not valid JSON", "zh-CN": "请求体不是有效的 JSON" },
  unsupported_media_type: { en: "Unsupported content type; send {expected}", "zh-CN": "不支持的内容类型，请使用 {expected}" },
  payload_too_large: { en: "The request body is larger than {limit} bytes", "zh-CN": "请求体超过 {limit} 字节" },
  login_required: { en: "Please log in first", "zh-CN": "请先登录" },
  session_ended: { en: "Your session has ended, please log in again", "zh-CN": "登录已失效，请重新登录" },
  forbidden: { en: "You do not have permission to do this", "zh-CN": "您没有执行此操作的权限" },
  not_found: { en: "{what} not found", "zh-CN": "未找到{what}" },
  route_not_found: { en: "No such endpoint: {method} {path}", "zh-CN": "接口不存在：{method} {path}" },
  rate_limited: { en: "Too many attempts, try again in {seconds} s", "zh-CN": "尝试次数过多，请 {seconds} 秒后再试" },
  external_error: { en: "An external service failed: {reason}", "zh-CN": "外部服务出错：{reason}" },
  internal_error: { en: "Something went wrong on our side (request {requestId})", "zh-CN": "服务器内部错误（请求 {requestId}）" },
  upgrade_required: { en: "Upgrade your plan to use this", "zh-CN": "请升级套餐后使用" },
  insufficient_credits: { en: "Not enough credits", "zh-CN": "积分不足" },
  field_required: { en: "{field} is required", "zh-CN": "请填写 {field}" },
});
