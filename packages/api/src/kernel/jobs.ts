/**
 * Jobs: a port (jobs/port.ts) with two implementations chosen by configuration — the durable
 * queue in the relational store polled by in-process workers (the default), and BullMQ on Redis
 * when PARLEY_REDIS_URL is set. Indexing, channel deliveries, workflow runs and image tasks all
 * queue through {@link jobsOf} and run on its workers, each with their handlers.
 */
import type { Config } from "../config";
import type { Db } from "../db/client";
import type { JobQueue } from "../jobs/port";
import { createSqlJobQueue } from "../jobs/sql-queue";
import type { Logger } from "../logger";

export { type EnqueueOptions, enqueueClaimedJob, enqueueJob, type JobRow } from "../jobs/queue";
export { createJobWorker, type JobContext, type JobHandler, type JobWorker, type JobWorkerOptions } from "../jobs/worker";
export type { JobQueue, QueueOptions, QueueWorkerOptions } from "../jobs/port";

/** The SQL queue of deps that were built without a `jobs` port (tests, tools): one per deps object. */
const sqlQueues = new WeakMap<object, JobQueue>();

/**
 * The job queue of these deps: the configured port, or the SQL queue on their relational store
 * (reading `deps.db` and `deps.now` when called, so deps copied with another store or clock queue there).
 */
export function jobsOf(deps: { db: Db; now: () => Date; jobs?: JobQueue | undefined }): JobQueue {
  if (deps.jobs) return deps.jobs;
  let queue = sqlQueues.get(deps);
  if (!queue) {
    queue = createSqlJobQueue({
      get db() {
        return deps.db;
      },
      now: () => deps.now(),
    });
    sqlQueues.set(deps, queue);
  }
  return queue;
}

/** The jobs port the configuration asks for: BullMQ on Redis when `config.redis` is set, else undefined (the SQL queue of {@link jobsOf}). */
export async function openJobQueue(config: Pick<Config, "redis">, options: { logger: Logger; now: () => Date }): Promise<JobQueue | undefined> {
  if (!config.redis) return undefined;
  // Loaded only when configured: the single-process default does not pay for BullMQ at start-up.
  const { openRedisJobQueue } = await import("../jobs/redis-queue");
  return openRedisJobQueue(config.redis.url, options);
}
