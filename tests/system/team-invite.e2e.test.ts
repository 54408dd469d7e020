import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { apiCall, codeFromOutbox, type ParleyProcess, startParley } from "./parley-process";

// Issue 16's acceptance journey in Chromium: the owner sets up a custom role in the role editor
// and invites with it → a new person registers through the link → confirms joining → sees only
// the menus of their role → the owner takes a permission away → the member's open console loses
// that menu without a reload.

const ownerKey = "pk_team_e2e_owner_key_0123456789abcd";

let parley: ParleyProcess;
let browser: Browser;
let ownerContext: BrowserContext;
let owner: Page;
let team: { spaceId: string; companyName: string };
let roleId: string;
let member: Page;

beforeAll(async () => {
  [parley, browser] = await Promise.all([startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_SEED_DEMO: "false" }), launchBrowser()]);
  // The owner's team space, made before the owner's console opens so it is their current space.
  team = await apiCall(parley.url, ownerKey, "POST", "/api/v1/spaces", { companyName: "Harbour Team" });
  ownerContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  owner = await ownerContext.newPage();
  owner.setDefaultTimeout(15_000);
}, 60_000);
afterAll(async () => {
  await member?.context().close();
  await browser?.close();
  await parley?.stop();
});

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const menuKeys = (page: Page) =>
  page.$$eval('[data-testid="console-menu"] [data-testid^="menu-"]', (items) => items.map((item) => item.getAttribute("data-testid")!.slice("menu-".length)));

describe("team in Chromium: role → link → register → confirm → role's menus → permission removed live", () => {
  let link = "";

  it("the owner gives a new role Apps and Knowledge in the role editor", async () => {
    await owner.goto(parley.signInUrl!);
    await owner.waitForURL(/\/console\/agents$/);
    roleId = (await apiCall<{ id: string }>(parley.url, ownerKey, "POST", "/api/v1/team/roles", { name: "Content editor" }, { spaceId: team.spaceId })).id;
    await owner.goto(`${parley.url}/console/teamSpace/roleEdit?roleId=${roleId}`);
    await byTestId(owner, "grant-apps.view").click();
    await byTestId(owner, "grant-knowledge.view").click();
    await byTestId(owner, "role-next").click();
    await byTestId(owner, "range-all").click();
    await byTestId(owner, "role-save").click();
    await expect.poll(() => owner.url()).toMatch(/\/console\/teamSpace$/);
  });

  it("the owner creates an invitation link with that role in the team space's Invitations tab", async () => {
    await owner.goto(`${parley.url}/console/teamSpace`);
    await byTestId(owner, "team-tab-invitations").click();
    await byTestId(owner, "team-invitation-create").click();
    await byTestId(owner, "team-invitation-role").click();
    await owner.locator(".ant-select-item-option", { hasText: "Content editor" }).click();
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
    const me = await apiCall<{ spaceId: string; companyName: string; roleName: string }>(parley.url, token, "GET", "/api/v1/me");
    expect(me).toMatchObject({ spaceId: team.spaceId, companyName: "Harbour Team", roleName: "Content editor" });
    // Only the menus of the role, with templates and the store every member has.
    await expect.poll(() => menuKeys(page)).toEqual(["apps", "knowledge", "templates", "store"]);
    await page.goto(`${parley.url}/console/knowledge`);
    await expect.poll(() => menuKeys(page)).toEqual(["apps", "knowledge", "templates", "store"]);
    member = page;
  });

  it("the owner sees the new member in the Members tab", async () => {
    await owner.goto(`${parley.url}/console/teamSpace`);
    await expect.poll(() => byTestId(owner, "team-member-newcomer.team@example.com").count()).toBe(1);
    const row = owner.locator("tr", { has: byTestId(owner, "team-member-newcomer.team@example.com") });
    await expect.poll(() => row.innerText()).toContain("Content editor");
    expect(await row.innerText()).toContain("Nina Newcomer");
  });

  it("the owner takes Knowledge away from the role: the member's open console loses it without a reload", async () => {
    // A mark on the page's window: a reload would lose it.
    await member.evaluate(() => Object.assign(window, { parleyNoReload: true }));
    await owner.goto(`${parley.url}/console/teamSpace/roleEdit?roleId=${roleId}`);
    await expect.poll(() => byTestId(owner, "grant-knowledge.view").isChecked()).toBe(true);
    await byTestId(owner, "grant-knowledge.view").click();
    await byTestId(owner, "role-next").click();
    await byTestId(owner, "role-save").click();
    await expect.poll(() => owner.url()).toMatch(/\/console\/teamSpace$/);
    await expect.poll(() => menuKeys(member)).toEqual(["apps", "templates", "store"]);
    // The guard leaves the knowledge page for the first page the role still opens.
    await expect.poll(() => new URL(member.url()).pathname).toBe("/console/agents");
    expect(await member.evaluate(() => (window as unknown as { parleyNoReload?: boolean }).parleyNoReload)).toBe(true);
    // And the server refuses what the menu no longer offers.
    const token = (await member.evaluate(() => localStorage.getItem("token")))!;
    const refused = await fetch(`${parley.url}/api/v1/knowledge-bases`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(403);
  });
});
