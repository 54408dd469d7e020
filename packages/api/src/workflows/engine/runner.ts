import { and, eq, lt } from "drizzle-orm";
import { workflowNodeRuns, workflowRuns } from "../../db/schema/index";
import type { JobHandler, JobWorker } from "../../jobs/worker";
import { jobsOf } from "../../kernel/jobs";
import type { Deps } from "../../kernel/deps";
import { type ExecuteOptions, type ExecutionOutcome, executeRun, Interrupted } from "./execute";

/** The job kind that executes (and resumes) workflow runs. */
export const WORKFLOW_RUN_JOB = "workflow-run";

/** Payload of a workflow-run job. */
export interface WorkflowRunJob {
  runId: string;
  spaceId: string;
}

/** Options of {@link createWorkflowRunner}. */
export interface WorkflowRunnerOptions {
  /** Runs executed at once by this process (default 8). */
  concurrency?: number;
  /** Runs of one space executing at once across all processes (default 3): one space's slow runs cannot hold every lane. */
  perSpace?: number;
  /** How long a claim lasts without a heartbeat (default: the configured job lease). */
  leaseMs?: number;
  /** Pause between polls when nothing is ready (default 1 s; a run queued in this process wakes the lanes at once). */
  idleMs?: number;
  /** A run whose job was claimed this many times without finishing (the process died each time) is failed (default 3). */
  maxAttempts?: number;
  /** How often runs left without a job are looked for (default 60 s). */
  sweepEveryMs?: number;
  execute?: ExecuteOptions;
}

/** The in-process executor of workflow runs. */
export interface WorkflowRunner {
  start(): void;
  /** Stops claiming; runs in hand are interrupted and handed back to the queue, to be resumed. */
  stop(): Promise<void>;
  /** Claims and runs until nothing is ready; answers how many jobs ran. */
  drain(): Promise<number>;
  /** Polls at once (a run was just queued). */
  wake(): void;
  /** Executes a run in this process now, under a claimed job (chat answers, `wait`). */
  runNow(runId: string, spaceId: string): Promise<ExecutionOutcome>;
  /** Resolves when the run finishes or parks (or after `timeoutMs`). */
  settled(runId: string, timeoutMs: number): Promise<void>;
  readonly options: WorkflowRunnerOptions;
}

const runners = new WeakMap<Deps, WorkflowRunner>();

/** The runner working in this process for these deps, if any. */
export function runnerOf(deps: Deps): WorkflowRunner | undefined {
  return runners.get(deps);
}

/** Puts a run on the queue (to start now, or to wake at `runAfter`). */
export async function enqueueRun(deps: Deps, job: WorkflowRunJob, runAfter?: Date): Promise<void> {
  await jobsOf(deps).enqueue(WORKFLOW_RUN_JOB, job, { spaceId: job.spaceId, ...(runAfter ? { runAfter } : {}) });
  runnerOf(deps)?.wake();
}

const settledListeners = new Map<string, Set<() => void>>();

function announceSettled(runId: string) {
  const listeners = settledListeners.get(runId);
  if (!listeners) return;
  settledListeners.delete(runId);
  for (const listener of listeners) listener();
}

/** Resolves when this process sees the run finish or park, or after `timeoutMs`. */
export function runSettled(runId: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    let listeners = settledListeners.get(runId);
    if (!listeners) {
      listeners = new Set();
      settledListeners.set(runId, listeners);
    }
    const done = () => {
      clearTimeout(timer);
      listeners!.delete(done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    listeners.add(done);
  });
}

/** Runs executing in this process, by run id: cancelling one stops it at once. */
const executing = new Map<string, AbortController>();

/**
 * Cancels a run: it ends as a failure with the reason, its running nodes fail, and if this
 * process is executing it, the node in hand is stopped. Elsewhere it stops before its next node
 * with effects; a parked run does not wake. Answers whether it was still running.
 */
export async function cancelRun(deps: Pick<Deps, "db" | "now" | "realtime">, runId: string, reason: string): Promise<boolean> {
  const now = deps.now().toISOString();
  const cancelled = await deps.db
    .update(workflowRuns)
    .set({ status: "failure", error: reason, waitingUntil: null, finishedAt: now, updatedAt: now })
    .where(and(eq(workflowRuns.id, runId), eq(workflowRuns.status, "running")))
    .returning({ id: workflowRuns.id, spaceId: workflowRuns.spaceId, workflowId: workflowRuns.workflowId });
  if (cancelled.length === 0) return false;
  await deps.db
    .update(workflowNodeRuns)
    .set({ status: "failure", error: reason, finishedAt: now })
    .where(and(eq(workflowNodeRuns.runId, runId), eq(workflowNodeRuns.status, "running")));
  executing.get(runId)?.abort();
  deps.realtime.toSpace(cancelled[0]!.spaceId, "workflow.run", {
    runId,
    workflowId: cancelled[0]!.workflowId,
    status: "failure",
    error: reason,
    waitingUntil: null,
  });
  announceSettled(runId);
  return true;
}

/** Marks a run failed (when it is still running), with its reason. */
export async function failRun(deps: Pick<Deps, "db" | "now">, runId: string, reason: string): Promise<void> {
  const now = deps.now().toISOString();
  await deps.db
    .update(workflowRuns)
    .set({ status: "failure", error: reason, waitingUntil: null, finishedAt: now, updatedAt: now })
    .where(and(eq(workflowRuns.id, runId), eq(workflowRuns.status, "running")));
  announceSettled(runId);
}

/**
 * The handler of workflow-run jobs: executes (or resumes) the run; a parked run gets a new job
 * at its wake time; a run whose job keeps being claimed without finishing (its process died
 * each time) is failed with that reason rather than left running. When the worker stops, the
 * run is interrupted and its job handed back, to be resumed by the next process.
 */
export function workflowRunHandler(deps: Deps, options: WorkflowRunnerOptions & { leaseMs: number }): JobHandler {
  const maxAttempts = options.maxAttempts ?? 3;
  return async ({ job, payload, heartbeat, signal, release }): Promise<ExecutionOutcome> => {
    const { runId } = payload as WorkflowRunJob;
    if (job.attempts > maxAttempts) {
      await failRun(deps, runId, `The run was interrupted ${job.attempts - 1} times (the server stopped while it ran) and was given up`);
      return { state: "finished", status: "failure" };
    }
    let outcome: ExecutionOutcome;
    // Stopped by shutdown (the run is handed back) or by a cancel (the run is over).
    const stop = new AbortController();
    const onShutdown = () => stop.abort();
    signal.addEventListener("abort", onShutdown, { once: true });
    if (signal.aborted) stop.abort();
    executing.set(runId, stop);
    // The lease is renewed on a timer, not only between nodes: one node may take longer than a lease.
    const renew = setInterval(() => void heartbeat().catch(() => undefined), Math.max(200, Math.floor(options.leaseMs / 3)));
    try {
      outcome = await executeRun(deps, runId, { ...options.execute, heartbeat, signal: stop.signal });
    } catch (error) {
      // Cancelled while a node ran: the run is already over.
      if (error instanceof Interrupted && !signal.aborted) return { state: "finished", status: "failure" };
      if (error instanceof Interrupted) {
        // Shutting down: hand the job back at once so the next process resumes the run.
        await release();
        return { state: "gone" };
      }
      await failRun(deps, runId, `The engine failed: ${error instanceof Error ? error.message : String(error)}`);
      return { state: "finished", status: "failure" };
    } finally {
      clearInterval(renew);
      executing.delete(runId);
      signal.removeEventListener("abort", onShutdown);
    }
    if (outcome.state === "parked") await jobsOf(deps).enqueue(WORKFLOW_RUN_JOB, payload, { spaceId: job.spaceId, runAfter: outcome.until });
    announceSettled(runId);
    return outcome;
  };
}

/**
 * Fails runs left "running" with no job to carry them (nothing queued or leased for them), so
 * that no run stays running forever. Only runs untouched for `graceMs` are considered.
 */
export async function sweepOrphanRuns(deps: Pick<Deps, "db" | "now">, graceMs = 60_000): Promise<number> {
  const before = new Date(deps.now().getTime() - graceMs).toISOString();
  const candidates = await deps.db
    .select({ id: workflowRuns.id })
    .from(workflowRuns)
    .where(and(eq(workflowRuns.status, "running"), lt(workflowRuns.updatedAt, before)));
  let failed = 0;
  for (const candidate of candidates) {
    if (!(await jobsOf(deps).hasLive(WORKFLOW_RUN_JOB, "runId", candidate.id))) {
      await failRun(deps, candidate.id, "The run lost its job (it was stopped and could not be resumed)");
      failed += 1;
    }
  }
  return failed;
}

/** The job worker that executes workflow runs, fair between spaces. */
function workflowJobWorker(deps: Deps, options: WorkflowRunnerOptions, leaseMs: number): JobWorker {
  return jobsOf(deps).worker({
    logger: deps.logger,
    handlers: { [WORKFLOW_RUN_JOB]: workflowRunHandler(deps, { ...options, leaseMs }) },
    leaseMs,
    idleMs: options.idleMs ?? 1000,
    concurrency: Math.max(1, options.concurrency ?? 8),
    fairness: { perSpace: Math.max(1, options.perSpace ?? 3) },
  });
}

/**
 * Builds the workflow runner of this process and registers it for these deps: the job worker
 * with the workflow-run handler, plus a sweep of runs left without a job.
 */
export function createWorkflowRunner(deps: Deps, options: WorkflowRunnerOptions = {}): WorkflowRunner {
  const leaseMs = options.leaseMs ?? deps.config.jobs.leaseSeconds * 1000;
  const sweepEveryMs = options.sweepEveryMs ?? 60_000;
  const worker = workflowJobWorker(deps, options, leaseMs);
  let sweeper: NodeJS.Timeout | undefined;

  const runner: WorkflowRunner = {
    options,
    start() {
      if (sweeper) return;
      worker.start();
      const sweep = () => void sweepOrphanRuns(deps).catch((error: unknown) => deps.logger.warn("workflow sweep failed", { error: String(error) }));
      sweep();
      sweeper = setInterval(sweep, sweepEveryMs);
      sweeper.unref?.();
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
      sweeper = undefined;
      await worker.stop();
    },
    drain: () => worker.drain(),
    wake: () => worker.wake(),
    async runNow(runId, spaceId) {
      const job = await jobsOf(deps).enqueueClaimed(WORKFLOW_RUN_JOB, { runId, spaceId } satisfies WorkflowRunJob, { spaceId, leaseMs });
      return (await worker.run(job)) as ExecutionOutcome;
    },
    settled: (runId, timeoutMs) => runSettled(runId, timeoutMs),
  };
  runners.set(deps, runner);
  return runner;
}

/** Executes a run now in this process: through the registered runner, or through a worker made for it when none runs here. */
export async function runInline(deps: Deps, runId: string, spaceId: string): Promise<ExecutionOutcome> {
  const runner = runnerOf(deps);
  if (runner) return runner.runNow(runId, spaceId);
  const leaseMs = deps.config.jobs.leaseSeconds * 1000;
  const job = await jobsOf(deps).enqueueClaimed(WORKFLOW_RUN_JOB, { runId, spaceId } satisfies WorkflowRunJob, { spaceId, leaseMs });
  return (await workflowJobWorker(deps, {}, leaseMs).run(job)) as ExecutionOutcome;
}
