import type { JobRow } from "./queue";
import type { JobWorker, JobWorkerOptions } from "./worker";

/** Where a job belongs and when it may run (see {@link JobQueue.enqueue}). */
export interface QueueOptions {
  /** The space the job works for: workers take turns between spaces on it. Null only for work of no space. */
  spaceId: string | null;
  /** When the job becomes claimable (default: now). */
  runAfter?: Date;
}

/** What a worker of a {@link JobQueue} is built with: handlers and their limits; the queue brings the store and clock. */
export type QueueWorkerOptions = Omit<JobWorkerOptions, "db" | "now">;

/**
 * The jobs port: a durable queue with at-least-once workers. Two implementations, chosen by
 * configuration: the `jobs` table of the relational store (the embedded default, jobs/queue.ts)
 * and BullMQ on Redis when PARLEY_REDIS_URL is set (jobs/redis-queue.ts). Decision 0030.
 */
export interface JobQueue {
  /** Which implementation this is. */
  readonly backend: "sql" | "redis";
  /** Puts a job on the queue; it becomes claimable at `runAfter` (default: now). */
  enqueue(kind: string, payload: unknown, options: QueueOptions): Promise<JobRow>;
  /**
   * Puts a job on the queue already claimed by the caller for `leaseMs`, to run at once with a
   * worker's {@link JobWorker.run}; if the caller dies, the lease runs out and a worker takes it over.
   */
  enqueueClaimed(kind: string, payload: unknown, options: { spaceId: string | null; leaseMs: number }): Promise<JobRow>;
  /** A worker of the given handlers (not started: `start()` runs its loops; `run(job)` works without). */
  worker(options: QueueWorkerOptions): JobWorker;
  /** Whether a job of `kind` whose payload has `field` = `value` is queued or running (sweeps of work left without a job). */
  hasLive(kind: string, field: string, value: string): Promise<boolean>;
  /** Closes the queue's connections (workers are stopped by their owners first). */
  close(): Promise<void>;
}
