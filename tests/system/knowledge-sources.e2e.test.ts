import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FeishuFake, startFeishuFake } from "../../packages/api/src/testing/fakes/feishu";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_knowledge_sources_e2e_owner_key_01";
/** Set PARLEY_SCREENSHOTS to a directory to keep screenshots of the screens. */
const shots = process.env.PARLEY_SCREENSHOTS;
const feishuApp = { appId: "cli_parley_e2e_0001", appSecret: "feishu-e2e-secret" };
const feishuDocument = {
  documentId: "DoxE2eOnboarding01",
  title: "Onboarding guide",
  content: "Every new courier rides along with a mentor for their first three delivery days.\n\nVans are checked every Monday morning before the first route.",
};

const shippingPage = `<!doctype html><html><head><meta charset="utf-8"><title>Shipping help</title></head><body>
<nav>Home · Shop · Help</nav><article><h1>Shipping help</h1>
<p>Express shipping delivers parcels within one working day to every address in the Benelux. Orders placed before noon leave our warehouse the same day.</p>
<p>Standard shipping takes two to three working days and is free for orders above fifty euros.</p></article></body></html>`;
/** The smallest valid PNG (1×1), for the media materials. */
const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

let site: http.Server;
let siteUrl = "";
let feishu: FeishuFake;
let parley: ParleyProcess;
let browser: Browser;
let page: Page;
let files: string;
let knowledgeBaseId = "";

beforeAll(async () => {
  files = fs.mkdtempSync(path.join(os.tmpdir(), "parley-knowledge-sources-e2e-"));
  fs.writeFileSync(path.join(files, "kitchen-prices.csv"), "Name,SKU,Price\nKettle,A-100,39\nToaster,B-200,25\n");
  // Row 3 has no answer: it is counted as failed, the other pair is kept.
  fs.writeFileSync(
    path.join(files, "delivery-faq.csv"),
    "question,answer,search method,attached material\nHow long does delivery take?,Two to three working days within the Netherlands.,question,\nDo you ship abroad?,,question,\n",
  );
  fs.writeFileSync(path.join(files, "depot-map.png"), png);
  // Says it is a PNG but is not: the server reads the bytes and refuses it.
  fs.writeFileSync(path.join(files, "fake-photo.png"), "not an image at all");
  // A local web site for the website import; the server may reach this one loopback host only.
  site = http.createServer((request, response) => {
    if (request.url === "/shipping.html") response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(shippingPage);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  feishu = await startFeishuFake({ apps: [feishuApp], documents: [feishuDocument] });
  [parley, browser] = await Promise.all([
    startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_PLUGINS_ALLOWED_HOSTS: new URL(siteUrl).host, PARLEY_FEISHU_BASE_URL: feishu.url }),
    launchBrowser(),
  ]);
  const created = await fetch(`${parley.url}/api/v1/knowledge-bases`, {
    method: "POST",
    headers: { authorization: `Bearer ${ownerKey}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Courier handbook" }),
  });
  knowledgeBaseId = ((await created.json()) as { data: { id: string } }).data.id;
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  if (shots) fs.mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await feishu?.close();
  await new Promise((resolve) => site?.close(resolve));
  if (files) fs.rmSync(files, { recursive: true, force: true });
});

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
const snap = async (name: string) => {
  if (!shots) return;
  await page.waitForTimeout(400); // let antd's transitions settle
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
};
const errorsShown = () => page.locator(".ant-form-item-explain-error").allInnerTexts();

describe("knowledge sources in Chromium: Q&A, table, website, Feishu, media materials", () => {
  it("signs in and opens the import screen of the knowledge base", async () => {
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    await page.goto(`${parley.url}/console/knowledge/knowledgeManage/importFile?id=${knowledgeBaseId}`);
    await expect.poll(() => byTestId("knowledge-base-name").innerText()).toBe("Courier handbook");
  });

  it("imports Q&A pairs from a CSV: template download, import report with the failed row, pairs in the preview", async () => {
    await byTestId("import-type-qa").click();
    await byTestId("import-next").click();

    const [download] = await Promise.all([page.waitForEvent("download"), byTestId("import-qa-template").click()]);
    expect(download.suggestedFilename()).toBe("qa-template.csv");
    const template = fs.readFileSync((await download.path())!, "utf8");
    expect(template).toContain("question");
    expect(template).toContain("answer");

    await page.locator('[data-testid="import-upload-step"] input[type="file"]').setInputFiles(path.join(files, "delivery-faq.csv"));
    expect(await byTestId("import-name").inputValue()).toBe("delivery-faq");
    await byTestId("import-upload").click();
    await expect.poll(() => byTestId("import-report").innerText()).toContain("Imported 1 of 2 records");
    expect(await byTestId("import-report-message").innerText()).toBe("Import failed for 1 records");
    expect(await byTestId("preview-segment").count()).toBe(1);
    expect(await byTestId("preview-segments").innerText()).toMatch(/Question\s+How long does delivery take\?[\s\S]*Answer\s+Two to three working days/);
    await snap("knowledge-qa-preview-en");
    await byTestId("import-next").click();
    await byTestId("import-confirm").click();
    await page.waitForURL(new RegExp(`/knowledgeManage/baseFile\\?id=${knowledgeBaseId}$`));
    const row = byTestId("file-row-delivery-faq");
    await expect.poll(() => row.locator('[data-testid="file-status"]').getAttribute("data-status"), { timeout: 20_000 }).toBe("effective");
    expect(await row.innerText()).toMatch(/Q&A/);
    // Exported as a CSV in the template's layout: the kept pair, not the failed row.
    const [exported] = await Promise.all([page.waitForEvent("download"), row.locator('[data-testid="file-export"]').click()]);
    expect(exported.suggestedFilename()).toMatch(/\.csv$/);
    const csv = fs.readFileSync((await exported.path())!, "utf8");
    expect(csv).toContain("How long does delivery take?");
    expect(csv).not.toContain("Do you ship abroad?");
  });

  it("imports a table with a chosen index column, previews its rows, then adds a row once it is effective", async () => {
    await byTestId("tab-importFile").click();
    await byTestId("import-type-table").click();
    await byTestId("import-next").click();
    await page.locator('[data-testid="import-upload-step"] input[type="file"]').setInputFiles(path.join(files, "kitchen-prices.csv"));
    // The header is read in the browser: the first field is the default index column.
    const uploadStepText = () =>
      byTestId("import-upload-step").evaluate(
        (step) => `${(step as HTMLElement).innerText} ${[...step.querySelectorAll("input")].map((input) => input.placeholder).join(" ")}`,
      );
    await expect.poll(uploadStepText).toContain("Default: Name (the first field)");
    await byTestId("import-index-column").locator("input").last().fill("Nope");
    await byTestId("import-upload").click();
    await expect.poll(errorsShown).toContain("Nope is not a field of the table");
    await byTestId("import-index-column").locator("input").last().fill("SKU");
    await byTestId("import-upload").click();

    await expect.poll(() => byTestId("import-report").innerText()).toContain("Imported 2 of 2 records");
    const preview = byTestId("preview-table");
    await expect.poll(() => preview.locator("thead").locator(`[data-testid="table-index-column"]`).first().innerText()).toMatch(/^SKU/);
    expect(await preview.locator("thead").innerText()).toMatch(/Name[\s\S]*SKU[\s\S]*Price/);
    expect(await preview.locator("tbody").innerText()).toMatch(/Kettle\s+A-100\s+39[\s\S]*Toaster\s+B-200\s+25/);
    await snap("knowledge-table-preview-en");
    await byTestId("import-next").click();
    await expect.poll(() => byTestId("import-confirm-step").innerText()).toContain("Each record becomes one segment");
    await byTestId("import-confirm").click();
    await page.waitForURL(new RegExp(`/knowledgeManage/baseFile\\?id=${knowledgeBaseId}$`));

    const row = byTestId("file-row-kitchen-prices");
    await expect.poll(() => row.locator('[data-testid="file-status"]').getAttribute("data-status"), { timeout: 20_000 }).toBe("effective");
    await row.locator('[data-testid="file-segments-open"]').click();
    await expect.poll(() => byTestId("table-total").innerText()).toBe("2 rows, 3 fields");
    await byTestId("table-add-row").click();
    await byTestId("table-row-value-Name").fill("Blender");
    await byTestId("table-row-save").click();
    await expect.poll(errorsShown).toContain("The index column SKU cannot be empty");
    await byTestId("table-row-value-SKU").fill("C-300");
    await byTestId("table-row-value-Price").fill("59");
    await byTestId("table-row-save").click();
    await expect.poll(() => byTestId("table-total").innerText()).toBe("3 rows, 3 fields");
    expect(await byTestId("table-rows").locator("tbody").innerText()).toMatch(/Blender\s+C-300\s+59/);
    await snap("knowledge-table-rows-en");
    await page.locator(".ant-drawer-close:visible").click();
    await expect.poll(() => new URL(page.url()).searchParams.has("file")).toBe(false);
  });

  it("imports a web page: the address rule first, a refused address kept as failed with the server's reason, then a page", async () => {
    await byTestId("tab-importFile").click();
    await byTestId("import-type-website").click();
    await byTestId("import-next").click();
    await byTestId("import-website-url").fill("ftp://example.com/help");
    await byTestId("import-upload").click();
    await expect.poll(errorsShown).toContain("The website address must start with http:// or https://");

    // Another loopback port is a private address the server refuses to fetch.
    await byTestId("import-website-url").fill("http://127.0.0.1:9/private");
    await byTestId("import-name").fill("private-page");
    await byTestId("import-upload").click();
    await expect.poll(() => byTestId("import-failed").innerText()).toContain("This website does not support import");

    await byTestId("import-website-url").fill(`${siteUrl}/shipping.html`);
    await byTestId("import-name").fill("shipping-help");
    await byTestId("import-upload").click();
    await expect.poll(() => byTestId("import-preview-step").count()).toBe(1);
    expect(await byTestId("preview-segments").innerText()).toContain("Express shipping delivers parcels within one working day");
    await byTestId("import-next").click();
    await byTestId("import-confirm").click();
    await page.waitForURL(new RegExp(`/knowledgeManage/baseFile\\?id=${knowledgeBaseId}$`));
    await expect.poll(() => byTestId("file-row-shipping-help").innerText()).toMatch(/Website/);
    const failedRow = byTestId("file-row-private-page");
    expect(await failedRow.locator('[data-testid="file-status"]').getAttribute("data-status")).toBe("failed");
    await failedRow.locator('[data-testid="file-status-reason"]').hover();
    await expect.poll(() => page.locator(".ant-tooltip:visible").innerText()).toBe("This website does not support import");
  });

  it("imports a Feishu document: authorization tried against Feishu first, then the document", async () => {
    await byTestId("tab-importFile").click();
    await byTestId("import-type-feishu").click();
    await byTestId("import-next").click();
    // No authorization yet: importing waits for it.
    expect(await byTestId("import-upload").isDisabled()).toBe(true);
    await byTestId("feishu-app-id-input").fill(feishuApp.appId);
    await byTestId("feishu-app-secret-input").fill("wrong-secret");
    await byTestId("feishu-auth-save").click();
    // Feishu's refusal, as the server words it; nothing is saved.
    await expect.poll(() => byTestId("feishu-auth-error").count()).toBe(1);
    expect((await byTestId("feishu-auth-error").innerText()).trim()).not.toBe("");
    const stored = await fetch(`${parley.url}/api/v1/knowledge-feishu/authorization`, { headers: { authorization: `Bearer ${ownerKey}` } });
    expect(((await stored.json()) as { data: { configured: boolean } }).data.configured).toBe(false);
    await byTestId("feishu-app-secret-input").fill(feishuApp.appSecret);
    await byTestId("feishu-auth-save").click();
    await expect.poll(() => byTestId("feishu-app-id").innerText()).toBe(feishuApp.appId);
    expect(await byTestId("import-feishu-step").innerText()).not.toContain(feishuApp.appSecret);

    await byTestId("import-feishu-url").fill(`http://example.feishu.cn/docx/${feishuDocument.documentId}`);
    await byTestId("import-upload").click();
    await expect.poll(errorsShown).toContain("Feishu addresses must start with https://");
    await byTestId("import-feishu-url").fill(`https://example.feishu.cn/docx/${feishuDocument.documentId}`);
    await byTestId("import-name").fill("onboarding-guide");
    await byTestId("import-upload").click();
    await expect.poll(() => byTestId("import-preview-step").count()).toBe(1);
    expect(await byTestId("preview-segments").innerText()).toContain("rides along with a mentor");
    await snap("knowledge-feishu-preview-en");
    await byTestId("import-next").click();
    await byTestId("import-confirm").click();
    await page.waitForURL(new RegExp(`/knowledgeManage/baseFile\\?id=${knowledgeBaseId}$`));
    await expect.poll(() => byTestId("file-row-onboarding-guide").count()).toBe(1);
  });

  it("uploads, previews, renames and deletes media materials; a file whose bytes are not its type is refused", async () => {
    await byTestId("tab-mediaResource").click();
    await expect.poll(() => byTestId("media-empty").count()).toBe(1);
    const input = page.locator('[data-testid="knowledge-media"] input[type="file"]').first();
    await input.setInputFiles(path.join(files, "fake-photo.png"));
    await expect.poll(() => page.locator(".ant-message").innerText()).toContain("fake-photo.png was not uploaded:");
    await input.setInputFiles(path.join(files, "depot-map.png"));
    const card = byTestId("media-card-depot-map.png");
    await expect.poll(() => card.count()).toBe(1);
    // The thumbnail is read through the API with the session, not from a bare address.
    await expect.poll(() => card.locator('[data-testid="media-thumbnail"]').getAttribute("src")).toMatch(/^blob:/);
    expect(await card.innerText()).toMatch(/Image[\s\S]*1 KB[\s\S]*mm_/);
    await card.locator('[data-testid="media-preview"]').click();
    await expect.poll(() => page.locator('[data-testid="media-preview-image"]').count()).toBe(1);
    await page.keyboard.press("Escape");

    await card.locator('[data-testid="media-rename"]').click();
    await byTestId("media-rename-input").fill("depots/2026.png");
    await byTestId("media-rename-save").click();
    await expect.poll(errorsShown).toContain("The name cannot contain slashes");
    await byTestId("media-rename-input").fill("depot-map-2026.png");
    await byTestId("media-rename-save").click();
    const renamed = byTestId("media-card-depot-map-2026.png");
    await expect.poll(() => renamed.count()).toBe(1);
    await snap("knowledge-media-en");

    await renamed.locator('[data-testid="media-delete"]').click();
    await byTestId("media-delete-confirm").click();
    await expect.poll(() => byTestId("media-empty").count()).toBe(1);
  });

  it("lists every source's file with its type on the file list, in Chinese too", async () => {
    await byTestId("tab-baseFile").click();
    for (const [name, type] of [
      ["delivery-faq", "Q&A"],
      ["kitchen-prices", "Table"],
      ["shipping-help", "Website"],
      ["onboarding-guide", "Document"],
    ]) {
      await expect.poll(() => byTestId(`file-row-${name}`).innerText(), { message: name }).toContain(type);
    }
    await byTestId("language-switch").click();
    await byTestId("language-option-zh-CN").click();
    await expect.poll(() => byTestId("file-row-kitchen-prices").innerText()).toContain("表格");
    expect(await byTestId("tab-mediaResource").innerText()).toBe("媒体素材");
  });
});
