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
  external_error: { en: "An external service failed: {reason}", "zh-CN": "外部服务出错：{reason}" },
  internal_error: { en: "Something went wrong on our side (request {requestId})", "zh-CN": "服务器内部错误（请求 {requestId}）" },
  upgrade_required: { en: "Upgrade your plan to use this", "zh-CN": "请升级套餐后使用" },
  insufficient_credits: { en: "Not enough credits", "zh-CN": "积分不足" },
  chat_unknown_model: { en: "This app does not offer the model {model}", "zh-CN": "该应用不提供模型 {model}" },
  chat_model_rate_limited: { en: "The model provider is busy; try again in {seconds} s", "zh-CN": "模型服务繁忙，请 {seconds} 秒后重试" },
  chat_model_timeout: { en: "The model did not answer in time", "zh-CN": "模型响应超时" },
  chat_model_unavailable: { en: "The model provider is unavailable; try again later", "zh-CN": "模型服务暂不可用，请稍后重试" },
  chat_model_bad_request: { en: "The model refused the request", "zh-CN": "模型拒绝了该请求" },
  chat_model_auth: { en: "The model provider rejected Parley's credentials; ask the owner to check the API key", "zh-CN": "模型服务拒绝了凭证，请联系管理员检查 API 密钥" },
  chat_model_context_length: { en: "The conversation is too long for this model; delete the context and try again", "zh-CN": "对话超出模型上下文长度，请清除上下文后重试" },
  chat_model_malformed: { en: "The model sent a broken answer", "zh-CN": "模型返回了无法解析的内容" },
  chat_model_aborted: { en: "The answer was stopped", "zh-CN": "回答已停止" },
  openai_model_not_found: { en: "The model `{model}` does not exist or you do not have access to it", "zh-CN": "模型 `{model}` 不存在或无权访问" },
  chat_failed: { en: "The answer failed; try again", "zh-CN": "回答失败，请重试" },
  "thing.app": { en: "App", "zh-CN": "应用" },
  "thing.conversation": { en: "Conversation", "zh-CN": "会话" },
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
  // Plugins.
  "thing.plugin": { en: "Plugin", "zh-CN": "插件" },
  plugin_name_required: { en: "The plugin name is required", "zh-CN": "请填写插件名称" },
  plugin_description_required: { en: "The plugin description is required", "zh-CN": "请填写插件描述" },
  plugin_avatar_required: { en: "The plugin image is required", "zh-CN": "请上传插件图片" },
  plugin_avatar_invalid: { en: "The plugin image must be an http(s) address or a PNG/JPEG image", "zh-CN": "插件图片须为 http(s) 地址或 PNG/JPEG 图片" },
  plugin_method_required: { en: "The request type is required", "zh-CN": "请选择请求方式" },
  plugin_url_required: { en: "The request URL is required", "zh-CN": "请填写请求地址" },
  plugin_url_invalid: { en: "The request URL must start with http:// or https://", "zh-CN": "请求地址须以 http:// 或 https:// 开头" },
  plugin_params_required: { en: "Add at least one request parameter", "zh-CN": "请至少添加一个请求参数" },
  plugin_param_name_required: { en: "Every parameter needs a name", "zh-CN": "参数名称不能为空" },
  plugin_param_name_invalid: { en: "Parameter name \"{name}\" may only hold English letters and underscores", "zh-CN": "参数名称“{name}”只能包含英文字母和下划线" },
  plugin_param_name_duplicate: { en: "Parameter name \"{name}\" is used twice at the same level", "zh-CN": "同一层级中参数名称“{name}”重复" },
  plugin_param_default_invalid: { en: "The default of \"{name}\" is not a valid {type}", "zh-CN": "参数“{name}”的默认值不是有效的 {type}" },
  plugin_header_invalid: { en: "The header \"{name}\" is not allowed or not valid", "zh-CN": "请求头“{name}”无效或不允许设置" },
  plugin_debug_target_required: { en: "Send a plugin draft or a pluginId to test", "zh-CN": "请提供要测试的插件草稿或 pluginId" },
  plugin_parse_not_curl: { en: "The command does not start with curl", "zh-CN": "该命令不是以 curl 开头" },
  plugin_parse_quote_unclosed: { en: "The command has a quote that is never closed", "zh-CN": "命令中有未闭合的引号" },
  plugin_parse_curl_option_value: { en: "The curl option {option} has no value", "zh-CN": "curl 选项 {option} 缺少取值" },
  plugin_parse_curl_no_url: { en: "No URL was found in the curl command", "zh-CN": "curl 命令中没有找到 URL" },
  plugin_parse_curl_body: {
    en: "The request body is not a JSON object; plugins send JSON bodies (use -G to send form fields as a query string)",
    "zh-CN": "请求体不是 JSON 对象；插件只发送 JSON 请求体（表单字段可用 -G 作为查询参数发送）",
  },
  plugin_parse_url_invalid: { en: "\"{url}\" is not an http or https URL", "zh-CN": "“{url}”不是 http 或 https 地址" },
  plugin_parse_method_unsupported: { en: "The request type {method} is not supported; use GET, POST, PUT, PATCH or DELETE", "zh-CN": "不支持请求方式 {method}，请使用 GET、POST、PUT、PATCH 或 DELETE" },
  plugin_parse_openapi_syntax: { en: "The OpenAPI document is neither valid JSON nor YAML: {reason}", "zh-CN": "OpenAPI 文档不是有效的 JSON 或 YAML：{reason}" },
  plugin_parse_openapi_version: { en: "Only OpenAPI 3.x documents can be parsed (this one is version {version})", "zh-CN": "仅支持 OpenAPI 3.x 文档（此文档版本为 {version}）" },
  plugin_parse_openapi_no_operations: { en: "The OpenAPI document has no operations under paths", "zh-CN": "OpenAPI 文档的 paths 中没有任何接口" },
  plugin_parse_operation_choose: { en: "The document has several operations; choose one in operation: {operations}", "zh-CN": "文档包含多个接口，请在 operation 中选择一个：{operations}" },
  plugin_parse_operation_unknown: { en: "No operation \"{operation}\"; the document has: {operations}", "zh-CN": "没有接口“{operation}”；文档中的接口有：{operations}" },
  plugin_parse_openapi_no_server: { en: "The document has no absolute server URL (servers[0].url must start with http:// or https://)", "zh-CN": "文档中没有完整的服务器地址（servers[0].url 须以 http:// 或 https:// 开头）" },
  plugin_parse_openapi_ref: { en: "The reference {ref} cannot be resolved inside the document", "zh-CN": "无法在文档内解析引用 {ref}" },
  "plugin.builtin.current_time.name": { en: "Current time", "zh-CN": "当前时间" },
  "plugin.builtin.current_time.description": { en: "Date, time and weekday in any time zone", "zh-CN": "获取任意时区的日期、时间和星期" },
  "plugin.builtin.calculator.name": { en: "Calculator", "zh-CN": "计算器" },
  "plugin.builtin.calculator.description": { en: "Exact arithmetic: + - * / % ^, parentheses, sqrt, log, sin, cos and more", "zh-CN": "精确计算：+ - * / % ^、括号、sqrt、log、sin、cos 等" },
  "plugin.builtin.fetch_webpage.name": { en: "Read web page", "zh-CN": "读取网页" },
  "plugin.builtin.fetch_webpage.description": { en: "Fetches a web page and returns its readable text", "zh-CN": "抓取网页并返回可读正文" },
  "plugin.builtin.web_search.name": { en: "Web search", "zh-CN": "联网搜索" },
  "plugin.builtin.web_search.description": { en: "Searches the web with the search provider the owner configured", "zh-CN": "使用管理员配置的搜索服务联网搜索" },
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
