import { and, desc, eq, isNotNull } from "drizzle-orm";
import { newId } from "../../crypto";
import { workflowRuns, workflows, workflowScheduleTicks } from "../../db/schema/index";
import { ServiceError } from "../../errors";
import type { Deps } from "../../kernel";
import { messageText } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";
import { enqueueRun } from "../engine/runner";
import { startRun } from "../service/runs";
import { graphOf } from "../service/workflows";
import { cronIssue, runsBetween } from "./cron";

// A timer has no reader to ask: the failed run it records says why in English.
const TIMER_LANGUAGE: Language = "en";

/** Options of {@link createWorkflowScheduler}. */
export interface WorkflowSchedulerOptions {
  /** How often due ticks are looked for (default 5 s: a tick fires within 5 s of its time). */
  intervalMs?: number;
  /** A tick missed while no scheduler ran is still fired when at most this old (default 5 minutes). */
  catchUpMs?: number;
  /** Names this process in the tick rows (default: a random id). */
  instanceId?: string;
}

/** The cron scheduler of this process. */
export interface WorkflowScheduler {
  start(): void;
  stop(): Promise<void>;
  /** Fires every tick due now; answers how many runs this instance started. */
  tick(): Promise<number>;
}

/**
 * Fires workflows' timers. Every instance looks for due ticks; a tick fires in the instance
 * that inserts its (workflow, tick) row first, so it fires once however many processes run.
 * The run it starts is of type TIME and goes through the durable run queue.
 */
export function createWorkflowScheduler(deps: Deps, options: WorkflowSchedulerOptions = {}): WorkflowScheduler {
  const intervalMs = options.intervalMs ?? 5_000;
  const catchUpMs = options.catchUpMs ?? 5 * 60_000;
  const instanceId = options.instanceId ?? newId("sch");
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<unknown> | undefined;

  async function fire(workflow: typeof workflows.$inferSelect, tick: Date): Promise<boolean> {
    const claimed = await deps.db
      .insert(workflowScheduleTicks)
      .values({ workflowId: workflow.id, tick: tick.toISOString(), claimedBy: instanceId, createdAt: deps.now().toISOString() })
      .onConflictDoNothing()
      .returning({ tick: workflowScheduleTicks.tick });
    if (claimed.length === 0) return false;
    let runId: string;
    try {
      runId = await startRun(deps, workflow, { type: "TIME", trigger: { by: "schedule", tick: tick.toISOString(), userId: workflow.createdBy } });
      await enqueueRun(deps, { runId, spaceId: workflow.spaceId });
    } catch (error) {
      // A timer whose workflow no longer passes the rules: the failed run in history says why.
      const reason = error instanceof ServiceError ? messageText(TIMER_LANGUAGE, error.messageId, error.params) : String(error);
      runId = newId("wfr");
      const now = deps.now().toISOString();
      await deps.db.insert(workflowRuns).values({
        id: runId,
        spaceId: workflow.spaceId,
        workflowId: workflow.id,
        type: "TIME",
        status: "failure",
        inputs: "{}",
        graph: JSON.stringify(graphOf(workflow)),
        trigger: JSON.stringify({ by: "schedule", tick: tick.toISOString() }),
        error: reason,
        startedAt: now,
        finishedAt: now,
        createdAt: now,
        updatedAt: now,
      });
    }
    await deps.db
      .update(workflowScheduleTicks)
      .set({ runId })
      .where(and(eq(workflowScheduleTicks.workflowId, workflow.id), eq(workflowScheduleTicks.tick, tick.toISOString())));
    return true;
  }

  async function tick(): Promise<number> {
    const now = deps.now();
    const scheduled = await deps.db
      .select()
      .from(workflows)
      .where(and(eq(workflows.cronEnabled, true), isNotNull(workflows.cron)));
    let fired = 0;
    for (const workflow of scheduled) {
      if (cronIssue(workflow.cron!, workflow.cronTimezone)) continue;
      const last = await deps.db
        .select({ tick: workflowScheduleTicks.tick })
        .from(workflowScheduleTicks)
        .where(eq(workflowScheduleTicks.workflowId, workflow.id))
        .orderBy(desc(workflowScheduleTicks.tick))
        .limit(1)
        .get();
      // Ticks after the last one fired (or after the timer was saved), and not older than the catch-up window.
      const since = Math.max(now.getTime() - catchUpMs, Date.parse(last?.tick ?? workflow.updatedAt));
      const due = runsBetween(workflow.cron!, workflow.cronTimezone, new Date(since), now, 20);
      for (const at of due) {
        try {
          if (await fire(workflow, at)) fired += 1;
        } catch (error) {
          deps.logger.error("scheduled workflow failed to start", { workflowId: workflow.id, tick: at.toISOString(), error: String(error) });
        }
      }
    }
    return fired;
  }

  const loop = () => {
    // A slow tick is not overlapped by the next one.
    if (current) return;
    current = tick()
      .catch((error: unknown) => deps.logger.error("workflow scheduler tick failed", { error: String(error) }))
      .finally(() => {
        current = undefined;
      });
  };

  return {
    start() {
      if (timer) return;
      loop();
      timer = setInterval(loop, intervalMs);
      timer.unref?.();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await current;
    },
    tick,
  };
}
