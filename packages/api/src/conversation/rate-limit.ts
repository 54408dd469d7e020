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
 * the injected clock. Answers the first rule that is exceeded, or undefined. Every rule's counter
 * is taken at once and given back when one refuses (atomic per counter, in Redis across processes
 * when configured), so a refused message does not use up the next window and N turns spread over
 * several processes admit exactly the rule's count.
 */
export async function checkRateLimits(deps: Pick<Deps, "db" | "now" | "throttle">, input: { appId: string; endUserId: string; channel: string }) {
  const rules = await listRateLimitRules(deps, input.appId);
  const applicable = rules.filter((rule) => rule.targetChannel === "all" || (TARGET_CHANNELS[rule.targetChannel] ?? []).includes(input.channel));
  if (applicable.length === 0) return undefined;
  const now = deps.now().getTime();
  const hits = applicable.map((rule) => {
    const seconds = PERIOD_SECONDS[rule.periodUnit];
    const window = Math.floor(now / (seconds * 1000));
    return { key: `rate:${rule.id}:${input.endUserId}:${window}`, limit: rule.count, windowSeconds: seconds };
  });
  const refused = await deps.throttle.hitAll(hits);
  if (!refused) return undefined;
  const rule = applicable[refused.index]!;
  return { rule, replyWhenExceeded: rule.replyWhenExceeded };
}
