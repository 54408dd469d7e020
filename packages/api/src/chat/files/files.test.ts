import { createDeflate } from "node:zlib";
import { count, eq } from "drizzle-orm";
import OpenAI from "openai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAppVia } from "../../apps/testing";
import { chatFiles, messages, publicAssets, usageRecords } from "../../db/schema/index";
import { startVisitor } from "../../inbox/testing";
import { docxOf, pdfOf } from "../../knowledge/testing";
import { upgradeSpaceForTest } from "../../plans/testing";
import { type LlmFake, startOpenAiFake } from "../../testing/fakes/llm-openai";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../../testing/harness";
import type { ChatEvent } from "../events";
import { sweepChatFiles } from "./service";

// Files in chat (issue 24) over a real listening server, a real SQLite file with the real
// migrations, the real file store, and an OpenAI fake as the vision model.

/** A 1×1 PNG. */
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cfc0f01f0005000201e2b1f5c80000000049454e44ae426082",
  "hex",
);

let fake: LlmFake;
let ctx: TestContext;
let base: string;
let owner: TestUser;
let stranger: TestUser;
let appCode: string;
let offlineAppCode: string;

beforeAll(async () => {
  fake = await startOpenAiFake();
  ctx = await createTestContext({ OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini,deepseek-chat" });
  await ctx.deps.models.ready();
  base = await ctx.listen();
  owner = await registerUser(ctx, "files-owner@example.com");
  stranger = await registerUser(ctx, "files-stranger@example.com");
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  await upgradeSpaceForTest(ctx, stranger.user.spaceId);
  appCode = (await createAppVia(ctx, owner, { settingsPrompt: "Answer about the files.", defaultModel: "gpt-4.1-mini" })).code;
  offlineAppCode = (await createAppVia(ctx, owner, { defaultModel: "deepseek-chat" })).code;
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(() => fake.reset());

function upload(user: TestUser, fields: Record<string, string>, file: { bytes: Uint8Array; name: string }, path = "/api/v1/chat/files") {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set("file", new Blob([Buffer.from(file.bytes)]), file.name);
  return fetch(`${base}${path}`, { method: "POST", headers: { authorization: `Bearer ${user.token}` }, body: form });
}

async function data<T = any>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (JSON.parse(text) as { data: T }).data;
}

async function refusal(response: Response, status: number) {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const body = JSON.parse(text) as { success: boolean; message: string };
  expect(body.success).toBe(false);
  return body.message;
}

async function events(response: Response): Promise<ChatEvent[]> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return text
    .split("\n\n")
    .map((block) => /^data: (.+)$/m.exec(block)?.[1])
    .filter((line): line is string => Boolean(line))
    .map((line) => JSON.parse(line) as ChatEvent);
}

const ask = (user: TestUser, body: Record<string, unknown>) => ctx.request("/api/v1/chat/stream", { method: "POST", token: user.token, json: body });
const fileCount = async () => (await ctx.deps.db.select({ n: count() }).from(chatFiles).get())?.n ?? 0;

describe("files in a console chat", () => {
  it("sends a PNG as an image part and a PDF's text as a cited reference; history shows both through signed addresses", async () => {
    const image = await data(await upload(owner, { appCode }, { bytes: PNG, name: "screenshot.png" }), 201);
    expect(image).toMatchObject({ kind: "image", mimeType: "image/png", name: "screenshot.png", sizeBytes: PNG.byteLength });
    const pdf = await data(await upload(owner, { appCode }, { bytes: pdfOf("The warranty lasts 27 months from delivery."), name: "warranty.pdf" }), 201);
    expect(pdf).toMatchObject({ kind: "document", mimeType: "application/pdf" });

    fake.reply({ text: "The warranty lasts 27 months [1].", usage: { promptTokens: 900, completionTokens: 9 } });
    const turn = await events(await ask(owner, { appCode, message: "How long is the warranty, and what is in the picture?", fileIds: [image.id, pdf.id] }));
    const request = fake.requests[0]!.body as { messages: Array<{ role: string; content: unknown }> };
    const system = request.messages.find((message) => message.role === "system")!.content as string;
    expect(system).toContain("The warranty lasts 27 months from delivery.");
    expect(system).toContain("[1] warranty.pdf");
    const user = request.messages.at(-1)! as { role: string; content: Array<{ type: string; image_url?: { url: string }; text?: string }> };
    expect(user.role).toBe("user");
    expect(user.content[0]).toEqual({ type: "image_url", image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` } });
    expect(user.content[1]).toEqual({ type: "text", text: "How long is the warranty, and what is in the picture?" });
    expect(turn.find((event) => event.type === "citation")).toMatchObject({ index: 1, source: "warranty.pdf" });
    const start = turn[0] as Extract<ChatEvent, { type: "message-start" }>;
    const record = await ctx.deps.db.select().from(usageRecords).where(eq(usageRecords.messageId, start.messageId)).get();
    expect(record).toMatchObject({ promptTokens: 900, model: "gpt-4.1-mini" });
    expect(record!.credits).toBeGreaterThan(0);

    const history = await data<Array<{ role: string; attachments: Array<{ id: string; url: string }> }>>(
      await ctx.request(`/api/v1/chat/conversations/${start.conversationId}/messages`, { token: owner.token }),
    );
    const asked = history.find((message) => message.role === "user")!;
    expect(asked.attachments.map((file) => file.id)).toEqual([image.id, pdf.id]);
    const bytes = await fetch(`${base}${asked.attachments[0]!.url}`);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await bytes.arrayBuffer()).equals(PNG)).toBe(true);
    const forged = asked.attachments[0]!.url.replace(/signature=([0-9a-f])/, (_, digit: string) => `signature=${digit === "0" ? "1" : "0"}`);
    await refusal(await fetch(`${base}${forged}`), 403);

    // Sent once: the file now belongs to that message and cannot be sent again, by anyone.
    await refusal(await ask(owner, { appCode, message: "Again", fileIds: [image.id] }), 404);
    expect(fake.requests.length).toBe(1);
  });

  it("reads txt, md and docx; cuts a document longer than the model's window with a notice", async () => {
    const docx = await data(await upload(owner, { appCode }, { bytes: docxOf(["Opening hours are 9 to 17."]), name: "hours.docx" }), 201);
    const markdown = await data(await upload(owner, { appCode }, { bytes: new TextEncoder().encode("# Menu\nSoup of the day"), name: "menu.md" }), 201);
    expect(markdown.mimeType).toBe("text/markdown");
    fake.reply("Noted.");
    await events(await ask(owner, { appCode, message: "", fileIds: [docx.id, markdown.id] }));
    const system = (fake.requests[0]!.body.messages as Array<{ role: string; content: string }>)[0]!.content;
    expect(system).toContain("Opening hours are 9 to 17.");
    expect(system).toContain("Soup of the day");

    // deepseek-chat reads no images and has a 128k window: 600k characters of text do not fit.
    const long = await data(
      await upload(owner, { appCode: offlineAppCode }, { bytes: new TextEncoder().encode("lorem ipsum ".repeat(50_000)), name: "long.txt" }),
      201,
    );
    fake.reply("Long.");
    await events(await ask(owner, { appCode: offlineAppCode, message: "Summarise", fileIds: [long.id] }));
    const cut = (fake.requests[1]!.body.messages as Array<{ role: string; content: string }>)[0]!.content;
    expect(cut).toMatch(/Only the first \d+% of this file fits the model's context window/);
    expect(cut.length).toBeLessThan(600_000);
  });

  it("refuses images for a model that reads none, before anything is stored or called", async () => {
    const image = await data(await upload(owner, { appCode: offlineAppCode }, { bytes: PNG, name: "a.png" }), 201);
    const before = (await ctx.deps.db.select({ n: count() }).from(messages).get())?.n;
    const message = await refusal(await ask(owner, { appCode: offlineAppCode, message: "What is this?", fileIds: [image.id] }), 400);
    expect(message).toContain("deepseek-chat does not read images");
    expect((await ctx.deps.db.select({ n: count() }).from(messages).get())?.n).toBe(before);
    expect(fake.requests.length).toBe(0);
  });

  it("refuses bad files by their bytes and limits, storing nothing", async () => {
    const before = await fileCount();
    const executable = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]);
    expect(await refusal(await upload(owner, { appCode }, { bytes: executable, name: "cat.png" }), 415)).toContain("JPEG and PNG");
    const big = Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024, 1)]);
    expect(await refusal(await upload(owner, { appCode }, { bytes: big, name: "big.png" }), 413)).toContain("5 MB");
    await refusal(
      await upload(owner, { appCode }, { bytes: Buffer.concat([Buffer.from("%PDF-"), Buffer.alloc(16 * 1024 * 1024, 0x20)]), name: "huge.pdf" }),
      413,
    );
    expect(await refusal(await upload(owner, { appCode }, { bytes: Buffer.from([0xc3, 0x28, 0x41]), name: "latin.txt" }), 400)).toMatch(/UTF-8/);
    await refusal(await upload(owner, { appCode }, { bytes: Buffer.from("%PDF-1.4 not really"), name: "broken.pdf" }), 400);
    expect(await refusal(await upload(owner, { appCode }, { bytes: await pdfBomb(), name: "bomb.pdf" }), 400)).toContain("unpacks to more than 200 MB");
    // Another space's app, and an unknown conversation.
    await refusal(await upload(stranger, { appCode }, { bytes: PNG, name: "a.png" }), 404);
    await refusal(await upload(owner, { appCode, conversationId: "conv_nope" }, { bytes: PNG, name: "a.png" }), 400);
    expect(await fileCount()).toBe(before);
    expect((await ctx.deps.files.list("chat-files/")).length).toBe(before);
  });

  it("keeps each person's files to themselves: another member cannot send them", async () => {
    const mine = await data(await upload(owner, { appCode }, { bytes: PNG, name: "mine.png" }), 201);
    const otherApp = (await createAppVia(ctx, stranger, { defaultModel: "gpt-4.1-mini" })).code;
    await refusal(await ask(stranger, { appCode: otherApp, message: "Look", fileIds: [mine.id] }), 404);
    await refusal(await ask(owner, { appCode: offlineAppCode, message: "Look", fileIds: [mine.id] }), 404);
    expect(fake.requests.length).toBe(0);
  });
});

describe("files in the widget", () => {
  it("a visitor uploads a PNG and sends it; the answer sees it and the history shows it", async () => {
    const app = await createAppVia(ctx, owner, { defaultModel: "gpt-4.1-mini" });
    const client = await data<{ id: string }>(
      await ctx.request("/api/v1/web-clients", { method: "POST", token: owner.token, json: { appId: app.id, name: "Files widget" } }),
      201,
    );
    const visitor = await startVisitor(ctx, client.id);
    const form = new FormData();
    form.set("file", new Blob([PNG]), "photo.png");
    const path = `/api/v1/widget/${client.id}/sessions/${visitor.widgetSessionId}`;
    const file = await data(
      await fetch(`${base}${path}/files`, { method: "POST", headers: { authorization: `Bearer ${visitor.visitorToken}` }, body: form }),
      201,
    );
    fake.reply("A small picture.");
    const sent = await fetch(`${base}${path}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${visitor.visitorToken}`, "content-type": "application/json" },
      body: JSON.stringify({ content: "", fileIds: [file.id] }),
    });
    expect((await events(sent)).some((event) => event.type === "message-end")).toBe(true);
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain("data:image/png;base64,");
    const history = await data<{ items: Array<{ role: string; attachments: Array<{ id: string }> }> }>(
      await fetch(`${base}${path}/messages`, { headers: { authorization: `Bearer ${visitor.visitorToken}` } }),
    );
    expect(history.items[0]!.attachments.map((attachment) => attachment.id)).toEqual([file.id]);
    // Empty text and no files is still refused.
    const empty = await fetch(`${base}${path}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${visitor.visitorToken}`, "content-type": "application/json" },
      body: JSON.stringify({ content: "  " }),
    });
    expect(empty.status).toBe(400);
  });
});

describe("image_url parts on the OpenAI-compatible API", () => {
  it("the official openai client sends a data URL image and the model receives it; loopback addresses are refused", async () => {
    const created = await data<{ key: string }>(
      await ctx.request("/api/v1/me/api-keys", { method: "POST", token: owner.token, json: { name: "vision" } }),
      201,
    );
    const client = new OpenAI({ apiKey: created.key, baseURL: `${base}/v1`, maxRetries: 0 });
    fake.reply("A pixel.");
    const dataUrl = `data:image/png;base64,${PNG.toString("base64")}`;
    const completion = await client.chat.completions.create({
      model: appCode,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is this?" },
            { type: "image_url", image_url: { url: dataUrl } },
          ],
        },
      ],
    });
    expect(completion.choices[0]?.message.content).toBe("A pixel.");
    const user = (fake.requests[0]!.body.messages as Array<{ role: string; content: unknown }>).at(-1)!;
    expect(user.content).toEqual([
      { type: "image_url", image_url: { url: dataUrl } },
      { type: "text", text: "What is this?" },
    ]);
    const refused = await client.chat.completions
      .create({ model: appCode, messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: `${fake.origin}/secret.png` } }] }] })
      .catch((error: unknown) => error as { status: number; code: string; param: string });
    expect(refused).toMatchObject({ status: 400, code: "invalid_image_url", param: "messages.0.content.0.image_url.url" });
    const notImage = await client.chat.completions
      .create({ model: appCode, messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: "data:image/png;base64,aGVsbG8=" } }] }] })
      .catch((error: unknown) => error as { status: number; code: string });
    expect(notImage).toMatchObject({ status: 400, code: "invalid_image_url" });
    expect(fake.requests.length).toBe(1);
  });
});

describe("public assets", () => {
  it("stores a PNG avatar served publicly; refuses what is not an image", async () => {
    const form = new FormData();
    form.set("file", new Blob([PNG]), "avatar.png");
    const asset = await data<{ url: string }>(
      await fetch(`${base}/api/v1/assets`, { method: "POST", headers: { authorization: `Bearer ${owner.token}` }, body: form }),
      201,
    );
    const served = await fetch(`${base}${asset.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("cache-control")).toContain("immutable");
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    const before = (await ctx.deps.db.select({ n: count() }).from(publicAssets).get())?.n;
    const pdf = new FormData();
    pdf.set("file", new Blob([Buffer.from(pdfOf("x"))]), "avatar.png");
    await refusal(await fetch(`${base}/api/v1/assets`, { method: "POST", headers: { authorization: `Bearer ${owner.token}` }, body: pdf }), 415);
    expect((await ctx.deps.db.select({ n: count() }).from(publicAssets).get())?.n).toBe(before);
  });
});

/** A small PDF whose one stream inflates to 300 MB of zeros (made without holding 300 MB). */
async function pdfBomb(): Promise<Uint8Array> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on("data", (chunk: Buffer) => parts.push(chunk));
  const done = new Promise((resolve) => deflate.on("end", resolve));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let index = 0; index < 300; index++) deflate.write(zeros);
  deflate.end();
  await done;
  const stream = Buffer.concat(parts);
  const head = Buffer.from(`%PDF-1.4\n1 0 obj\n<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`);
  return Buffer.concat([head, stream, Buffer.from("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n")]);
}

describe("the sweep", () => {
  it("removes uploads never sent after a day, and bytes whose row is gone; keeps sent files", async () => {
    const unsent = await data(await upload(owner, { appCode }, { bytes: PNG, name: "unsent.png" }), 201);
    await ctx.deps.files.put(`chat-files/${owner.user.spaceId}/cf_orphan`, PNG);
    const sent = (await ctx.deps.db.select().from(chatFiles).all()).filter((row) => row.messageId !== null);
    expect(sent.length).toBeGreaterThan(0);
    const later = { ...ctx.deps, now: () => new Date(Date.now() + 25 * 3_600_000) };
    const unsentRows = (await ctx.deps.db.select().from(chatFiles).all()).filter((row) => row.messageId === null).length;
    expect(await sweepChatFiles(later)).toBe(unsentRows + 1);
    expect((await ctx.deps.db.select().from(chatFiles).all()).every((row) => row.messageId !== null)).toBe(true);
    expect(await ctx.deps.db.select().from(chatFiles).where(eq(chatFiles.id, unsent.id)).get()).toBeUndefined();
    const left = await ctx.deps.files.list("chat-files/");
    expect(left).not.toContain(`chat-files/${owner.user.spaceId}/cf_orphan`);
    for (const row of sent) expect(left).toContain(row.storageKey);
  });
});
