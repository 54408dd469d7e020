import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../db/schema/index";
import { expectOk, manualClock } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { knowledgeFileSchema } from "./schemas";
import { INDEX_FILE_JOB } from "./service/files";
import { createKnowledgeBaseVia, uploadOk } from "./testing";
import { createKnowledgeWorker } from "./worker";

const clock = manualClock(Date.parse("2026-03-01T10:00:00.000Z"));
let ctx: TestContext;
let alpha: TestUser;
let beta: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({}, { now: clock.now });
  alpha = await registerUser(ctx, "fair-alpha@example.com");
  beta = await registerUser(ctx, "fair-beta@example.com");
});
afterAll(async () => ctx.close());

/** Uploads and confirms `count` small files in the user's space, one millisecond apart: `count` indexing jobs. */
async function confirmFiles(user: TestUser, count: number): Promise<string[]> {
  const base = await createKnowledgeBaseVia(ctx, user);
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const file = await uploadOk(ctx, user, base.id, `note-${index}.txt`, `Note ${index} of ${user.email}: returns are accepted within thirty days.`);
    clock.advance(1);
    await expectOk(await ctx.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: user.token }), 200, knowledgeFileSchema);
    ids.push(file.id);
  }
  return ids;
}

describe("indexing fair between spaces", () => {
  it("claims a later space's file within the first two claims, not after another space's whole import", async () => {
    await confirmFiles(alpha, 20);
    const [betaFile] = await confirmFiles(beta, 1);

    const queued = await ctx.deps.db.select().from(jobs).where(eq(jobs.kind, INDEX_FILE_JOB)).all();
    expect(queued).toHaveLength(21);
    expect(queued.filter((job) => job.spaceId === alpha.user.spaceId)).toHaveLength(20);
    expect(queued.filter((job) => job.spaceId === beta.user.spaceId)).toHaveLength(1);

    // One lane and a clock that moves a millisecond per reading: each job's completion time
    // (updated_at) then gives the order the worker claimed them in.
    const tick = () => {
      clock.advance(1);
      return clock.now();
    };
    const ticking = { ...ctx.deps, now: tick };
    expect(await createKnowledgeWorker(ticking, { concurrency: 1 }).drain()).toBe(21);

    const done = await ctx.deps.db.select().from(jobs).where(eq(jobs.kind, INDEX_FILE_JOB)).all();
    expect(done.every((job) => job.status === "done")).toBe(true);
    const order = done.sort((a, b) => a.updatedAt.localeCompare(b.updatedAt)).map((job) => (JSON.parse(job.payload) as { fileId: string }).fileId);
    expect(order.indexOf(betaFile!)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(betaFile!)).toBeLessThan(2);
  });
});
