import type { ConfigField } from "../../types";

/** Form fields the three WeChat kinds share. */

/** The callback Token set on the platform (3–32 letters and digits). */
export const callbackTokenField: ConfigField = {
  key: "token",
  label: { en: "Token", "zh-CN": "令牌 (Token)" },
  help: { en: "The Token entered in the platform's server (callback) settings.", "zh-CN": "平台服务器（回调）配置中填写的 Token。" },
  secret: true,
  required: true,
  pattern: "^[A-Za-z0-9]{3,32}$",
};

/** The 43-character EncodingAESKey. */
export function encodingAesKeyField(required: boolean): ConfigField {
  return {
    key: "encodingAesKey",
    label: { en: "EncodingAESKey", "zh-CN": "消息加解密密钥 (EncodingAESKey)" },
    help: { en: "43 letters and digits, from the same settings page.", "zh-CN": "43 位字母和数字，在同一配置页面获取。" },
    secret: true,
    required,
    pattern: "^[A-Za-z0-9]{43}$",
  };
}

/** The WeCom corporation id. */
export const corpIdField: ConfigField = {
  key: "corpId",
  label: { en: "Corp ID", "zh-CN": "企业 ID (CorpID)" },
  help: { en: "My Company → Company Information in the WeCom admin console.", "zh-CN": "企业微信管理后台“我的企业 → 企业信息”。" },
  secret: false,
  required: true,
  pattern: "^[A-Za-z0-9]{1,64}$",
};
