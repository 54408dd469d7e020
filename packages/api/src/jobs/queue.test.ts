import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/harness";
import { capturingLogger, manualClock } from "../testing/flows";
import { backoffMs, claimJob, completeJob, enqueueJob, failJob, getJob } from "./queue";
import { createJobWorker } from "./worker";

const clock = manualClock(Date.parse("2026-03-01T10:00:00.000Z"));
let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext({}, { now: clock.now });
});
afterAll(async () => ctx.close());

const claim = (kind: string, leaseMs = 10_000) => claimJob(ctx.deps.db, clock.now(), { kinds: [kind], leaseMs });

describe("job queue", () => {
  it("claims a due job once, holds it for the lease, and hands it out again when the lease expires", async () => {
    const job = await enqueueJob(ctx.deps.db, clock.now(), "test.lease", { n: 1 }, { spaceId: null });
    const first = await claim("test.lease");
    expect(first).toMatchObject({ id: job.id, status: "running", attempts: 1 });
    expect(await claim("test.lease")).toBeUndefined();
    clock.advance(10_001);
    const second = await claim("test.lease");
    expect(second).toMatchObject({ id: job.id, attempts: 2 });
    await completeJob(ctx.deps.db, clock.now(), job.id);
    clock.advance(60_000);
    expect(await claim("test.lease")).toBeUndefined();
    expect(await getJob(ctx.deps.db, job.id)).toMatchObject({ status: "done", lockedUntil: null });
  });

  it("waits for run_after and only hands out the kinds asked for", async () => {
    await enqueueJob(ctx.deps.db, clock.now(), "test.later", {}, { spaceId: null, runAfter: new Date(clock.now().getTime() + 5_000) });
    expect(await claim("test.later")).toBeUndefined();
    expect(await claim("test.other")).toBeUndefined();
    clock.advance(5_000);
    expect(await claim("test.later")).toBeDefined();
  });

  it("retries a failed attempt after a growing backoff and gives up after the last attempt", async () => {
    const job = await enqueueJob(ctx.deps.db, clock.now(), "test.fail", {}, { spaceId: null });
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const claimed = await claim("test.fail");
      expect(claimed?.attempts).toBe(attempt);
      const { retrying } = await failJob(ctx.deps.db, clock.now(), claimed!, `boom ${attempt}`, 3);
      expect(retrying).toBe(attempt < 3);
      if (retrying) {
        expect(await claim("test.fail")).toBeUndefined();
        clock.advance(backoffMs(attempt));
      }
    }
    expect(await getJob(ctx.deps.db, job.id)).toMatchObject({ status: "failed", attempts: 3, lastError: "boom 3" });
    expect(backoffMs(1)).toBeLessThan(backoffMs(2));
  });

  it("runs handlers in a worker loop, records failures and stops cleanly", async () => {
    const seen: unknown[] = [];
    const given: string[] = [];
    const logger = capturingLogger();
    const worker = createJobWorker({
      db: ctx.deps.db,
      logger,
      now: clock.now,
      idleMs: 5,
      maxAttempts: 1,
      handlers: {
        "test.ok": async ({ payload }) => {
          seen.push(payload);
        },
        "test.bad": async () => {
          throw new Error("handler broke");
        },
      },
      onGiveUp: async (job) => {
        given.push(job.id);
      },
    });
    const good = await enqueueJob(ctx.deps.db, clock.now(), "test.ok", { hello: "world" }, { spaceId: null });
    const bad = await enqueueJob(ctx.deps.db, clock.now(), "test.bad", {}, { spaceId: null });
    worker.start();
    for (let tries = 0; tries < 200 && given.length === 0; tries += 1) await new Promise((resolve) => setTimeout(resolve, 5));
    await worker.stop();
    expect(seen).toEqual([{ hello: "world" }]);
    expect(given).toEqual([bad.id]);
    expect(await getJob(ctx.deps.db, good.id)).toMatchObject({ status: "done" });
    expect(await getJob(ctx.deps.db, bad.id)).toMatchObject({ status: "failed", lastError: "handler broke" });
    expect(logger.lines.some((line) => line.includes("job attempt failed"))).toBe(true);
  });

  it("runs up to `concurrency` jobs at once, each exactly once, in drain and in the started loop", async () => {
    const ids = await Promise.all(Array.from({ length: 7 }, (_, n) => enqueueJob(ctx.deps.db, clock.now(), "test.parallel", { n }, { spaceId: null })));
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    const worker = createJobWorker({
      db: ctx.deps.db,
      logger: capturingLogger(),
      now: clock.now,
      concurrency: 3,
      idleMs: 5,
      handlers: {
        "test.parallel": async ({ payload }) => {
          inFlight += 1;
          most = Math.max(most, inFlight);
          await new Promise((resolve) => setTimeout(resolve, 15));
          seen.push((payload as { n: number }).n);
          inFlight -= 1;
        },
      },
    });
    expect(await worker.drain()).toBe(7);
    expect(most).toBe(3);
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4, 5, 6]);
    for (const job of ids) expect(await getJob(ctx.deps.db, job.id)).toMatchObject({ status: "done" });

    await enqueueJob(ctx.deps.db, clock.now(), "test.parallel", { n: 7 }, { spaceId: null });
    worker.start();
    await expect.poll(() => seen.length).toBe(8);
    await worker.stop();
    expect(inFlight).toBe(0);
  });
});
