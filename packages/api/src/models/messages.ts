import { defineMessages } from "../i18n/define";

/** Messages of language-model providers. */
export const modelsMessages = defineMessages({
  "thing.model_provider": { en: "Model provider", "zh-CN": "模型服务商" },
});
