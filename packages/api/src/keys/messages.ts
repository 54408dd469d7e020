import { defineMessages } from "../i18n/define";

/** Messages of API keys and user keys. */
export const keysMessages = defineMessages({
  user_key_app_unknown: { en: "App {id} does not exist in this space", "zh-CN": "当前空间中不存在应用 {id}" },
  "thing.api_key": { en: "API key", "zh-CN": "API 密钥" },
  "thing.user_key": { en: "User key", "zh-CN": "用户密钥" },
});
