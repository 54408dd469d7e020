import type { Db } from "../db/client";
import type { Logger } from "../logger";
import { claimJob, completeJob, DEFAULT_MAX_ATTEMPTS, extendLease, failJob, type JobRow } from "./queue";

/** What a handler is given for one job. */
export interface JobContext {
  job: JobRow;
  payload: unknown;
  /** Extends the lease; long handlers call it as they make progress. */
  heartbeat(): Promise<void>;
}

/** Runs one kind of job. Throwing marks the attempt failed (retried with backoff). */
export type JobHandler = (context: JobContext) => Promise<void>;

/** Options of {@link createJobWorker}. */
export interface JobWorkerOptions {
  db: Db;
  logger: Logger;
  now: () => Date;
  handlers: Record<string, JobHandler>;
  /** How long a claim lasts without a heartbeat. */
  leaseMs?: number;
  /** Pause between polls when the queue is empty. */
  idleMs?: number;
  maxAttempts?: number;
  /**
   * Jobs run at once (default 1). Handlers waiting on I/O overlap, and writes they make at the
   * same moment can be grouped (the vector store commits concurrent upserts together).
   */
  concurrency?: number;
  /** Called when a job has failed for the last time. */
  onGiveUp?: (job: JobRow, error: string) => Promise<void>;
}

/** An in-process worker: claims and runs up to `concurrency` jobs at a time until stopped. */
export interface JobWorker {
  start(): void;
  /** Stops claiming and waits for the jobs in hand, if any, to finish. */
  stop(): Promise<void>;
  /** Claims and runs jobs until none is ready; answers how many ran. For tests and start-up. */
  drain(): Promise<number>;
  /** Runs a job this process already holds the lease of (see enqueueClaimedJob), as a poll would. */
  run(job: JobRow): Promise<void>;
}

/**
 * Waits `ms`, or less when one of `sleepers` is called (a stop, or work queued in this process).
 * Pollers of the job tables share it.
 */
export function idle(sleepers: Set<() => void>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const wake = () => {
      clearTimeout(timer);
      sleepers.delete(wake);
      resolve();
    };
    const timer = setTimeout(wake, ms);
    sleepers.add(wake);
  });
}

/** Builds an in-process job worker over the durable queue. */
export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const leaseMs = options.leaseMs ?? 60_000;
  const idleMs = options.idleMs ?? 500;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const kinds = Object.keys(options.handlers);
  let running = false;
  let loop: Promise<void> | undefined;

  async function runOne(): Promise<boolean> {
    const job = await claimJob(options.db, options.now(), { kinds, leaseMs });
    if (!job) return false;
    await runClaimed(job);
    return true;
  }

  async function runClaimed(job: JobRow): Promise<void> {
    const handler = options.handlers[job.kind]!;
    try {
      await handler({
        job,
        payload: JSON.parse(job.payload) as unknown,
        heartbeat: () => extendLease(options.db, options.now(), job.id, leaseMs),
      });
      await completeJob(options.db, options.now(), job.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const { retrying } = await failJob(options.db, options.now(), job, message, maxAttempts);
      options.logger.warn("job attempt failed", { jobId: job.id, kind: job.kind, attempts: job.attempts, retrying, error: message });
      if (!retrying && options.onGiveUp) await options.onGiveUp(job, message);
    }
  }

  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));

  async function poll(): Promise<void> {
    while (running) {
      let worked = false;
      try {
        worked = await runOne();
      } catch (error) {
        options.logger.error("job worker poll failed", { error: error instanceof Error ? error.message : String(error) });
      }
      if (!worked && running) await idle(sleepers, idleMs);
    }
  }
  const sleepers = new Set<() => void>();
  /** Jobs handed to `run` by their claimant, awaited by `stop`. */
  const inline = new Set<Promise<void>>();

  return {
    async run(job) {
      if (!options.handlers[job.kind]) throw new Error(`no handler for job kind ${job.kind}`);
      const running = runClaimed(job);
      inline.add(running);
      try {
        await running;
      } finally {
        inline.delete(running);
      }
    },
    start() {
      if (running) return;
      running = true;
      loop = Promise.all(Array.from({ length: concurrency }, () => poll())).then(() => undefined);
    },
    async stop() {
      running = false;
      for (const wake of [...sleepers]) wake();
      await loop;
      await Promise.allSettled([...inline]);
      loop = undefined;
    },
    async drain() {
      let count = 0;
      const lane = async () => {
        while (await runOne()) count += 1;
      };
      await Promise.all(Array.from({ length: concurrency }, lane));
      return count;
    },
  };
}
