import { defineMessages } from "../i18n/define";

/** Messages of records, exports and the data dashboard. */
export const analysisMessages = defineMessages({
  analysis_range_inverted: { en: "The time range ends ({field}) before it starts", "zh-CN": "时间范围的结束时间（{field}）早于开始时间" },
  analysis_range_too_long: {
    en: "The time range ({field}) may span at most {days} days",
    "zh-CN": "时间范围（{field}）最多 {days} 天",
  },
  analysis_time_zone_unknown: {
    en: "{zone} is not a time zone: give an IANA name such as Asia/Shanghai or Europe/Berlin ({field})",
    "zh-CN": "{zone} 不是有效的时区：请填写 IANA 时区名，例如 Asia/Shanghai 或 Europe/Berlin（{field}）",
  },
  analysis_export_too_large: {
    en: "The export would have {count} rows; at most {limit} rows can be exported at once: narrow the filters",
    "zh-CN": "导出将有 {count} 行，单次最多导出 {limit} 行：请缩小筛选范围",
  },
});

/** Column titles of the exported files, in the request's language. */
export const analysisColumnMessages = defineMessages({
  "analysis.col.time": { en: "Time", "zh-CN": "时间" },
  "analysis.col.app": { en: "App", "zh-CN": "应用" },
  "analysis.col.channel": { en: "Channel", "zh-CN": "渠道" },
  "analysis.col.user": { en: "User", "zh-CN": "用户" },
  "analysis.col.model": { en: "Model or plugin", "zh-CN": "模型或插件" },
  "analysis.col.question": { en: "Question", "zh-CN": "问题" },
  "analysis.col.answer": { en: "Answer", "zh-CN": "回答" },
  "analysis.col.promptTokens": { en: "Prompt tokens", "zh-CN": "输入 tokens" },
  "analysis.col.completionTokens": { en: "Completion tokens", "zh-CN": "输出 tokens" },
  "analysis.col.credits": { en: "Credits", "zh-CN": "积分" },
  "analysis.col.knowledgeHits": { en: "Knowledge hits", "zh-CN": "知识命中数" },
  "analysis.col.conversation": { en: "Conversation", "zh-CN": "会话" },
  "analysis.col.reason": { en: "Reason", "zh-CN": "原因" },
  "analysis.col.detail": { en: "Detail", "zh-CN": "详情" },
  "analysis.col.word": { en: "Word", "zh-CN": "词" },
  "analysis.col.count": { en: "Count", "zh-CN": "次数" },
});
