import { sql } from "drizzle-orm";
import type { Deps } from "../kernel";
import type { JobWorker } from "../jobs/worker";
import { jobsOf } from "../kernel/jobs";
import { abandonImageTask, runImageTask } from "./service/tasks";

/** The job kind of an image task; its payload is `{ taskId }`. */
export const IMAGE_TASK_JOB = "image.task";

/** How long a task may take before it fails (Midjourney's slow mode can queue for minutes). */
export const IMAGE_TASK_DEADLINE_MS = 10 * 60_000;

/** Workers by database, so a submit in this process wakes its worker at once. */
const workers = new WeakMap<object, JobWorker>();

/** Options of {@link createImageWorker}. */
export interface ImageWorkerOptions {
  /** Pause between polls of a provider's task (default 1.5 s). */
  pollMs?: number;
  idleMs?: number;
  deadlineMs?: number;
}

/**
 * The worker of image tasks: each job submits one task to its provider and polls it to its end.
 * Tasks of different users run side by side; a restart resumes polling a submitted task.
 */
export function createImageWorker(deps: Deps, options: ImageWorkerOptions = {}): JobWorker {
  const worker = jobsOf(deps).worker({
    logger: deps.logger,
    handlers: {
      [IMAGE_TASK_JOB]: async (context) => {
        const { taskId } = context.payload as { taskId: string };
        const finished = await runImageTask(deps, taskId, {
          pollMs: options.pollMs ?? 1500,
          deadlineMs: options.deadlineMs ?? IMAGE_TASK_DEADLINE_MS,
          signal: context.signal,
          heartbeat: context.heartbeat,
        });
        if (!finished) await context.release();
      },
    },
    // Longer than one provider call may take (OpenAI's 120 s timeout); polls heartbeat.
    leaseMs: 180_000,
    idleMs: options.idleMs ?? 500,
    concurrency: 8,
    // A task's provider failures are recorded on the task, never retried (a retry would draw and charge twice).
    maxAttempts: 1,
    onGiveUp: async (job, error) => abandonImageTask(deps, (JSON.parse(job.payload) as { taskId: string }).taskId, error),
  });
  workers.set(deps.db, worker);
  return worker;
}

/** Queues a stored task's job and wakes this process's worker. */
export async function enqueueImageTask(deps: Pick<Deps, "db" | "now" | "jobs">, task: { id: string; spaceId: string }): Promise<void> {
  await jobsOf(deps).enqueue(IMAGE_TASK_JOB, { taskId: task.id }, { spaceId: task.spaceId });
  workers.get(deps.db)?.wake();
}

/**
 * Queues a job again for every unfinished task that has none (a process that stopped between
 * storing a task and queueing its job, or a job that ended without finishing its task); answers
 * how many. The server calls it at start, before its worker runs.
 */
export async function recoverImageTasks(deps: Pick<Deps, "db" | "now" | "jobs">): Promise<number> {
  const unfinished = await deps.db.all<{ id: string; space_id: string }>(
    sql`SELECT t.id, t.space_id FROM image_tasks t WHERE t.status IN ('queued', 'running')`,
  );
  let recovered = 0;
  for (const task of unfinished) {
    if (await jobsOf(deps).hasLive(IMAGE_TASK_JOB, "taskId", task.id)) continue;
    await enqueueImageTask(deps, { id: task.id, spaceId: task.space_id });
    recovered += 1;
  }
  return recovered;
}
