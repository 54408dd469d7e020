import { sql } from "drizzle-orm";
import { type BootstrapResult, bootstrap } from "./bootstrap";
import { createChannelWorker, startKeyValueSweeper } from "./channels/worker";
import { startChatFileSweeper } from "./chat/files/service";
import { databaseKeyValueStore } from "./channels/kv";
import type { Config } from "./config";
import { createImageWorker, recoverImageTasks } from "./images/worker";
import type { Deps } from "./kernel";
import { createKnowledgeWorker } from "./knowledge/worker";
import { recoverFulfilments } from "./payments/service/orders";
import { sealStoredSecrets } from "./platform/seal-stored";
import { ensureSeeded } from "./templates/service/templates";
import { createWorkflowRunner } from "./workflows/engine/runner";
import { createWorkflowScheduler } from "./workflows/scheduler/loop";

/** The roles of a process as PARLEY_ROLE names them, for the ready line: `api,worker,scheduler`. */
export function describeRoles(roles: Config["roles"]): string {
  return (["api", "worker", "scheduler"] as const).filter((role) => roles[role]).join(",");
}

/** The key of the start-up lock in the key-value table: one process at a time bootstraps and seeds. */
const STARTUP_LOCK = "parley:startup";
const STARTUP_LOCK_SECONDS = 120;

/**
 * Runs `steps` while holding the start-up lock, so processes started at the same moment on one
 * store bootstrap and seed one after the other (the second finds the owner and the templates
 * there). A process that died holding it frees it after two minutes.
 */
async function underStartupLock<T>(deps: Pick<Deps, "db">, steps: () => Promise<T>): Promise<T> {
  const kv = databaseKeyValueStore(deps.db, () => Date.now());
  const holder = `${process.pid}:${Math.random()}`;
  const began = Date.now();
  while (!(await kv.setIfAbsent(STARTUP_LOCK, holder, STARTUP_LOCK_SECONDS))) {
    if (Date.now() - began > STARTUP_LOCK_SECONDS * 1000) throw new Error("another Parley process holds the start-up lock");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  try {
    return await steps();
  } finally {
    await kv.delete(STARTUP_LOCK);
  }
}

/** Streaming answers older than this, found by a scheduler that serves no requests itself, belong to a process that died. */
const STALE_STREAMING_MS = 15 * 60_000;

/**
 * Marks answers cut off by a dead process as interrupted (they keep their text). A process with
 * every role is alone, so every streaming answer was the previous process's; a scheduler beside
 * API processes marks only answers older than any turn takes, never one a live API process streams.
 */
async function markInterrupted(deps: Pick<Deps, "db" | "now">, roles: Config["roles"]): Promise<number> {
  const alone = roles.api && roles.worker && roles.scheduler;
  const before = new Date(deps.now().getTime() - STALE_STREAMING_MS).toISOString();
  const inclusive = alone ? sql`1 = 1` : sql`created_at < ${before}`;
  const rows = await deps.db.all<{ id: string }>(sql`UPDATE messages SET status = 'interrupted' WHERE status = 'streaming' AND ${inclusive} RETURNING id`);
  return rows.length;
}

/** What {@link startRoles} started, and how to stop it. */
export interface StartedRoles {
  /** The bootstrap's result (the owner's sign-in link on a first start). */
  bootstrap: BootstrapResult;
  stop(): Promise<void>;
}

/**
 * Starts what this process's roles ask for (decision 0030), after the start-up steps every process
 * runs under the start-up lock (secrets sealed, owner bootstrapped, templates seeded):
 *
 * - api: nothing runs here (server.ts listens), but the channel worker and the workflow runner
 *   exist unstarted so webhooks and `wait: true` runs execute their claimed jobs inline;
 * - worker: the job loops — knowledge indexing, channel jobs, workflow runs, image tasks;
 * - scheduler: the cron scheduler, the key-value sweeper, the workflow sweep of runs left without
 *   a job, and the once-only recoveries: interrupted answers, unfinished order grants, image tasks
 *   without a job.
 */
export async function startRoles(deps: Deps, roles: Config["roles"]): Promise<StartedRoles> {
  const { logger, config } = deps;
  const result = await underStartupLock(deps, async () => {
    // Databases written before secrets were sealed at rest get theirs sealed now (idempotent).
    const sealed = await sealStoredSecrets(deps);
    if (Object.values(sealed).some((n) => n > 0)) logger.info("sealed secrets stored in plain text by an earlier version", { ...sealed });
    const bootstrapped = await bootstrap(deps);
    // Shipped templates are (re)written on every start: new ones added, upgraded ones replaced.
    await ensureSeeded(deps);
    if (roles.scheduler) {
      // Answers a previous process was still streaming when it died keep their text, marked interrupted.
      const interrupted = await markInterrupted(deps, roles);
      if (interrupted > 0) logger.warn("marked answers cut off by the previous shutdown as interrupted", { interrupted });
      // Orders a crash left fulfilled but not (or not wholly) granted get their grant finished.
      await recoverFulfilments(deps);
      // Image tasks left without a job (a process stopped between storing a task and queueing it).
      const recoveredImages = await recoverImageTasks(deps);
      if (recoveredImages > 0) logger.warn("queued image tasks left without a job again", { tasks: recoveredImages });
    }
    return bootstrapped;
  });
  const stops: Array<() => Promise<void> | void> = [];
  if (roles.worker) {
    const knowledge = createKnowledgeWorker(deps, { leaseMs: config.jobs.leaseSeconds * 1000 });
    knowledge.start();
    stops.push(() => knowledge.stop());
  }
  if (roles.worker || roles.api) {
    // Messaging: answers, deliveries with retries, delayed replies after handover (resumed after a restart).
    // An api process keeps it unstarted: webhooks run the jobs they accepted on it at once.
    const channels = createChannelWorker(deps);
    if (roles.worker) channels.start();
    stops.push(() => channels.stop());
    // Workflows: durable runs (resumed after a restart) and, in each worker, the sweep of runs left without a job.
    const runner = createWorkflowRunner(deps);
    if (roles.worker) runner.start();
    stops.push(() => runner.stop());
  }
  if (roles.worker) {
    // Image tasks: submitted to their provider and polled to their end (resumed after a restart).
    const images = createImageWorker(deps);
    images.start();
    stops.push(() => images.stop());
  }
  if (roles.scheduler) {
    stops.push(startKeyValueSweeper(deps));
    stops.push(startChatFileSweeper(deps));
    const scheduler = createWorkflowScheduler(deps);
    scheduler.start();
    stops.push(() => scheduler.stop());
  }
  return {
    bootstrap: result,
    async stop() {
      // The scheduler first (no new runs), then the workers hand back what they hold.
      for (const stop of stops.reverse()) await stop();
    },
  };
}
