import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../../packages/api/src/apps/testing";
import { createTestContext, freePort, registerUser, type TestContext, type TestUser } from "../../packages/api/src/testing/harness";
import { launchBrowser } from "./browser";
import { root } from "./parley-process";

// The built console served by an in-process server (so the test can add a member the way an
// accepted invitation would), two Chromium pages: the owner edits a custom role in the role
// editor, and the member's open console follows the change without a reload (issue 16).

let ctx: TestContext;
let base: string;
let browser: Browser;
let owner: TestUser;
let member: TestUser;
let ownerPage: Page;
let memberPage: Page;
let spaceId: string;
let roleId: string;

beforeAll(async () => {
  const port = await freePort();
  [ctx, browser] = await Promise.all([
    createTestContext({ PARLEY_CONSOLE_DIR: path.join(root, "packages/console/dist"), PARLEY_PUBLIC_URL: `http://127.0.0.1:${port}` }),
    launchBrowser(),
  ]);
  base = await ctx.listen(port);
  owner = await registerUser(ctx, "owner-team-roles@example.com");
  member = await registerUser(ctx, "member-team-roles@example.com");
  ownerPage = await signedIn(owner.token);
  memberPage = await signedIn(member.token);
});
afterAll(async () => {
  await browser?.close();
  await ctx?.close();
});

async function signedIn(token: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "en-US" });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${base}/login`);
  await page.evaluate((value) => localStorage.setItem("token", value), token);
  return page;
}

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
const menuKeys = (page: Page) =>
  page.$$eval('[data-testid="console-menu"] [data-testid^="menu-"]', (items) => items.map((item) => item.getAttribute("data-testid")!.slice("menu-".length)));

async function api<T>(token: string, method: string, url: string, json?: unknown): Promise<T> {
  const response = await ctx.request(url, { method, token, headers: spaceId ? { "x-parley-space": spaceId } : {}, ...(json === undefined ? {} : { json }) });
  const text = await response.text();
  expect(response.status, text).toBeLessThan(300);
  return (JSON.parse(text) as { data: T }).data;
}

describe("custom roles decide a member's console, live", () => {
  it("the owner creates a team space and sets up a role in the role editor", async () => {
    await ownerPage.goto(`${base}/console/agents`);
    await byTestId(ownerPage, "space-switcher").click();
    await byTestId(ownerPage, "create-team").click();
    await byTestId(ownerPage, "create-team-name").fill("Roles Co");
    await ownerPage.keyboard.press("Enter");
    await expect.poll(() => byTestId(ownerPage, "space-switcher").innerText()).toContain("Roles Co");
    spaceId = (await api<Array<{ spaceId: string; companyName: string }>>(owner.token, "GET", "/api/v1/me/spaces")).find(
      (space) => space.companyName === "Roles Co",
    )!.spaceId;

    roleId = (await api<{ id: string }>(owner.token, "POST", "/api/v1/team/roles", { name: "Content editor", description: "Apps and knowledge" })).id;
    await ownerPage.goto(`${base}/console/teamSpace/roleEdit?roleId=${roleId}`);
    await expect.poll(() => byTestId(ownerPage, "role-edit-page").innerText()).toContain("Content editor");
    await byTestId(ownerPage, "grant-apps.view").click();
    await byTestId(ownerPage, "grant-knowledge.view").click();
    await byTestId(ownerPage, "role-next").click();
    // Saving needs a data range (spec §5).
    await byTestId(ownerPage, "role-save").click();
    await expect.poll(() => byTestId(ownerPage, "role-edit-error").innerText()).toContain("Choose the data range");
    await byTestId(ownerPage, "range-all").click();
    await byTestId(ownerPage, "role-save").click();
    await expect.poll(() => ownerPage.url()).toMatch(/\/console\/teamSpace$/);

    const roles = await api<Array<{ id: string; grants: string[]; dataRange: unknown }>>(owner.token, "GET", "/api/v1/team/roles");
    expect(roles.find((role) => role.id === roleId)).toMatchObject({ grants: ["apps.view", "knowledge.view"], dataRange: { scope: "all" } });
  });

  it("a member with the role sees only Apps and Knowledge (with templates and the store)", async () => {
    await addMember(ctx, spaceId, member, roleId);
    await api(member.token, "POST", `/api/v1/spaces/${spaceId}/select`);
    await memberPage.goto(`${base}/console/knowledge`);
    await expect.poll(() => menuKeys(memberPage)).toEqual(["apps", "knowledge", "templates", "store"]);
    // The space switcher names the member's role.
    await byTestId(memberPage, "space-switcher").click();
    await expect.poll(() => byTestId(memberPage, `space-role-${spaceId}`).innerText()).toBe("Content editor");
    await memberPage.keyboard.press("Escape");
  });

  it("removing knowledge.view in the editor takes Knowledge away from the member's open console", async () => {
    await ownerPage.goto(`${base}/console/teamSpace/roleEdit?roleId=${roleId}`);
    await expect.poll(() => byTestId(ownerPage, "grant-knowledge.view").isChecked()).toBe(true);
    await byTestId(ownerPage, "grant-knowledge.view").click();
    await byTestId(ownerPage, "role-next").click();
    await byTestId(ownerPage, "role-save").click();
    await expect.poll(() => ownerPage.url()).toMatch(/\/console\/teamSpace$/);

    // No reload: the member's console hears access.changed, its menu drops Knowledge and the
    // guard leaves the knowledge page for the first page the role still opens.
    await expect.poll(() => menuKeys(memberPage)).toEqual(["apps", "templates", "store"]);
    await expect.poll(() => new URL(memberPage.url()).pathname).toBe("/console/agents");
  });
});
