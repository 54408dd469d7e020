import { defineMessages } from "../i18n/define";

/** Messages of speech input (transcription). */
export const speechMessages = defineMessages({
  speech_no_model: {
    en: "Speech input needs a transcription model: the instance owner adds one (e.g. whisper-1) to a model provider under API access → Models",
    "zh-CN": "语音输入需要语音识别模型：请实例管理员在「API 接入 → 模型」中为模型服务商添加（如 whisper-1）",
  },
  speech_unknown_model: { en: "The transcription model {model} is not served by any enabled provider", "zh-CN": "没有已启用的服务商提供语音识别模型 {model}" },
  speech_empty: { en: "The recording is empty; hold the microphone button and speak", "zh-CN": "录音为空，请按下麦克风按钮后说话" },
  speech_too_large: { en: "The recording is larger than {megabytes} MB", "zh-CN": "录音超过 {megabytes} MB" },
  speech_not_audio: {
    en: "The file is not audio speech input can read (WebM, Ogg, WAV, MP3 or M4A)",
    "zh-CN": "该文件不是可识别的音频（支持 WebM、Ogg、WAV、MP3、M4A）",
  },
  speech_duration_unknown: { en: "The recording's length cannot be read; record again", "zh-CN": "无法读取录音时长，请重新录音" },
  speech_too_long: {
    en: "The recording is {seconds} s long; speech input takes at most {minutes} minutes",
    "zh-CN": "录音时长 {seconds} 秒，语音输入最长 {minutes} 分钟",
  },
  speech_failed: { en: "Speech could not be transcribed; try again", "zh-CN": "语音识别失败，请重试" },
});
