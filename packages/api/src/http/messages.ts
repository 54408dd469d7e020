/** Languages the API answers in. English is the default. */
export type Language = "en" | "zh-CN";

/** Every message the API can put in an envelope, in English and Chinese. `{name}` is a parameter. */
export const messages = {
  ok: { en: "OK", "zh-CN": "成功" },
  created: { en: "Created", "zh-CN": "已创建" },
  validation_failed: { en: "Invalid {field}: {reason}", "zh-CN": "{field} 无效：{reason}" },
  malformed_json: { en: "The request body is not valid JSON", "zh-CN": "请求体不是有效的 JSON" },
  unsupported_media_type: {
    en: "Unsupported content type; send {expected}",
    "zh-CN": "不支持的内容类型，请使用 {expected}",
  },
  payload_too_large: { en: "The request body is larger than {limit} bytes", "zh-CN": "请求体超过 {limit} 字节" },
  login_required: { en: "Please log in first", "zh-CN": "请先登录" },
  session_ended: { en: "Your session has ended, please log in again", "zh-CN": "登录已失效，请重新登录" },
  forbidden: { en: "You do not have permission to do this", "zh-CN": "您没有执行此操作的权限" },
  owner_only: { en: "Only the instance owner can do this", "zh-CN": "只有实例所有者可以执行此操作" },
  space_admin_only: { en: "Only the space owner or an admin can do this", "zh-CN": "只有空间所有者或管理员可以执行此操作" },
  api_key_not_allowed: {
    en: "This action needs a signed-in session, not an API key",
    "zh-CN": "此操作需要登录会话，不能使用 API 密钥",
  },
  not_found: { en: "{what} not found", "zh-CN": "未找到{what}" },
  route_not_found: { en: "No such endpoint: {method} {path}", "zh-CN": "接口不存在：{method} {path}" },
  rate_limited: { en: "Too many attempts, try again in {seconds} s", "zh-CN": "尝试次数过多，请 {seconds} 秒后再试" },
  code_resend_wait: { en: "A code was just sent; wait {seconds} s to resend", "zh-CN": "验证码刚刚已发送，请 {seconds} 秒后再重发" },
  code_invalid: { en: "The verification code is wrong or has expired", "zh-CN": "验证码错误或已过期" },
  email_taken: { en: "This e-mail address is already registered", "zh-CN": "该邮箱已注册" },
  phone_taken: { en: "This phone number is already registered", "zh-CN": "该手机号已注册" },
  account_not_found: { en: "No account uses this {channel}", "zh-CN": "没有使用该{channel}的账号" },
  login_failed: { en: "Wrong account or password", "zh-CN": "账号或密码错误" },
  password_wrong: { en: "The current password is wrong", "zh-CN": "当前密码错误" },
  password_too_weak: {
    en: "The password needs at least 8 characters with letters and digits",
    "zh-CN": "密码至少 8 位，且需同时包含字母和数字",
  },
  grant_invalid: { en: "This sign-in link is invalid, used or expired", "zh-CN": "该登录链接无效、已使用或已过期" },
  grant_missing: { en: "Send either code or loginCode", "zh-CN": "请提供 code 或 loginCode" },
  provider_disabled: { en: "{provider} sign-in is not configured", "zh-CN": "未配置 {provider} 登录" },
  provider_failed: { en: "{provider} sign-in failed: {reason}", "zh-CN": "{provider} 登录失败：{reason}" },
  oauth_state_invalid: { en: "This sign-in attempt is unknown or expired", "zh-CN": "此登录请求不存在或已过期" },
  sms_disabled: { en: "Phone codes are not available on this server", "zh-CN": "本服务器未开通短信验证码" },
  mail_failed: { en: "The message could not be sent; try again later", "zh-CN": "消息发送失败，请稍后重试" },
  company_name_required: { en: "Company name is required", "zh-CN": "请填写企业名称" },
  last_owner: { en: "The owner cannot leave their own space", "zh-CN": "所有者不能退出自己的空间" },
  external_error: { en: "An external service failed: {reason}", "zh-CN": "外部服务出错：{reason}" },
  internal_error: { en: "Something went wrong on our side (request {requestId})", "zh-CN": "服务器内部错误（请求 {requestId}）" },
  upgrade_required: { en: "Upgrade your plan to use this", "zh-CN": "请升级套餐后使用" },
  insufficient_credits: { en: "Not enough credits", "zh-CN": "积分不足" },
  // Names of things, used in {what}.
  "thing.user": { en: "User", "zh-CN": "用户" },
  "thing.space": { en: "Space", "zh-CN": "空间" },
  "thing.api_key": { en: "API key", "zh-CN": "API 密钥" },
  "thing.user_key": { en: "User key", "zh-CN": "用户密钥" },
  "thing.oauth_state": { en: "Sign-in request", "zh-CN": "登录请求" },
  "thing.email": { en: "e-mail", "zh-CN": "邮箱" },
  "thing.phone": { en: "phone number", "zh-CN": "手机号" },
  "mail.code.subject": { en: "Your Parley verification code: {code}", "zh-CN": "您的 Parley 验证码：{code}" },
  "mail.code.text": {
    en: "Your verification code is {code}. It expires in {minutes} minutes. If you did not ask for it, ignore this message.",
    "zh-CN": "您的验证码是 {code}，{minutes} 分钟内有效。如非本人操作，请忽略本消息。",
  },
} as const satisfies Record<string, Record<Language, string>>;

/** A key of {@link messages}. */
export type MessageId = keyof typeof messages;

/** Picks the answer language from an Accept-Language header. */
export function pickLanguage(header: string | undefined | null): Language {
  if (!header) return "en";
  const first = header.split(",")[0]?.trim().toLowerCase() ?? "";
  return first.startsWith("zh") ? "zh-CN" : "en";
}

/** Renders a message in a language, filling `{name}` parameters (themselves translated when they name a thing). */
export function translate(language: Language, id: string, params: Record<string, string | number> = {}): string {
  const entry = (messages as Record<string, Record<Language, string>>)[id];
  const template = entry ? entry[language] : id;
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) return `{${name}}`;
    const thing = (messages as Record<string, Record<Language, string>>)[`thing.${value}`];
    return thing ? thing[language] : String(value);
  });
}
