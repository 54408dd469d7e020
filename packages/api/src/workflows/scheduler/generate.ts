import { fail, ServiceError } from "../../errors";
import type { Deps } from "../../kernel";
import type { Language } from "../../i18n/language";
import { cronIssue, nextRuns } from "./cron";

const WEEKDAYS: Record<string, number> = {
  sunday: 0,
  sun: 0,
  monday: 1,
  mon: 1,
  tuesday: 2,
  tue: 2,
  tues: 2,
  wednesday: 3,
  wed: 3,
  thursday: 4,
  thu: 4,
  thur: 4,
  thurs: 4,
  friday: 5,
  fri: 5,
  saturday: 6,
  sat: 6,
  周日: 0,
  周天: 0,
  星期日: 0,
  星期天: 0,
  周一: 1,
  星期一: 1,
  周二: 2,
  星期二: 2,
  周三: 3,
  星期三: 3,
  周四: 4,
  星期四: 4,
  周五: 5,
  星期五: 5,
  周六: 6,
  星期六: 6,
};

/** Reads "9", "9am", "9:30", "9.30 pm", "21:05", "noon", "midnight", "9点", "9点30分", "下午3点". */
function timeOf(text: string): { hour: number; minute: number } | undefined {
  if (/\bnoon\b|中午/.test(text)) return { hour: 12, minute: 0 };
  if (/\bmidnight\b|午夜|零点/.test(text)) return { hour: 0, minute: 0 };
  const chinese = /(上午|早上|下午|晚上)?\s*(\d{1,2})\s*[点時时](?:\s*(\d{1,2})\s*分?|\s*(半))?/.exec(text);
  if (chinese) {
    let hour = Number(chinese[2]);
    const minute = chinese[4] ? 30 : chinese[3] ? Number(chinese[3]) : 0;
    if ((chinese[1] === "下午" || chinese[1] === "晚上") && hour < 12) hour += 12;
    return hour < 24 && minute < 60 ? { hour, minute } : undefined;
  }
  const match = /\bat\s+(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?|\b(\d{1,2})(?:[:.](\d{2}))\s*(am|pm)?|\b(\d{1,2})\s*(am|pm)\b/i.exec(text);
  if (!match) return undefined;
  const hourText = match[1] ?? match[4] ?? match[7];
  const minuteText = match[2] ?? match[5] ?? "0";
  const suffix = (match[3] ?? match[6] ?? match[8] ?? "").toLowerCase().replace(/\./g, "");
  let hour = Number(hourText);
  const minute = Number(minuteText);
  if (suffix === "pm" && hour < 12) hour += 12;
  if (suffix === "am" && hour === 12) hour = 0;
  return hour < 24 && minute < 60 ? { hour, minute } : undefined;
}

/**
 * The offline cron generator: a small, deterministic reading of common phrases (English and
 * Chinese). Understood: "every N minutes", "every N hours", "every hour", "every minute",
 * "every day at 9", "daily at 9:30", "every weekday at 8", "every weekend at 10",
 * "every monday 8:30", "every month on the 1st at 9", "每天9点", "每周一8点30分", "每15分钟",
 * "每小时", "工作日早上9点", "每月1号9点". Anything else answers undefined.
 */
export function cronFromPhrase(description: string): string | undefined {
  const text = description.trim().toLowerCase();
  if (!text) return undefined;
  const minutes = /every\s+(\d{1,2})\s*(?:minutes?|mins?)\b|每\s*(\d{1,2})\s*分钟/.exec(text);
  if (minutes) {
    const step = Number(minutes[1] ?? minutes[2]);
    return step >= 1 && step < 60 ? (step === 1 ? "* * * * *" : `*/${step} * * * *`) : undefined;
  }
  if (/every\s+minute\b|每分钟/.test(text)) return "* * * * *";
  const hours = /every\s+(\d{1,2})\s*hours?\b|每\s*(\d{1,2})\s*(?:个)?小时/.exec(text);
  if (hours) {
    const step = Number(hours[1] ?? hours[2]);
    return step >= 1 && step < 24 ? (step === 1 ? "0 * * * *" : `0 */${step} * * *`) : undefined;
  }
  if (/\bevery\s+hour\b|\bhourly\b|每小时|每个小时/.test(text)) return "0 * * * *";
  const time = timeOf(text) ?? { hour: 0, minute: 0 };
  const at = `${time.minute} ${time.hour}`;
  const monthDay = /(?:every\s+month|monthly)(?:\s+on)?(?:\s+the)?\s+(\d{1,2})(?:st|nd|rd|th)?|每月\s*(\d{1,2})\s*[号日]/.exec(text);
  if (monthDay) {
    const day = Number(monthDay[1] ?? monthDay[2]);
    return day >= 1 && day <= 31 ? `${at} ${day} * *` : undefined;
  }
  if (/\bweekdays?\b|工作日|周一到周五/.test(text)) return `${at} * * 1-5`;
  if (/\bweekends?\b|周末/.test(text)) return `${at} * * 0,6`;
  const days = Object.keys(WEEKDAYS)
    .sort((left, right) => right.length - left.length)
    .filter((name) => (/^[a-z]+$/.test(name) ? new RegExp(`\\b${name}\\b`).test(text) : text.includes(name)));
  if (days.length > 0) {
    const numbers = [...new Set(days.map((name) => WEEKDAYS[name]!))].sort();
    return `${at} * * ${numbers.join(",")}`;
  }
  if (/\bevery\s*day\b|\bdaily\b|\beach\s+day\b|每天|每日/.test(text) || timeOf(text)) return `${at} * * *`;
  return undefined;
}

/**
 * Cron generate: with a configured (non-offline) model, the model writes the expression and it
 * must pass the 5-field check; otherwise, or when the model's answer is unusable, the phrase
 * rules above decide.
 */
export async function generateCron(deps: Pick<Deps, "logger" | "models" | "now">, description: string, language: Language) {
  const now = deps.now();
  const resolved = deps.models.resolve(deps.models.defaultModelId);
  if (resolved && !resolved.model.offline) {
    try {
      let answer = "";
      for await (const part of resolved.provider.stream({
        model: resolved.model.id,
        temperature: 0,
        language,
        messages: [
          {
            role: "system",
            content:
              "Turn the schedule the user describes into a standard 5-field cron expression (minute hour day-of-month month day-of-week). Answer with the expression only.",
          },
          { role: "user", content: description },
        ],
      })) {
        if (part.type === "text-delta") answer += part.text;
      }
      const cron = /((?:\S+\s+){4}\S+)/.exec(answer.replace(/`/g, " ").trim())?.[1]?.trim();
      if (cron && !cronIssue(cron)) return { cron, source: "model" as const, nextRuns: nextRuns(cron, "UTC", now).map((date) => date.toISOString()) };
    } catch (error) {
      deps.logger.warn("cron generation by the model failed; using the phrase rules", { error: String(error) });
    }
  }
  const cron = cronFromPhrase(description);
  if (!cron) throw fail.invalid("workflow_cron_not_understood", "description", { description: description.slice(0, 100) });
  return { cron, source: "rules" as const, nextRuns: nextRuns(cron, "UTC", now).map((date) => date.toISOString()) };
}

/** Checks an expression (5 fields, not empty, parseable; a known time zone) and answers its next 10 times. */
export function previewCron(deps: Pick<Deps, "now">, input: { cron: string; cronTimezone?: string | undefined }) {
  const timezone = input.cronTimezone?.trim() || "UTC";
  const problem = cronIssue(input.cron, timezone);
  if (problem)
    throw new ServiceError("validation", problem.code, problem.params, { field: problem.code === "workflow_cron_timezone_invalid" ? "cronTimezone" : "cron" });
  const cron = input.cron.trim().split(/\s+/).join(" ");
  return { cron, nextRuns: nextRuns(cron, timezone, deps.now()).map((date) => date.toISOString()) };
}
