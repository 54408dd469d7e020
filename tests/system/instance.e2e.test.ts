import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { codeFromOutbox, type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_e2e_instance_owner_0123456789abcdef";
let parley: ParleyProcess;
let browser: Browser;
/** The second account, registered through the API. */
let dana: { token: string; userId: string; spaceId: string };

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
  const email = "dana@example.com";
  await api("/api/v1/auth/codes", { method: "POST", json: { channel: "email", target: email, purpose: "register" } });
  const code = await codeFromOutbox(parley.url, ownerKey, email);
  const session = await api<{ token: string; user: { id: string; spaceId: string } }>("/api/v1/auth/register", {
    method: "POST",
    json: { channel: "email", target: email, code, password: "dana-passw0rd", name: "Dana" },
  });
  dana = { token: session.token, userId: session.user.id, spaceId: session.user.spaceId };
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
});

async function freshPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const menuText = (page: Page) => byTestId(page, "console-menu").innerText();

async function choose(page: Page, testId: string, option: RegExp) {
  await byTestId(page, testId).click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: option }).first().click();
}

describe("instance administration in Chromium", () => {
  it("the owner signs in with the printed link, has the full menu, and sets another user's grade in Instance", async () => {
    const page = await freshPage();
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    for (const label of ["Clients", "Chat management", "Customers", "Dashboard", "Team", "Instance"]) {
      await expect.poll(() => menuText(page)).toContain(label);
    }

    await byTestId(page, "menu-instance").click();
    await page.waitForURL(/\/console\/instance$/);
    await byTestId(page, "instance-users-search").locator("input").fill("dana");
    await byTestId(page, "instance-users-search").locator("input").press("Enter");
    await expect.poll(() => byTestId(page, "instance-users").innerText()).toContain("dana@example.com");
    await expect.poll(() => byTestId(page, "instance-users").innerText()).not.toContain("Administrator");
    await choose(page, `instance-user-grade-${dana.userId}`, /^Team$/);
    await expect.poll(() => page.locator(".ant-message").innerText()).toContain("Dana is now on Team");
    await expect.poll(() => byTestId(page, `instance-user-grade-${dana.userId}`).innerText()).toBe("Team");

    // The change is stored: Dana's next privileges call opens Clients and Chat management, no new sign-in.
    const privileges = await api<{ memberGrade: string; menus: Array<{ key: string; visible: boolean }> }>("/api/v1/privileges", { token: dana.token });
    expect(privileges.memberGrade).toBe("PROFESSION");
    expect(privileges.menus.filter((menu) => menu.visible).map((menu) => menu.key)).toEqual(expect.arrayContaining(["clients", "chatManage", "analysis"]));

    // A change to the owner's own current space shows in the menu at once.
    await byTestId(page, "instance-tab-spaces").click();
    const owner = await api<{ spaceId: string }>("/api/v1/me", { token: ownerKey });
    await byTestId(page, `instance-space-edit-${owner.spaceId}`).click();
    await choose(page, "instance-space-grade", /^Free$/);
    await byTestId(page, "instance-space-save").click();
    await expect.poll(() => byTestId(page, `instance-space-grade-${owner.spaceId}`).innerText()).toBe("Free");
    await expect.poll(() => menuText(page)).not.toContain("Clients");
    await expect.poll(() => menuText(page)).toContain("Instance");
    await byTestId(page, `instance-space-edit-${owner.spaceId}`).click();
    await choose(page, "instance-space-grade", /^Custom$/);
    await byTestId(page, "instance-space-save").click();
    await expect.poll(() => menuText(page)).toContain("Clients");
    await page.context().close();
  });

  it("another user sees the grade the administrator set, no Instance entry, and a 403 page at /console/instance", async () => {
    const page = await freshPage();
    await page.goto(`${parley.url}/login`);
    await page.evaluate((token) => localStorage.setItem("token", token), dana.token);
    await page.goto(`${parley.url}/console/agents`);
    await expect.poll(() => menuText(page)).toContain("Chat management");
    expect(await menuText(page)).not.toContain("Instance");
    await page.goto(`${parley.url}/console/instance`);
    await expect.poll(() => byTestId(page, "instance-forbidden").count()).toBe(1);
    await page.context().close();
  });
});
