import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

/**
 * An instance may run with no way out to the internet: the API reference and the console must
 * load everything they need from the instance itself. Every request the browser makes is
 * routed here; one to any host but this machine is recorded (and refused, as offline it would
 * be), and the test fails naming it.
 */
const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

let parley: ParleyProcess;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const outside: string[] = [];

beforeAll(async () => {
  [parley, browser] = await Promise.all([startParley(), launchBrowser()]);
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url());
    if (LOCAL_HOSTS.has(url.hostname)) return route.continue();
    outside.push(route.request().url());
    return route.abort("internetdisconnected");
  });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
});

/** Opens a page and gives it time to fetch what it fetches after its first render (fonts, chunks, data). */
async function visit(path: string) {
  await page.goto(`${parley.url}${path}`, { waitUntil: "load" });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(800);
}

describe("no request leaves the machine", () => {
  it("the API reference at /docs renders from the instance alone", async () => {
    await visit("/docs");
    await expect.poll(() => page.locator("body").innerText(), { timeout: 20_000 }).toContain("Parley API");
    // The operations are there (the document was read), not just the page's frame.
    await expect.poll(() => page.locator("body").innerText()).toContain("Liveness and version");
    await page.waitForTimeout(1000); // what Scalar fetches after its first render
    expect(outside).toEqual([]);
  });

  it("the console's pages load from the instance alone", async () => {
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    const pages = [
      "/console/agents",
      "/console/createApp",
      "/console/knowledge",
      "/console/workflows",
      "/console/plugins",
      "/console/Integrations",
      "/console/account",
      "/console/clients",
      "/console/chatManage",
      "/home",
      "/web/agent/demo",
    ];
    for (const path of pages) {
      await visit(path);
      expect(outside, `requests from ${path}`).toEqual([]);
    }
    // A guest's pages too.
    await page.evaluate(() => localStorage.clear());
    await visit("/login");
    expect(outside).toEqual([]);
  });
});
