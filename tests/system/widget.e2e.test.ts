import fs from "node:fs";
import { createRequire } from "node:module";
import type { Server } from "node:http";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The example a website owner copies (examples/embed-html): its server is the host page here, so CI runs the example.
import { createExampleServer } from "../../examples/embed-html/serve.mjs";
import { type LlmFake, startOpenAiFake } from "../../packages/api/src/testing/fakes/llm-openai";
import { launchBrowser } from "./browser";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_e2e_widget_owner_key_0123456789";
let parley: ParleyProcess;
let browser: Browser;
/** A vision model (gpt-4o-mini) for the files test; the other tests use the offline responder. */
let llm: LlmFake;
let site: Server;
let siteUrl: string;

beforeAll(async () => {
  llm = await startOpenAiFake();
  [parley, browser] = await Promise.all([
    startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_PLUGINS_ALLOWED_HOSTS: new URL(llm.url).host }),
    launchBrowser(),
  ]);
  // A host page on another origin: the one script tag, served under a strict Content-Security-Policy.
  site = createExampleServer({ parleyUrl: parley.url });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await llm?.close();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
});

interface HostOptions {
  /** The browser's language (navigator.language and Accept-Language). */
  locale?: string;
  /** data-language on the script tag. */
  language?: string;
  bypassCSP?: boolean;
}

interface Answered {
  pathname: string;
  status: number;
  error: string | null;
}

async function openHost(
  clientId = "demo",
  options: HostOptions = {},
): Promise<{ page: Page; context: BrowserContext; errors: string[]; requests: string[]; posts: string[]; responses: Answered[] }> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: options.locale ?? "en-US",
    bypassCSP: options.bypassCSP ?? false,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  const requests: string[] = [];
  /** Paths POSTed to Parley (messages sent), apart from reads such as the history. */
  const posts: string[] = [];
  const responses: Answered[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    // A CSP violation is reported on the console: any of them fails the strict-CSP promise.
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  page.on("request", (request) => {
    if (!request.url().startsWith(parley.url)) return;
    requests.push(new URL(request.url()).pathname);
    if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
  });
  page.on("response", async (response) => {
    if (response.url().startsWith(parley.url))
      responses.push({ pathname: new URL(response.url()).pathname, status: response.status(), error: await response.headerValue("x-parley-error") });
  });
  const query = new URLSearchParams({ client: clientId, ...(options.language ? { lang: options.language } : {}) });
  await page.goto(`${siteUrl}/?${query}`);
  return { page, context, errors, requests, posts, responses };
}

const owner = (method: string, pathname: string, body?: unknown) => apiCall(parley.url, ownerKey, method, pathname, body);

/** Waits for the assistant's answer after the visitor's message to finish streaming; answers its text. */
async function streamedAnswer(page: Page): Promise<string> {
  const log = page.getByRole("dialog").getByRole("log");
  const answer = log.locator(".m.u ~ .m").first();
  await expect
    .poll(async () => (await answer.count()) > 0 && (await answer.getAttribute("aria-busy")) !== "true" && (await answer.innerText()).trim().length, {
      timeout: 20_000,
    })
    .toBeGreaterThan(10);
  return answer.innerText();
}

describe("the script-tag widget on another origin", () => {
  it("shows the bubble, talks to nobody until asked, then streams an answer under a strict CSP", async () => {
    const { page, errors, requests } = await openHost();
    const bubble = page.getByRole("button", { name: "Open chat" });
    await bubble.waitFor();
    // Before any interaction: the loader and at most one config request.
    expect(requests.filter((pathname) => !["/widget.js"].includes(pathname) && !pathname.endsWith("/config"))).toEqual([]);

    await bubble.click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const input = dialog.getByRole("textbox");
    await input.fill("Where is my parcel?");
    await input.press("Enter");

    const log = dialog.getByRole("log");
    await expect.poll(() => log.locator(".m.u").count()).toBe(1);
    // The answer is the message after the visitor's, complete once it is no longer busy.
    const answer = log.locator(".m.u ~ .m").first();
    await expect
      .poll(async () => (await answer.count()) > 0 && (await answer.getAttribute("aria-busy")) !== "true" && (await answer.innerText()).trim().length, {
        timeout: 20_000,
      })
      .toBeGreaterThan(10);
    expect(await log.locator(".m.e").count()).toBe(0);
    expect(requests, requests.join(" ")).toContainEqual(expect.stringMatching(/^\/api\/v1\/widget\/demo\/sessions\/[^/]+\/messages$/));
    // The host page is untouched: its own heading keeps its text and no error was raised.
    expect(await page.locator("#host-title").innerText()).toBe("Acme parcels");
    expect(errors).toEqual([]);

    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await page.context().close();
  });

  it("shows a clear state for an unknown client without breaking the host page", async () => {
    const { page, errors } = await openHost("no-such-client");
    await page.getByRole("button", { name: "Open chat" }).click();
    const alert = page.getByRole("dialog").getByRole("alert");
    await alert.waitFor();
    expect((await alert.innerText()).length).toBeGreaterThan(5);
    expect(await page.locator("#host-title").innerText()).toBe("Acme parcels");
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe("the widget's accessibility, refusals, offline use and language", () => {
  it("has no serious or critical axe-core violations with the chat open, shadow root included", async () => {
    // axe is injected as an inline script, which the strict CSP rightly blocks: this context bypasses CSP (the CSP itself is covered above).
    const { page, context } = await openHost("demo", { bypassCSP: true });
    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    // Wait for the config: the welcome text and the guiding questions are part of what is scanned.
    await dialog.getByRole("button", { name: "What can Parley do?" }).waitFor();
    const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
    await page.addScriptTag({ content: axeSource });
    const results = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<any> } }).axe;
      const run = await axe.run(document, { resultTypes: ["violations"] });
      const summarise = (items: any[]) =>
        items.map((item) => ({ id: item.id, impact: item.impact, help: item.help, targets: item.nodes.map((node: any) => JSON.stringify(node.target)) }));
      return { violations: summarise(run.violations), passes: summarise(run.passes) };
    });
    const severe = results.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
    expect(severe, JSON.stringify(severe, null, 1)).toEqual([]);
    // The scan really went inside the shadow root: a node target there is a path through the host (["div[data-parley]", "…"]).
    const shadowTargets = results.passes.flatMap((rule) => rule.targets).filter((target) => target.startsWith("[["));
    expect(shadowTargets.length, JSON.stringify(results.passes.map((rule) => rule.id))).toBeGreaterThan(0);
    expect(results.passes.map((rule) => rule.id)).toEqual(expect.arrayContaining(["button-name", "aria-allowed-attr"]));
    await context.close();
  });

  it("refuses a disallowed site origin in the visitor's language, the host page untouched", async () => {
    const demo = await owner("GET", "/api/v1/web-clients/demo");
    const client = await owner("POST", "/api/v1/web-clients", { appId: demo.appId, name: "Shop only", allowedOrigins: ["https://shop.example"] });
    const { page, context, errors, responses } = await openHost(client.id, { locale: "zh-CN" });
    await page.getByRole("button", { name: "打开聊天" }).click();
    await expect
      .poll(() => responses.find((answer) => answer.pathname === `/api/v1/widget/${client.id}/config`))
      .toEqual({
        pathname: `/api/v1/widget/${client.id}/config`,
        status: 403,
        error: "origin_not_allowed",
      });
    const alert = page.getByRole("dialog").getByRole("alert");
    await alert.waitFor();
    expect(await alert.innerText()).toContain("此网站无权使用该聊天");
    await expect.poll(() => page.getByRole("dialog").getByRole("textbox").isDisabled()).toBe(true);
    expect(await page.locator("#host-title").innerText()).toBe("Acme parcels");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("keeps a message typed offline and sends it when the connection is back", async () => {
    const { page, context, errors, requests, posts } = await openHost();
    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "What can Parley do?" }).waitFor();

    await context.setOffline(true);
    const input = dialog.getByRole("textbox");
    await input.fill("Can I change the delivery address?");
    await input.press("Enter");
    const log = dialog.getByRole("log");
    // Kept: shown in the log, the visitor told it waits for the connection, nothing sent.
    await expect.poll(() => log.locator(".m.u").innerText()).toContain("Can I change the delivery address?");
    await expect.poll(() => dialog.getByRole("status").innerText()).toMatch(/offline/i);
    expect(requests.filter((pathname) => pathname.endsWith("/messages"))).toEqual([]);

    await context.setOffline(false);
    expect(await streamedAnswer(page)).not.toBe("");
    // Sent once (the live stream's first connection also reads the history: a GET, not counted).
    expect(posts.filter((pathname) => /^\/api\/v1\/widget\/demo\/sessions\/[^/]+\/messages$/.test(pathname))).toHaveLength(1);
    expect(await log.locator(".m.u").count()).toBe(1);
    expect(await log.locator(".m.e").count()).toBe(0);
    await expect.poll(() => dialog.getByRole("status").count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("speaks Chinese from data-language or from the browser's language", async () => {
    const tagged = await openHost("demo", { locale: "en-US", language: "zh-CN" });
    await tagged.page.getByRole("button", { name: "打开聊天" }).click();
    const dialog = tagged.page.getByRole("dialog");
    await dialog.waitFor();
    expect(await dialog.getByRole("textbox").getAttribute("placeholder")).toBe("请输入消息…");
    expect(await dialog.getByRole("button", { name: "关闭聊天" }).count()).toBe(1);
    expect(await tagged.page.getByRole("button", { name: "Open chat" }).count()).toBe(0);
    expect(tagged.errors).toEqual([]);
    await tagged.context.close();

    const browserLanguage = await openHost("demo", { locale: "zh-CN" });
    await browserLanguage.page.getByRole("button", { name: "打开聊天" }).waitFor();
    expect(await browserLanguage.page.getByRole("button", { name: "Open chat" }).count()).toBe(0);
    expect(browserLanguage.errors).toEqual([]);
    await browserLanguage.context.close();
  });

  it("attaches a PNG through the file input, uploads it at once, sends it without text and shows it in the visitor's message", async () => {
    await owner("POST", "/api/v1/model-providers", {
      kind: "openai-compatible",
      name: "Vision",
      baseUrl: llm.url,
      apiKey: "sk-vision-e2e",
      models: ["gpt-4o-mini"],
    });
    const app = await owner("POST", "/api/v1/apps", {
      name: "Parcel photos",
      description: "Looks at parcel photos",
      openingIntroduction: "Send a photo of your parcel.",
      avatarUrl: "https://cdn.example.com/parcel.png",
      category: "other",
      settingsPrompt: "You describe parcel photos briefly.",
      defaultModel: "gpt-4o-mini",
    });
    const client = await owner("POST", "/api/v1/web-clients", { appId: app.id, name: "Photos", allowedOrigins: [] });
    llm.reply("A small parcel label.");
    const { page, context, errors, posts } = await openHost(client.id);
    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog");
    // A 1×1 PNG: the server recognises it by its bytes.
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    await dialog.locator("input[data-parley-attach]").setInputFiles({ name: "parcel.png", mimeType: "image/png", buffer: png });
    const chip = dialog.getByRole("list", { name: "Attach files" }).getByRole("listitem");
    await expect.poll(() => chip.innerText()).toContain("parcel.png");
    await expect.poll(() => chip.getAttribute("aria-busy")).toBeNull();
    // Stored, not refused (a refused chip has class "e" and the server's message).
    expect(await chip.getAttribute("class"), await chip.innerText()).toBeNull();
    expect(posts).toContainEqual(expect.stringMatching(new RegExp(`^/api/v1/widget/${client.id}/sessions/[^/]+/files$`)));
    await dialog.getByRole("button", { name: "Send" }).click();
    const image = dialog.getByRole("log").locator(".m.u img[alt='parcel.png']");
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(1);
    expect(await image.evaluate((element) => element.closest("a")!.href)).toMatch(new RegExp(`^${parley.url}/api/v1/chat-files/[^/]+/content\\?`));
    expect(await streamedAnswer(page)).toContain("A small parcel label.");
    // The model was given the image; the chips are gone; the image stays after the answer.
    expect(JSON.stringify(llm.requests.at(-1)!.body.messages)).toContain("image_url");
    expect(await chip.count()).toBe(0);
    expect(await image.count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("lists the sources of an answer drawn from a bound knowledge base", async () => {
    const base = await owner("POST", "/api/v1/knowledge-bases", { name: "Parcel help" });
    const form = new FormData();
    form.append("file", new File(["# Lost parcels\n\nA lost parcel is refunded in full after ten working days of tracking silence."], "lost-parcels.md"));
    const uploaded = await fetch(`${parley.url}/api/v1/knowledge-bases/${base.id}/files`, {
      method: "POST",
      headers: { authorization: `Bearer ${ownerKey}` },
      body: form,
    });
    const file = ((await uploaded.json()) as { data: { id: string } }).data;
    await owner("POST", `/api/v1/knowledge-files/${file.id}/confirm`);
    await expect.poll(async () => ((await owner("GET", `/api/v1/knowledge-bases/${base.id}/files`)) as Array<{ status: string }>)[0]!.status).toBe("effective");
    const demo = await owner("GET", "/api/v1/web-clients/demo");
    await owner("PATCH", `/api/v1/apps/${demo.appId}`, { knowledgeBaseIds: [base.id], retrievalMode: "fulltext", citationEnabled: true });

    const { page, context, errors } = await openHost();
    await page.getByRole("button", { name: "Open chat" }).click();
    const input = page.getByRole("dialog").getByRole("textbox");
    await input.fill("What happens to a lost parcel?");
    await input.press("Enter");
    expect(await streamedAnswer(page)).toContain("refunded");
    const sources = page.getByRole("dialog").getByRole("list", { name: "Sources" });
    await expect.poll(() => sources.innerText()).toContain("lost-parcels");
    expect(errors).toEqual([]);
    await context.close();
  });
});
