import type { Db } from "../db/client";
import type { Logger } from "../logger";
import { backoffMs, claimFairJob, claimJob, completeJob, DEFAULT_MAX_ATTEMPTS, extendLease, failJob, type JobRow, releaseJob } from "./queue";

/** What a handler is given for one job. */
export interface JobContext {
  job: JobRow;
  payload: unknown;
  /** Extends the lease; long handlers call it as they make progress. */
  heartbeat(): Promise<void>;
  /** Aborted when the worker stops; a handler that can stop early hands its job back ({@link JobContext.release}). */
  signal: AbortSignal;
  /** Hands the job back to the queue, its attempt not counted, instead of completing it. */
  release(): Promise<void>;
}

/**
 * Runs one kind of job. Throwing marks the attempt failed (retried with backoff). What it
 * answers is handed to the caller of {@link JobWorker.run}.
 */
export type JobHandler = (context: JobContext) => Promise<unknown>;

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
  /** Delay before the next attempt after `attempts` failed ones (default {@link backoffMs}: 2 s doubling to 5 minutes). */
  backoff?: (attempts: number) => number;
  /**
   * Jobs run at once (default 1). Handlers waiting on I/O overlap, and writes they make at the
   * same moment can be grouped (the vector store commits concurrent upserts together).
   */
  concurrency?: number;
  /**
   * Fairness between spaces (the job's `spaceId`, given when it was queued): at most `perSpace`
   * jobs of one space run at once across all processes; the space with the fewest running, then
   * the one served least recently, goes first.
   */
  fairness?: { perSpace: number };
  /** Called when a job has failed for the last time. */
  onGiveUp?: (job: JobRow, error: string) => Promise<void>;
}

/** An in-process worker: claims and runs up to `concurrency` jobs at a time until stopped. */
export interface JobWorker {
  start(): void;
  /** Stops claiming, aborts the handlers' signal and waits for the jobs in hand, if any, to finish. */
  stop(): Promise<void>;
  /** Claims and runs jobs until none is ready; answers how many ran. For tests and start-up. */
  drain(): Promise<number>;
  /** Polls at once (a job was just queued in this process). */
  wake(): void;
  /** Runs a job this process already holds the lease of (see enqueueClaimedJob), as a poll would; answers what its handler answered. */
  run(job: JobRow): Promise<unknown>;
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

/** Spaces a fair worker remembers having served; the ones forgotten count as never served, so go first. */
const MAX_REMEMBERED_SPACES = 10_000;

/** Builds an in-process job worker over the durable queue. */
export function createJobWorker(options: JobWorkerOptions): JobWorker {
  const leaseMs = options.leaseMs ?? 60_000;
  const idleMs = options.idleMs ?? 500;
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const kinds = Object.keys(options.handlers);
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
  let running = false;
  let loop: Promise<void> | undefined;
  let stopper = new AbortController();
  const sleepers = new Set<() => void>();
  /** Jobs handed to `run` by their claimant, awaited by `stop`. */
  const inline = new Set<Promise<unknown>>();
  /** Spaces served, least recently first (a Map keeps insertion order). */
  const served = new Map<string, true>();

  function claim(): Promise<JobRow | undefined> {
    if (!options.fairness) return claimJob(options.db, options.now(), { kinds, leaseMs });
    return claimFairJob(options.db, options.now(), { kinds, leaseMs, perSpace: Math.max(1, options.fairness.perSpace), served: [...served.keys()] });
  }

  function noteServed(job: JobRow) {
    if (!options.fairness || job.spaceId === null) return;
    served.delete(job.spaceId);
    served.set(job.spaceId, true);
    if (served.size > MAX_REMEMBERED_SPACES) served.delete(served.keys().next().value!);
  }

  async function runOne(): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    noteServed(job);
    await runClaimed(job);
    return true;
  }

  async function runClaimed(job: JobRow): Promise<unknown> {
    const handler = options.handlers[job.kind]!;
    let released = false;
    try {
      const result = await handler({
        job,
        payload: JSON.parse(job.payload) as unknown,
        heartbeat: () => extendLease(options.db, options.now(), job.id, leaseMs),
        signal: stopper.signal,
        release: async () => {
          released = true;
          await releaseJob(options.db, options.now(), job);
        },
      });
      if (!released) await completeJob(options.db, options.now(), job.id);
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const { retrying } = await failJob(options.db, options.now(), job, message, maxAttempts, options.backoff ?? backoffMs);
      options.logger.warn("job attempt failed", { jobId: job.id, kind: job.kind, attempts: job.attempts, retrying, error: message });
      if (!retrying && options.onGiveUp) await options.onGiveUp(job, message);
      return undefined;
    }
  }

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

  return {
    async run(job) {
      if (!options.handlers[job.kind]) throw new Error(`no handler for job kind ${job.kind}`);
      const work = runClaimed(job);
      inline.add(work);
      try {
        return await work;
      } finally {
        inline.delete(work);
      }
    },
    start() {
      if (running) return;
      running = true;
      if (stopper.signal.aborted) stopper = new AbortController();
      loop = Promise.all(Array.from({ length: concurrency }, () => poll())).then(() => undefined);
    },
    async stop() {
      running = false;
      stopper.abort();
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
    wake() {
      for (const wake of [...sleepers]) wake();
    },
  };
}
