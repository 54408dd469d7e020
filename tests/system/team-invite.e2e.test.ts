import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { apiCall, codeFromOutbox, type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_team_e2e_owner_key_0123456789abcd";

let parley: ParleyProcess;
let browser: Browser;
let ownerContext: BrowserContext;
let owner: Page;
let team: { spaceId: string; companyName: string };

beforeAll(async () => {
  [parley, browser] = await Promise.all([startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_SEED_DEMO: "false" }), launchBrowser()]);
  // The owner's team space, made before the owner's console opens so it is their current space.
  team = await apiCall(parley.url, ownerKey, "POST", "/api/v1/spaces", { companyName: "Harbour Team" });
  ownerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  owner = await ownerContext.newPage();
  owner.setDefaultTimeout(15_000);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
});

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);

describe("team invitation in Chromium: link → register → confirm → member", () => {
  let link = "";

  it("the owner creates an invitation link in the team space's Invitations tab", async () => {
    await owner.goto(parley.signInUrl!);
    await owner.waitForURL(/\/console\/agents$/);
    await owner.goto(`${parley.url}/console/teamSpace`);
    await byTestId(owner, "team-tab-invitations").click();
    await byTestId(owner, "team-invitation-create").click();
    await byTestId(owner, "team-invitation-submit").click();
    const cell = owner.locator('[data-testid^="team-invitation-link-"]').first();
    await expect.poll(() => cell.count()).toBe(1);
    link = (await cell.innerText()).trim();
    expect(link).toMatch(/\/console\/agents\?inviteParam=tm_/);
    await expect.poll(() => owner.locator('[data-testid^="team-invitation-status-"]').first().innerText()).toBe("Active");
  });

  it("a new person opens the link signed out, registers, confirms joining and lands in the team space", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const email = "newcomer.team@example.com";
    const password = "team-passw0rd";

    await page.goto(link.replace(/^https?:\/\/[^/]+/, parley.url));
    await page.waitForURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem("teamInviteParam"))).toMatch(/^tm_/);
    await byTestId(page, "register-link").click();
    await page.waitForURL(/\/register/);
    await byTestId(page, "register-target").fill(email);
    await byTestId(page, "register-code-send").click();
    const code = await codeFromOutbox(parley.url, ownerKey, email);
    await byTestId(page, "register-code").fill(code);
    await byTestId(page, "register-password").fill(password);
    await byTestId(page, "register-confirm").fill(password);
    await byTestId(page, "register-name").fill("Nina Newcomer");
    await byTestId(page, "register-submit").click();
    await page.waitForURL(/\/console\/agents/);

    // Registration did not join them: the console asks first.
    await expect.poll(() => byTestId(page, "team-join-dialog").innerText()).toContain("Confirm joining the space of Harbour Team?");
    await byTestId(page, "team-join-confirm").click();
    await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "{}").companyName)).toBe("Harbour Team");
    expect(await page.evaluate(() => localStorage.getItem("teamInviteParam"))).toBeNull();
    const token = (await page.evaluate(() => localStorage.getItem("token")))!;
    const me = await apiCall<{ spaceId: string; companyName: string }>(parley.url, token, "GET", "/api/v1/me");
    expect(me).toMatchObject({ spaceId: team.spaceId, companyName: "Harbour Team" });
    await context.close();
  });

  it("the owner sees the new member in the Members tab", async () => {
    await owner.goto(`${parley.url}/console/teamSpace`);
    await expect.poll(() => byTestId(owner, "team-member-newcomer.team@example.com").count()).toBe(1);
    const row = owner.locator("tr", { has: byTestId(owner, "team-member-newcomer.team@example.com") });
    await expect.poll(() => row.innerText()).toContain("Viewer");
    expect(await row.innerText()).toContain("Nina Newcomer");
  });
});
