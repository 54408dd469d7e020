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
  app_name_required: { en: "The app name is required", "zh-CN": "请填写应用名称" },
  app_description_required: { en: "The description is required", "zh-CN": "请填写应用描述" },
  app_description_too_short: { en: "The description must be longer than 5 characters", "zh-CN": "应用描述需多于 5 个字符" },
  app_opening_required: { en: "The opening introduction is required", "zh-CN": "请填写开场白" },
  app_opening_too_short: { en: "The opening introduction must be longer than 5 characters", "zh-CN": "开场白需多于 5 个字符" },
  app_avatar_required: { en: "The avatar is required", "zh-CN": "请上传应用头像" },
  app_default_avatar_public: {
    en: "Upload your own avatar before publishing to the square; the default avatar cannot be used",
    "zh-CN": "发布到广场前请上传自定义头像，不能使用默认头像",
  },
  app_category_required: { en: "The category is required", "zh-CN": "请选择应用分类" },
  app_category_unknown: { en: "Unknown category; pick one from the category list", "zh-CN": "分类不存在，请从分类列表中选择" },
  app_prompt_required: { en: "The settings prompt is required", "zh-CN": "请填写设定提示词" },
  app_default_model_required: { en: "The default model is required", "zh-CN": "请选择默认模型" },
  app_model_required: { en: "Choose at least one model", "zh-CN": "请至少选择一个模型" },
  app_retrieval_length_zero: { en: "The retrieval length cannot be 0", "zh-CN": "检索长度不能为 0" },
  app_retrieval_counts_total: {
    en: "Semantic and full-text counts together can be at most {max}",
    "zh-CN": "语义检索条数与全文检索条数之和不能超过 {max}",
  },
  app_citation_threshold_low: {
    en: "The citation threshold must be at least the similarity threshold",
    "zh-CN": "引用阈值不能低于相似度阈值",
  },
  app_no_hit_text_required: { en: "Write the fixed reply used when nothing is found", "zh-CN": "请填写未命中时的固定回复" },
  app_value_range: { en: "{field} must be between {min} and {max}", "zh-CN": "{field} 需在 {min} 到 {max} 之间" },
  app_text_too_long: { en: "{field} can have at most {max} characters", "zh-CN": "{field} 最多 {max} 个字符" },
  app_too_many: { en: "{field} can hold at most {max} entries", "zh-CN": "{field} 最多 {max} 项" },
  app_upgrade_not_allowed: { en: "Only a light app can be upgraded to a knowledge app (this one is {type})", "zh-CN": "只有轻应用可以升级为知识库应用（当前为 {type}）" },
  app_copy_suffix: { en: " (copy)", "zh-CN": "（副本）" },
  merge_reply_needs_delay: { en: "Merge reply needs a delay time", "zh-CN": "合并回复需要设置延迟时间" },
  delayed_reply_needs_minutes: { en: "Delayed reply needs a delay in minutes", "zh-CN": "延迟回复需要设置延迟分钟数" },
  manual_trigger_content_required: { en: "A handover trigger needs its keyword or intent", "zh-CN": "转人工触发规则需要填写关键词或意图" },
  webhook_config_required: { en: "The webhook channel needs a webhook URL and secret", "zh-CN": "Webhook 通知渠道需要配置 Webhook 地址和密钥" },
  summary_property_required: { en: "Each summary template entry needs a property", "zh-CN": "总结模板的每一项都需要填写属性" },
  notify_member_unknown: { en: "Only members of this space can be notified", "zh-CN": "只能通知本空间的成员" },
  rate_limit_count_zero: { en: "The count cannot be 0", "zh-CN": "次数不能为 0" },
  rate_limit_duplicate: { en: "A rule for this channel and period already exists", "zh-CN": "该渠道和周期的限流规则已存在" },
  threshold_required: { en: "The balance alarm needs a threshold", "zh-CN": "余额告警需要设置阈值" },
  threshold_scene_unknown: { en: "Unknown threshold scene {scene}", "zh-CN": "未知的阈值场景 {scene}" },
  "thing.rate_limit_rule": { en: "Rate-limit rule", "zh-CN": "限流规则" },
  "thing.app": { en: "App", "zh-CN": "应用" },
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
