import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LlmFake, startOpenAiFake } from "../../packages/api/src/testing/fakes/llm-openai";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

/**
 * A console chat answer rendered by the Markdown stack in Chromium: GFM table, KaTeX math (its
 * fonts and styles from the instance itself), highlighted code, media pulled out of the text,
 * HTML kept as text. Every request to another host is refused and recorded.
 */
const ownerKey = "pk_reply_markdown_e2e_owner_key_01234";
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

let fake: LlmFake;
let parley: ParleyProcess;
let browser: Browser;
let page: Page;
const outside: { url: string; type: string }[] = [];
const local: string[] = [];

beforeAll(async () => {
  fake = await startOpenAiFake();
  [parley, browser] = await Promise.all([
    startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, OPENAI_API_KEY: "sk-reply-markdown", OPENAI_BASE_URL: fake.url, PARLEY_SEED_DEMO: "false" }),
    launchBrowser(),
  ]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (LOCAL_HOSTS.has(url.hostname)) {
      local.push(route.request().url());
      return route.continue();
    }
    outside.push({ url: route.request().url(), type: route.request().resourceType() });
    return route.abort("internetdisconnected");
  });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await fake?.close();
});

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);

const answerText = [
  "Here are the **plans**:",
  "",
  "| Plan | Price |",
  "| --- | ---: |",
  "| Basic | 5 |",
  "| Pro | 20 |",
  "",
  "The area is \\( \\pi r^2 \\) and also $$E = mc^2$$",
  "",
  "```ts",
  "const answer: number = 42;",
  "```",
  "",
  "A picture ![chart](/reply-e2e/chart.png) and <b onmouseover=alert(1)>bold?</b>",
].join("\n");

describe("a chat answer in the console, rendered from Markdown", () => {
  it("shows the table, the formulas, the highlighted code and the picture, with nothing fetched from outside", async () => {
    const created = (await (
      await fetch(`${parley.url}/api/v1/apps`, {
        method: "POST",
        headers: { authorization: `Bearer ${ownerKey}`, "content-type": "application/json" },
        body: JSON.stringify({
          name: "Markdown helper",
          description: "Answers in Markdown",
          openingIntroduction: "Ask me anything.",
          avatarUrl: "https://cdn.example.com/a.png",
          category: "productivity",
          settingsPrompt: "Answer in Markdown.",
        }),
      })
    ).json()) as { data: { code: string } };
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    await page.goto(`${parley.url}/app/${created.data.code}`);
    fake.reply({ text: answerText, chunks: 6, delayMs: 20 });
    await byTestId("chat-input").fill("Show me the plans");
    await byTestId("chat-send").click();
    const answer = byTestId("chat-message-assistant").last();
    await expect.poll(() => answer.getAttribute("data-status"), { timeout: 20_000 }).toBe("complete");

    await expect.poll(() => answer.locator("table td").allInnerTexts()).toEqual(["Basic", "5", "Pro", "20"]);
    expect(await answer.locator("strong").first().innerText()).toBe("plans");
    await expect.poll(() => answer.locator(".katex annotation").allTextContents()).toEqual(["\\pi r^2", "E = mc^2"]);
    expect(await answer.locator(".katex-display").count()).toBe(1);
    expect(await answer.locator("pre code .hljs-keyword").first().innerText()).toBe("const");
    expect(await answer.locator('[data-testid="reply-image"]').getAttribute("src")).toBe("/reply-e2e/chart.png");
    expect(await answer.locator("b").count()).toBe(0);
    expect(await answer.innerText()).toContain("<b onmouseover=alert(1)>bold?</b>");
    expect(await answer.innerText()).not.toContain("\\(");

    // KaTeX's styles and fonts came from the instance.
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const katexFont = await page.evaluate(() => getComputedStyle(document.querySelector(".katex")!).fontFamily);
    expect(katexFont).toContain("KaTeX_Main");
    expect(local.some((url) => /KaTeX_[\w-]+\.woff2$/.test(url))).toBe(true);
    // The only outside address is the app's own avatar (an image the owner chose), never a script, style or font.
    expect(outside.filter((request) => request.type !== "image")).toEqual([]);
  });
});
