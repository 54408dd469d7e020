import fs from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleCsp } from "../../examples/embed-html/serve.mjs";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

// Bad input in real Chromium: an unknown or disabled client, a site the client does not allow, a
// message over the limit, too many sessions from one address, the server down. The host page is
// on another origin under a strict CSP and carries a hostile stylesheet (every element, every
// inherited property, !important): in each case the page raises no error and no style crosses the
// shadow root either way.

const ownerKey = "pk_e2e_widget_states_owner_0123456789";
let port: number;
let dataDir: string;
let parley: ParleyProcess;
let browser: Browser;
let site: http.Server;
let siteUrl: string;

/** Every element, every inherited property a widget could pick up, with !important. */
const HOSTILE_CSS = `*, *::before, *::after, html, body, div, p, span, button, textarea, h1, h2, ul, li, a {
  color: rgb(0, 128, 0) !important; font-family: "Courier New", serif !important; font-size: 23px !important;
  font-style: italic !important; font-weight: 900 !important; letter-spacing: 4px !important; word-spacing: 9px !important;
  line-height: 3 !important; text-transform: uppercase !important; text-align: right !important; text-indent: 30px !important;
  text-shadow: 1px 1px red !important; background-color: rgb(255, 255, 0) !important; padding: 13px !important;
  margin: 7px !important; border: 3px dashed red !important; box-sizing: content-box !important; visibility: visible !important;
  cursor: crosshair !important; direction: ltr !important; white-space: pre !important; opacity: 1 !important;
}
div { display: block !important; position: relative !important; transform: translateZ(0) !important; filter: none !important; }`;

/** The host page: `?client=` `&lang=` `&css=1` (the hostile stylesheet) `&widget=0` (no script tag). */
function hostPage(url: URL, parleyUrl: string): string {
  const client = url.searchParams.get("client") || "demo";
  const language = url.searchParams.get("lang");
  const css = url.searchParams.get("css") === "1" ? '<link rel="stylesheet" href="/host.css">' : "";
  const script =
    url.searchParams.get("widget") === "0"
      ? ""
      : `<script src="${parleyUrl}/widget.js" data-client-id="${encodeURIComponent(client)}"${language ? ` data-language="${language}"` : ""}></script>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host</title>${css}</head><body><main><h1 id="host-title">Acme parcels</h1><p id="host-text">Track your parcel.</p><button id="host-button">Host button</button></main>${script}</body></html>`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const free = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(free));
    });
  });
}

const startOnPort = () => startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PORT: String(port) }, { dataDir });

beforeAll(async () => {
  port = await freePort();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-widget-states-"));
  [parley, browser] = await Promise.all([startOnPort(), launchBrowser()]);
  const parleyUrl = `http://127.0.0.1:${port}`;
  site = http.createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://host");
    if (url.pathname === "/host.css") {
      response.writeHead(200, { "content-type": "text/css" }).end(HOSTILE_CSS);
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": exampleCsp(parleyUrl), "cache-control": "no-store" });
    response.end(hostPage(url, parleyUrl));
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function owner(method: string, pathname: string, body?: unknown, base = parley.url): Promise<any> {
  const response = await fetch(`${base}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${ownerKey}`, ...(body ? { "content-type": "application/json" } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const envelope = (await response.json()) as { data: any; message: string };
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${envelope.message}`);
  return envelope.data;
}

interface Host {
  page: Page;
  context: BrowserContext;
  /** Uncaught errors, CSP violations and any other console error except a failed resource load (a refused or unreachable request is the point of these tests). */
  errors: string[];
  requests: string[];
  /** Console warnings (the loader warns when the chat cannot be fetched). */
  warnings: string[];
  /** Paths of the server's answers. */
  responses: string[];
}

async function openHost(query: Record<string, string>, locale = "en-US"): Promise<Host> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  const requests: string[] = [];
  const responses: string[] = [];
  const warnings: string[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).port === String(port)) responses.push(new URL(response.url()).pathname);
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !/^Failed to load resource/.test(message.text())) errors.push(`console: ${message.text()}`);
    if (message.type() === "warning") warnings.push(message.text());
  });
  page.on("requestfailed", (request) => {
    warnings.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ""}`);
  });
  page.on("request", (request) => {
    if (new URL(request.url()).port === String(port)) requests.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  await page.goto(`${siteUrl}/?${new URLSearchParams(query)}`);
  return { page, context, errors, requests, warnings, responses };
}

const HOST_PROPERTIES = [
  "color",
  "font-family",
  "font-size",
  "letter-spacing",
  "line-height",
  "background-color",
  "margin-top",
  "padding-top",
  "display",
  "position",
  "text-transform",
];

/** The computed style of the host page's own elements. */
const hostStyle = (page: Page) =>
  page.evaluate(
    (properties) =>
      ["html", "body", "#host-title", "#host-text", "#host-button"].map((selector) => {
        const style = getComputedStyle(document.querySelector(selector)!);
        return [selector, properties.map((property) => `${property}: ${style.getPropertyValue(property)}`)];
      }),
    HOST_PROPERTIES,
  );

const WIDGET_PROPERTIES = [
  "color",
  "font-family",
  "font-size",
  "font-style",
  "font-weight",
  "letter-spacing",
  "word-spacing",
  "line-height",
  "text-transform",
  "text-align",
  "text-indent",
  "text-shadow",
  "white-space",
  "background-color",
  "padding-top",
  "margin-top",
  "border-top-width",
  "box-sizing",
  "cursor",
  "width",
  "height",
];

/** The computed style of the widget's own elements, inside its shadow root. */
const widgetStyle = (page: Page) =>
  page.evaluate((properties) => {
    const root = document.querySelector("[data-parley]")!.shadowRoot!;
    return [".b", ".p", ".h h2", ".g", ".g .m", ".i textarea", ".i .s"].map((selector) => {
      const element = root.querySelector(selector);
      if (!element) return [selector, "missing"];
      const style = getComputedStyle(element);
      return [selector, properties.map((property) => `${property}: ${style.getPropertyValue(property)}`)];
    });
  }, WIDGET_PROPERTIES);

/** The host page's own style without the widget, to compare with. */
async function hostBaseline(css: "0" | "1"): Promise<unknown> {
  const plain = await openHost({ widget: "0", css });
  const style = await hostStyle(plain.page);
  await plain.context.close();
  return style;
}

describe("no style crosses the shadow root, either way", () => {
  it("leaves the host page's styles as they were and keeps its own under a hostile host stylesheet", async () => {
    const withoutWidget = await hostBaseline("1");
    const clean = await openHost({ css: "0" });
    await clean.page.getByRole("button", { name: "Open chat" }).click();
    await clean.page.getByRole("dialog").getByRole("button", { name: "What can Parley do?" }).waitFor();
    const reference = await widgetStyle(clean.page);
    expect(JSON.stringify(reference)).not.toContain("missing");

    const hostile = await openHost({ css: "1" });
    // The bubble before the chat loads: the host's inherited properties do not reach it either.
    const bubbleBefore = await hostile.page.evaluate(() => {
      const style = getComputedStyle(document.querySelector("[data-parley]")!.shadowRoot!.querySelector(".b")!);
      return [style.backgroundColor, style.width, style.height, style.position, style.borderTopWidth];
    });
    expect(bubbleBefore).toEqual(["rgb(37, 99, 235)", "56px", "56px", "fixed", "0px"]);
    await hostile.page.getByRole("button", { name: "Open chat" }).click();
    await hostile.page.getByRole("dialog").getByRole("button", { name: "What can Parley do?" }).waitFor();
    // Inside: the same computed style as on a page with no stylesheet at all.
    expect(await widgetStyle(hostile.page)).toEqual(reference);
    // Outside: the host's elements exactly as without the widget, with the chat open.
    expect(await hostStyle(hostile.page)).toEqual(withoutWidget);
    expect(await hostStyle(clean.page)).toEqual(await hostBaseline("0"));
    // Nothing added to the document's own style sheets.
    expect(await hostile.page.evaluate(() => [document.styleSheets.length, document.adoptedStyleSheets.length])).toEqual([1, 0]);
    expect(clean.errors).toEqual([]);
    expect(hostile.errors).toEqual([]);
    await clean.context.close();
    await hostile.context.close();
  });
});

// Known intermittent failure: in 2 of 3 full-suite runs on 2026-11-25 one zh-CN refusal's alert
// never appeared (the en-US one just before it had); alone, beside other suites and under load
// it passes (4 of 4 runs with 6 other jobs on the 2 cores). Retried while the cause is open; a
// failed attempt prints "[widget-states refusal diagnostic]" with what the page showed and asked for.
describe("refusals shown in the visitor's language, the host page untouched", { retry: 2 }, () => {
  /** Opens the chat for a client the server refuses and answers the alert's text. */
  async function refusedState(clientId: string, locale: string, openLabel: string) {
    const withoutWidget = await hostBaseline("1");
    const host = await openHost({ client: clientId, css: "1" }, locale);
    await host.page.getByRole("button", { name: openLabel }).click();
    const dialog = host.page.getByRole("dialog");
    const alert = dialog.getByRole("alert");
    // A new browser context loads the page, the loader, the chat and the refused config: on a
    // loaded 2-core machine that has taken longer than the 15 s default once.
    await alert.waitFor({ timeout: 30_000 }).catch(async (error: unknown) => {
      // Say what the page was showing and what it asked for, so a failure names its cause.
      const shadow = await host.page.evaluate(() => document.querySelector("[data-parley]")?.shadowRoot?.innerHTML.slice(0, 3000) ?? "no widget host");
      const report = `${String(error)}\nrequests: ${host.requests.join(", ")}\nresponses: ${host.responses.join(", ")}\nerrors: ${host.errors.join(" | ")}\nwarnings: ${host.warnings.join(" | ")}\nshadow root: ${shadow}`;
      // Printed as well as thrown: a retry that passes hides the failed attempt's error.
      console.error(`[widget-states refusal diagnostic] ${report}`);
      throw new Error(report);
    });
    const text = await alert.innerText();
    await expect.poll(() => dialog.getByRole("textbox").isDisabled()).toBe(true);
    // Nothing but the config and the chat itself was asked for: no session for a refused client.
    expect(host.requests.filter((request) => request.startsWith("POST"))).toEqual([]);
    expect(await hostStyle(host.page)).toEqual(withoutWidget);
    expect(host.errors).toEqual([]);
    await host.context.close();
    return text;
  }

  it("an unknown client id", async () => {
    expect(await refusedState("no-such-client", "en-US", "Open chat")).toBe("This chat is not available.");
    expect(await refusedState("no-such-client", "zh-CN", "打开聊天")).toBe("该聊天不可用。");
  });

  it("a disabled client", async () => {
    const demo = await owner("GET", "/api/v1/web-clients/demo");
    const client = await owner("POST", "/api/v1/web-clients", { appId: demo.appId, name: "Switched off", enabled: false });
    expect(await refusedState(client.id, "en-US", "Open chat")).toBe("This chat is turned off");
    expect(await refusedState(client.id, "zh-CN", "打开聊天")).toBe("该聊天已停用");
  });

  it("a site origin the client does not allow", async () => {
    const demo = await owner("GET", "/api/v1/web-clients/demo");
    const client = await owner("POST", "/api/v1/web-clients", { appId: demo.appId, name: "Shop only", allowedOrigins: ["https://shop.example"] });
    expect(await refusedState(client.id, "en-US", "Open chat")).toBe("This site is not allowed to use this chat");
    expect(await refusedState(client.id, "zh-CN", "打开聊天")).toBe("此网站无权使用该聊天");
  });
});

describe("a message over 2,000 characters", () => {
  it("is refused by the input before sending, and the server's own 400 is explained too", async () => {
    const host = await openHost({ css: "1" });
    await host.page.getByRole("button", { name: "Open chat" }).click();
    const dialog = host.page.getByRole("dialog");
    await dialog.getByRole("button", { name: "What can Parley do?" }).waitFor();
    const input = dialog.getByRole("textbox");
    const send = dialog.getByRole("button", { name: "Send" });

    // Pasting more than the limit: nothing is cut silently; the input says why it cannot be sent.
    await input.fill("a".repeat(2001));
    const alert = dialog.getByRole("alert");
    await expect.poll(() => alert.innerText()).toBe("Your message is too long (2,000 characters at most). 2001/2000");
    expect(await send.isDisabled()).toBe(true);
    expect(await input.getAttribute("aria-invalid")).toBe("true");
    await input.press("Enter");
    await host.page.waitForTimeout(300);
    expect(host.requests.filter((request) => request.startsWith("POST"))).toEqual([]);
    expect(await dialog.getByRole("log").locator(".m.u").count()).toBe(0);
    // Back under the limit: accepted.
    await input.press("Backspace");
    await expect.poll(() => alert.count()).toBe(0);
    expect(await send.isDisabled()).toBe(false);

    // The server's own check (a message that grew on the way): its 400 message shows, and the text goes back into the input.
    await host.page.route(/\/sessions\/[^/]+\/messages$/, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      await route.continue({ postData: JSON.stringify({ content: "b".repeat(2001) }) });
    });
    await input.fill("Where is my parcel?");
    await input.press("Enter");
    const status = dialog.getByRole("status");
    await expect.poll(async () => ((await status.count()) ? status.innerText() : "")).toMatch(/2000/);
    expect(await input.inputValue()).toBe("Where is my parcel?");
    expect(await dialog.getByRole("log").locator(".m.u").count()).toBe(0);
    expect(await dialog.getByRole("log").locator(".m.e").count()).toBe(0);
    expect(host.errors).toEqual([]);
    await host.context.close();
  });
});

describe("too many sessions from one address", () => {
  it("answers 429 with Retry-After, and the widget says when to try again in the visitor's language", async () => {
    const throttled = await startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_THROTTLE_WIDGET_SESSIONS_PER_IP: "1" });
    try {
      const served = http.createServer((request, response) => {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": exampleCsp(throttled.url) });
        response.end(hostPage(new URL(request.url ?? "/", "http://host"), throttled.url));
      });
      await new Promise<void>((resolve) => served.listen(0, "127.0.0.1", resolve));
      const address = served.address();
      const servedUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
      const visit = async (locale: string) => {
        const context = await browser.newContext({ locale });
        const page = await context.newPage();
        const errors: string[] = [];
        page.on("pageerror", (error) => errors.push(error.message));
        await page.goto(`${servedUrl}/`);
        await page.getByRole("button", { name: locale === "zh-CN" ? "打开聊天" : "Open chat" }).click();
        const dialog = page.getByRole("dialog");
        const input = dialog.getByRole("textbox");
        await input.fill(locale === "zh-CN" ? "我的包裹在哪里？" : "Where is my parcel?");
        await input.press("Enter");
        return { context, page, dialog, input, errors };
      };

      // The first visitor from this address gets a session and an answer.
      const first = await visit("en-US");
      await expect.poll(() => first.dialog.getByRole("log").locator(".m.u ~ .m:not(.u):not([aria-busy])").count(), { timeout: 20_000 }).toBe(1);
      await first.context.close();

      // The second is refused: told how long to wait, the message back in the input.
      const second = await visit("en-US");
      const status = second.dialog.getByRole("status");
      await expect.poll(async () => ((await status.count()) ? status.innerText() : "")).toMatch(/^Too many attempts, try again in \d+ s\.$/);
      const seconds = Number(/in (\d+) s/.exec(await status.innerText())![1]);
      expect(seconds).toBeGreaterThan(500);
      expect(seconds).toBeLessThanOrEqual(600);
      expect(await second.input.inputValue()).toBe("Where is my parcel?");
      expect(await second.dialog.getByRole("log").locator(".m.u").count()).toBe(0);
      expect(second.errors).toEqual([]);
      await second.context.close();

      const third = await visit("zh-CN");
      const zhStatus = third.dialog.getByRole("status");
      await expect.poll(async () => ((await zhStatus.count()) ? zhStatus.innerText() : "")).toMatch(/^尝试次数过多，请 \d+ 秒后再试。$/);
      expect(third.errors).toEqual([]);
      await third.context.close();
      await new Promise<void>((resolve) => served.close(() => resolve()));
    } finally {
      await throttled.stop();
    }
  });
});

describe("the server down", () => {
  it("keeps the bubble, says the chat is offline when opened, and recovers by itself when the server is back", async () => {
    const withoutWidget = await hostBaseline("1");
    const host = await openHost({ css: "1", lang: "zh-CN" });
    const bubble = host.page.getByRole("button", { name: "打开聊天" });
    await bubble.waitFor();
    // The loader's config request answered before the server goes.
    await expect.poll(() => host.responses.some((pathname) => pathname.endsWith("/config"))).toBe(true);
    await parley.kill();

    // The chat was never fetched: the loader itself says so, in the visitor's language, and keeps trying.
    await bubble.click();
    const offline = host.page.locator("[data-parley]").getByRole("alert");
    await expect.poll(() => offline.innerText()).toBe("聊天离线，正在重试…");
    expect(await bubble.isVisible()).toBe(true);
    await host.page.waitForTimeout(1000);
    await bubble.click(); // an impatient second click still means "open"
    expect(await hostStyle(host.page)).toEqual(withoutWidget);

    parley = await startOnPort();
    // Back: the chat loads and opens on its own; the visitor can talk.
    const dialog = host.page.getByRole("dialog");
    await expect.poll(() => dialog.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await offline.count()).toBe(0);
    const input = dialog.getByRole("textbox");
    await input.fill("包裹什么时候到？");
    await input.press("Enter");
    const log = dialog.getByRole("log");
    await expect.poll(() => log.locator(".m.u ~ .m:not(.u):not([aria-busy])").count(), { timeout: 20_000 }).toBe(1);

    // Down again with the chat open: a message waits, the visitor is told, and it goes out when the server is back.
    await parley.kill();
    await input.fill("还有别的问题");
    await input.press("Enter");
    const status = dialog.getByRole("status");
    await expect.poll(async () => ((await status.count()) ? status.innerText() : "")).toBe("无法连接聊天服务，正在重试…");
    expect(await log.locator(".m.u").count()).toBe(2);
    parley = await startOnPort();
    await expect.poll(() => log.locator(".m.u ~ .m:not(.u):not([aria-busy])").count(), { timeout: 40_000 }).toBe(2);
    await expect.poll(() => status.count()).toBe(0);
    expect(await log.locator(".m.e").count()).toBe(0);
    expect(await hostStyle(host.page)).toEqual(withoutWidget);
    expect(host.errors).toEqual([]);
    await host.context.close();
  });

  it("shows the offline state in English when the config cannot be fetched, and fills in once the server answers", async () => {
    await parley.kill();
    const context = await browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    // The loader and the chat come from a server that answers only those two files; the API is down.
    const widgetDir = path.join(__dirname, "../../packages/widget/dist");
    await page.route(`http://127.0.0.1:${port}/widget.js`, (route) =>
      route.fulfill({ path: path.join(widgetDir, "widget.js"), contentType: "text/javascript", headers: { "access-control-allow-origin": "*" } }),
    );
    await page.route(`http://127.0.0.1:${port}/widget/chat.js`, (route) =>
      route.fulfill({ path: path.join(widgetDir, "chat.js"), contentType: "text/javascript", headers: { "access-control-allow-origin": "*" } }),
    );
    await page.goto(`${siteUrl}/?css=1`);
    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog");
    const alert = dialog.getByRole("alert");
    await expect.poll(() => alert.innerText()).toContain("Cannot reach the chat service. Retrying…");
    expect(await dialog.getByRole("textbox").isDisabled()).toBe(true);
    parley = await startOnPort();
    await dialog.getByRole("button", { name: "What can Parley do?" }).waitFor({ timeout: 15_000 });
    expect(await alert.count()).toBe(0);
    expect(await dialog.getByRole("textbox").isDisabled()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
