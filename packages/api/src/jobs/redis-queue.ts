import { DelayedError, type Job, Queue, UnrecoverableError, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { newId } from "../crypto";
import { ServiceError } from "../errors";
import type { Logger } from "../logger";
import { openRedis } from "../platform/redis";
import type { JobQueue, QueueOptions } from "./port";
import { backoffMs, DEFAULT_MAX_ATTEMPTS, type JobRow } from "./queue";
import type { JobContext } from "./worker";

/** The key prefix of every queue (BullMQ's `prefix`): `parley:<kind>:…`. */
export const REDIS_JOBS_PREFIX = "parley";

/** BullMQ's highest priority number (2^21 − 1); a space's backlog beyond it shares the last turn. */
const MAX_PRIORITY = 2_097_151;

/** How long a job refused by its space's cap waits before it is offered again. */
const OVER_CAP_DELAY_MS = 250;

/** What a job carries in Redis. `prior` corrects BullMQ's start count into Parley's attempts (see {@link attemptsOf}). */
interface RedisJobData {
  payload: string;
  spaceId: string | null;
  prior: number;
  createdAt: string;
  lastError?: string;
}

/** The space's field in a backlog hash (a job of no space counts under "-"). */
const spaceField = (spaceId: string | null) => spaceId ?? "-";

/** Hash of unfinished jobs per space, of one kind: the n-th unfinished job of a space is queued with priority n. */
const backlogKey = (kind: string) => `${REDIS_JOBS_PREFIX}:jobs:backlog:${kind}`;

/** Sorted set of one space's running jobs of one kind, scored by lease expiry (ms): the per-space cap across processes. */
const runningKey = (kind: string, spaceId: string) => `${REDIS_JOBS_PREFIX}:jobs:running:${kind}:${spaceId}`;

/** The Lua commands of the fair queue, defined on a connection (atomic on the Redis server). */
interface FairCommands {
  /** Takes a running slot: drops expired leases, answers 1 and records the job when fewer than the cap run, else 0. */
  parleyAdmit(key: string, now: number, expires: number, jobId: string, cap: number): Promise<number>;
  /** Counts a finished job out of its space's backlog, never below zero. */
  parleyFinish(key: string, field: string): Promise<number>;
}

function defineFairCommands(client: Redis): Redis & FairCommands {
  client.defineCommand("parleyAdmit", {
    numberOfKeys: 1,
    lua: `
      redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
      if redis.call('ZSCORE', KEYS[1], ARGV[3]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[4]) then
        redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
        redis.call('PEXPIREAT', KEYS[1], ARGV[2])
        return 1
      end
      return 0`,
  });
  client.defineCommand("parleyFinish", {
    numberOfKeys: 1,
    lua: `
      local left = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
      if left <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) return 0 end
      return left`,
  });
  return client as Redis & FairCommands;
}

/**
 * Parley's attempt number of a job BullMQ hands out: every start counts (a retry, a take-over
 * after a crashed worker's lock ran out), minus the hand-backs that must not count (`prior` is
 * lowered then), plus a claim its caller made before BullMQ ran it (an inline run).
 */
function attemptsOf(job: Job<RedisJobData>): number {
  return job.data.prior + job.attemptsStarted;
}

/** A clear, translated refusal when Redis cannot take a job: the HTTP edge answers 502, nothing is queued. */
function unavailable(error: unknown, logger: Logger): ServiceError {
  logger.warn("the job queue could not reach Redis", { error: error instanceof Error ? error.message : String(error) });
  return new ServiceError("external", "jobs_unavailable");
}

/**
 * The jobs port on BullMQ (decision 0030): a queue per job kind under `parley:<kind>`, fair between
 * spaces by priorities drawn from each space's backlog, a per-space cap of running jobs kept in
 * Redis, Parley's retries and backoff, and inline runs of claimed-now jobs as a delayed job that
 * stands in for the lease. `commands` fails fast while Redis is down (enqueues refuse clearly);
 * `blocking` is the workers' connection, which waits and resumes when Redis is back.
 */
export function createRedisJobQueue(options: { commands: Redis; blocking: Redis; logger: Logger; now: () => Date; ownsConnections?: boolean }): JobQueue {
  const { logger, now } = options;
  const commands = defineFairCommands(options.commands);
  const queues = new Map<string, Queue<RedisJobData>>();

  function queueOf(kind: string): Queue<RedisJobData> {
    let queue = queues.get(kind);
    if (!queue) {
      queue = new Queue<RedisJobData>(kind, { connection: commands, prefix: REDIS_JOBS_PREFIX });
      queue.on("error", (error) => logger.warn("job queue error", { kind, error: error.message }));
      queues.set(kind, queue);
    }
    return queue;
  }

  function rowOf(
    kind: string,
    id: string,
    data: RedisJobData,
    fields: { status: JobRow["status"]; attempts: number; runAfter: Date; lockedUntil: Date | null },
  ): JobRow {
    return {
      id,
      kind,
      spaceId: data.spaceId,
      payload: data.payload,
      status: fields.status,
      attempts: fields.attempts,
      runAfter: fields.runAfter.toISOString(),
      lockedUntil: fields.lockedUntil?.toISOString() ?? null,
      lastError: data.lastError ?? null,
      createdAt: data.createdAt,
      updatedAt: now().toISOString(),
    };
  }

  async function add(kind: string, payload: unknown, spaceId: string | null, delayMs: number, prior: number): Promise<{ id: string; data: RedisJobData }> {
    // Fails at once (rather than waiting for a reconnect) when Redis is away.
    if (commands.status !== "ready") throw unavailable(new Error(`connection is ${commands.status}`), logger);
    const id = newId("job");
    const data: RedisJobData = { payload: JSON.stringify(payload), spaceId, prior, createdAt: now().toISOString() };
    try {
      const backlog = await commands.hincrby(backlogKey(kind), spaceField(spaceId), 1);
      await queueOf(kind).add(kind, data, {
        jobId: id,
        delay: Math.max(0, delayMs),
        priority: Math.min(Math.max(1, backlog), MAX_PRIORITY),
        removeOnComplete: true,
        removeOnFail: { count: 1000 },
      });
    } catch (error) {
      throw unavailable(error, logger);
    }
    return { id, data };
  }

  async function finish(kind: string, spaceId: string | null): Promise<void> {
    await commands.parleyFinish(backlogKey(kind), spaceField(spaceId)).catch(() => undefined);
  }

  const queue: JobQueue = {
    backend: "redis",
    async enqueue(kind, payload, enqueueOptions: QueueOptions) {
      const at = now();
      const runAfter = enqueueOptions.runAfter ?? at;
      const { id, data } = await add(kind, payload, enqueueOptions.spaceId, runAfter.getTime() - at.getTime(), 0);
      return rowOf(kind, id, data, { status: "queued", attempts: 0, runAfter, lockedUntil: null });
    },
    async enqueueClaimed(kind, payload, claimOptions) {
      // The caller's lease is a delay: if the caller dies before removing it, the job comes due and a worker runs it.
      const { id, data } = await add(kind, payload, claimOptions.spaceId, claimOptions.leaseMs, 1);
      const at = now();
      return rowOf(kind, id, data, { status: "running", attempts: 1, runAfter: at, lockedUntil: new Date(at.getTime() + claimOptions.leaseMs) });
    },
    worker(workerOptions) {
      const kinds = Object.keys(workerOptions.handlers);
      const leaseMs = workerOptions.leaseMs ?? 60_000;
      const maxAttempts = workerOptions.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
      const backoff = workerOptions.backoff ?? backoffMs;
      const concurrency = Math.max(1, Math.floor(workerOptions.concurrency ?? 1));
      const cap = workerOptions.fairness ? Math.max(1, workerOptions.fairness.perSpace) : undefined;
      let workers: Worker<RedisJobData>[] = [];
      let stopper = new AbortController();
      const inline = new Set<Promise<unknown>>();
      let finished = 0;

      async function handBack(job: Job<RedisJobData>, token: string | undefined, delayMs: number, counted: boolean, lastError?: string): Promise<never> {
        await job.updateData({
          ...job.data,
          prior: counted ? job.data.prior : job.data.prior - 1,
          ...(lastError ? { lastError: lastError.slice(0, 2000) } : {}),
        });
        await job.moveToDelayed(Date.now() + delayMs, token);
        throw new DelayedError();
      }

      async function process(job: Job<RedisJobData>, token: string | undefined): Promise<unknown> {
        const kind = job.name;
        const handler = workerOptions.handlers[kind]!;
        const attempts = attemptsOf(job);
        const slot = cap !== undefined && job.data.spaceId !== null ? runningKey(kind, job.data.spaceId) : undefined;
        if (slot && !(await commands.parleyAdmit(slot, Date.now(), Date.now() + leaseMs, job.id!, cap!))) {
          return handBack(job, token, OVER_CAP_DELAY_MS, false);
        }
        // BullMQ renews the job's lock itself; the space's slot is renewed here, as long.
        const renew = slot
          ? setInterval(
              () => void commands.parleyAdmit(slot, Date.now(), Date.now() + leaseMs, job.id!, Number.MAX_SAFE_INTEGER).catch(() => undefined),
              Math.max(200, Math.floor(leaseMs / 3)),
            )
          : undefined;
        const row = rowOf(kind, job.id!, job.data, {
          status: "running",
          attempts,
          runAfter: new Date(job.timestamp + job.delay),
          lockedUntil: new Date(Date.now() + leaseMs),
        });
        let released = false;
        try {
          let result: unknown;
          try {
            result = await handler(
              contextOf(row, { heartbeat: () => job.extendLock(token!, leaseMs).then(() => undefined), release: () => (released = true) }),
            );
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            const retrying = attempts < maxAttempts;
            logger.warn("job attempt failed", { jobId: job.id, kind, attempts, retrying, error: message });
            if (retrying) return await handBack(job, token, backoff(attempts), true, message);
            finished += 1;
            await finish(kind, job.data.spaceId);
            if (workerOptions.onGiveUp) await workerOptions.onGiveUp({ ...row, status: "failed", lastError: message }, message);
            throw new UnrecoverableError(message);
          }
          if (released) return await handBack(job, token, 0, false);
          finished += 1;
          await finish(kind, job.data.spaceId);
          return result;
        } finally {
          clearInterval(renew);
          if (slot) await commands.zrem(slot, job.id!).catch(() => undefined);
        }
      }

      function contextOf(row: JobRow, hooks: { heartbeat(): Promise<void>; release(): void }): JobContext {
        return {
          job: row,
          payload: JSON.parse(row.payload) as unknown,
          heartbeat: hooks.heartbeat,
          signal: stopper.signal,
          release: async () => hooks.release(),
        };
      }

      /** A job its caller claimed (enqueueClaimed) run here now; its delayed copy in Redis is the lease. */
      async function runInline(row: JobRow): Promise<unknown> {
        const handler = workerOptions.handlers[row.kind]!;
        const stored = () => queueOf(row.kind).getJob(row.id);
        let released = false;
        try {
          const result = await handler(
            contextOf(row, {
              heartbeat: async () => {
                // Taken over by a worker already (this caller stalled past its lease): nothing to extend.
                await (await stored())?.changeDelay(leaseMs).catch(() => undefined);
              },
              release: () => (released = true),
            }),
          );
          const job = await stored();
          if (released) {
            await job?.updateData({ ...job.data, prior: 0 });
            await job?.promote();
          } else {
            await job?.remove();
            await finish(row.kind, row.spaceId);
          }
          return result;
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          const retrying = row.attempts < maxAttempts;
          logger.warn("job attempt failed", { jobId: row.id, kind: row.kind, attempts: row.attempts, retrying, error: message });
          const job = await stored().catch(() => undefined);
          if (retrying) {
            await job?.updateData({ ...job.data, lastError: message.slice(0, 2000) }).catch(() => undefined);
            await job?.changeDelay(backoff(row.attempts)).catch(() => undefined);
          } else {
            await job?.remove().catch(() => undefined);
            await finish(row.kind, row.spaceId);
            if (workerOptions.onGiveUp) await workerOptions.onGiveUp({ ...row, status: "failed", lastError: message }, message);
          }
          return undefined;
        }
      }

      function startWorkers() {
        if (stopper.signal.aborted) stopper = new AbortController();
        workers = kinds.map((kind) => {
          const worker = new Worker<RedisJobData>(kind, (job, token) => process(job, token), {
            connection: options.blocking,
            prefix: REDIS_JOBS_PREFIX,
            concurrency,
            lockDuration: leaseMs,
            stalledInterval: Math.min(leaseMs, 30_000),
            // Parley's handlers decide about jobs whose process died again and again (see attemptsOf).
            maxStalledCount: 1_000_000,
          });
          // Redis going away is reported here; the worker reconnects and resumes on its own.
          worker.on("error", (error) => logger.warn("job worker lost Redis", { kind, error: error.message }));
          return worker;
        });
      }

      async function stopWorkers() {
        const closing = workers;
        workers = [];
        await Promise.all(closing.map((worker) => worker.close()));
      }

      /** Whether a job of these kinds is waiting, running, or delayed but due within a moment. */
      async function pending(): Promise<boolean> {
        for (const kind of kinds) {
          const counts = await queueOf(kind).getJobCounts("waiting", "prioritized", "active");
          if (Object.values(counts).some((n) => n > 0)) return true;
          const delayed = await queueOf(kind).getDelayed();
          if (delayed.some((job) => job.timestamp + job.delay <= Date.now() + OVER_CAP_DELAY_MS * 2)) return true;
        }
        return false;
      }

      return {
        async run(row) {
          if (!workerOptions.handlers[row.kind]) throw new Error(`no handler for job kind ${row.kind}`);
          const work = runInline(row);
          inline.add(work);
          try {
            return await work;
          } finally {
            inline.delete(work);
          }
        },
        start() {
          if (workers.length > 0) return;
          startWorkers();
        },
        async stop() {
          stopper.abort();
          await stopWorkers();
          await Promise.allSettled([...inline]);
        },
        async drain() {
          const started = workers.length === 0;
          if (started) startWorkers();
          const before = finished;
          // Two quiet looks in a row: a job handed back is delayed for a moment between them.
          let quiet = 0;
          while (quiet < 2) {
            await new Promise((resolve) => setTimeout(resolve, 50));
            quiet = (await pending()) || inline.size > 0 ? 0 : quiet + 1;
          }
          if (started) await stopWorkers();
          return finished - before;
        },
        wake() {
          // BullMQ's workers block on Redis and see a new job at once.
        },
      };
    },
    async hasLive(kind, field, value) {
      const jobs = await queueOf(kind).getJobs(["waiting", "prioritized", "delayed", "active"]);
      return jobs.some((job) => job && (JSON.parse(job.data.payload) as Record<string, unknown>)[field] === value);
    },
    async close() {
      await Promise.all([...queues.values()].map((q) => q.close()));
      queues.clear();
      if (options.ownsConnections) {
        options.commands.disconnect();
        options.blocking.disconnect();
      }
    },
  };
  return queue;
}

/** Opens the Redis connections of the jobs port (refusing to start, naming the server, when Redis is not there). */
export async function openRedisJobQueue(url: string, options: { logger: Logger; now: () => Date }): Promise<JobQueue> {
  const commands = await openRedis(url, "commands", { name: "parley-jobs" });
  const blocking = await openRedis(url, "queue-worker", { name: "parley-jobs-worker" }).catch((error: unknown) => {
    commands.disconnect();
    throw error;
  });
  return createRedisJobQueue({ commands, blocking, ...options, ownsConnections: true });
}
