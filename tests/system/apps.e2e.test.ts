import { pdfOf } from "../../packages/api/src/knowledge/testing";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LlmFake, startOpenAiFake } from "../../packages/api/src/testing/fakes/llm-openai";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_apps_e2e_owner_key_0123456789abcd";
const settingsPrompt = "You are the Acme parcel helper. Always answer in one short sentence.";
/** Set PARLEY_SCREENSHOTS to a directory to keep screenshots of the screens in both languages. */
const shots = process.env.PARLEY_SCREENSHOTS;

let fake: LlmFake;
let parley: ParleyProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  fake = await startOpenAiFake();
  [parley, browser] = await Promise.all([
    startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, OPENAI_API_KEY: "sk-apps-e2e", OPENAI_BASE_URL: fake.url, PARLEY_SEED_DEMO: "false" }),
    launchBrowser(),
  ]);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  if (shots) fs.mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await fake?.close();
});

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
const snap = async (name: string) => {
  if (!shots) return;
  await page.waitForTimeout(500); // let antd's transitions settle
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: false });
};

/** Picks an option of the antd Select carrying `testId`. */
async function choose(testId: string, option: string | RegExp) {
  await byTestId(testId).click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: option }).first().click();
}

/** The chat messages a fake model request carried, as role/content pairs. */
const messagesOf = (index: number) => (fake.requests[index]?.body?.messages ?? []) as Array<{ role: string; content: unknown }>;

describe("apps in Chromium: create → preview chat → chat page", () => {
  let appCode = "";

  it("signs in as the owner and shows the empty apps list with 'Create app'", async () => {
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    await expect.poll(() => byTestId("apps-empty").count()).toBe(1);
    await snap("apps-empty-en");
  });

  it("creates an app through the form; client-side rules speak first", async () => {
    await byTestId("app-create").click();
    await page.waitForURL(/\/console\/createApp$/);

    // Spec §5: the description must be longer than 5 characters; required fields are named.
    await byTestId("app-description").fill("12345");
    await byTestId("app-save").click();
    await expect
      .poll(() => page.locator(".ant-form-item-explain-error").allInnerTexts())
      .toEqual(
        expect.arrayContaining([
          "Enter a name",
          "The description must be longer than 5 characters",
          "Enter an opening introduction",
          "Choose a category",
          "Enter a settings prompt",
        ]),
      );

    await byTestId("app-name").fill("Parcel helper");
    await byTestId("app-description").fill("Answers questions about parcels");
    await byTestId("app-opening").fill("Hi! I track parcels. [Where is my parcel?] [How do I return an item?]");
    await expect.poll(() => byTestId("app-opening-questions").innerText()).toContain("Where is my parcel?");
    await byTestId("app-avatar").fill("https://cdn.example.com/parcel.png");
    await choose("app-category", "Customer service");
    await byTestId("app-prompt").fill(settingsPrompt);
    await expect.poll(() => byTestId("app-model").innerText()).toMatch(/gpt-4\.1-mini|GPT-4\.1 mini/i);
    await snap("create-app-en");
    await byTestId("app-save").click();
    await page.waitForURL(/\/console\/agent\?id=/);
    await expect.poll(() => byTestId("app-name").inputValue()).toBe("Parcel helper");
    const apps = (await (await fetch(`${parley.url}/api/v1/apps`, { headers: { authorization: `Bearer ${ownerKey}` } })).json()) as {
      data: { items: Array<{ code: string; name: string }> };
    };
    appCode = apps.data.items.find((app) => app.name === "Parcel helper")!.code;
    expect(appCode).toBeTruthy();
  });

  it("chats in the preview: the streamed answer appears and the model got the settings prompt", async () => {
    await expect.poll(() => byTestId("guiding-questions").innerText()).toContain("Where is my parcel?");
    fake.reply({ text: "Hello from the preview!", chunks: 4, delayMs: 30 });
    const before = fake.requests.length;
    await byTestId("preview-input").fill("Hi there");
    await byTestId("preview-send").click();
    const answer = byTestId("chat-message-assistant").last();
    await expect.poll(() => answer.innerText()).toContain("Hello from the preview!");
    await expect.poll(() => answer.getAttribute("data-status")).toBe("complete");
    expect(fake.requests.length).toBe(before + 1);
    const messages = messagesOf(before);
    expect(messages.some((message) => message.role === "system" && JSON.stringify(message.content).includes(settingsPrompt))).toBe(true);
    expect(JSON.stringify(messages[messages.length - 1]?.content)).toContain("Hi there");
    await snap("editor-preview-en");
  });

  it("stops a slow answer with Stop, keeping what arrived", async () => {
    fake.reply({ text: "one two three four five six seven eight nine ten eleven twelve", chunks: 12, delayMs: 400 });
    await byTestId("preview-input").fill("Count slowly");
    await byTestId("preview-send").click();
    const answer = byTestId("chat-message-assistant").last();
    await expect.poll(() => answer.innerText()).toContain("one");
    await byTestId("preview-stop").click();
    await expect.poll(() => answer.getAttribute("data-status")).toBe("stopped");
    expect(await answer.innerText()).not.toContain("twelve");
    await expect.poll(() => byTestId("preview-send").count()).toBe(1);
  });

  it("attaches a PNG and a PDF in the preview: the vision model gets the image part and the PDF's text, the answer cites the PDF", async () => {
    // A 1×1 PNG: the server recognises it by its bytes.
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    fake.reply({ text: "A tiny picture; refunds take 14 days [1].", chunks: 1, delayMs: 0 });
    const before = fake.requests.length;
    await byTestId("chat-attach-input").setInputFiles([
      { name: "dot.png", mimeType: "image/png", buffer: png },
      { name: "refunds.pdf", mimeType: "application/pdf", buffer: Buffer.from(pdfOf("Refunds are paid within 14 days.")) },
    ]);
    const chips = byTestId("pending-file");
    await expect.poll(() => chips.count()).toBe(2);
    await expect.poll(async () => (await Promise.all((await chips.all()).map((chip) => chip.getAttribute("data-status")))).join()).toBe("done,done");
    await byTestId("preview-send").click();
    await expect.poll(() => byTestId("pending-file").count()).toBe(0);
    const sent = byTestId("chat-message-user").last();
    const thumbnail = sent.locator('[data-testid="message-attachments"] img');
    await expect.poll(() => thumbnail.getAttribute("src")).toContain("/api/v1/chat-files/");
    // The signed address serves the bytes to a plain <img>.
    await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1);
    expect(await sent.getByTestId("attachment-document").innerText()).toContain("refunds.pdf");
    const answer = byTestId("chat-message-assistant").last();
    await expect.poll(() => answer.getAttribute("data-status")).toBe("complete");
    expect(fake.requests.length).toBe(before + 1);
    // OpenAI's wire format: the image as an image_url part of the person's message, the PDF's text in the references.
    const messages = messagesOf(before);
    expect(JSON.stringify(messages.at(-1)?.content)).toContain(`"image_url":{"url":"data:image/png;base64,`);
    expect(JSON.stringify(messages[0]?.content)).toContain("Refunds are paid within 14 days.");
    await expect.poll(() => answer.getByTestId("chat-citation").first().innerText()).toContain("refunds.pdf");
  });

  it("blocks other actions while a rate-limit rule is unsaved, and refuses a count of 0", async () => {
    await byTestId("editor-tab-rate-limit").click();
    await byTestId("rate-limit-add").click();
    await page.locator('input[data-testid="rate-limit-count"], [data-testid="rate-limit-count"] input').fill("0");
    await byTestId("rate-limit-save").click();
    await expect.poll(() => byTestId("rate-limit-error").innerText()).toMatch(/at least 1/);
    // Unsaved: switching tabs is refused with a warning.
    await byTestId("editor-tab-basic").click();
    await expect.poll(() => page.locator(".ant-message").innerText()).toMatch(/Save or cancel the rate-limit rule/);
    await page.locator('input[data-testid="rate-limit-count"], [data-testid="rate-limit-count"] input').fill("5");
    await byTestId("rate-limit-save").click();
    await expect.poll(() => byTestId("rate-limit-table").innerText()).toMatch(/All channels[\s\S]*Minute[\s\S]*5/);
    await snap("editor-rate-limit-en");
    await byTestId("editor-tab-basic").click();
  });

  it("refuses the default avatar when publishing (spec §5, on the field), then saves an edit the preview shows", async () => {
    await byTestId("app-public").click();
    await byTestId("app-avatar").fill("/assets/default-app-avatar.png");
    await byTestId("app-save").click();
    await expect.poll(() => page.locator(".ant-form-item-explain-error").allInnerTexts()).toContain("The default avatar cannot be published to the square");
    await byTestId("app-public").click();
    await byTestId("app-avatar").fill("https://cdn.example.com/parcel.png");
    await byTestId("app-slogan").fill("Powered by Acme");
    await byTestId("app-save").click();
    await expect.poll(() => page.locator(".ant-message").innerText()).toContain("Changes saved");
    await expect.poll(() => byTestId("preview-panel").innerText()).toContain("Powered by Acme");
  });

  it("binds a knowledge base in full-text mode with citations; the preview answers from it and shows the sources", async () => {
    const api = <T = { id: string }>(route: string, init: RequestInit = {}) =>
      fetch(`${parley.url}${route}`, { ...init, headers: { authorization: `Bearer ${ownerKey}`, ...(init.headers ?? {}) } }).then(
        (response) => response.json() as Promise<{ data: T }>,
      );
    const base = await api("/api/v1/knowledge-bases", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Parcel guide" }),
    });
    const form = new FormData();
    form.append("file", new File(["# Warranty\n\nEvery parcel locker carries a two-year warranty covering defects."], "parcel-guide.md"));
    const file = await api(`/api/v1/knowledge-bases/${base.data.id}/files`, { method: "POST", body: form });
    await api(`/api/v1/knowledge-files/${file.data.id}/confirm`, { method: "POST" });
    const status = async () =>
      (await api<Array<{ id: string; status: string }>>(`/api/v1/knowledge-bases/${base.data.id}/files`)).data.find((row) => row.id === file.data.id)?.status;
    await expect.poll(status, { timeout: 20_000 }).toBe("effective");

    await page.reload();
    await byTestId("editor-tab-advanced").click();
    await choose("app-knowledge-bases", "Parcel guide");
    await page.keyboard.press("Escape");
    await choose("app-retrieval-mode", "Full text");
    await expect.poll(() => byTestId("knowledge-settings").innerText()).toContain("does not use the similarity threshold");
    // Citations are on for a new app (decision 0010).
    expect(await byTestId("app-citation").getAttribute("aria-checked")).toBe("true");
    await byTestId("app-save").click();
    await expect.poll(() => page.locator(".ant-message").innerText()).toContain("Changes saved");
    await byTestId("knowledge-settings").scrollIntoViewIfNeeded();
    await snap("editor-knowledge-en");

    fake.reply({ text: "Two years [1].", chunks: 2, delayMs: 10 });
    const before = fake.requests.length;
    await byTestId("preview-input").fill("warranty defects");
    await byTestId("preview-send").click();
    const answer = byTestId("chat-message-assistant").last();
    await expect.poll(() => answer.getAttribute("data-status")).toBe("complete");
    await expect.poll(() => answer.locator('[data-testid="chat-citations"]').innerText()).toContain("parcel-guide");
    const system = messagesOf(before).find((message) => message.role === "system");
    expect(JSON.stringify(system?.content)).toContain("two-year warranty");
    await snap("preview-citations-en");
    await byTestId("editor-tab-basic").click();
  });

  it("opens /app/<code>, answers a guiding question and keeps the conversation in the list", async () => {
    await page.goto(`${parley.url}/app/${appCode}`);
    await expect.poll(() => byTestId("chat-app-name").innerText()).toBe("Parcel helper");
    fake.reply({ text: "Your parcel is **on its way** and arrives tomorrow.", chunks: 5, delayMs: 20 });
    const before = fake.requests.length;
    await byTestId("guiding-question-0").click();
    const answer = byTestId("chat-message-assistant").last();
    await expect.poll(() => answer.innerText()).toContain("on its way and arrives tomorrow.");
    expect(await answer.locator("strong").innerText()).toBe("on its way");
    expect(JSON.stringify(messagesOf(before).at(-1)?.content)).toContain("Where is my parcel?");
    await expect.poll(() => byTestId("chat-conversations").locator("button").count()).toBe(1);
    await snap("chat-page-en");

    // Delete context leaves a divider; a new chat empties the messages.
    await byTestId("chat-clear-context").click();
    await page.locator(".ant-popconfirm .ant-btn-primary").click();
    await expect.poll(() => byTestId("chat-context-divider").count()).toBe(1);
    await byTestId("chat-new").click();
    await expect.poll(() => byTestId("chat-message-assistant").count()).toBe(0);
  });

  it("shows the screens in Chinese", async () => {
    await page.evaluate(() => localStorage.setItem("language", "zh-CN"));
    await page.reload();
    await expect.poll(() => byTestId("chat-new").innerText()).toContain("新对话");
    await snap("chat-page-zh");
    await page.goto(`${parley.url}/console/agents`);
    await expect.poll(() => page.locator(".pl-page-header").innerText()).toContain("应用");
    await snap("apps-list-zh");
    await byTestId(`app-edit-${appCode}`).click();
    await expect.poll(() => byTestId("editor-tab-advanced").innerText()).toBe("高级配置");
    await byTestId("editor-tab-advanced").click();
    await snap("editor-advanced-zh");
    await page.evaluate(() => localStorage.setItem("language", "en"));
  });

  it("thumbs and collects (counts move by one), copies, and deletes: neighbour selected, then home", async () => {
    await page.goto(`${parley.url}/console/agents`);
    const thumb = byTestId(`app-thumb-${appCode}`);
    await expect.poll(() => thumb.innerText()).toBe("0");
    await thumb.click();
    await expect.poll(() => thumb.innerText()).toBe("1");
    await thumb.click();
    await expect.poll(() => thumb.innerText()).toBe("0");
    const collect = byTestId(`app-collect-${appCode}`);
    await collect.click();
    await expect.poll(() => collect.innerText()).toBe("1");

    await byTestId(`app-copy-${appCode}`).click();
    await expect.poll(() => page.locator('[data-testid^="app-card-name-"]').count()).toBe(2);
    await snap("apps-list-en");

    // Deleting the copy selects the original (the neighbour).
    const cards = await page
      .locator('[data-testid^="app-card-name-"]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-testid")!.replace("app-card-name-", "")));
    const copyCode = cards.find((code) => code !== appCode)!;
    await byTestId(`app-delete-${copyCode}`).click();
    await byTestId(`app-delete-confirm-${copyCode}`).click();
    await expect.poll(() => page.locator('[data-testid^="app-card-name-"]').count()).toBe(1);
    await expect.poll(() => page.url()).toMatch(/selected=/);
    await expect.poll(() => byTestId(`app-card-${appCode}`).getAttribute("class")).toContain("pl-app-card--selected");

    // Deleting the last app goes home.
    await byTestId(`app-delete-${appCode}`).click();
    await byTestId(`app-delete-confirm-${appCode}`).click();
    await page.waitForURL(/\/home$/);
  });
});
