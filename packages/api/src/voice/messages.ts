import { defineMessages } from "../i18n/define";

/** Messages of text to speech: reading answers aloud, tones and demos (issue 21). */
export const voiceMessages = defineMessages({
  voice_text_empty: { en: "Write the text to read aloud", "zh-CN": "请填写要朗读的文字" },
  voice_text_too_long: { en: "At most {max} characters can be read aloud at once", "zh-CN": "每次最多朗读 {max} 个字符" },
  voice_tone_unknown: { en: "Speech model {model} has no tone {id}", "zh-CN": "语音模型 {model} 没有音色 {id}" },
  voice_model_unknown: {
    en: "Speech model {id} is not served by any enabled model provider",
    "zh-CN": "没有已启用的模型服务商提供语音模型 {id}",
  },
  voice_not_configured: {
    en: "No speech model is configured: an instance administrator adds one to a model provider under API access → Models",
    "zh-CN": "尚未配置语音模型：请实例管理员在「API 接入 → 模型」中为服务商添加语音模型",
  },
  voice_app_silent: {
    en: "This app has no voice: choose a speech model and a tone in its settings",
    "zh-CN": "此应用未设置声音：请在应用设置中选择语音模型和音色",
  },
  voice_failed: { en: "The speech service could not read this aloud; try again later", "zh-CN": "语音服务暂时无法朗读，请稍后重试" },
  voice_tone_required: { en: "Choose a tone of the speech model", "zh-CN": "请选择语音模型的音色" },
  voice_model_required: { en: "Choose the speech model of the tone", "zh-CN": "请选择音色所属的语音模型" },
});
