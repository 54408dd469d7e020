import { type ChannelKind, channelKinds } from "@parley/channels";
import { fakes, type PlatformFake } from "@parley/channels/testing";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { chatFiles, conversations, jobs, messages, outbox, users } from "../db/schema/index";
import type { JobWorker } from "../jobs/worker";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { createTestContext, freePort, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { CHANNEL_REPLY_JOB } from "./pipeline";
import { createChannelWorker } from "./worker";

/**
 * How answers reach a platform when things are not simple: slow answers past WeChat's passive
 * window, platform failures (retried with backoff, never sent twice) and refusals, answers longer
 * than the platform takes, and humanization (split, merge).
 */

/** A 2×2 PNG (real, decodable), base64. */
const SMALL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGP4z8AARAwQCgAf7gP9i18U1AAAAABJRU5ErkJggg==";

let llm: LlmFake;
let ctx: TestContext;
let worker: JobWorker;
let owner: TestUser;
const running = new Map<ChannelKind, PlatformFake>();

beforeAll(async () => {
  llm = await startOpenAiFake();
  for (const kind of ["telegram", "wechat-official-account", "dingtalk"] as const) running.set(kind, await fakes[kind]!());
  const port = await freePort();
  ctx = await createTestContext({
    OPENAI_API_KEY: "sk-test-parley",
    OPENAI_BASE_URL: llm.url,
    // gpt-3.5-turbo does not read images.
    PARLEY_OPENAI_MODELS: "gpt-4.1-mini,gpt-3.5-turbo",
    PARLEY_PUBLIC_URL: `http://127.0.0.1:${port}`,
    PARLEY_CHANNEL_API_BASES: [...running].map(([kind, fake]) => `${kind}=${fake.apiBase}`).join(","),
  });
  await ctx.deps.models.ready();
  await ctx.listen(port);
  worker = createChannelWorker(ctx.deps, { idleMs: 50 });
  worker.start();
  owner = await registerUser(ctx, "owner-delivery@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
});

afterAll(async () => {
  await worker?.stop();
  await ctx?.close();
  await llm?.close();
  await Promise.all([...running.values()].map((fake) => fake.close()));
});

beforeEach(() => llm.reset());

async function json(response: Response) {
  return (await response.json()) as { success: boolean; data: any };
}

/** A fresh app (optionally with humanization) connected to `kind`'s fake. */
async function connect(kind: ChannelKind, humanization?: Record<string, unknown>, model?: string) {
  const app = await createAppVia(ctx, owner, { name: `Bot ${Math.random().toString(36).slice(2, 8)}`, ...(model ? { defaultModel: model } : {}) });
  if (humanization) {
    const current = (await json(await ctx.request(`/api/v1/apps/${app.id}/advanced-config`, { token: owner.token }))).data;
    const put = await ctx.request(`/api/v1/apps/${app.id}/advanced-config`, {
      method: "PUT",
      token: owner.token,
      json: { ...current, humanization: { ...current.humanization, ...humanization } },
    });
    expect(put.status, await put.clone().text()).toBe(200);
  }
  const fake = running.get(kind)!;
  const created = await ctx.request("/api/v1/channel-clients", {
    method: "POST",
    token: owner.token,
    json: { appId: app.id, name: kind, kind, config: fake.config },
  });
  expect(created.status).toBe(201);
  const client = (await json(created)).data as { id: string; webhookUrl: string };
  return { fake, client, appId: app.id };
}

/** One Telegram client for the media tests (the plan caps how many clients a space has). */
let mediaClient: Awaited<ReturnType<typeof connect>> | undefined;
const telegramForMedia = async () => {
  mediaClient ??= await connect("telegram");
  return mediaClient;
};

/** The inbox session of a platform conversation. */
async function sessionOf(clientId: string, externalConversationId: string) {
  const row = await ctx.deps.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.clientId, clientId), eq(conversations.externalConversationId, externalConversationId)))
    .get();
  if (!row) throw new Error(`no session of ${externalConversationId} in client ${clientId}`);
  return row.id;
}

async function historyOf(clientId: string) {
  const list = await json(await ctx.request(`/api/v1/inbox/sessions?clientId=${clientId}`, { token: owner.token }));
  const sessionId = list.data.items[0]?.sessionId as string | undefined;
  if (!sessionId) return [];
  return (await json(await ctx.request(`/api/v1/inbox/sessions/${sessionId}/messages`, { token: owner.token }))).data.items as {
    role: string;
    content: string;
    delivery: string | null;
    deliveryError: string | null;
  }[];
}

const sentTo = (fake: PlatformFake, since: number) => fake.sent.slice(since);

describe("channel delivery", () => {
  it("sends a WeChat answer that misses the passive window through the customer-service API", async () => {
    const { fake, client } = await connect("wechat-official-account");
    // Pauses between the stream's events add up to well over the 3.8 s Parley waits for a passive reply.
    llm.reply({ text: "Your parcel left the depot this morning.", chunks: 2, delayMs: 1_500 });
    const before = fake.sent.length;
    const started = Date.now();
    const response = await fetch(await fake.delivery(client.webhookUrl, { text: "Where is my parcel?", id: "slow-1" }));
    const body = await response.text();
    // WeChat waits 5 s: Parley answers in time with the plain acknowledgement…
    expect(Date.now() - started).toBeLessThan(4_900);
    expect(body).toBe("success");
    // …and the answer follows through the send API once the model is done.
    await expect
      .poll(() => sentTo(fake, before).map((sent) => sent.text), { timeout: 15_000 })
      .toEqual(["Your parcel left the depot this morning."])
      .catch(async (error: unknown) => {
        throw new Error(`${String(error)} history=${JSON.stringify(await historyOf(client.id))} sent=${JSON.stringify(fake.sent)}`);
      });
    expect(sentTo(fake, before)[0]!.authorized).toBe(true);
    await expect.poll(async () => (await historyOf(client.id)).at(-1)?.delivery).toBe("sent");
  }, 30_000);

  it("retries a platform failure with backoff and delivers the answer exactly once", async () => {
    const { fake, client } = await connect("telegram");
    llm.reply("Retried answer.");
    const before = fake.sent.length;
    fake.failNext("server-error");
    const response = await fetch(await fake.delivery(client.webhookUrl, { text: "hello", id: "retry-1" }));
    expect(response.status).toBe(200);
    await expect.poll(() => sentTo(fake, before).map((sent) => sent.text), { timeout: 15_000 }).toEqual(["Retried answer."]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sentTo(fake, before)).toHaveLength(1);
    expect((await historyOf(client.id)).at(-1)).toMatchObject({ role: "assistant", delivery: "sent" });
  }, 30_000);

  it("marks an answer the platform refuses as failed and shows the error on the client", async () => {
    const { fake, client } = await connect("telegram");
    // The owner asked for an SMS when the client goes offline.
    await ctx.deps.db.update(users).set({ phone: "+8613800000042" }).where(eq(users.id, owner.user.id));
    // WeChat is a choice too (wechat-bindings.test.ts covers it); this test wants the SMS.
    expect(
      (await ctx.request(`/api/v1/channel-clients/${client.id}`, { method: "PATCH", token: owner.token, json: { offlineNotify: "wechat-official-account" } }))
        .status,
    ).toBe(200);
    expect((await ctx.request(`/api/v1/channel-clients/${client.id}`, { method: "PATCH", token: owner.token, json: { offlineNotify: "sms" } })).status).toBe(
      200,
    );
    llm.reply("Warm up.");
    await fetch(await fake.delivery(client.webhookUrl, { text: "hi", id: "refused-0" }));
    await expect.poll(() => fake.sent.at(-1)?.text).toBe("Warm up.");
    llm.reply("Nobody will read this.");
    const before = fake.sent.length;
    fake.failNext("rejected");
    await fetch(await fake.delivery(client.webhookUrl, { text: "hello", id: "refused-1" }));
    await expect.poll(async () => (await historyOf(client.id)).at(-1)?.delivery).toBe("failed");
    expect((await historyOf(client.id)).at(-1)?.deliveryError).toBeTruthy();
    expect(sentTo(fake, before)).toHaveLength(0);
    const view = (await json(await ctx.request(`/api/v1/channel-clients/${client.id}`, { token: owner.token }))).data;
    expect(view.status).toBe("offline");
    expect(view.lastError).toBeTruthy();
    await expect
      .poll(async () => (await ctx.deps.db.select().from(outbox).where(eq(outbox.to, "+8613800000042")).all()).map((row) => row.text))
      .toEqual([expect.stringContaining("telegram went offline")]);
    // The next good exchange brings it back online.
    llm.reply("Back again.");
    await fetch(await fake.delivery(client.webhookUrl, { text: "hello again", id: "refused-2" }));
    await expect.poll(() => fake.sent.at(-1)?.text).toBe("Back again.");
    await expect.poll(async () => (await json(await ctx.request(`/api/v1/channel-clients/${client.id}`, { token: owner.token }))).data.status).toBe("online");
  }, 30_000);

  it("cuts an answer longer than the platform takes into parts that join back to it", async () => {
    const { fake, client } = await connect("telegram");
    const long = Array.from({ length: 150 }, (_, index) => `Sentence number ${index + 1} explains one more detail of the return policy.`).join(" ");
    expect(long.length).toBeGreaterThan(8_192);
    llm.reply({ text: long, chunks: 8 });
    const before = fake.sent.length;
    await fetch(await fake.delivery(client.webhookUrl, { text: "Tell me everything", id: "long-1" }));
    await expect
      .poll(
        () =>
          sentTo(fake, before)
            .map((sent) => sent.text)
            .join(" ").length,
        { timeout: 15_000 },
      )
      .toBeGreaterThanOrEqual(long.length - 10);
    const parts = sentTo(fake, before).map((sent) => sent.text);
    expect(parts.length).toBeGreaterThanOrEqual(3);
    for (const part of parts) expect([...part].length).toBeLessThanOrEqual(4_096);
    expect(parts.join(" ")).toBe(long);
  }, 30_000);

  it("splits an answer into message-sized pieces when the app asks for split replies", async () => {
    const { fake, client } = await connect("telegram", { splitReply: true });
    const answer = `${"First paragraph about shipping times. ".repeat(6).trim()}\n\n${"Second paragraph about returns and refunds. ".repeat(6).trim()}`;
    llm.reply(answer);
    const before = fake.sent.length;
    await fetch(await fake.delivery(client.webhookUrl, { text: "shipping and returns?", id: "split-1" }));
    await expect.poll(() => sentTo(fake, before).length, { timeout: 15_000 }).toBe(2);
    expect(sentTo(fake, before)[0]!.text, JSON.stringify(sentTo(fake, before))).toMatch(/^First paragraph/);
    expect(sentTo(fake, before)[1]!.text.startsWith("Second paragraph")).toBe(true);
  }, 30_000);

  it("answers several quick messages once when the app merges replies", async () => {
    const { fake, client } = await connect("telegram", { mergeReply: true, mergeDelaySeconds: 1 });
    llm.always({ text: "One answer for both." });
    const calls = llm.requests.length;
    const before = fake.sent.length;
    await fetch(await fake.delivery(client.webhookUrl, { text: "Hi", id: "merge-1" }));
    await fetch(await fake.delivery(client.webhookUrl, { text: "where is order 42?", id: "merge-2" }));
    await expect.poll(() => sentTo(fake, before).length, { timeout: 15_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(sentTo(fake, before).map((sent) => sent.text)).toEqual(["One answer for both."]);
    expect(llm.requests.length - calls).toBe(1);
    // The model saw both messages.
    const prompt = JSON.stringify(llm.requests.at(-1)?.body.messages);
    expect(prompt).toContain("Hi");
    expect(prompt).toContain("where is order 42?");
    const done = await ctx.deps.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, CHANNEL_REPLY_JOB), eq(jobs.status, "queued")))
      .all();
    expect(done).toHaveLength(0);
  }, 30_000);

  it("hands a Telegram photo to the model as an OpenAI image_url part and keeps it on the person's message", async () => {
    const { fake, client } = await telegramForMedia();
    llm.reply({ text: "A small red square." });
    const calls = llm.requests.length;
    const before = fake.sent.length;
    const png = Buffer.from(SMALL_PNG, "base64");
    const response = await fetch(
      await fake.delivery(client.webhookUrl, { text: "What is in this picture?", senderId: "4141", media: [{ kind: "image", bytes: png, mime: "image/png" }] }),
    );
    expect(response.status).toBe(200);
    await expect.poll(() => sentTo(fake, before).map((sent) => sent.text), { timeout: 15_000 }).toEqual(["A small red square."]);
    expect(llm.requests.length - calls).toBe(1);
    const last = (llm.requests.at(-1)!.body.messages as { role: string; content: unknown }[]).at(-1)!;
    expect(last.role).toBe("user");
    const parts = last.content as { type: string; text?: string; image_url?: { url: string } }[];
    expect(parts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "text", text: expect.stringContaining("What is in this picture?") }),
        { type: "image_url", image_url: expect.objectContaining({ url: `data:image/png;base64,${SMALL_PNG}` }) },
      ]),
    );
    // The inbox shows the picture on the person's message.
    const history = (await json(await ctx.request(`/api/v1/inbox/sessions/${await sessionOf(client.id, "4141")}/messages`, { token: owner.token }))).data
      .items as { role: string; attachments: { kind: string; mimeType: string }[] }[];
    expect(history.find((item) => item.role === "user")?.attachments).toEqual([expect.objectContaining({ kind: "image", mimeType: "image/png" })]);
  }, 30_000);

  it("still answers a photo when the app's model does not read images, without the image", async () => {
    const { fake, client } = await connect("telegram", undefined, "gpt-3.5-turbo");
    llm.reply({ text: "I cannot see pictures, but I can help." });
    const before = fake.sent.length;
    await fetch(
      await fake.delivery(client.webhookUrl, {
        text: "Look",
        senderId: "6161",
        media: [{ kind: "image", bytes: Buffer.from(SMALL_PNG, "base64"), mime: "image/png" }],
      }),
    );
    await expect.poll(() => sentTo(fake, before).map((sent) => sent.text), { timeout: 15_000 }).toEqual(["I cannot see pictures, but I can help."]);
    expect(llm.requests.at(-1)!.body.model).toBe("gpt-3.5-turbo");
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).not.toContain("image_url");
    const history = (await historyOf(client.id)) as unknown as { role: string; attachments: unknown[] }[];
    expect(history.find((item) => item.role === "user")?.attachments).toHaveLength(1);
  }, 30_000);

  it("answers with a note when Telegram refuses a file id or a file is over 15 MB, and stores neither", async () => {
    const { fake, client } = await telegramForMedia();
    llm.always({ text: "Sorry, I could not see it." });
    const before = fake.sent.length;
    // A photo whose file_id Telegram does not know (getFile answers 400 "invalid file_id").
    const unknown = await fetch(client.webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": fake.config.secretToken! },
      body: JSON.stringify({
        update_id: 880001,
        message: {
          message_id: 5,
          from: { id: 4242, is_bot: false, first_name: "Lin" },
          chat: { id: 4242, first_name: "Lin", type: "private" },
          date: Math.floor(Date.now() / 1000),
          photo: [{ file_id: "AgACAgQAAxkBAAIunknown", file_unique_id: "x", width: 90, height: 90 }],
        },
      }),
    });
    expect(unknown.status).toBe(200);
    // A document over 15 MB served without a declared size: refused while reading.
    const big = new Uint8Array(15 * 1024 * 1024 + 1);
    big.set(Buffer.from("%PDF-1.4"));
    await fetch(
      await fake.delivery(client.webhookUrl, {
        text: "",
        senderId: "4343",
        media: [{ kind: "file", bytes: big, mime: "application/pdf", name: "huge.pdf", hideSize: true }],
      }),
    );
    await expect.poll(() => sentTo(fake, before).length, { timeout: 15_000 }).toBe(2);
    const stored = await ctx.deps.db
      .select({ content: messages.content, conversationId: messages.conversationId })
      .from(messages)
      .where(eq(messages.role, "user"))
      .all();
    const notes = stored.map((row) => row.content);
    expect(notes).toContain("[image not received: the platform refused to hand it over]");
    expect(notes).toContain("[file not received: larger than 15 MB]");
    const conversationIds = stored.filter((row) => row.content.includes("not received")).map((row) => row.conversationId);
    const files = await ctx.deps.db.select().from(chatFiles).all();
    expect(files.filter((file) => conversationIds.includes(file.conversationId ?? ""))).toEqual([]);
  }, 30_000);

  it("sends an operator's image with sendPhoto after uploading it to the session", async () => {
    const { fake, client } = await telegramForMedia();
    llm.reply({ text: "Hello!" });
    const before = fake.sent.length;
    await fetch(await fake.delivery(client.webhookUrl, { text: "Can you show me?", senderId: "5151" }));
    await expect.poll(() => sentTo(fake, before).length, { timeout: 15_000 }).toBe(1);
    const sessionId = await sessionOf(client.id, "5151");
    const upload = (name: string, bytes: Uint8Array) => {
      const form = new FormData();
      form.set("file", new Blob([new Uint8Array(bytes)]), name);
      return ctx.request(`/api/v1/inbox/sessions/${sessionId}/files`, { method: "POST", token: owner.token, body: form });
    };
    // Not an image by its bytes, whatever its name says.
    const refused = await upload("photo.png", new TextEncoder().encode("MZ not a picture"));
    expect(refused.status).toBe(415);
    const png = Buffer.from(SMALL_PNG, "base64");
    const uploaded = await upload("map.png", png);
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const file = (await json(uploaded)).data as { id: string; kind: string; url: string };
    expect(file.kind).toBe("image");
    const sent = await ctx.request(`/api/v1/inbox/sessions/${sessionId}/messages`, {
      method: "POST",
      token: owner.token,
      json: { content: "", fileIds: [file.id] },
    });
    expect(sent.status, await sent.clone().text()).toBe(201);
    await expect.poll(() => sentTo(fake, before).length, { timeout: 15_000 }).toBe(2);
    expect(sentTo(fake, before)[1]).toMatchObject({ to: "5151", authorized: true, image: { mime: "image/png", name: "map.png" } });
    expect(Buffer.from(sentTo(fake, before)[1]!.image!.bytes)).toEqual(png);
    // A file id is sent once: naming it again finds nothing.
    const again = await ctx.request(`/api/v1/inbox/sessions/${sessionId}/messages`, {
      method: "POST",
      token: owner.token,
      json: { content: "", fileIds: [file.id] },
    });
    expect(again.status).toBe(404);
  }, 30_000);

  it("sends an operator's image as a link to its signed address where the platform has no image API (DingTalk)", async () => {
    const { fake, client } = await connect("dingtalk");
    llm.reply({ text: "Hello!" });
    const before = fake.sent.length;
    await fetch(await fake.delivery(client.webhookUrl, { text: "Send me the map", senderId: "staff7171" }));
    await expect.poll(() => sentTo(fake, before).length, { timeout: 15_000 }).toBe(1);
    const list = await json(await ctx.request(`/api/v1/inbox/sessions?clientId=${client.id}`, { token: owner.token }));
    const sessionId = list.data.items[0].sessionId as string;
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(Buffer.from(SMALL_PNG, "base64"))]), "map.png");
    const file = (await json(await ctx.request(`/api/v1/inbox/sessions/${sessionId}/files`, { method: "POST", token: owner.token, body: form }))).data as {
      id: string;
    };
    const sent = await ctx.request(`/api/v1/inbox/sessions/${sessionId}/messages`, {
      method: "POST",
      token: owner.token,
      json: { content: "Here it is", fileIds: [file.id] },
    });
    expect(sent.status).toBe(201);
    await expect.poll(() => sentTo(fake, before).length, { timeout: 15_000 }).toBe(3);
    const [text, link] = sentTo(fake, before)
      .slice(1)
      .map((item) => item.text);
    expect(text).toBe("Here it is");
    const address = /(http:\/\/127\.0\.0\.1:\d+\/api\/v1\/chat-files\/[^\s)]+)/.exec(link ?? "")?.[1];
    expect(link, link).toContain("map.png");
    expect(address, link).toBeDefined();
    const image = await fetch(address!);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer())).toEqual(Buffer.from(SMALL_PNG, "base64"));
  }, 30_000);

  it("covers every platform with a fake", () => {
    expect(channelKinds.every((kind) => fakes[kind] !== undefined)).toBe(true);
  });
});
