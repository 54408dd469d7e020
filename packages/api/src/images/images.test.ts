import { eq, sql } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf } from "../billing/service/ledger";
import { creditLedger, imageTasks, usageRecords, users } from "../db/schema/index";
import type { JobWorker } from "../jobs/worker";
import { modelProviderSchema } from "../models/schemas";
import { expectError, expectOk } from "../testing/flows";
import { type MidjourneyFake, type OpenAiImagesFake, startMidjourneyFake, startOpenAiImagesFake } from "../testing/fakes/images";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { imageModelSchema, imageTaskPageSchema, imageTaskSchema } from "./schemas";
import { createImageWorker, recoverImageTasks } from "./worker";

// Image tasks end to end: two model providers (a local OpenAI images server and a local
// midjourney-proxy), tasks generated, polled, operated, charged and refunded through the real
// routes, worker, ledger and files store.
const OPENAI_KEY = "sk-img-0123456789abcdef";
const MJ_SECRET = "mj-secret-0123456789";
let openai: OpenAiImagesFake;
let mj: MidjourneyFake;
let ctx: TestContext;
let worker: JobWorker;
let owner: TestUser;
let other: TestUser;
type Task = z.infer<typeof imageTaskSchema>;

async function poll(
  user: TestUser,
  taskId: string,
  until: (task: Task) => boolean = (task) => task.status === "succeeded" || task.status === "failed",
): Promise<Task[]> {
  const seen: Task[] = [];
  for (let attempt = 0; attempt < 400; attempt++) {
    const task = await expectOk(await ctx.request(`/api/v1/images/tasks/${taskId}`, { token: user.token }), 200, imageTaskSchema);
    seen.push(task);
    if (until(task)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  throw new Error(`task ${taskId} did not finish: ${JSON.stringify(seen.at(-1))}`);
}

const generate = (user: TestUser, json: Record<string, unknown>, language = "en") =>
  ctx.request("/api/v1/images/tasks", { method: "POST", token: user.token, json, headers: { "accept-language": language } });

beforeAll(async () => {
  openai = await startOpenAiImagesFake({ apiKey: OPENAI_KEY });
  mj = await startMidjourneyFake({ secret: MJ_SECRET });
  ctx = await createTestContext({ PARLEY_PLUGINS_ALLOWED_HOSTS: [new URL(openai.url).host, new URL(mj.url).host].join(",") });
  owner = await registerUser(ctx, "painter@example.com");
  other = await registerUser(ctx, "other-painter@example.com");
  worker = createImageWorker(ctx.deps, { pollMs: 20, idleMs: 20 });
  worker.start();
});
afterAll(async () => {
  await worker.stop();
  await ctx.close();
  await openai.close();
  await mj.close();
});

describe("image tasks", () => {
  it("answers offline: no model listed, generate refused with 503 naming where to configure one", async () => {
    expect(await expectOk(await ctx.request("/api/v1/images/models", { token: owner.token }), 200, z.array(imageModelSchema))).toEqual([]);
    await expectError(await generate(owner, { prompt: "a boat" }), 503, { message: /API access → Models/ });
    expect(await ctx.deps.db.select().from(imageTasks).all()).toEqual([]);
  });

  it("lists the image models the instance owner configures on model providers", async () => {
    await ctx.deps.db.update(users).set({ isInstanceOwner: true }).where(eq(users.id, owner.user.id));
    const provider = (json: Record<string, unknown>) =>
      ctx.request("/api/v1/model-providers", { method: "POST", token: owner.token, json }).then((response) => expectOk(response, 201, modelProviderSchema));
    const created = await provider({
      kind: "openai",
      name: "OpenAI images",
      baseUrl: openai.url,
      apiKey: OPENAI_KEY,
      models: [],
      imageModels: ["dall-e-3", "dall-e-2"],
    });
    expect(created).toMatchObject({ imageModels: ["dall-e-3", "dall-e-2"], imageFormat: "openai" });
    // A midjourney-proxy needs its own address.
    await expectError(
      await ctx.request("/api/v1/model-providers", {
        method: "POST",
        token: owner.token,
        json: { kind: "openai", name: "MJ", models: [], imageModels: ["midjourney"], imageFormat: "midjourney" },
      }),
      400,
      { field: "baseUrl" },
    );
    await provider({
      kind: "openai-compatible",
      name: "Midjourney proxy",
      baseUrl: mj.url,
      apiKey: MJ_SECRET,
      models: [],
      imageModels: ["midjourney"],
      imageFormat: "midjourney",
    });
    const models = await expectOk(await ctx.request("/api/v1/images/models", { token: other.token }), 200, z.array(imageModelSchema));
    expect(models.map((model) => [model.id, model.format, model.operations, model.creditsPerImage])).toEqual([
      ["dall-e-3", "openai", [], 400],
      ["dall-e-2", "openai", ["variation"], 160],
      ["midjourney", "midjourney", ["upscale", "variation"], 500],
    ]);
  });

  it("generates with OpenAI: queued → succeeded, images stored and served to the owner only, credits charged", async () => {
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const task = await expectOk(
      await generate(owner, { model: "dall-e-3", prompt: "a lighthouse at dawn", size: "1024x1024", count: 2 }),
      201,
      imageTaskSchema,
    );
    expect(task).toMatchObject({ status: "queued", progress: 0, credits: 800, images: [] });
    const done = (await poll(owner, task.id)).at(-1)!;
    expect(done).toMatchObject({ status: "succeeded", progress: 100, credits: 800, revisedPrompt: "A detailed picture of a lighthouse at dawn", actions: [] });
    expect(done.images).toHaveLength(2);
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before - 800);
    const image = await ctx.request(done.images[0]!.url, { token: owner.token });
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    // Another user: neither the task nor its images exist for them.
    await expectError(await ctx.request(`/api/v1/images/tasks/${task.id}`, { token: other.token }), 461);
    await expectError(await ctx.request(done.images[0]!.url, { token: other.token }), 461);
    await expectError(
      await ctx.request(`/api/v1/images/tasks/${task.id}/operate`, { method: "POST", token: other.token, json: { operation: "variation", index: 1 } }),
      461,
    );
    await expectError(await ctx.request(`/api/v1/images/tasks/${task.id}/images/3`, { token: owner.token }), 461);
    const usage = await ctx.deps.db.select().from(usageRecords).where(eq(usageRecords.model, "image:dall-e-3")).all();
    expect(usage.map((row) => row.credits)).toEqual([800]);
  });

  it("refunds a task the provider refuses as non-compliant (410, in the reader's language)", async () => {
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const ledgerRows = (await ctx.deps.db.select().from(creditLedger).where(eq(creditLedger.spaceId, owner.user.spaceId)).all()).length;
    const task = await expectOk(await generate(owner, { model: "dall-e-3", prompt: "something forbidden" }), 201, imageTaskSchema);
    const done = (await poll(owner, task.id)).at(-1)!;
    expect(done).toMatchObject({
      status: "failed",
      credits: 0,
      images: [],
      error: { code: 410, message: "Image generation failed: the content is not compliant, try another question" },
    });
    const zh = await expectOk(
      await ctx.request(`/api/v1/images/tasks/${task.id}`, { token: owner.token, headers: { "accept-language": "zh-CN" } }),
      200,
      imageTaskSchema,
    );
    expect(zh.error?.message).toBe("图片生成失败：内容不合规，请换个问题试试");
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before);
    expect((await ctx.deps.db.select().from(creditLedger).where(eq(creditLedger.spaceId, owner.user.spaceId)).all()).length).toBe(ledgerRows);
  });

  it("runs a Midjourney task with rising progress, then upscales one quarter; one unfinished task per user (511)", async () => {
    mj.setPollsToFinish(6);
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const task = await expectOk(await generate(owner, { model: "midjourney", prompt: "a castle in fog", size: "1792x1024", count: 3 }), 201, imageTaskSchema);
    expect(task).toMatchObject({ count: 1, credits: 500 });
    // While it runs, a second task of the same user waits; another user's does not.
    await expectError(await generate(owner, { model: "dall-e-2", prompt: "a second one", size: "256x256" }), 511, {
      message: "Please wait for the current task to complete",
    });
    const seen = await poll(owner, task.id);
    const progress = seen.filter((entry) => entry.status === "running").map((entry) => entry.progress);
    expect(progress.some((value) => value > 0 && value < 100)).toBe(true);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
    const done = seen.at(-1)!;
    expect(done).toMatchObject({ status: "succeeded", credits: 500, actions: ["U1", "U2", "U3", "U4", "V1", "V2", "V3", "V4"] });
    expect(mj.requests.find((request) => request.path === "/mj/submit/imagine")?.body).toEqual({ prompt: "a castle in fog --ar 7:4" });

    await expectError(
      await ctx.request(`/api/v1/images/tasks/${task.id}/operate`, { method: "POST", token: owner.token, json: { operation: "upscale", index: 5 } }),
      400,
      { field: "index" },
    );
    mj.setPollsToFinish(2);
    const upscale = await expectOk(
      await ctx.request(`/api/v1/images/tasks/${task.id}/operate`, { method: "POST", token: owner.token, json: { operation: "upscale", index: 2 } }),
      201,
      imageTaskSchema,
    );
    expect(upscale).toMatchObject({ action: "upscale", parentTaskId: task.id, parentIndex: 2, status: "queued" });
    // Operating on an unfinished task is refused.
    await expectError(
      await ctx.request(`/api/v1/images/tasks/${upscale.id}/operate`, { method: "POST", token: owner.token, json: { operation: "upscale", index: 1 } }),
      400,
      {
        field: "taskId",
      },
    );
    const upscaled = (await poll(owner, upscale.id)).at(-1)!;
    expect(upscaled).toMatchObject({ status: "succeeded", actions: [] });
    expect(upscaled.images).toHaveLength(1);
    expect(mj.requests.find((request) => request.path === "/mj/submit/action")?.body).toMatchObject({
      customId: expect.stringMatching(/^MJ::JOB::upsample::2::/),
    });
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before - 1000);
  });

  it("refunds a Midjourney task that fails while drawing (561)", async () => {
    mj.setPollsToFinish(1);
    const before = await balanceOf(ctx.deps, other.user.spaceId);
    const task = await expectOk(await generate(other, { model: "midjourney", prompt: "explode please" }), 201, imageTaskSchema);
    const done = (await poll(other, task.id)).at(-1)!;
    expect(done).toMatchObject({ status: "failed", error: { code: 561 } });
    expect(await balanceOf(ctx.deps, other.user.spaceId)).toBe(before);
  });

  it("refuses what the space cannot pay (406) and bad input, changing nothing", async () => {
    const tasks = (await ctx.deps.db.select().from(imageTasks).all()).length;
    // 4 × 800 credits is more than the welcome credits left.
    await expectError(await generate(other, { model: "dall-e-3", prompt: "four wide ones", size: "1792x1024", count: 4 }), 406, { message: /3200 credits/ });
    await expectError(await generate(other, { model: "dall-e-3", prompt: "   " }), 400, { field: "prompt" });
    await expectError(await generate(other, { model: "dall-e-3", prompt: "x".repeat(4001) }), 400, { field: "prompt" });
    await expectError(await generate(other, { model: "dall-e-3", prompt: "ok", count: 5 }), 400, { field: "count" });
    await expectError(await generate(other, { model: "dall-e-3", prompt: "ok", size: "9x9" }), 400, { field: "size" });
    await expectError(await generate(other, { model: "dall-e-3", prompt: "ok", size: "256x256" }), 400, { field: "size" });
    await expectError(await generate(other, { model: "no-such-model", prompt: "ok" }), 400, { field: "model" });
    await expectError(await ctx.request("/api/v1/images/tasks/img_nope", { token: other.token }), 461);
    expect((await ctx.deps.db.select().from(imageTasks).all()).length).toBe(tasks);
  });

  it("varies a DALL·E 2 result by uploading it, and lists the gallery newest first", async () => {
    const task = await expectOk(await generate(other, { model: "dall-e-2", prompt: "a red kite", size: "256x256", count: 2 }), 201, imageTaskSchema);
    const done = (await poll(other, task.id)).at(-1)!;
    expect(done.actions).toEqual(["V1", "V2"]);
    await expectError(
      await ctx.request(`/api/v1/images/tasks/${task.id}/operate`, { method: "POST", token: other.token, json: { operation: "upscale", index: 1 } }),
      400,
      {
        field: "operation",
      },
    );
    const variation = await expectOk(
      await ctx.request(`/api/v1/images/tasks/${task.id}/operate`, { method: "POST", token: other.token, json: { operation: "variation", index: 2 } }),
      201,
      imageTaskSchema,
    );
    expect((await poll(other, variation.id)).at(-1)).toMatchObject({ status: "succeeded", credits: 160 });
    expect(openai.requests.at(-1)).toMatchObject({ path: "/images/variations", body: { image: { png: true }, size: "256x256" } });
    const page = await expectOk(await ctx.request("/api/v1/images/tasks?pageSize=2", { token: other.token }), 200, imageTaskPageSchema);
    expect(page.total).toBe(3);
    expect(page.items.map((item) => item.id)).toEqual([variation.id, task.id]);
  });

  it("queues a job again for an unfinished task left without one (a stop between its two writes)", async () => {
    // No worker runs while the task is stored, then its job is removed: as if the process had stopped in between.
    await worker.stop();
    const task = await expectOk(await generate(other, { model: "dall-e-2", prompt: "a lost kite", size: "256x256" }), 201, imageTaskSchema);
    await ctx.deps.db.run(sql`DELETE FROM jobs WHERE json_extract(payload, '$.taskId') = ${task.id}`);
    expect(await recoverImageTasks(ctx.deps)).toBe(1);
    expect(await recoverImageTasks(ctx.deps)).toBe(0);
    worker = createImageWorker(ctx.deps, { pollMs: 20, idleMs: 20 });
    worker.start();
    expect((await poll(other, task.id)).at(-1)).toMatchObject({ status: "succeeded" });
  });

  it("answers 1,000 polls of a finished task from the database, never calling the provider", async () => {
    const [task] = (await expectOk(await ctx.request("/api/v1/images/tasks", { token: owner.token }), 200, imageTaskPageSchema)).items;
    const calls = openai.requests.length + mj.requests.length;
    const started = performance.now();
    for (let i = 0; i < 1000; i++) {
      const response = await ctx.request(`/api/v1/images/tasks/${task!.id}`, { token: owner.token });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    expect(openai.requests.length + mj.requests.length).toBe(calls);
    // Cheap: a few milliseconds each on a loaded machine.
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});
