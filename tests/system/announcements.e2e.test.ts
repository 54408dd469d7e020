import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { codeFromOutbox, type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_e2e_announce_owner_0123456789abcdef";
let parley: ParleyProcess;
let browser: Browser;
let mia: { token: string };

async function api<T>(path: string, init: { method?: string; token?: string; json?: unknown } = {}): Promise<T> {
  const response = await fetch(`${parley.url}${path}`, {
    method: init.method ?? "GET",
    headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.json !== undefined ? { "content-type": "application/json" } : {}) },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
  const body = (await response.json()) as { success: boolean; data: T };
  if (!body.success) throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}

beforeAll(async () => {
  [parley, browser] = await Promise.all([startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey }), launchBrowser()]);
  const email = "mia@example.com";
  await api("/api/v1/auth/codes", { method: "POST", json: { channel: "email", target: email, purpose: "register" } });
  const code = await codeFromOutbox(parley.url, ownerKey, email);
  const session = await api<{ token: string }>("/api/v1/auth/register", {
    method: "POST",
    json: { channel: "email", target: email, code, password: "mia-passw0rd", name: "Mia" },
  });
  mia = { token: session.token };
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
});

async function signedInPage(token: string, path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${parley.url}/login`);
  await page.evaluate((value) => localStorage.setItem("token", value), token);
  await page.goto(`${parley.url}${path}`);
  return page;
}

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const bellCount = async (page: Page) => Number(await byTestId(page, "notifications-badge").getAttribute("data-count"));

describe("announcements in Chromium", () => {
  it("an announcement the administrator publishes through the API reaches an open console's bell; reading it clears the count", async () => {
    const page = await signedInPage(mia.token, "/console/agents");
    await expect.poll(() => byTestId(page, "notifications").isVisible()).toBe(true);
    await expect.poll(() => bellCount(page)).toBe(0);
    // The console's socket is connected before the administrator publishes.
    await page.waitForTimeout(500);

    const published = await api<{ id: string }>("/api/v1/instance/announcements", {
      method: "POST",
      token: ownerKey,
      json: { title: "Maintenance on Saturday", body: "The service pauses **02:00–03:00 UTC**.\n\n- chats\n- widgets", audience: "everyone" },
    });
    // No reload: the realtime event makes the bell read its count again.
    await expect.poll(() => bellCount(page), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => byTestId(page, "notifications-badge").locator("sup").innerText()).toBe("1");

    await byTestId(page, "notifications").click();
    const item = byTestId(page, `announcement-${published.id}`);
    await expect.poll(() => item.innerText()).toContain("Maintenance on Saturday");
    expect(await item.getAttribute("data-unread")).toBe("true");
    await item.click();
    await expect.poll(() => byTestId(page, "announcement-detail-title").innerText()).toBe("Maintenance on Saturday");
    // The body is rendered from Markdown: bold text and a list.
    await expect.poll(() => byTestId(page, "announcement-detail-body").locator("strong").innerText()).toBe("02:00–03:00 UTC");
    expect(await byTestId(page, "announcement-detail-body").locator("li").count()).toBe(2);
    await expect.poll(() => bellCount(page)).toBe(0);
    const stats = await api<{ unread: number }>("/api/v1/announcements/stats", { token: mia.token });
    expect(stats.unread).toBe(0);

    await byTestId(page, "announcement-back").click();
    await expect.poll(() => item.getAttribute("data-unread")).toBe("false");
    await page.context().close();
  });

  it("the administrator writes one on the Instance page with a preview; mark all read clears the bell", async () => {
    const miaPage = await signedInPage(mia.token, "/console/agents");
    await expect.poll(() => bellCount(miaPage)).toBe(0);

    const admin = await browser.newContext({ viewport: { width: 1440, height: 900 } }).then((context) => context.newPage());
    admin.setDefaultTimeout(15_000);
    await admin.goto(parley.signInUrl!);
    await admin.waitForURL(/\/console\/agents$/);
    await admin.goto(`${parley.url}/console/instance`);
    await byTestId(admin, "instance-tab-announcements").click();
    await byTestId(admin, "announcement-new").click();
    await byTestId(admin, "announcement-form-submit").click();
    await expect.poll(() => byTestId(admin, "announcement-form").innerText()).toContain("Enter a title");
    await byTestId(admin, "announcement-form-title").fill("New: tags for customers");
    await byTestId(admin, "announcement-form-body").fill("Tag customers from the **inbox**.");
    await byTestId(admin, "announcement-form-preview").click();
    await expect.poll(() => byTestId(admin, "announcement-preview").locator("strong").innerText()).toBe("inbox");
    await byTestId(admin, "announcement-form-submit").click();
    await expect.poll(() => byTestId(admin, "instance-announcements").innerText()).toContain("New: tags for customers");

    await expect.poll(() => bellCount(miaPage), { timeout: 10_000 }).toBe(1);
    await byTestId(miaPage, "notifications").click();
    await expect.poll(() => byTestId(miaPage, "announcement-list").innerText()).toContain("New: tags for customers");
    await byTestId(miaPage, "announcement-read-all").click();
    await expect.poll(() => bellCount(miaPage)).toBe(0);
    expect((await api<{ unread: number }>("/api/v1/announcements/stats", { token: mia.token })).unread).toBe(0);

    // The administrator sees who read it.
    await admin.reload();
    await byTestId(admin, "instance-tab-announcements").click();
    const list = await api<{ items: Array<{ title: string; readCount: number }> }>("/api/v1/instance/announcements", { token: ownerKey });
    expect(list.items.find((item) => item.title === "New: tags for customers")?.readCount).toBe(1);
    await admin.context().close();
    await miaPage.context().close();
  });
});
