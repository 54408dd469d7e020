import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { appendLedger, balanceOf } from "../billing/service/ledger";
import { keyValues, usageRecords, users } from "../db/schema/index";
import { modelProviderSchema } from "../models/schemas";
import { upgradeSpaceForTest } from "../plans/testing";
import { capturingLogger, expectError, expectOk } from "../testing/flows";
import { startTranscriptionFake, type TranscriptionFake } from "../testing/fakes/transcription";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { sniffAudio, toneWav } from "./audio";
import { speechMessages } from "./messages";
import { transcriptionSchema } from "./schemas";

// Speech input (issue 21, part 2): recordings checked (audio by their bytes, size, duration)
// before a real local OpenAI-compatible server transcribes them; credits per audio minute.
const KEY = "sk-whisper-0123456789abcdef";
let fake: TranscriptionFake;
let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;
let appId: string;
const logger = capturingLogger();

const form = (bytes: Uint8Array, fields: Record<string, string> = {}, name = "speech.wav") => {
  const body = new FormData();
  body.append("file", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "audio/wav" }), name);
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  return body;
};
const transcribe = (user: TestUser | undefined, bytes: Uint8Array, headers: Record<string, string> = {}) =>
  ctx.request("/api/v1/chat/transcriptions", { method: "POST", ...(user ? { token: user.token } : {}), body: form(bytes), headers });
const usage = (spaceId: string) =>
  ctx.deps.db
    .select()
    .from(usageRecords)
    .where(and(eq(usageRecords.spaceId, spaceId), like(usageRecords.model, "transcription:%")))
    .all();
const liveHolds = async () => {
  const rows = await ctx.deps.db.select().from(keyValues).where(like(keyValues.key, "credit-hold:%")).all();
  return rows.map((row) => JSON.parse(row.value) as { amount: number });
};
// The holds live while the provider is transcribing.
const heldDuringCall: Array<Array<{ amount: number }>> = [];

beforeAll(async () => {
  fake = await startTranscriptionFake({
    apiKey: KEY,
    transcript: (request) => `What does shipping cost? (${request.container})`,
    beforeAnswer: async () => void heldDuringCall.push(await liveHolds()),
  });
  ctx = await createTestContext({ PARLEY_PLUGINS_ALLOWED_HOSTS: new URL(fake.url).host }, { logger });
  owner = await registerUser(ctx, "speech-owner@example.com");
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  await ctx.deps.db.update(users).set({ isInstanceOwner: true }).where(eq(users.id, owner.user.id));
  stranger = await registerUser(ctx, "speech-stranger@example.com");
  appId = (await createAppVia(ctx, owner, { name: "Shop bot" })).id;
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

describe("audio sniffing", () => {
  it("knows WebM, Ogg, WAV, MP3 and MP4 by their first bytes and nothing else", () => {
    const pad = (head: number[] | string) => {
      const bytes = new Uint8Array(16);
      bytes.set(typeof head === "string" ? [...head].map((char) => char.charCodeAt(0)) : head);
      return bytes;
    };
    expect(sniffAudio(pad([0x1a, 0x45, 0xdf, 0xa3]))?.container).toBe("webm");
    expect(sniffAudio(pad("OggS"))?.container).toBe("ogg");
    expect(sniffAudio(toneWav(0.1))?.container).toBe("wav");
    expect(sniffAudio(pad("ID3"))?.container).toBe("mp3");
    expect(sniffAudio(pad([0xff, 0xfb, 0x90, 0x64]))?.container).toBe("mp3");
    expect(sniffAudio(pad("\0\0\0\x20ftypM4A "))?.mimeType).toBe("audio/mp4");
    expect(sniffAudio(pad("%PDF-1.7"))).toBeUndefined();
    expect(sniffAudio(pad("RIFF\0\0\0\0AVI "))).toBeUndefined();
    expect(sniffAudio(new Uint8Array(4))).toBeUndefined();
  });
});

describe("speech input without a transcription model", () => {
  it("lists none, shows no widget microphone, and refuses a recording in en and zh without charging", async () => {
    const models = await ctx.request("/api/v1/transcription-models", { token: owner.token });
    expect(((await models.json()) as { data: unknown[] }).data).toEqual([]);
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    await expectError(await transcribe(owner, toneWav(1)), 409, { message: speechMessages.speech_no_model.en });
    await expectError(await transcribe(owner, toneWav(1), { "accept-language": "zh-CN" }), 409, { message: speechMessages.speech_no_model["zh-CN"] });
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before);
    expect(fake.requests).toHaveLength(0);
  });
});

describe("speech input with a transcription model", () => {
  beforeAll(async () => {
    const created = await ctx.request("/api/v1/model-providers", {
      method: "POST",
      token: owner.token,
      json: { kind: "openai-compatible", name: "Whisper", baseUrl: fake.url, apiKey: KEY, models: [], transcriptionModels: ["whisper-1"] },
    });
    const provider = await expectOk(created, 201, modelProviderSchema);
    expect(provider.transcriptionModels).toEqual(["whisper-1"]);
  });

  it("lists the model with its price per minute to any member", async () => {
    const response = await ctx.request("/api/v1/transcription-models", { token: stranger.token });
    expect(((await response.json()) as { data: unknown[] }).data).toEqual([
      { id: "whisper-1", providerId: expect.stringMatching(/^mp_/), providerName: "Whisper", creditsPerMinute: 60 },
    ]);
  });

  it("needs a signed-in caller", async () => {
    await expectError(await transcribe(undefined, toneWav(1)), 401);
  });

  it("transcribes a recording, charges its minutes (held, then settled) and leaves a usage record", async () => {
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const result = await expectOk(await transcribe(owner, toneWav(2.5)), 200, transcriptionSchema);
    // 2.5 s at 60 credits a minute: 2.5 credits, rounded up.
    expect(result).toEqual({ text: "What does shipping cost? (wav)", model: "whisper-1", durationSeconds: 2.5, credits: 3 });
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before - 3);
    expect(heldDuringCall.at(-1)).toMatchObject([{ amount: 3 }]);
    expect(await liveHolds()).toEqual([]);
    expect(fake.requests.at(-1)).toMatchObject({
      authorization: `Bearer ${KEY}`,
      model: "whisper-1",
      responseFormat: "json",
      container: "wav",
      fileName: "speech.wav",
    });
    const records = await usage(owner.user.spaceId);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ model: "transcription:whisper-1", answer: "What does shipping cost? (wav)", credits: 3, channel: "web" });
  });

  it("refuses what is not audio, an empty file, an hour-long file and a missing file before any provider call, in en and zh, charging nothing", async () => {
    const calls = fake.requests.length;
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const text = new TextEncoder().encode("This is a text file pretending to be a recording.");
    await expectError(await transcribe(owner, text), 400, { field: "file", message: speechMessages.speech_not_audio.en });
    await expectError(await transcribe(owner, text, { "accept-language": "zh-CN" }), 400, { message: speechMessages.speech_not_audio["zh-CN"] });
    await expectError(await transcribe(owner, new Uint8Array(0)), 400, { message: speechMessages.speech_empty.en });
    // An hour of 1 kHz audio: 7.2 MB, under the size limit, far over the duration limit.
    await expectError(await transcribe(owner, toneWav(3600, 1000)), 400, { message: "The recording is 3600 s long; speech input takes at most 10 minutes" });
    await expectError(await transcribe(owner, toneWav(3600, 1000), { "accept-language": "zh-CN" }), 400, { message: "录音时长 3600 秒，语音输入最长 10 分钟" });
    // A WAV whose header is cut off: audio by its first bytes, but no readable length.
    await expectError(await transcribe(owner, toneWav(1).subarray(0, 20)), 400, { message: speechMessages.speech_duration_unknown.en });
    const missing = new FormData();
    missing.append("language", "en");
    await expectError(await ctx.request("/api/v1/chat/transcriptions", { method: "POST", token: owner.token, body: missing }), 400, { field: "file" });
    const json = await ctx.request("/api/v1/chat/transcriptions", { method: "POST", token: owner.token, json: { file: "x" } });
    expect(json.status).toBe(415);
    expect(fake.requests.length).toBe(calls);
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before);
    expect(await usage(owner.user.spaceId)).toHaveLength(1);
  });

  it("refuses a file over 15 MB", async () => {
    const big = new Uint8Array(16 * 1024 * 1024);
    big.set(toneWav(0.1).subarray(0, 44));
    const response = await transcribe(owner, big);
    expect(response.status).toBe(413);
  });

  it("releases the hold and charges nothing when the provider fails", async () => {
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    fake.setMode("fail");
    try {
      await expectError(await transcribe(owner, toneWav(1)), 502, { message: speechMessages.speech_failed.en });
    } finally {
      fake.setMode("ok");
    }
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before);
    expect(await liveHolds()).toEqual([]);
    expect(await usage(owner.user.spaceId)).toHaveLength(1);
    expect(logger.lines.some((line) => line.startsWith("warn transcription failed"))).toBe(true);
  });

  it("refuses with 870 when the space's credits do not cover the minutes", async () => {
    const balance = await balanceOf(ctx.deps, stranger.user.spaceId);
    await appendLedger(ctx.deps, { spaceId: stranger.user.spaceId, delta: 1 - balance, reason: "grant", reference: "test" });
    const calls = fake.requests.length;
    await expectError(await transcribe(stranger, toneWav(5)), 402, { code: 870 });
    expect(fake.requests.length).toBe(calls);
    expect(await balanceOf(ctx.deps, stranger.user.spaceId)).toBe(1);
  });

  it("serves the widget with the visitor's session token; the client's space pays and the record names its app", async () => {
    const client = (await (await ctx.request("/api/v1/web-clients", { method: "POST", token: owner.token, json: { appId, name: "Shop widget" } })).json()) as {
      data: { id: string };
    };
    const config = (await (await ctx.request(`/api/v1/widget/${client.data.id}/config`)).json()) as { data: { speechInput: boolean } };
    expect(config.data.speechInput).toBe(true);
    const session = (await (await ctx.request(`/api/v1/widget/${client.data.id}/sessions`, { method: "POST", json: {} })).json()) as {
      data: { sessionId: string; visitorToken: string };
    };
    const path = `/api/v1/widget/${client.data.id}/sessions/${session.data.sessionId}/transcriptions`;
    await expectError(await ctx.request(path, { method: "POST", body: form(toneWav(1)) }), 401);
    await expectError(await ctx.request(path, { method: "POST", body: form(toneWav(1)), headers: { authorization: "Bearer wrong" } }), 401);
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const result = await expectOk(
      await ctx.request(path, { method: "POST", body: form(toneWav(1)), headers: { authorization: `Bearer ${session.data.visitorToken}` } }),
      200,
      transcriptionSchema,
    );
    expect(result).toMatchObject({ text: "What does shipping cost? (wav)", credits: 1 });
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before - 1);
    const record = (await usage(owner.user.spaceId)).find((row) => row.channel === "web-embed");
    expect(record).toMatchObject({ appId, credits: 1 });
    expect(record?.endUserId).toMatch(/^web:/);
  });
});
