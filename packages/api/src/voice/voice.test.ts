import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia, validAppBody } from "../apps/testing";
import { appSeniorSchema } from "../apps/schemas";
import { availableBalance } from "../billing/service/holds";
import { balanceOf } from "../billing/service/ledger";
import { usageRecords, users } from "../db/schema/index";
import { modelProviderSchema } from "../models/schemas";
import { expectError, expectOk } from "../testing/flows";
import { type SpeechFake, startSpeechFake } from "../testing/fakes/speech";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { speechModelSchema, toneSchema } from "./schemas";
import { DEMO_SENTENCES } from "./service/voice";

// Text to speech (issue 21): speech models on model providers, read aloud through two local
// servers speaking OpenAI's /audio/speech and Azure Speech REST, charged per character.
const OPENAI_KEY = "sk-speech-0123456789";
const AZURE_KEY = "az-speech-0123456789";
let openai: SpeechFake;
let azure: SpeechFake;
let ctx: TestContext;
let offlineCtx: TestContext;
let owner: TestUser;
let stranger: TestUser;
let appCode: string;
let appId: string;

beforeAll(async () => {
  openai = await startSpeechFake({ format: "openai", apiKey: OPENAI_KEY, voices: ["alloy", "nova"], chunkDelayMs: 5 });
  azure = await startSpeechFake({ format: "azure", apiKey: AZURE_KEY, chunkDelayMs: 5 });
  ctx = await createTestContext({ PARLEY_PLUGINS_ALLOWED_HOSTS: [new URL(openai.url).host, new URL(azure.url).host].join(",") });
  offlineCtx = await createTestContext();
  owner = await registerUser(ctx, "voice-owner@example.com");
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  await ctx.deps.db.update(users).set({ isInstanceOwner: true }).where(eq(users.id, owner.user.id));
  stranger = await registerUser(ctx, "voice-stranger@example.com");
  const provider = (json: Record<string, unknown>) =>
    ctx.request("/api/v1/model-providers", { method: "POST", token: owner.token, json }).then((response) => expectOk(response, 201, modelProviderSchema));
  await provider({
    kind: "openai-compatible",
    name: "OpenAI-like",
    baseUrl: openai.url,
    apiKey: OPENAI_KEY,
    models: [],
    speechModels: ["tts-1"],
    speechVoices: ["alloy", "nova"],
  });
  await provider({
    kind: "openai-compatible",
    name: "Azure",
    baseUrl: azure.url,
    apiKey: AZURE_KEY,
    models: [],
    speechModels: ["azure-neural"],
    speechFormat: "azure",
  });
  const app = await createAppVia(ctx, owner, { voiceModel: "tts-1", voice: "nova" });
  appCode = app.code;
  appId = app.id;
});
afterAll(async () => {
  await ctx.close();
  await offlineCtx.close();
  await openai.close();
  await azure.close();
});

const speak = (path: "stream" | "read", json: Record<string, unknown>, token = owner.token, headers: Record<string, string> = {}) =>
  ctx.request(`/api/v1/voice/${path}`, { method: "POST", token, json, headers });

describe("speech models and tones", () => {
  it("lists the speech models with their price and each model's tones", async () => {
    const models = await expectOk(await ctx.request("/api/v1/speech-models", { token: stranger.token }), 200, z.array(speechModelSchema));
    expect(models.map((model) => [model.id, model.format, model.creditsPerThousandChars])).toEqual([
      ["tts-1", "openai", 150],
      ["azure-neural", "azure", 150],
    ]);
    const openaiTones = await expectOk(await ctx.request("/api/v1/voice/tones?model=tts-1", { token: owner.token }), 200, z.array(toneSchema));
    expect(openaiTones.map((tone) => tone.id)).toEqual(["alloy", "nova"]);
    const azureTones = await expectOk(await ctx.request("/api/v1/voice/tones?model=azure-neural", { token: owner.token }), 200, z.array(toneSchema));
    expect(azureTones.map((tone) => tone.id)).toEqual(["en-US-JennyNeural", "zh-CN-XiaoxiaoNeural"]);
    // Cached: a second listing does not ask Azure again.
    const calls = azure.voiceListCalls;
    await ctx.request("/api/v1/voice/tones?model=azure-neural", { token: owner.token });
    expect(azure.voiceListCalls).toBe(calls);
    await expectError(await ctx.request("/api/v1/voice/tones?model=nope", { token: owner.token }), 400, { field: "model", message: /nope/ });
    await expectError(await ctx.request("/api/v1/voice/tones?model=tts-1"), 401);
  });

  it("says where to configure speech when no provider serves any", async () => {
    const user = await registerUser(offlineCtx, "voice-offline@example.com");
    expect(await expectOk(await offlineCtx.request("/api/v1/speech-models", { token: user.token }), 200, z.array(speechModelSchema))).toEqual([]);
    await expectError(await offlineCtx.request("/api/v1/voice/tones?model=tts-1", { token: user.token, headers: { "accept-language": "zh-CN" } }), 400, {
      message: /API 接入 → 模型/,
    });
    const app = await createAppVia(offlineCtx, user);
    await expectError(
      await offlineCtx.request("/api/v1/voice/stream", { method: "POST", token: user.token, json: { appCode: app.code, text: "Hello" } }),
      400,
      {
        field: "voice",
        message: /API access → Models/,
      },
    );
  });

  it("synthesizes a demo once per tone and language, then serves it from memory, free", async () => {
    const balance = await balanceOf(ctx.deps, owner.user.spaceId);
    const first = await ctx.request("/api/v1/voice/demo?model=azure-neural&tone=zh-CN-XiaoxiaoNeural", {
      token: owner.token,
      headers: { "accept-language": "zh-CN" },
    });
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("audio/mpeg");
    const bytes = new Uint8Array(await first.arrayBuffer());
    expect(bytes[0]).toBe(0xff);
    const synthesized = azure.requests.filter((request) => request.text === DEMO_SENTENCES["zh-CN"]).length;
    expect(synthesized).toBe(1);
    const again = await ctx.request("/api/v1/voice/demo?model=azure-neural&tone=zh-CN-XiaoxiaoNeural", {
      token: owner.token,
      headers: { "accept-language": "zh-CN" },
    });
    expect(new Uint8Array(await again.arrayBuffer())).toEqual(bytes);
    expect(azure.requests.filter((request) => request.text === DEMO_SENTENCES["zh-CN"]).length).toBe(1);
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(balance);
    await expectError(await ctx.request("/api/v1/voice/demo?model=azure-neural&tone=xx-Nobody", { token: owner.token }), 400, { field: "tone" });
  });
});

describe("the app's voice setting", () => {
  it("stores a served model and one of its tones", async () => {
    const app = await createAppVia(ctx, owner, { voiceModel: "azure-neural", voice: "en-US-JennyNeural" });
    expect([app.voiceModel, app.voice]).toEqual(["azure-neural", "en-US-JennyNeural"]);
    const cleared = await expectOk(
      await ctx.request(`/api/v1/apps/${app.id}`, { method: "PATCH", token: owner.token, json: { voice: null, voiceModel: null } }),
      200,
      appSeniorSchema,
    );
    expect([cleared.voiceModel, cleared.voice]).toEqual([null, null]);
  });

  it("refuses an unknown tone or model and a tone without a model, changing nothing", async () => {
    const patch = (json: Record<string, unknown>, language = "en") =>
      ctx.request(`/api/v1/apps/${appId}`, { method: "PATCH", token: owner.token, json, headers: { "accept-language": language } });
    await expectError(await patch({ voice: "robot" }), 400, { field: "voice", message: "Speech model tts-1 has no tone robot" });
    await expectError(await patch({ voice: "robot" }, "zh-CN"), 400, { field: "voice", message: "语音模型 tts-1 没有音色 robot" });
    await expectError(await patch({ voiceModel: "nope" }), 400, { field: "voiceModel", message: /nope/ });
    await expectError(await createAppResponse({ voice: "nova" }), 400, { field: "voiceModel" });
    await expectError(await createAppResponse({ voiceModel: "tts-1" }), 400, { field: "voice" });
    const detail = await expectOk(await ctx.request(`/api/v1/apps/${appId}/senior`, { token: owner.token }), 200, appSeniorSchema);
    expect([detail.voiceModel, detail.voice]).toEqual(["tts-1", "nova"]);
  });

  it("tells the chat page and the widget that the app reads aloud", async () => {
    const view = await ctx.request(`/api/v1/chat/apps/${appCode}`, { token: owner.token }).then((response) => response.json());
    expect(view.data.voice).toBe(true);
    const silent = await createAppVia(ctx, owner);
    const silentView = await ctx.request(`/api/v1/chat/apps/${silent.code}`, { token: owner.token }).then((response) => response.json());
    expect(silentView.data.voice).toBe(false);
  });
});

function createAppResponse(overrides: Record<string, unknown>) {
  return ctx.request("/api/v1/apps", {
    method: "POST",
    token: owner.token,
    json: validAppBody(overrides),
  });
}

describe("reading aloud", () => {
  it("streams the audio before it is complete, holding the credits until the end, then settles and records", async () => {
    const text = "Shipping takes three days and returns are free within thirty days.";
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const response = await speak("stream", { appCode, text });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("audio/mpeg");
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.value![0]).toBe(0xff);
    const record = openai.requests.at(-1)!;
    expect(record).toMatchObject({ text, voice: "nova" });
    // The first audio arrived while the provider was still producing the rest; the credits are held, not charged.
    expect(record.finished).toBe(false);
    const credits = Math.ceil((text.length * 15) / 100);
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before);
    expect(await availableBalance(ctx.deps, owner.user.spaceId)).toBe(before - credits);
    let total = first.value!.length;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
    }
    expect(total).toBe(record.bytesSent);
    await expect.poll(() => balanceOf(ctx.deps, owner.user.spaceId)).toBe(before - credits);
    expect(await availableBalance(ctx.deps, owner.user.spaceId)).toBe(before - credits);
    const rows = await ctx.deps.db.select().from(usageRecords).where(eq(usageRecords.model, "speech:tts-1")).all();
    expect(rows.at(-1)).toMatchObject({ appId, prompt: text, credits, promptTokens: text.length, spaceId: owner.user.spaceId });
  });

  it("answers the whole file on read, with another tone of the model", async () => {
    const response = await speak("read", { appCode, text: "Hello", tone: "alloy" });
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(bytes.length);
    expect(bytes.length).toBe(openai.requests.at(-1)!.bytesSent);
    expect(openai.requests.at(-1)).toMatchObject({ text: "Hello", voice: "alloy", finished: true });
  });

  it("refuses empty, too long, an unknown tone, an app without a voice and a stranger's app, charging nothing", async () => {
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const sent = openai.requests.length;
    const records = (await ctx.deps.db.select().from(usageRecords).all()).length;
    await expectError(await speak("stream", { appCode, text: "   " }), 400, { field: "text", message: "Write the text to read aloud" });
    await expectError(await speak("read", { appCode, text: "x".repeat(100_000) }, owner.token, { "accept-language": "zh-CN" }), 400, {
      field: "text",
      message: "每次最多朗读 4096 个字符",
    });
    await expectError(await speak("stream", { appCode, text: "x".repeat(4097) }), 400, { field: "text" });
    await expectError(await speak("stream", { appCode, text: "Hi", tone: "robot" }), 400, { field: "tone", message: /no tone robot/ });
    const silent = await createAppVia(ctx, owner);
    await expectError(await speak("stream", { appCode: silent.code, text: "Hi" }), 400, { field: "voice", message: /has no voice/ });
    await expectError(await speak("stream", { appCode, text: "Hi" }, stranger.token), 404);
    await expectError(await speak("stream", { appCode, text: "Hi" }, ""), 401);
    expect(openai.requests.length).toBe(sent);
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before);
    expect((await ctx.deps.db.select().from(usageRecords).all()).length).toBe(records);
  });

  it("releases the hold when the provider fails and answers an envelope", async () => {
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    openai.setMode("fail");
    try {
      await expectError(await speak("stream", { appCode, text: "Hello" }), 502, { message: /could not read this aloud/ });
    } finally {
      openai.setMode("ok");
    }
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before);
    expect(await availableBalance(ctx.deps, owner.user.spaceId)).toBe(before);
  });

  it("reads aloud for a widget visitor with the session's token", async () => {
    const client = await ctx
      .request("/api/v1/web-clients", { method: "POST", token: owner.token, json: { appId, name: "Voice widget" } })
      .then((response) => response.json() as Promise<{ data: { id: string } }>);
    const clientId = client.data.id;
    const config = await ctx.request(`/api/v1/widget/${clientId}/config`).then((response) => response.json());
    expect(config.data.voice).toBe(true);
    const session = await ctx
      .request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", json: { visitorId: "v-voice", language: "en" } })
      .then((response) => response.json() as Promise<{ data: { sessionId: string; visitorToken: string } }>);
    const path = `/api/v1/widget/${clientId}/sessions/${session.data.sessionId}/voice/stream`;
    await expectError(await ctx.request(path, { method: "POST", json: { text: "Hi" } }), 401);
    const response = await ctx.request(path, {
      method: "POST",
      json: { text: "Welcome to the shop" },
      headers: { authorization: `Bearer ${session.data.visitorToken}` },
    });
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())[0]).toBe(0xff);
    const rows = await ctx.deps.db.select().from(usageRecords).where(eq(usageRecords.prompt, "Welcome to the shop")).all();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.channel).toBe("web-embed");
  });
});
