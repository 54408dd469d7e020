import http from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LlmFake, startOpenAiFake } from "../../packages/api/src/testing/fakes/llm-openai";
import { type SpeechFake, startSpeechFake } from "../../packages/api/src/testing/fakes/speech";
import { launchBrowser } from "./browser";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

// Issue 21 (text to speech): a widget page opened with voice=true, for an app with a voice, reads
// the answer aloud: the audio of that answer's text comes from a local server speaking OpenAI's
// /audio/speech and reaches the page's <audio> element through the widget's voice/stream.
const ownerKey = "pk_e2e_voice_owner_key_0123456789";
const speechKey = "sk-voice-e2e-0123456789";
let parley: ParleyProcess;
let browser: Browser;
let llm: LlmFake;
let speech: SpeechFake;
let site: http.Server;
let siteUrl: string;

const owner = (method: string, pathname: string, body?: unknown) => apiCall(parley.url, ownerKey, method, pathname, body);

beforeAll(async () => {
  [llm, speech] = await Promise.all([startOpenAiFake(), startSpeechFake({ format: "openai", apiKey: speechKey, chunkDelayMs: 30 })]);
  [parley, browser] = await Promise.all([
    startParley({
      PARLEY_BOOTSTRAP_API_KEY: ownerKey,
      OPENAI_API_KEY: "sk-voice-e2e",
      OPENAI_BASE_URL: llm.url,
      PARLEY_PLUGINS_ALLOWED_HOSTS: new URL(speech.url).host,
    }),
    launchBrowser(),
  ]);
  // A host page on its own origin with the one script tag.
  site = http.createServer((request, response) => {
    const client = new URL(request.url ?? "/", "http://host").searchParams.get("client") ?? "demo";
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html><body><h1>Shop</h1><script src="${parley.url}/widget.js" data-client-id="${client}"></script></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await llm?.close();
  await speech?.close();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
});

describe("reading answers aloud in the widget", () => {
  it("reads the answer aloud when the page was opened with voice=true and the app has a voice", async () => {
    await owner("POST", "/api/v1/model-providers", {
      kind: "openai-compatible",
      name: "Speech",
      baseUrl: speech.url,
      apiKey: speechKey,
      models: [],
      speechModels: ["tts-1"],
      speechVoices: ["alloy", "nova"],
    });
    const demo = await owner("GET", "/api/v1/web-clients/demo");
    const app = await owner("PATCH", `/api/v1/apps/${demo.appId}`, { voiceModel: "tts-1", voice: "nova" });
    expect(app).toMatchObject({ voiceModel: "tts-1", voice: "nova" });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${siteUrl}/?client=demo&voice=true`);
    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog");
    // The app has a voice and the page asked for it: the speaker is on.
    await expect.poll(() => dialog.getByRole("button", { name: "Read answers aloud" }).getAttribute("aria-pressed")).toBe("true");
    await dialog.getByRole("textbox").fill("How long does shipping take?");
    await dialog.getByRole("textbox").press("Enter");
    // The answer (the message with its own play button) is read aloud once it completed.
    const answer = dialog.getByRole("log").locator(".m.u ~ .m:has(.vp)");
    await expect.poll(() => answer.count(), { timeout: 20_000 }).toBe(1);
    // One panel: reading aloud redraws it, never a second time into the page.
    expect(await page.getByRole("dialog").count()).toBe(1);
    const answerText = (await answer.locator("p").first().innerText()).trim();
    expect(answerText.length).toBeGreaterThan(0);
    // The provider was asked for exactly that answer, with the app's tone, and sent its audio.
    await expect.poll(() => speech.requests.length, { timeout: 15_000 }).toBe(1);
    expect(speech.requests[0]!.voice).toBe("nova");
    expect(speech.requests[0]!.text).toBe(answerText);
    await expect.poll(() => speech.requests[0]!.bytesSent, { timeout: 15_000 }).toBeGreaterThan(0);
    // The audio element received data (HAVE_CURRENT_DATA or more).
    await expect.poll(() => page.locator("audio").evaluate((audio: HTMLAudioElement) => audio.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    expect(await page.locator("audio").evaluate((audio: HTMLAudioElement) => audio.buffered.length)).toBeGreaterThan(0);
    // Each answer also has its own play button.
    expect(await answer.getByRole("button", { name: /Read aloud|Stop/ }).count()).toBe(1);
    await context.close();
  });

  it("reads the answer aloud in the console chat (/app/{code}?voice=true), with a play button per answer", async () => {
    const demo = await owner("GET", "/api/v1/web-clients/demo");
    const app = await owner("GET", `/api/v1/apps/${demo.appId}`);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(parley.signInUrl!);
    // The sign-in link is itself under /console/: wait until the code was exchanged and dropped from the address.
    await page.waitForURL(/\/console\/agents$/);
    await page.goto(`${parley.url}/app/${app.code}?voice=true`);
    const toggle = page.locator('[data-testid="voice-toggle"]');
    // The first visit loads the console chat chunks (CI, with the other projects' tests beside it, took over 30 s once).
    await page.locator('[data-testid="chat-input"]').waitFor({ timeout: 60_000 });
    await toggle.waitFor({ timeout: 30_000 });
    await expect.poll(() => toggle.getAttribute("aria-pressed")).toBe("true");
    const before = speech.requests.length;
    await page.locator('[data-testid="chat-input"]').fill("Do you ship abroad?");
    await page.locator('[data-testid="chat-input"]').press("Enter");
    const answer = page.locator('[data-testid="chat-message-assistant"][data-status="complete"]');
    await expect.poll(() => answer.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => speech.requests.length, { timeout: 15_000 }).toBe(before + 1);
    expect(speech.requests.at(-1)!.text).toBe((await answer.locator('[data-testid="chat-answer-text"]').innerText()).trim());
    await expect
      .poll(() => page.locator('[data-testid="voice-audio"]').evaluate((audio: HTMLAudioElement) => audio.readyState), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(2);
    expect(await answer.locator('[data-testid="voice-play"]').count()).toBe(1);
    await context.close();
  });

  it("shows no speaker for an app without a voice", async () => {
    const demo = await owner("GET", "/api/v1/web-clients/demo");
    await owner("PATCH", `/api/v1/apps/${demo.appId}`, { voiceModel: null, voice: null });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    const page = await context.newPage();
    await page.goto(`${siteUrl}/?client=demo&voice=true`);
    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.getByRole("heading").count()).toBe(1);
    // The config is loaded (the welcome shows) and there is no speaker control.
    await expect.poll(() => dialog.getByRole("log").locator(".m").count()).toBeGreaterThan(0);
    expect(await dialog.getByRole("button", { name: "Read answers aloud" }).count()).toBe(0);
    await context.close();
  });
});
