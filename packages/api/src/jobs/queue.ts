import { and, eq, gte, inArray, lt, lte, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { newId } from "../crypto";
import type { Db } from "../db/client";
import { prepared } from "../db/prepared";
import { jobs } from "../db/schema/index";

/** A stored job row. */
export type JobRow = typeof jobs.$inferSelect;

/** How many times a job runs before it is marked failed for good. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/** Where a job belongs and when it may run. */
export interface EnqueueOptions {
  /**
   * The space the job works for: the fair claim takes turns between spaces on it. Null only for
   * work of no space.
   */
  spaceId: string | null;
  /** When the job becomes claimable (default: now). */
  runAfter?: Date;
}

/** Puts a job on the queue; it becomes claimable at `runAfter` (default: now). */
export async function enqueueJob(db: Db, now: Date, kind: string, payload: unknown, options: EnqueueOptions): Promise<JobRow> {
  const row = {
    id: newId("job"),
    kind,
    spaceId: options.spaceId,
    payload: JSON.stringify(payload),
    status: "queued" as const,
    attempts: 0,
    runAfter: (options.runAfter ?? now).toISOString(),
    lockedUntil: null,
    lastError: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await db.insert(jobs).values(row);
  return row;
}

/**
 * Puts a job on the queue already claimed by the caller for `leaseMs`: the caller runs it now
 * (e.g. to answer within a webhook's deadline); if the caller dies, the lease runs out and any
 * worker takes it over.
 */
export async function enqueueClaimedJob(
  db: Db,
  now: Date,
  kind: string,
  payload: unknown,
  options: { spaceId: string | null; leaseMs: number },
): Promise<JobRow> {
  const row = {
    id: newId("job"),
    kind,
    spaceId: options.spaceId,
    payload: JSON.stringify(payload),
    status: "running" as const,
    attempts: 1,
    runAfter: now.toISOString(),
    lockedUntil: new Date(now.getTime() + options.leaseMs).toISOString(),
    lastError: null,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await db.insert(jobs).values(row);
  return row;
}

/**
 * Claims the next ready job of the given kinds with a lease, in one UPDATE … RETURNING so two
 * workers can never claim the same job. A job is ready when it is queued and due, or when it is
 * running but its lease has expired (the worker that held it crashed or stalled).
 */
export async function claimJob(db: Db, now: Date, options: { kinds: string[]; leaseMs: number }): Promise<JobRow | undefined> {
  if (options.kinds.length === 0) return undefined;
  // Every worker lane runs this twice a second even when idle: prepared once per set of kinds.
  const claim = prepared(db, `jobs.claim:${options.kinds.join(",")}`, () => {
    const at = sql.placeholder("at");
    const next = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          inArray(jobs.kind, options.kinds),
          or(and(eq(jobs.status, "queued"), lte(jobs.runAfter, at)), and(eq(jobs.status, "running"), lt(jobs.lockedUntil, at))),
        ),
      )
      .orderBy(jobs.runAfter, jobs.id)
      .limit(1);
    return db
      .update(jobs)
      .set({ status: "running", attempts: sql`${jobs.attempts} + 1`, lockedUntil: sql`${sql.placeholder("lockedUntil")}`, updatedAt: sql`${at}` })
      .where(
        and(
          inArray(jobs.id, next),
          // Re-checked here so a job claimed between the subquery and the update is not taken twice.
          or(eq(jobs.status, "queued"), and(eq(jobs.status, "running"), lt(jobs.lockedUntil, at))),
        ),
      )
      .returning()
      .prepare();
  });
  const claimed = await claim.all({ at: now.toISOString(), lockedUntil: new Date(now.getTime() + options.leaseMs).toISOString() });
  return claimed[0];
}

/** How a fair claim picks among spaces (see {@link claimFairJob}). */
export interface FairClaimOptions {
  kinds: string[];
  leaseMs: number;
  /** Jobs of one space running at once, across all processes. */
  perSpace: number;
  /** Spaces this worker served, least recently first; spaces not named come before all of them. */
  served: string[];
}

/**
 * Claims the next ready job like {@link claimJob}, but fairly between spaces (the jobs'
 * `space_id`): a space with `perSpace` jobs running (leases still valid, in any process) gets
 * no more; among the others the space with the fewest running goes first, then the space this
 * worker served least recently, so one space's backlog cannot starve another's. One
 * UPDATE … RETURNING, prepared once per set of kinds, as with claimJob.
 */
export async function claimFairJob(db: Db, now: Date, options: FairClaimOptions): Promise<JobRow | undefined> {
  if (options.kinds.length === 0) return undefined;
  const claim = prepared(db, `jobs.claimFair:${options.kinds.join(",")}`, () => fairClaim(db, options.kinds));
  const claimed = await claim.all({
    at: now.toISOString(),
    lockedUntil: new Date(now.getTime() + options.leaseMs).toISOString(),
    perSpace: options.perSpace,
    served: JSON.stringify(options.served),
  });
  return claimed[0];
}

/** The prepared statement of {@link claimFairJob} for a set of kinds; every value is a placeholder. */
function fairClaim(db: Db, kinds: string[]) {
  const at = sql.placeholder("at");
  const candidate = alias(jobs, "candidate");
  // Jobs running now, by space (a NULL space is a group of its own: `IS` below, not `=`).
  const busy = db.$with("busy").as(
    db
      .select({ spaceId: jobs.spaceId, running: sql<number>`count(*)`.as("running") })
      .from(jobs)
      .where(and(inArray(jobs.kind, kinds), eq(jobs.status, "running"), gte(jobs.lockedUntil, at)))
      .groupBy(jobs.spaceId),
  );
  // The worker's turn order: position in its served list, least recently served first. Grouped so
  // that SQLite materialises it and joins through an index instead of rereading the list per job.
  const turns = db
    .$with("turns", { servedSpace: sql<string>`served_space`.as("served_space"), turn: sql<number>`turn`.as("turn") })
    .as(sql`SELECT value AS served_space, max(key) AS turn FROM json_each(${sql.placeholder("served")}) GROUP BY value`);
  const running = sql`coalesce(${busy.running}, 0)`;
  const next = db
    .with(busy, turns)
    .select({ id: candidate.id })
    .from(candidate)
    .leftJoin(busy, sql`${busy.spaceId} IS ${candidate.spaceId}`)
    .leftJoin(turns, eq(turns.servedSpace, candidate.spaceId))
    .where(
      and(
        inArray(candidate.kind, kinds),
        // Lets the search use jobs_claim_idx (kind, status) and skip the done and failed jobs.
        inArray(candidate.status, ["queued", "running"]),
        or(and(eq(candidate.status, "queued"), lte(candidate.runAfter, at)), and(eq(candidate.status, "running"), lt(candidate.lockedUntil, at))),
        sql`${running} < ${sql.placeholder("perSpace")}`,
      ),
    )
    .orderBy(running, sql`coalesce(${turns.turn}, -1)`, candidate.runAfter, candidate.id)
    .limit(1);
  return db
    .update(jobs)
    .set({ status: "running", attempts: sql`${jobs.attempts} + 1`, lockedUntil: sql`${sql.placeholder("lockedUntil")}`, updatedAt: sql`${at}` })
    .where(
      and(
        inArray(jobs.id, next),
        // Re-checked here so a job claimed between the subquery and the update is not taken twice.
        or(eq(jobs.status, "queued"), and(eq(jobs.status, "running"), lt(jobs.lockedUntil, at))),
      ),
    )
    .returning()
    .prepare();
}

/**
 * Hands a claimed job back to the queue at once, its attempt not counted (the process is
 * stopping): the next worker to poll takes it over.
 */
export async function releaseJob(db: Db, now: Date, job: Pick<JobRow, "id" | "attempts">): Promise<void> {
  await db
    .update(jobs)
    .set({ status: "queued", lockedUntil: null, attempts: Math.max(0, job.attempts - 1), updatedAt: now.toISOString() })
    .where(eq(jobs.id, job.id));
}

/** Extends a running job's lease, for long jobs that report progress. */
export async function extendLease(db: Db, now: Date, jobId: string, leaseMs: number): Promise<void> {
  await db
    .update(jobs)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs).toISOString(), updatedAt: now.toISOString() })
    .where(and(eq(jobs.id, jobId), eq(jobs.status, "running")));
}

/** Marks a claimed job done. */
export async function completeJob(db: Db, now: Date, jobId: string): Promise<void> {
  await db.update(jobs).set({ status: "done", lockedUntil: null, updatedAt: now.toISOString() }).where(eq(jobs.id, jobId));
}

/** Delay before the next attempt: 2 s, 4 s, 8 s … capped at 5 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(2_000 * 2 ** Math.max(0, attempts - 1), 300_000);
}

/**
 * Records a failed attempt: the job is queued again after a backoff, or marked failed once it
 * has used `maxAttempts`. Answers whether it will run again.
 */
export async function failJob(
  db: Db,
  now: Date,
  job: Pick<JobRow, "id" | "attempts">,
  error: string,
  maxAttempts = DEFAULT_MAX_ATTEMPTS,
  backoff: (attempts: number) => number = backoffMs,
): Promise<{ retrying: boolean }> {
  const retrying = job.attempts < maxAttempts;
  await db
    .update(jobs)
    .set({
      status: retrying ? "queued" : "failed",
      runAfter: new Date(now.getTime() + (retrying ? backoff(job.attempts) : 0)).toISOString(),
      lockedUntil: null,
      lastError: error.slice(0, 2000),
      updatedAt: now.toISOString(),
    })
    .where(eq(jobs.id, job.id));
  return { retrying };
}

/** Loads a job by id. */
export async function getJob(db: Db, jobId: string): Promise<JobRow | undefined> {
  return db.select().from(jobs).where(eq(jobs.id, jobId)).get();
}
