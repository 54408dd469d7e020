import { createServer, type Server } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

let parley: ParleyProcess;
let browser: Browser;
let site: Server;
let siteUrl: string;

/** A host page on another origin: the one script tag, served under a strict Content-Security-Policy. */
function hostPage(parleyUrl: string, clientId: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme parcels</title></head>
<body><h1 id="host-title">Acme parcels</h1><p>Track your parcel below.</p>
<script src="${parleyUrl}/widget.js" data-client-id="${clientId}"></script></body></html>`;
}

beforeAll(async () => {
  [parley, browser] = await Promise.all([startParley(), launchBrowser()]);
  site = createServer((request, response) => {
    const clientId = new URL(request.url ?? "/", "http://site").searchParams.get("client") ?? "demo";
    response.setHeader("content-type", "text/html; charset=utf-8");
    response.setHeader(
      "content-security-policy",
      `default-src 'self'; script-src 'self' ${parley.url}; connect-src 'self' ${parley.url}; img-src 'self' data: ${parley.url}; style-src 'self'`,
    );
    response.end(hostPage(parley.url, clientId));
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
});

async function openHost(clientId = "demo"): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  const requests: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    // A CSP violation is reported on the console: any of them fails the strict-CSP promise.
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  page.on("request", (request) => {
    if (request.url().startsWith(parley.url)) requests.push(new URL(request.url()).pathname);
  });
  await page.goto(`${siteUrl}/?client=${clientId}`);
  return { page, errors, requests };
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
    await expect.poll(async () => (await answer.count()) > 0 && (await answer.getAttribute("aria-busy")) !== "true" && (await answer.innerText()).trim().length, { timeout: 20_000 }).toBeGreaterThan(10);
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
