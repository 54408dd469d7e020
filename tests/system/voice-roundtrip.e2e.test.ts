import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toneWav } from "../../packages/api/src/speech/audio";
import { type LlmFake, startOpenAiFake } from "../../packages/api/src/testing/fakes/llm-openai";
import { type SpeechFake, startSpeechFake } from "../../packages/api/src/testing/fakes/speech";
import { startTranscriptionFake, type TranscriptionFake } from "../../packages/api/src/testing/fakes/transcription";
import { launchBrowser } from "./browser";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

// Issue 21's acceptance in one visit: a visitor speaks into the widget (Chromium's fake microphone
// plays a WAV), the recording is transcribed by a local OpenAI-compatible /audio/transcriptions
// server, the question goes to the model, and the answer is read aloud through a local
// /audio/speech server into the page's <audio> element.
const ownerKey = "pk_e2e_voice_roundtrip_owner_01234";
const providerKey = "sk-e2e-voice-roundtrip-0123456789";
const QUESTION = "Can I return shoes after thirty days?";
const ANSWER = "Yes, within sixty days if they are unworn.";
let parley: ParleyProcess;
let browser: Browser;
let llm: LlmFake;
let speech: SpeechFake;
let transcription: TranscriptionFake;
let site: http.Server;
let siteUrl: string;

beforeAll(async () => {
  const wavPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "parley-voice-roundtrip-")), "question.wav");
  fs.writeFileSync(wavPath, toneWav(4, 48_000));
  [llm, speech, transcription] = await Promise.all([
    startOpenAiFake(),
    startSpeechFake({ format: "openai", apiKey: providerKey, chunkDelayMs: 30 }),
    startTranscriptionFake({ apiKey: providerKey, transcript: () => QUESTION }),
  ]);
  const hosts = [speech.url, transcription.url].map((url) => new URL(url).host).join(",");
  [parley, browser] = await Promise.all([
    startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, OPENAI_API_KEY: "sk-e2e", OPENAI_BASE_URL: llm.url, PARLEY_PLUGINS_ALLOWED_HOSTS: hosts }),
    launchBrowser({ microphone: wavPath }),
  ]);
  site = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html><body><h1>Shoes</h1><script src="${parley.url}/widget.js" data-client-id="demo"></script></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await Promise.all([llm?.close(), speech?.close(), transcription?.close()]);
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
});

describe("voice round trip in the widget", () => {
  it("speak into the widget → the question is transcribed and sent → the answer is read aloud", async () => {
    const owner = (method: string, pathname: string, body?: unknown) => apiCall(parley.url, ownerKey, method, pathname, body);
    // One provider serving both audio directions, as an OpenAI account does.
    await owner("POST", "/api/v1/model-providers", {
      kind: "openai-compatible",
      name: "Audio",
      baseUrl: speech.url,
      apiKey: providerKey,
      models: [],
      speechModels: ["tts-1"],
      speechVoices: ["alloy", "nova"],
    });
    await owner("POST", "/api/v1/model-providers", {
      kind: "openai-compatible",
      name: "Whisper",
      baseUrl: transcription.url,
      apiKey: providerKey,
      models: [],
      transcriptionModels: ["whisper-1"],
    });
    const demo = await owner("GET", "/api/v1/web-clients/demo");
    await owner("PATCH", `/api/v1/apps/${demo.appId}`, { voiceModel: "tts-1", voice: "alloy" });
    llm.reply(ANSWER);

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${siteUrl}/?voice=true`);
    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.getByRole("button", { name: "Read answers aloud" }).getAttribute("aria-pressed")).toBe("true");

    // Speak: record about a second of the fake microphone, then stop.
    await dialog.getByRole("button", { name: "Speak your question" }).click();
    const stop = dialog.getByRole("button", { name: "Stop recording" });
    await expect.poll(() => stop.innerText(), { timeout: 5_000 }).toMatch(/0:0[1-9]/);
    await stop.click();
    await expect.poll(() => dialog.getByRole("textbox").inputValue()).toBe(QUESTION);
    expect(transcription.requests).toHaveLength(1);
    expect(["webm", "ogg"]).toContain(transcription.requests[0]!.container);

    // Send: the model gets the transcribed question, and its answer is read aloud.
    await dialog.getByRole("textbox").press("Enter");
    await expect.poll(() => llm.requests.length).toBeGreaterThan(0);
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain(QUESTION);
    await expect.poll(() => speech.requests.length, { timeout: 20_000 }).toBe(1);
    expect(speech.requests[0]).toMatchObject({ text: ANSWER, voice: "alloy" });
    await expect.poll(() => speech.requests[0]!.bytesSent, { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.locator("audio").evaluate((audio: HTMLAudioElement) => audio.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(await page.locator("audio").evaluate((audio: HTMLAudioElement) => audio.buffered.length)).toBeGreaterThan(0);
    await context.close();
  });
});
