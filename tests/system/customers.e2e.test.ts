import fs from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import type { TelegramFake } from "@parley/channels/testing";
import { fakes } from "@parley/channels/testing";
import { createClient } from "@parley/sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../../packages/api/src/apps/testing";
import { customers } from "../../packages/api/src/db/schema/index";
import { inboxSpace } from "../../packages/api/src/inbox/testing";
import { upgradeSpaceForTest } from "../../packages/api/src/plans/testing";
import { createTestContext, registerUser, type TestContext } from "../../packages/api/src/testing/harness";
import { launchBrowser } from "./browser";
import { type ParleyProcess, root, startParley } from "./parley-process";

// The operator's side in Chromium (issue 17's acceptance journey): a Telegram conversation
// through the channels fake creates a customer; the operator makes a tag, tags the customer,
// filters by the tag, edits the customer, opens their conversations and exports the list; the
// dashboard then shows the conversation's counts and words, and an announcement the instance
// administrator publishes reaches the bell of this open console.
const ownerKey = "pk_customers_e2e_owner_key_0123456789";

let telegram: TelegramFake;
let parley: ParleyProcess;
let browser: Browser;
let page: Page;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  telegram = (await fakes.telegram!()) as TelegramFake;
  const port = await freePort();
  [parley, browser] = await Promise.all([
    startParley({
      PARLEY_BOOTSTRAP_API_KEY: ownerKey,
      PORT: String(port),
      PARLEY_PUBLIC_URL: `http://127.0.0.1:${port}`,
      PARLEY_CHANNEL_API_BASES: `telegram=${telegram.apiBase}`,
    }),
    launchBrowser(),
  ]);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await telegram?.close();
});

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
/** An option of the open select dropdown (closed ones stay in the page, hidden). */
const option = (text: string) => page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option", { hasText: text });
/** Closes the open select and waits until its list is gone, so the next select's options are the only ones shown. */
async function closeSelect() {
  await page.keyboard.press("Escape");
  await expect.poll(() => page.locator(".ant-select-dropdown:not(.ant-select-dropdown-hidden)").count()).toBe(0);
}
const api = () => createClient({ baseUrl: parley.url, apiKey: ownerKey });

describe("customers and tags in Chromium", () => {
  let customerId = "";

  it("a Telegram conversation makes a customer the list shows", async () => {
    const app = await api().POST("/api/v1/apps", {
      body: {
        name: "Shop helper",
        description: "Answers shop questions",
        openingIntroduction: "Hi! How can I help?",
        avatarUrl: "https://cdn.example.com/a.png",
        category: "productivity",
        settingsPrompt: "Answer briefly.",
      },
    });
    expect(app.error).toBeUndefined();
    const client = await api().POST("/api/v1/channel-clients", {
      body: {
        appId: app.data!.id,
        name: "Support on Telegram",
        kind: "telegram",
        config: { botToken: telegram.config.botToken!, secretToken: telegram.config.secretToken! },
      } as never,
    });
    expect(client.error).toBeUndefined();
    const webhookUrl = `${parley.url}/api/v1/channels/${client.data!.id}/webhook`;
    expect((await fetch(await telegram.delivery(webhookUrl, { text: "I want a refund for my parcel", senderName: "Ada" }))).status).toBe(200);

    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    await page.goto(`${parley.url}/console/customManage`);
    await page.waitForURL(/\/console\/customManage\/customerList$/);
    const row = page.locator('[data-testid="customer-table"] tr', { hasText: "Ada" });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.innerText()).toContain("telegram · Support on Telegram");
    customerId = (await row.locator('[data-testid^="customer-open-"]').getAttribute("data-testid"))!.replace("customer-open-", "");
  });

  it("creates a tag group and a tag synced to WeChat Work on the tag list", async () => {
    await byTestId("tab-tagList").click();
    await page.waitForURL(/\/console\/customManage\/tagList$/);
    await byTestId("tag-group-create").click();
    await byTestId("tag-group-name").fill("Intent");
    await byTestId("tag-group-submit").click();
    await expect.poll(() => byTestId("tag-list").innerText()).toContain("Intent (0)");
    // The same name again is refused next to the field.
    await byTestId("tag-group-create").click();
    await byTestId("tag-group-name").fill("Intent");
    await byTestId("tag-group-submit").click();
    await expect.poll(() => page.locator(".ant-form-item-explain-error").allInnerTexts()).toContain('A tag group named "Intent" already exists');
    await page.keyboard.press("Escape");

    await byTestId("tag-create").click();
    await byTestId("tag-name").fill("Refund");
    await byTestId("tag-group-select").click();
    await option("Intent").click();
    await byTestId("tag-sync-select").click();
    await option("WeChat Work").click();
    await byTestId("tag-submit").click();
    const tagRow = page.locator('[data-testid="tag-table"] tr', { hasText: "Refund" });
    await expect.poll(() => tagRow.count()).toBe(1);
    expect(await tagRow.innerText()).toContain("WeChat Work");
    const tags = await api().GET("/api/v1/tags", { params: { query: {} } });
    expect(tags.data).toEqual([expect.objectContaining({ name: "Refund", groupName: "Intent", syncTarget: "wecom" })]);
  });

  it("tags the customer in a batch, filters by the tag, edits and opens them, and exports", async () => {
    await byTestId("tab-customerList").click();
    await page.waitForURL(/\/console\/customManage\/customerList$/);
    const row = page.locator('[data-testid="customer-table"] tr', { hasText: "Ada" });
    await row.locator(".ant-checkbox-input").check();
    await byTestId("customer-batch-tags").click();
    await option("Intent / Refund").click();
    await closeSelect();
    await byTestId("customer-batch-add").click();
    await expect.poll(() => byTestId(`customer-tags-${customerId}`).innerText()).toContain("Refund");

    await byTestId("customer-filter-tags").click();
    await option("Intent / Refund").click();
    await closeSelect();
    await byTestId("customer-filter-apply").click();
    await expect.poll(() => page.locator('[data-testid="customer-table"] tbody tr.ant-table-row').count()).toBe(1);

    await byTestId(`customer-edit-${customerId}`).click();
    await byTestId("customer-edit-company").fill("Acme Ltd");
    await byTestId("customer-edit-remark").fill("Wants a refund");
    await byTestId("customer-edit-submit").click();
    await expect.poll(() => row.innerText()).toContain("Acme Ltd");

    await byTestId(`customer-open-${customerId}`).click();
    await expect.poll(() => byTestId("customer-conversations").innerText()).toContain("Shop helper");
    await page.locator(".ant-drawer-close").click();

    const [download] = await Promise.all([page.waitForEvent("download"), byTestId("customer-export-csv").click()]);
    expect(download.suggestedFilename()).toMatch(/^customers-.*\.csv$/);
    const text = fs.readFileSync((await download.path())!, "utf8");
    expect(text).toContain("Ada");
    expect(text).toContain("Intent/Refund");
    expect(text).toContain("Acme Ltd");
    const [xlsx] = await Promise.all([page.waitForEvent("download"), byTestId("customer-export-xlsx").click()]);
    expect(xlsx.suggestedFilename()).toMatch(/^customers-.*\.xlsx$/);
  });

  it("the dashboard shows the conversation's counts and words; an announcement reaches the open console's bell", async () => {
    await page.goto(`${parley.url}/console/analysis`);
    const kpi = (key: string) => byTestId(`analysis-kpi-${key}`).locator(".ant-statistic-content-value");
    // One Telegram user wrote once and the app answered once.
    await expect.poll(() => kpi("users").innerText()).toBe("1");
    await expect.poll(() => kpi("records").innerText()).toBe("1");
    expect(await kpi("transfers").innerText()).toBe("0");
    // The words of the question, stop words ("I", "to", "a", "for", "my") removed.
    const words = byTestId("analysis-words");
    await expect.poll(() => words.innerText()).toContain("refund");
    const shown = (await words.innerText()).split(/\s+/);
    expect(shown).toEqual(expect.arrayContaining(["refund", "parcel", "want"]));
    expect(shown).not.toContain("for");
    expect(shown).not.toContain("my");
    // The per-channel chart names the channel.
    await expect.poll(() => page.locator(".pl-analysis-charts tspan").allTextContents()).toContain("Telegram");

    // The bell: the console's socket is connected before the administrator publishes.
    const bell = () => byTestId("notifications-badge").getAttribute("data-count").then(Number);
    await expect.poll(bell).toBe(0);
    await page.waitForTimeout(500);
    const published = await fetch(`${parley.url}/api/v1/instance/announcements`, {
      method: "POST",
      headers: { authorization: `Bearer ${ownerKey}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Dashboard is live", body: "See **records** and words.", audience: "everyone" }),
    });
    expect(published.status).toBe(201);
    await expect.poll(bell, { timeout: 10_000 }).toBe(1);
    await byTestId("notifications").click();
    await expect.poll(() => byTestId("announcement-list").innerText()).toContain("Dashboard is live");
  });
});

// The same pages for a viewer (customers.view without customers.edit): they list, open and
// export customers and read tags, with no control that changes anything. The built console is
// served in-process so the test can add the member the way an accepted invitation would.
describe("a viewer's customer pages in Chromium", () => {
  let ctx: TestContext;
  let base: string;
  let customerId = "";
  let tagId = "";
  const viewerPage = async (token: string, spaceId: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: "en-US" });
    const viewer = await context.newPage();
    viewer.setDefaultTimeout(15_000);
    await ctx.request(`/api/v1/spaces/${spaceId}/select`, { method: "POST", token });
    await viewer.goto(`${base}/login`);
    await viewer.evaluate((value) => localStorage.setItem("token", value), token);
    return viewer;
  };
  const count = (on: Page, selector: string) => on.locator(selector).count();

  beforeAll(async () => {
    ctx = await createTestContext({ PARLEY_CONSOLE_DIR: path.join(root, "packages/console/dist") });
    base = await ctx.listen();
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it("the owner sees the edit controls; a viewer of the same team sees the customers and tags without them", async () => {
    const owner = await registerUser(ctx, "owner-customers-viewer@example.com");
    const viewer = await registerUser(ctx, "viewer-customers-viewer@example.com");
    const created = await ctx.request("/api/v1/spaces", { method: "POST", token: owner.token, json: { companyName: "Viewer Co" } });
    expect(created.status, await created.clone().text()).toBeLessThan(300);
    const spaceId = ((await created.json()) as { data: { spaceId: string } }).data.spaceId;
    await ctx.request(`/api/v1/spaces/${spaceId}/select`, { method: "POST", token: owner.token });
    await upgradeSpaceForTest(ctx, spaceId);
    const shop = await inboxSpace(ctx, { ...owner, user: { ...owner.user, spaceId } }, { name: "Viewer bot" });
    customerId = "cus_viewer_check";
    await ctx.deps.db.insert(customers).values({
      id: customerId,
      spaceId,
      channel: "web",
      clientId: shop.clientId,
      externalId: "grace",
      nickname: "Grace Hopper",
      lastConversationAt: new Date().toISOString(),
    });
    const group = await ctx.request("/api/v1/tag-groups", { method: "POST", token: owner.token, json: { name: "Level" } });
    const groupId = ((await group.json()) as { data: { id: string } }).data.id;
    const tag = await ctx.request("/api/v1/tags", { method: "POST", token: owner.token, json: { groupId, name: "Gold" } });
    tagId = ((await tag.json()) as { data: { id: string } }).data.id;
    await addMember(ctx, spaceId, viewer, "viewer");

    // The owner: row selection, edit and AI tagging on the list; create, edit and delete on tags.
    const ownerPage = await viewerPage(owner.token, spaceId);
    await ownerPage.goto(`${base}/console/customManage/customerList`);
    await expect.poll(() => count(ownerPage, `[data-testid="customer-open-${customerId}"]`)).toBe(1);
    await expect.poll(() => count(ownerPage, `[data-testid="customer-edit-${customerId}"]`)).toBe(1);
    expect(await count(ownerPage, `[data-testid="customer-ai-${customerId}"]`)).toBe(1);
    expect(await count(ownerPage, '[data-testid="customer-table"] .ant-checkbox-input')).toBeGreaterThan(0);
    await ownerPage.goto(`${base}/console/customManage/tagList`);
    await expect.poll(() => count(ownerPage, `[data-testid="tag-edit-${tagId}"]`)).toBe(1);
    expect(await count(ownerPage, '[data-testid="tag-create"]')).toBe(1);

    // The viewer: the same customer and tag, export still there, nothing that changes them.
    const page = await viewerPage(viewer.token, spaceId);
    await page.goto(`${base}/console/customManage/customerList`);
    await expect.poll(() => count(page, `[data-testid="customer-open-${customerId}"]`)).toBe(1);
    expect(await count(page, '[data-testid="customer-export-csv"]')).toBe(1);
    expect(await count(page, `[data-testid="customer-edit-${customerId}"]`)).toBe(0);
    expect(await count(page, `[data-testid="customer-ai-${customerId}"]`)).toBe(0);
    expect(await count(page, '[data-testid="customer-table"] .ant-checkbox-input')).toBe(0);
    await page.locator(`[data-testid="customer-open-${customerId}"]`).click();
    await expect.poll(() => page.locator('[data-testid="customer-drawer"]').innerText()).toContain("Grace Hopper");
    await page.goto(`${base}/console/customManage/tagList`);
    await expect.poll(() => count(page, `[data-testid="tag-row-${tagId}"]`)).toBe(1);
    expect(await count(page, `[data-testid="tag-edit-${tagId}"]`)).toBe(0);
    expect(await count(page, `[data-testid="tag-delete-${tagId}"]`)).toBe(0);
    expect(await count(page, '[data-testid="tag-create"]')).toBe(0);
    expect(await count(page, '[data-testid="tag-group-create"]')).toBe(0);
    expect(await count(page, '[data-testid^="tag-group-delete-"]')).toBe(0);
    // The server refuses the viewer's edit anyway.
    const refused = await ctx.request(`/api/v1/customers/${customerId}`, { method: "PATCH", token: viewer.token, json: { remark: "x" } });
    expect(refused.status).toBe(403);
  });
});
