import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { codeFromOutbox, type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_e2e_benefits_owner_0123456789abcdef";
let parley: ParleyProcess;
let browser: Browser;
let lena: { token: string; spaceId: string };

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
  [parley, browser] = await Promise.all([
    startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_CHECKIN_MIN: "10", PARLEY_CHECKIN_MAX: "50" }),
    launchBrowser(),
  ]);
  const email = "lena@example.com";
  await api("/api/v1/auth/codes", { method: "POST", json: { channel: "email", target: email, purpose: "register" } });
  const code = await codeFromOutbox(parley.url, ownerKey, email);
  const session = await api<{ token: string; user: { spaceId: string } }>("/api/v1/auth/register", {
    method: "POST",
    json: { channel: "email", target: email, code, password: "lena-passw0rd", name: "Lena" },
  });
  lena = { token: session.token, spaceId: session.user.spaceId };
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
});

async function signedInPage(path: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${parley.url}/login`);
  await page.evaluate((token) => localStorage.setItem("token", token), lena.token);
  await page.goto(`${parley.url}${path}`);
  return page;
}

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const balanceIn = async (page: Page) => Number((await byTestId(page, "top-balance").innerText()).replace(/\D/g, ""));

describe("earned credits in Chromium", () => {
  it("checks in from the top bar: the balance rises by today's reward and the button is disabled, also after a reload", async () => {
    const page = await signedInPage("/console/agents");
    const button = byTestId(page, "check-in");
    await expect.poll(() => button.isEnabled()).toBe(true);
    await expect.poll(() => balanceIn(page)).toBeGreaterThan(0);
    const before = await balanceIn(page);

    await button.click();
    await expect.poll(() => button.isDisabled()).toBe(true);
    await expect.poll(() => button.innerText()).toMatch(/Checked in · \+\d+/);
    const reward = Number(/\+(\d+)/.exec(await button.innerText())![1]);
    expect(reward).toBeGreaterThanOrEqual(10);
    expect(reward).toBeLessThanOrEqual(50);
    await expect.poll(() => balanceIn(page)).toBe(before + reward);
    const server = await api<{ balance: number }>("/api/v1/credits", { token: lena.token });
    expect(server.balance).toBe(before + reward);

    await page.reload();
    await expect.poll(() => byTestId(page, "check-in").getAttribute("data-checked-in")).toBe("true");
    expect(await byTestId(page, "check-in").isDisabled()).toBe(true);
    await page.context().close();
  });

  it("shows the invitation link on /benefits; the balance alert needs a threshold, and crossing it puts a notice under the bell", async () => {
    const page = await signedInPage("/benefits");
    await expect.poll(() => byTestId(page, "benefits-invite-link").innerText()).toMatch(/\/register\?inviteParam=[A-Z2-9]{8}$/);
    await expect.poll(() => byTestId(page, "benefits-balance").innerText()).toContain("0");

    await page.goto(`${parley.url}/console/account?tab=balanceAlert`);
    await byTestId(page, "balance-alert-save").click();
    await expect.poll(() => byTestId(page, "balance-alert-form").innerText()).toContain("The balance alarm needs a threshold");
    await byTestId(page, "balance-alert-threshold").fill("500");
    await byTestId(page, "balance-alert-save").click();
    await expect.poll(async () => (await api<{ threshold: number | null }>("/api/v1/balance-alert", { token: lena.token })).threshold).toBe(500);
    await page.context().close();
  });
});
