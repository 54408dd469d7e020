import { fakes, type PlatformFake } from "@parley/channels/testing";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { jobs } from "../db/schema/index";
import type { JobWorker } from "../jobs/worker";
import { createChannelWorker } from "../channels/worker";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { expectError, expectOk } from "../testing/flows";
import { createTestContext, freePort, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { historySchema, messageSchema, sessionPageSchema } from "./routes";
import { storedMessages } from "./testing";

// Retry of a failed delivery: a message the platform refused is sent again on the operator's
// request, exactly once; anything not failed is a conflict, another space's message is not found.

let llm: LlmFake;
let telegram: PlatformFake;
let ctx: TestContext;
let worker: JobWorker;
let owner: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  llm = await startOpenAiFake();
  telegram = await fakes.telegram!();
  const port = await freePort();
  ctx = await createTestContext({
    OPENAI_API_KEY: "sk-test-parley",
    OPENAI_BASE_URL: llm.url,
    PARLEY_OPENAI_MODELS: "gpt-4.1-mini",
    PARLEY_PUBLIC_URL: `http://127.0.0.1:${port}`,
    PARLEY_CHANNEL_API_BASES: `telegram=${telegram.apiBase}`,
  });
  await ctx.deps.models.ready();
  await ctx.listen(port);
  worker = createChannelWorker(ctx.deps, { idleMs: 50 });
  worker.start();
  owner = await registerUser(ctx, "owner-retry@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  stranger = await registerUser(ctx, "stranger-retry@example.com");
});

afterAll(async () => {
  await worker?.stop();
  await ctx?.close();
  await llm?.close();
  await telegram?.close();
});

const retryUrl = (sessionId: string, messageId: string) => `/api/v1/inbox/sessions/${sessionId}/messages/${messageId}/retry`;

async function history(sessionId: string) {
  return (await expectOk(await ctx.request(`/api/v1/inbox/sessions/${sessionId}/messages`, { token: owner.token }), 200, historySchema)).items;
}

describe("retry of a failed delivery", () => {
  it("a refused answer is failed; retry sets it pending, queues it and it is delivered once; then 409", async () => {
    const app = await createAppVia(ctx, owner, { name: "Retry bot" });
    const created = await ctx.request("/api/v1/channel-clients", {
      method: "POST",
      token: owner.token,
      json: { appId: app.id, name: "Telegram", kind: "telegram", config: telegram.config },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const client = ((await created.json()) as { data: { id: string; webhookUrl: string } }).data;

    llm.reply("Your refund is on its way.");
    telegram.failNext("rejected");
    await fetch(await telegram.delivery(client.webhookUrl, { text: "Where is my refund?", id: "retry-refused-1" }));
    const listed = await expectOk(await ctx.request(`/api/v1/inbox/sessions?clientId=${client.id}`, { token: owner.token }), 200, sessionPageSchema);
    const sessionId = listed.items[0]!.sessionId;
    await expect.poll(async () => (await history(sessionId)).at(-1)?.delivery, { timeout: 10_000 }).toBe("failed");
    const failed = (await history(sessionId)).at(-1)!;
    expect(failed).toMatchObject({ role: "assistant", content: "Your refund is on its way." });
    expect(failed.deliveryError).toBeTruthy();
    expect(telegram.sent.filter((sent) => sent.text === "Your refund is on its way.")).toHaveLength(0);

    // Another space sees neither the session nor the message.
    await expectError(await ctx.request(retryUrl(sessionId, failed.id), { method: "POST", token: stranger.token }), 404);
    // A message of the session that does not exist, and a customer's message (never delivered by us).
    await expectError(await ctx.request(retryUrl(sessionId, "msg_unknown"), { method: "POST", token: owner.token }), 404, { message: "Message not found" });
    const question = (await history(sessionId)).find((item) => item.role === "user")!;
    await expectError(await ctx.request(retryUrl(sessionId, question.id), { method: "POST", token: owner.token }), 409, {
      message: "Only a message whose delivery failed can be sent again",
    });

    const retried = await expectOk(await ctx.request(retryUrl(sessionId, failed.id), { method: "POST", token: owner.token }), 200, messageSchema);
    expect(retried).toMatchObject({ id: failed.id, role: "assistant", content: "Your refund is on its way." });
    // Queued (pending), or already delivered by the in-process worker by the time the answer is shaped.
    expect(["pending", "sent"]).toContain(retried.delivery);
    expect(retried.deliveryError).toBeNull();
    await expect.poll(async () => (await history(sessionId)).at(-1)?.delivery, { timeout: 10_000 }).toBe("sent");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(telegram.sent.filter((sent) => sent.text === "Your refund is on its way.")).toHaveLength(1);
    const stored = (await storedMessages(ctx, sessionId)).find((row) => row.id === failed.id)!;
    expect(stored).toMatchObject({ delivery: "sent", deliveryError: null });

    // Delivered now: a second retry is a conflict, in the caller's language, and sends nothing.
    await expectError(await ctx.request(retryUrl(sessionId, failed.id), { method: "POST", token: owner.token, headers: { "accept-language": "zh-CN" } }), 409, {
      message: "只有发送失败的消息才能重新发送",
    });
    expect(telegram.sent.filter((sent) => sent.text === "Your refund is on its way.")).toHaveLength(1);
    // No send job is left behind.
    await expect.poll(async () => (await ctx.deps.db.select().from(jobs).where(eq(jobs.status, "queued")).all()).length).toBe(0);
  }, 30_000);

  it("needs a signed-in member", async () => {
    await expectError(await ctx.request(retryUrl("conv_x", "msg_x"), { method: "POST" }), 401);
  });
});
