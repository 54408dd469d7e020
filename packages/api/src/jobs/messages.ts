import { defineMessages } from "../i18n/define";

/** Messages of the job queue. */
export const jobsMessages = defineMessages({
  jobs_unavailable: {
    en: "The job queue (Redis) is not reachable right now; nothing was queued. Try again shortly",
    "zh-CN": "任务队列（Redis）暂时无法连接，未加入任何任务。请稍后重试",
  },
});
