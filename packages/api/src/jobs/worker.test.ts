import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../testing/harness";
import { enqueueJob, getJob } from "./queue";
import { createJobWorker, type JobContext } from "./worker";

let ctx: TestContext;

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

/** Queues jobs one millisecond apart, so their queue order is the order given. */
async function enqueueInOrder(kind: string, spaces: string[]) {
  const base = Date.now() - 60_000;
  for (const [index, spaceId] of spaces.entries()) {
    await enqueueJob(ctx.deps.db, new Date(base + index), kind, { spaceId, index }, { spaceId, runAfter: new Date(base + index) });
  }
}

async function until(check: () => boolean, timeoutMs = 10_000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("one job worker, fair between spaces", () => {
  it("takes turns between spaces: a backlog queued first does not make a later space wait for all of it", async () => {
    await enqueueInOrder("test.fair-order", ["alpha", "alpha", "alpha", "alpha", "beta", "beta"]);
    const order: string[] = [];
    const handler = async ({ payload }: JobContext) => {
      order.push((payload as { spaceId: string }).spaceId);
    };
    const fair = createJobWorker({
      db: ctx.deps.db,
      logger: ctx.deps.logger,
      now: ctx.deps.now,
      handlers: { "test.fair-order": handler },
      fairness: { perSpace: 10 },
    });
    expect(await fair.drain()).toBe(6);
    expect(order).toEqual(["alpha", "beta", "alpha", "beta", "alpha", "alpha"]);

    // Without fairness the same queue runs in its order: beta waits for all of alpha.
    await enqueueInOrder("test.plain-order", ["alpha", "alpha", "alpha", "alpha", "beta", "beta"]);
    order.length = 0;
    const plain = createJobWorker({ db: ctx.deps.db, logger: ctx.deps.logger, now: ctx.deps.now, handlers: { "test.plain-order": handler } });
    expect(await plain.drain()).toBe(6);
    expect(order).toEqual(["alpha", "alpha", "alpha", "alpha", "beta", "beta"]);
  });

  it("runs at most perSpace jobs of a space at once, so a space's slow jobs leave lanes to the others", async () => {
    await enqueueInOrder("test.fair-cap", ["alpha", "alpha", "alpha", "alpha", "beta"]);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let alphaNow = 0;
    let alphaMost = 0;
    let betaDone = false;
    const worker = createJobWorker({
      db: ctx.deps.db,
      logger: ctx.deps.logger,
      now: ctx.deps.now,
      idleMs: 10,
      concurrency: 3,
      fairness: { perSpace: 2 },
      handlers: {
        "test.fair-cap": async ({ payload }) => {
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
      expect(alphaMost).toBe(2);
      release();
      await until(() => alphaNow === 0);
    } finally {
      release();
      await worker.stop();
    }
    expect(alphaMost).toBe(2);
  });

  it("hands a job back uncounted when its handler releases it on stop", async () => {
    const [job] = await Promise.all([enqueueJob(ctx.deps.db, ctx.deps.now(), "test.release", { spaceId: "alpha" }, { spaceId: "alpha" })]);
    let started = false;
    const worker = createJobWorker({
      db: ctx.deps.db,
      logger: ctx.deps.logger,
      now: ctx.deps.now,
      idleMs: 10,
      handlers: {
        "test.release": async ({ signal, release }) => {
          started = true;
          await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
          await release();
        },
      },
    });
    worker.start();
    await until(() => started);
    await worker.stop();
    expect(await getJob(ctx.deps.db, job!.id)).toMatchObject({ status: "queued", attempts: 0, lockedUntil: null });
  });
});
