import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { ServiceError } from "../errors";
import { jobsOf } from "../kernel/jobs";
import { createTestContext, type TestContext, testDriver } from "../testing/harness";
import { type RedisServer, skipWithoutRedis, startRedis } from "../testing/redis-server";
import type { JobQueue } from "./port";
import { openRedisJobQueue } from "./redis-queue";
import type { JobContext } from "./worker";

let ctx: TestContext;
let redis: RedisServer | undefined;
/**
 * The Redis queue keeps nothing in the relational store, so it is tested once, under the default
 * driver; the libsql run covers the SQL queue.
 */
const withoutRedis = skipWithoutRedis() || testDriver() === "libsql";
const queues: JobQueue[] = [];

beforeAll(async () => {
  ctx = await createTestContext();
  if (!withoutRedis) redis = await startRedis();
}, 30_000);
afterAll(async () => {
  for (const queue of queues) await queue.close();
  await ctx.close();
  await redis?.stop();
});

async function redisQueue(): Promise<JobQueue> {
  const queue = await openRedisJobQueue(redis!.url, { logger: ctx.deps.logger, now: () => new Date() });
  queues.push(queue);
  return queue;
}

const backends: Array<[string, () => Promise<JobQueue>]> = [
  ["sql", async () => jobsOf(ctx.deps)],
  ["redis", redisQueue],
];

let kindCounter = 0;
/** A kind of its own per test: the queues are shared across tests. */
const freshKind = (name: string) => `test.${name}-${++kindCounter}`;

async function until(check: () => boolean, timeoutMs = 15_000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const quick = { logger: undefined as never, idleMs: 10, backoff: () => 50 };

describe.each(backends)("the jobs port on %s", (backend, open) => {
  const skip = backend === "redis" && withoutRedis;
  let jobs: JobQueue;
  beforeAll(async () => {
    if (!skip) jobs = await open();
  });

  it.skipIf(skip)("runs a queued job once, waits for runAfter, and drains", async () => {
    const kind = freshKind("once");
    const seen: unknown[] = [];
    await jobs.enqueue(kind, { n: 1 }, { spaceId: "alpha" });
    await jobs.enqueue(kind, { n: 2 }, { spaceId: "alpha", runAfter: new Date(Date.now() + 1_500) });
    const worker = jobs.worker({ ...quick, logger: ctx.deps.logger, handlers: { [kind]: async ({ payload }) => void seen.push(payload) } });
    expect(await worker.drain()).toBe(1);
    expect(seen).toEqual([{ n: 1 }]);
    worker.start();
    await until(() => seen.length === 2);
    await worker.stop();
    expect(seen).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it.skipIf(skip)("retries with backoff up to maxAttempts, then gives up once", async () => {
    const kind = freshKind("retry");
    const attempts: number[] = [];
    const givenUp: string[] = [];
    await jobs.enqueue(kind, {}, { spaceId: "alpha" });
    const worker = jobs.worker({
      ...quick,
      logger: ctx.deps.logger,
      maxAttempts: 3,
      handlers: {
        [kind]: async ({ job }) => {
          attempts.push(job.attempts);
          throw new Error(`boom ${job.attempts}`);
        },
      },
      onGiveUp: async (_job, error) => void givenUp.push(error),
    });
    worker.start();
    await until(() => givenUp.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await worker.stop();
    expect(attempts).toEqual([1, 2, 3]);
    expect(givenUp).toEqual(["boom 3"]);
  });

  it.skipIf(skip)("runs a claimed job inline; a released one is handed back uncounted; a dead caller's job is taken over after its lease", async () => {
    const kind = freshKind("inline");
    const runs: Array<{ attempts: number; by: string }> = [];
    let releaseNext = false;
    const handler =
      (by: string) =>
      async ({ job, release }: JobContext) => {
        runs.push({ attempts: job.attempts, by });
        if (releaseNext) {
          releaseNext = false;
          await release();
          return "released";
        }
        return "done";
      };
    const inline = jobs.worker({ ...quick, logger: ctx.deps.logger, handlers: { [kind]: handler("inline") } });
    const background = jobs.worker({ ...quick, logger: ctx.deps.logger, leaseMs: 400, handlers: { [kind]: handler("worker") } });
    // Run at once: answers the handler's result, and nothing is left for a worker.
    expect(await inline.run(await jobs.enqueueClaimed(kind, {}, { spaceId: "alpha", leaseMs: 300 }))).toBe("done");
    // Released: the worker gets it at once, its attempt uncounted.
    releaseNext = true;
    expect(await inline.run(await jobs.enqueueClaimed(kind, {}, { spaceId: "alpha", leaseMs: 60_000 }))).toBe("released");
    // Claimed but never run (the caller died): taken over once the lease runs out.
    await jobs.enqueueClaimed(kind, {}, { spaceId: "alpha", leaseMs: 300 });
    background.start();
    await until(() => runs.filter((run) => run.by === "worker").length === 2);
    await new Promise((resolve) => setTimeout(resolve, 700));
    await background.stop();
    expect(runs).toEqual([
      { attempts: 1, by: "inline" },
      { attempts: 1, by: "inline" },
      { attempts: 1, by: "worker" },
      { attempts: 2, by: "worker" },
    ]);
  });

  it.skipIf(skip)("stop hands a job in hand back, uncounted, to the next worker", async () => {
    const kind = freshKind("stop");
    await jobs.enqueue(kind, {}, { spaceId: "alpha" });
    const seen: number[] = [];
    let started = false;
    const first = jobs.worker({
      ...quick,
      logger: ctx.deps.logger,
      handlers: {
        [kind]: async ({ job, signal, release }) => {
          seen.push(job.attempts);
          started = true;
          await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
          await release();
        },
      },
    });
    first.start();
    await until(() => started);
    await first.stop();
    const second = jobs.worker({ ...quick, logger: ctx.deps.logger, handlers: { [kind]: async ({ job }) => void seen.push(job.attempts) } });
    expect(await second.drain()).toBe(1);
    expect(seen).toEqual([1, 1]);
  });

  it.skipIf(skip)("runs at most perSpace jobs of a space at once, leaving lanes to another space", async () => {
    const kind = freshKind("cap");
    for (const spaceId of ["alpha", "alpha", "alpha", "alpha", "beta"]) await jobs.enqueue(kind, { spaceId }, { spaceId });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let alphaNow = 0;
    let alphaMost = 0;
    let betaDone = false;
    const worker = jobs.worker({
      ...quick,
      logger: ctx.deps.logger,
      concurrency: 3,
      fairness: { perSpace: 2 },
      handlers: {
        [kind]: async ({ payload }) => {
          if ((payload as { spaceId: string }).spaceId === "beta") {
            betaDone = true;
            return;
          }
          alphaNow += 1;
          alphaMost = Math.max(alphaMost, alphaNow);
          await gate;
          alphaNow -= 1;
        },
      },
    });
    worker.start();
    try {
      await until(() => betaDone && alphaNow === 2);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(alphaMost).toBe(2);
      release();
      await until(() => alphaNow === 0);
    } finally {
      release();
      await worker.stop();
    }
  });

  it.skipIf(skip)("a space's flood of 200 jobs does not starve another space's job queued after it", async () => {
    const kind = freshKind("flood");
    for (let index = 0; index < 200; index += 1) await jobs.enqueue(kind, { spaceId: "flood", index }, { spaceId: "flood" });
    await jobs.enqueue(kind, { spaceId: "late" }, { spaceId: "late" });
    const order: string[] = [];
    const worker = jobs.worker({
      ...quick,
      logger: ctx.deps.logger,
      fairness: { perSpace: 4 },
      handlers: { [kind]: async ({ payload }) => void order.push((payload as { spaceId: string }).spaceId) },
    });
    expect(await worker.drain()).toBe(201);
    expect(order.indexOf("late")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("late")).toBeLessThan(3);
  });

  it.skipIf(skip)("200 jobs consumed by two workers run exactly once each", async () => {
    const kind = freshKind("twice");
    for (let index = 0; index < 200; index += 1) await jobs.enqueue(kind, { index }, { spaceId: `space-${index % 3}` });
    const runs = new Map<number, number>();
    const handler = async ({ payload }: JobContext) => {
      const { index } = payload as { index: number };
      await new Promise((resolve) => setTimeout(resolve, 1));
      runs.set(index, (runs.get(index) ?? 0) + 1);
    };
    const workers = [0, 1].map(() =>
      jobs.worker({ ...quick, logger: ctx.deps.logger, concurrency: 4, fairness: { perSpace: 4 }, handlers: { [kind]: handler } }),
    );
    for (const worker of workers) worker.start();
    await until(() => runs.size === 200, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const worker of workers) await worker.stop();
    expect([...runs.values()].every((count) => count === 1)).toBe(true);
    expect(runs.size).toBe(200);
  });
});

describe.skipIf(withoutRedis)("the jobs port on Redis when Redis goes away", () => {
  it("refuses enqueues clearly while Redis is down, the worker survives, and every job runs once Redis is back", async () => {
    const jobs = await redisQueue();
    const kind = freshKind("outage");
    const seen: number[] = [];
    const worker = jobs.worker({
      ...quick,
      logger: ctx.deps.logger,
      handlers: { [kind]: async ({ payload }) => void seen.push((payload as { n: number }).n) },
    });
    worker.start();
    await jobs.enqueue(kind, { n: 1 }, { spaceId: "alpha" });
    await until(() => seen.length === 1);
    // Queued for later, then Redis dies with it on disk.
    await jobs.enqueue(kind, { n: 2 }, { spaceId: "alpha", runAfter: new Date(Date.now() + 1_000) });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const probe = new Redis(redis!.url);
    await probe.save();
    probe.disconnect();
    await redis!.kill("SIGKILL");
    const refused = await jobs.enqueue(kind, { n: 3 }, { spaceId: "alpha" }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ServiceError);
    expect((refused as ServiceError).messageId).toBe("jobs_unavailable");
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await redis!.start();
    await until(() => seen.includes(2), 20_000);
    // Enqueues work again once the connection is back.
    let queued = false;
    for (let attempt = 0; attempt < 50 && !queued; attempt += 1) {
      queued = await jobs.enqueue(kind, { n: 4 }, { spaceId: "alpha" }).then(
        () => true,
        () => false,
      );
      if (!queued) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(queued).toBe(true);
    await until(() => seen.includes(4), 20_000);
    await worker.stop();
    expect(seen.filter((n) => n === 2)).toHaveLength(1);
    expect(seen).not.toContain(3);
  }, 60_000);
});
