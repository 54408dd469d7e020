import type { Deps } from "../kernel";
import { sweepKeyValues } from "./kv";
import type { JobWorker } from "../jobs/worker";
import { jobsOf } from "../kernel/jobs";
import { delayedReplyHandler } from "../inbox/delayed";
import { HANDOVER_DELAYED_JOB } from "../inbox/handover";
import { CHANNEL_REPLY_JOB, CHANNEL_SEND_JOB, markSendGivenUp, replyHandler, sendHandler, useChannelWorker } from "./pipeline";

/** Conversations answered at once by one server (each mostly waits on a model or a platform). */
export const CHANNEL_CONCURRENCY = 32;

/**
 * The worker of messaging jobs: answers, deliveries (retried with backoff) and delayed replies
 * after a handover. Jobs a webhook accepted run on it at once; the rest when due, also after a
 * restart (a crashed process's leases run out).
 */
export function createChannelWorker(deps: Deps, options: { leaseMs?: number; idleMs?: number } = {}): JobWorker {
  const worker = jobsOf(deps).worker({
    logger: deps.logger,
    handlers: {
      [CHANNEL_REPLY_JOB]: replyHandler(deps),
      [CHANNEL_SEND_JOB]: sendHandler(deps),
      [HANDOVER_DELAYED_JOB]: delayedReplyHandler(deps),
    },
    leaseMs: options.leaseMs ?? 120_000,
    idleMs: options.idleMs ?? 500,
    concurrency: CHANNEL_CONCURRENCY,
    // Fair between spaces: one space's burst of deliveries does not hold another's back.
    fairness: { perSpace: CHANNEL_CONCURRENCY },
    onGiveUp: async (job, error) => {
      if (job.kind === CHANNEL_SEND_JOB) await markSendGivenUp(deps, JSON.parse(job.payload), error);
    },
  });
  useChannelWorker(deps, worker);
  return worker;
}

/** How often expired key-value entries (old dedupe keys, tokens) are deleted. */
export const KEY_VALUE_SWEEP_MS = 60 * 60_000;

/** Deletes expired key-value entries now and then every hour; answers a stop function. */
export function startKeyValueSweeper(deps: Pick<Deps, "db" | "logger" | "now">, everyMs = KEY_VALUE_SWEEP_MS): () => void {
  const sweep = () =>
    void sweepKeyValues(deps.db, deps.now().getTime())
      .then((removed) => {
        if (removed > 0) deps.logger.debug("swept expired key-value entries", { removed });
      })
      .catch((error: unknown) => deps.logger.warn("key-value sweep failed", { error: String(error) }));
  sweep();
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
