import fs from "node:fs";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExampleServer } from "../../examples/embed-html/serve.mjs";
import { toneWav } from "../../packages/api/src/speech/audio";
import { startTranscriptionFake, type TranscriptionFake } from "../../packages/api/src/testing/fakes/transcription";
import { launchBrowser } from "./browser";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

// Speech input end to end (issue 21, part 2): Chromium's fake microphone plays a WAV the test
// writes, MediaRecorder records it, Parley checks the recording and a local OpenAI-compatible
// server (which parses the multipart body) transcribes it; the text lands in the input.
const ownerKey = "pk_e2e_speech_owner_key_0123456789";
const WHISPER_KEY = "sk-e2e-whisper-0123456789";
const QUESTION = "Where is my parcel?";
let parley: ParleyProcess;
let browser: Browser;
let fake: TranscriptionFake;
let site: Server;
let siteUrl: string;
let wavPath: string;

beforeAll(async () => {
  fake = await startTranscriptionFake({ apiKey: WHISPER_KEY, transcript: () => QUESTION });
  wavPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "parley-speech-")), "question.wav");
  fs.writeFileSync(wavPath, toneWav(4, 48_000));
  [parley, browser] = await Promise.all([
    startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_PLUGINS_ALLOWED_HOSTS: new URL(fake.url).host }),
    launchBrowser({ microphone: wavPath }),
  ]);
  site = createExampleServer({ parleyUrl: parley.url });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await fake?.close();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
});

async function openWidget(initScript?: string): Promise<{ page: Page; context: BrowserContext; requests: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const requests: string[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(parley.url)) requests.push(new URL(request.url()).pathname);
  });
  await page.goto(`${siteUrl}/?client=demo`);
  await page.getByRole("button", { name: "Open chat" }).click();
  await page.getByRole("dialog").getByRole("textbox").waitFor();
  return { page, context, requests };
}

let consoleContext: BrowserContext | undefined;

/**
 * Opens the chat of the space's first app in a fresh page of one signed-in context (the
 * bootstrap owner's sign-in link works once): each page loads the transcription models anew.
 */
async function openConsoleChat(): Promise<{ page: Page }> {
  const apps = await apiCall<{ items: Array<{ code: string }> }>(parley.url, ownerKey, "GET", "/api/v1/apps");
  if (!consoleContext) {
    consoleContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const signIn = await consoleContext.newPage();
    await signIn.goto(parley.signInUrl!);
    await signIn.waitForURL(/\/console\/agents$/);
    await signIn.close();
  }
  const page = await consoleContext.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${parley.url}/app/${apps.items[0]!.code}`);
  return { page };
}

const recorderChunk = (requests: string[]) => requests.filter((pathname) => /^\/widget\/recorder-[\w-]+\.js$/.test(pathname));

describe("speech input in Chromium with a fake microphone", () => {
  it("shows no widget microphone while no transcription model is configured", async () => {
    const { page, context, requests } = await openWidget();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => requests.some((pathname) => pathname.endsWith("/config"))).toBe(true);
    await page.waitForTimeout(300);
    expect(await dialog.getByRole("button", { name: "Speak your question" }).count()).toBe(0);
    expect(recorderChunk(requests)).toEqual([]);
    await context.close();
  });

  it("console chat without a transcription model: the microphone is disabled and its tooltip says where to add one", async () => {
    const { page } = await openConsoleChat();
    const mic = page.locator('[data-testid="chat-mic"]');
    await mic.waitFor();
    expect(await mic.isDisabled()).toBe(true);
    await mic.hover({ force: true });
    await expect.poll(() => page.getByRole("tooltip").innerText()).toContain("API access → Models");
    await page.close();
  });

  it("widget: press the microphone, speak, stop → the provider gets a real recording → its text is in the input → sent", async () => {
    await apiCall(parley.url, ownerKey, "POST", "/api/v1/model-providers", {
      kind: "openai-compatible",
      name: "Whisper",
      baseUrl: fake.url,
      apiKey: WHISPER_KEY,
      models: [],
      transcriptionModels: ["whisper-1"],
    });
    const { page, context, requests } = await openWidget();
    const dialog = page.getByRole("dialog");
    const mic = dialog.getByRole("button", { name: "Speak your question" });
    await mic.waitFor();
    // The recorder is its own chunk, fetched on the first press only.
    expect(recorderChunk(requests)).toEqual([]);
    await mic.click();
    const stop = dialog.getByRole("button", { name: "Stop recording" });
    await stop.waitFor();
    await expect.poll(() => stop.innerText(), { timeout: 5_000 }).toMatch(/0:0[1-9]/);
    expect(recorderChunk(requests)).toHaveLength(1);
    await stop.click();
    await expect.poll(() => dialog.getByRole("textbox").inputValue()).toBe(QUESTION);
    const heard = fake.requests.at(-1)!;
    expect(["webm", "ogg"]).toContain(heard.container);
    expect(heard.bytes).toBeGreaterThan(1000);
    expect(heard).toMatchObject({ model: "whisper-1", responseFormat: "json", authorization: `Bearer ${WHISPER_KEY}` });
    expect(requests.some((pathname) => /\/api\/v1\/widget\/demo\/sessions\/[^/]+\/transcriptions$/.test(pathname))).toBe(true);
    await dialog.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => dialog.getByRole("log").locator(".m.u").innerText()).toContain(QUESTION);
    await context.close();
  });

  it("widget: a refused microphone says permission is needed, a browser without media support says voice permission is missing (spec §8)", async () => {
    // The browser refuses as it does when the visitor blocks the site: getUserMedia rejects with NotAllowedError.
    const denied = await openWidget("navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError'));");
    const before = fake.requests.length;
    await denied.page.getByRole("dialog").getByRole("button", { name: "Speak your question" }).click();
    await expect.poll(() => denied.page.getByRole("dialog").getByRole("status").innerText()).toContain("Microphone permission needed");
    await denied.context.close();
    const unsupported = await openWidget("Object.defineProperty(window, 'MediaRecorder', { value: undefined });");
    await unsupported.page.getByRole("dialog").getByRole("button", { name: "Speak your question" }).click();
    await expect.poll(() => unsupported.page.getByRole("dialog").getByRole("status").innerText()).toContain("Voice permission missing");
    await unsupported.context.close();
    expect(fake.requests.length).toBe(before);
  });

  it("console chat: the microphone next to send puts the transcript into the input", async () => {
    const { page } = await openConsoleChat();
    const mic = page.locator('[data-testid="chat-mic"]');
    await mic.waitFor();
    const before = fake.requests.length;
    await mic.click();
    await expect.poll(() => mic.getAttribute("data-state")).toBe("recording");
    await expect.poll(() => page.locator('[data-testid="chat-mic-elapsed"]').innerText(), { timeout: 5_000 }).toMatch(/0:0[1-9]/);
    await mic.click();
    await expect.poll(() => page.locator('[data-testid="chat-input"]').inputValue()).toBe(QUESTION);
    expect(fake.requests.length).toBe(before + 1);
    expect(["webm", "ogg"]).toContain(fake.requests.at(-1)!.container);
    await page.close();
  });
});
