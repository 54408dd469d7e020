import { defineMessages } from "../i18n/define";

/** Messages of accounts, sign-in and verification codes (including the code e-mail). */
export const identityMessages = defineMessages({
  api_key_not_allowed: { en: "This action needs a signed-in session, not an API key", "zh-CN": "此操作需要登录会话，不能使用 API 密钥" },
  login_paused: {
    en: "Too many password attempts on this account; sign in with a code sent to your e-mail or phone, or try again in {seconds} s",
    "zh-CN": "该账号密码尝试次数过多，请使用发送到邮箱或手机的验证码登录，或 {seconds} 秒后再试",
  },
  sign_in_unavailable: {
    en: "Sign-in is briefly unavailable; try again in {seconds} s",
    "zh-CN": "登录暂时不可用，请 {seconds} 秒后再试",
  },
  code_resend_wait: { en: "A code was just sent; wait {seconds} s to resend", "zh-CN": "验证码刚刚已发送，请 {seconds} 秒后再重发" },
  code_invalid: { en: "The verification code is wrong or has expired", "zh-CN": "验证码错误或已过期" },
  email_taken: { en: "This e-mail address is already registered", "zh-CN": "该邮箱已注册" },
  phone_taken: { en: "This phone number is already registered", "zh-CN": "该手机号已注册" },
  account_not_found: { en: "No account uses this {channel}", "zh-CN": "没有使用该{channel}的账号" },
  login_failed: { en: "Wrong account or password", "zh-CN": "账号或密码错误" },
  password_wrong: { en: "The current password is wrong", "zh-CN": "当前密码错误" },
  password_too_weak: { en: "The password needs at least 8 characters with letters and digits", "zh-CN": "密码至少 8 位，且需同时包含字母和数字" },
  grant_invalid: { en: "This sign-in link is invalid, used or expired", "zh-CN": "该登录链接无效、已使用或已过期" },
  grant_missing: { en: "Send either code or loginCode", "zh-CN": "请提供 code 或 loginCode" },
  provider_disabled: { en: "{provider} sign-in is not configured", "zh-CN": "未配置 {provider} 登录" },
  provider_failed: { en: "{provider} sign-in failed: {reason}", "zh-CN": "{provider} 登录失败：{reason}" },
  oauth_state_invalid: { en: "This sign-in attempt is unknown or expired", "zh-CN": "此登录请求不存在或已过期" },
  sms_disabled: { en: "Phone codes are not available on this server", "zh-CN": "本服务器未开通短信验证码" },
  mail_failed: { en: "The message could not be sent; try again later", "zh-CN": "消息发送失败，请稍后重试" },
  "thing.user": { en: "User", "zh-CN": "用户" },
  "thing.oauth_state": { en: "Sign-in request", "zh-CN": "登录请求" },
  "thing.email": { en: "e-mail", "zh-CN": "邮箱" },
  "thing.phone": { en: "phone number", "zh-CN": "手机号" },
  "mail.code.subject": { en: "Your Parley verification code: {code}", "zh-CN": "您的 Parley 验证码：{code}" },
  "mail.code.text": {
    en: "Your verification code is {code}. It expires in {minutes} minutes. If you did not ask for it, ignore this message.",
    "zh-CN": "您的验证码是 {code}，{minutes} 分钟内有效。如非本人操作，请忽略本消息。",
  },
});
