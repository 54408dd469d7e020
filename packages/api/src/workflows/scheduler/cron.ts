import { Cron } from "croner";
import type { MessageId } from "../../i18n/catalogue";

/** How many fire times a preview shows. */
export const PREVIEW_COUNT = 10;

/** What is wrong with a cron expression, if anything: empty, not exactly 5 fields, or not parseable. */
export function cronIssue(expression: string, timezone?: string): { code: MessageId; params: Record<string, string | number> } | undefined {
  const trimmed = expression.trim();
  if (trimmed === "") return { code: "workflow_cron_required", params: {} };
  const count = trimmed.split(/\s+/).length;
  if (count !== 5) return { code: "workflow_cron_fields", params: { count } };
  try {
    new Cron(trimmed, { paused: true, mode: "5-part", ...(timezone ? { timezone } : {}) });
  } catch (error) {
    return { code: "workflow_cron_invalid", params: { reason: error instanceof Error ? error.message : String(error) } };
  }
  if (timezone && !isTimezone(timezone)) return { code: "workflow_cron_timezone_invalid", params: { timezone } };
  return undefined;
}

/** Whether an IANA time zone name is known to this runtime. */
export function isTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** The next `count` fire times strictly after `from`. */
export function nextRuns(expression: string, timezone: string, from: Date, count = PREVIEW_COUNT): Date[] {
  const cron = new Cron(expression.trim(), { paused: true, mode: "5-part", timezone });
  return cron.nextRuns(count, from);
}

/** The fire times in (after, until], oldest first, at most `limit`. */
export function runsBetween(expression: string, timezone: string, after: Date, until: Date, limit = 100): Date[] {
  const cron = new Cron(expression.trim(), { paused: true, mode: "5-part", timezone });
  const out: Date[] = [];
  let cursor: Date = after;
  while (out.length < limit) {
    const next = cron.nextRun(cursor);
    if (!next || next.getTime() > until.getTime()) break;
    out.push(next);
    cursor = next;
  }
  return out;
}
