import { listRateLimitRules } from "../apps/service/index";
import type { Deps } from "../kernel";

const PERIOD_SECONDS = { second: 1, minute: 60, hour: 3600, day: 86_400 } as const;

/** Channels a rule's target covers; `all` covers every channel. */
const TARGET_CHANNELS: Record<string, string[]> = {
  personal: ["wechat-personal"],
  official_account: ["wechat-official-account"],
  wecom_internal: ["wechat-work"],
};

/**
 * Applies an app's rate-limit rules to one end user on one channel, counting in fixed windows on
 * the injected clock. Answers the first rule that is exceeded, or undefined. Counts only when no
 * rule refuses, so a refused message does not use up the next window.
 */
export async function checkRateLimits(deps: Pick<Deps, "db" | "now" | "throttle">, input: { appId: string; endUserId: string; channel: string }) {
  const rules = await listRateLimitRules(deps, input.appId);
  const applicable = rules.filter((rule) => rule.targetChannel === "all" || (TARGET_CHANNELS[rule.targetChannel] ?? []).includes(input.channel));
  const now = deps.now().getTime();
  const keys = applicable.map((rule) => {
    const seconds = PERIOD_SECONDS[rule.periodUnit];
    const window = Math.floor(now / (seconds * 1000));
    return { rule, key: `rate:${rule.id}:${input.endUserId}:${window}`, seconds };
  });
  for (const { rule, key } of keys) {
    if (deps.throttle.peek(key, rule.count) > 0) return { rule, replyWhenExceeded: rule.replyWhenExceeded };
  }
  for (const { rule, key, seconds } of keys) deps.throttle.hit(key, rule.count, seconds);
  return undefined;
}
