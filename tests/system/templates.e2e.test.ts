import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { codeFromOutbox, type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_e2e_templates_owner_0123456789abcd";
let parley: ParleyProcess;
let browser: Browser;
let leo: { token: string };

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
  [parley, browser] = await Promise.all([startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_SALES_EMAIL: "sales@example.com" }), launchBrowser()]);
  const email = "leo@example.com";
  await api("/api/v1/auth/codes", { method: "POST", json: { channel: "email", target: email, purpose: "register" } });
  const code = await codeFromOutbox(parley.url, ownerKey, email);
  leo = await api<{ token: string }>("/api/v1/auth/register", {
    method: "POST",
    json: { channel: "email", target: email, code, password: "leo-passw0rd", name: "Leo" },
  });
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
});

async function newPage(token?: string, path = "/login"): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${parley.url}/login`);
  if (token) await page.evaluate((value) => localStorage.setItem("token", value), token);
  await page.goto(`${parley.url}${path}`);
  return page;
}

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);

describe("templates and the contact form in Chromium", () => {
  it("a member finds a template, copies it into their space, and the copy answers", async () => {
    const page = await newPage(leo.token, "/console/templates");
    await expect.poll(() => byTestId(page, "template-card-translator").count()).toBe(1);
    await byTestId(page, "templates-search").locator("input").fill("translat");
    await byTestId(page, "templates-search").locator("input").press("Enter");
    await expect.poll(() => page.locator('[data-testid^="template-card-"]').count()).toBe(1);
    await byTestId(page, "template-card-translator").locator("a").click();
    await page.waitForURL(/\/console\/template\/translator$/);
    await expect.poll(() => byTestId(page, "template-prompt").innerText()).toContain("professional translator");
    await byTestId(page, "template-copy").click();
    await expect.poll(() => byTestId(page, "template-copied").innerText()).toContain("Translator");
    // Copying again gives a second copy with a distinct name.
    await byTestId(page, "template-copy").click();
    await expect.poll(() => byTestId(page, "template-copied").innerText()).toContain("Translator (2)");
    const apps = await api<{ items: Array<{ name: string }> }>("/api/v1/apps", { token: leo.token });
    expect(apps.items.map((app) => app.name).sort()).toEqual(["Translator", "Translator (2)"]);

    await byTestId(page, "template-chat-copy").click();
    await page.waitForURL(/\/app\//);
    await byTestId(page, "chat-input").fill("Good morning");
    await byTestId(page, "chat-send").click();
    const answer = byTestId(page, "chat-message-assistant").last();
    await expect.poll(() => answer.getAttribute("data-status"), { timeout: 20_000 }).toBe("complete");
    expect((await answer.innerText()).trim().length).toBeGreaterThan(0);
    await page.context().close();
  });

  it("a guest sees the templates and is asked to sign in to copy; /pluginKey asks a guest to sign in", async () => {
    const page = await newPage(undefined, "/template/intent-router");
    await expect.poll(() => byTestId(page, "template-detail").innerText()).toContain("Intent router");
    await expect.poll(() => byTestId(page, "template-sign-in").count()).toBe(1);
    await page.goto(`${parley.url}/pluginKey`);
    await expect.poll(() => byTestId(page, "plugin-key-guest").count()).toBe(1);
    await page.context().close();
  });

  it("the contact form refuses a bad e-mail and accepts a good one; the administrator sees it and sales got the mail", async () => {
    const page = await newPage(undefined, "/fillform");
    await byTestId(page, "contact-first-name").fill("Ada");
    await byTestId(page, "contact-last-name").fill("Lovelace");
    await byTestId(page, "contact-email").fill("ada-at-example");
    await byTestId(page, "contact-company").fill("Analytical Engines Ltd");
    await byTestId(page, "contact-submit").click();
    await expect.poll(() => page.locator(".ant-form-item-explain-error").allInnerTexts()).toContain("Enter a valid work e-mail address");
    expect((await api<{ total: number }>("/api/v1/instance/contact-requests", { token: ownerKey })).total).toBe(0);
    await byTestId(page, "contact-email").fill("ada@example.com");
    await byTestId(page, "contact-submit").click();
    await expect.poll(() => byTestId(page, "contact-form-sent").innerText()).toContain("48 hours");
    const requests = await api<{ items: Array<{ email: string; mailed: boolean }> }>("/api/v1/instance/contact-requests", { token: ownerKey });
    expect(requests.items).toEqual([expect.objectContaining({ email: "ada@example.com", mailed: true })]);
    const outbox = await api<Array<{ to: string; subject: string }>>("/api/v1/outbox?to=sales%40example.com", { token: ownerKey });
    expect(JSON.stringify(outbox)).toContain("Ada Lovelace");
    await page.context().close();
  });
});
