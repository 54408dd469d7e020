import { defineMessages } from "../i18n/define";

/** Messages of image tasks: spec §8's image statuses and the task API's input rules. */
export const imagesMessages = defineMessages({
  image_identity_expired: { en: "Your identity has expired, please log in again", "zh-CN": "身份已过期，请重新登录" },
  image_insufficient_balance: {
    en: "Insufficient balance: this task needs {credits} credits (top up in My Account)",
    "zh-CN": "余额不足：此任务需要 {credits} 积分（请到“我的账户”充值）",
  },
  image_rejected: {
    en: "Image generation failed: the content is not compliant, try another question",
    "zh-CN": "图片生成失败：内容不合规，请换个问题试试",
  },
  image_task_not_found: { en: "Task not found, please retry or contact support", "zh-CN": "任务不存在，请重试或联系客服" },
  image_unavailable: { en: "The image service is unavailable", "zh-CN": "绘图服务不可用" },
  image_no_model: {
    en: "No image model is configured: the instance owner adds one to a model provider (Console → API access → Models)",
    "zh-CN": "尚未配置绘图模型：请实例所有者在模型服务商中添加（控制台 → API 接入 → 模型）",
  },
  image_model_unknown: { en: "{model} is not an image model served here", "zh-CN": "{model} 不是本实例提供的绘图模型" },
  image_task_busy: { en: "Please wait for the current task to complete", "zh-CN": "请等待当前任务完成" },
  image_failed: { en: "There was an issue generating the image, please retry", "zh-CN": "图片生成出现问题，请重试" },
  image_unknown: { en: "Unknown error", "zh-CN": "未知错误" },
  image_prompt_required: { en: "the prompt is required", "zh-CN": "请填写提示词" },
  image_prompt_too_long: { en: "the prompt has at most {max} characters", "zh-CN": "提示词最多 {max} 个字符" },
  image_size_unsupported: { en: "{model} draws {sizes}", "zh-CN": "{model} 支持的尺寸：{sizes}" },
  image_task_unfinished: { en: "the task has not finished with images yet", "zh-CN": "该任务尚未生成完成" },
  image_operation_unsupported: { en: "{model} offers no {operation}", "zh-CN": "{model} 不支持{operation}" },
  image_index_out_of_range: { en: "the task has no result {index}", "zh-CN": "该任务没有第 {index} 张结果" },
  "thing.image_task": { en: "Image task", "zh-CN": "绘图任务" },
});
