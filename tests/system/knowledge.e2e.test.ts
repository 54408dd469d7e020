import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_knowledge_e2e_owner_key_0123456789";
/** Set PARLEY_SCREENSHOTS to a directory to keep screenshots of the screens. */
const shots = process.env.PARLEY_SCREENSHOTS;

const policy = [
  "# Returns policy",
  "",
  "Parcels can be returned within 30 days of delivery. The parcel must be unused and in its original packaging.",
  "",
  "## Refunds",
  "",
  "Refunds reach the original payment method within five working days after the returned parcel arrives at our warehouse in Rotterdam.",
  "",
  "## Damaged parcels",
  "",
  "A damaged parcel is replaced free of charge. Send a photo of the damage to the support desk before returning it.",
].join("\n");

const shippingPage = `<!doctype html><html><head><meta charset="utf-8"><title>Shipping help</title></head><body>
<nav>Home · Shop · Help</nav><article><h1>Shipping help</h1>
<p>Express shipping delivers parcels within one working day to every address in the Benelux. Orders placed before noon leave our warehouse the same day.</p>
<p>Standard shipping takes two to three working days and is free for orders above fifty euros.</p></article></body></html>`;

let site: http.Server;
let siteUrl = "";
let parley: ParleyProcess;
let browser: Browser;
let page: Page;
let files: string;

beforeAll(async () => {
  files = fs.mkdtempSync(path.join(os.tmpdir(), "parley-knowledge-e2e-"));
  fs.writeFileSync(path.join(files, "returns-policy.md"), policy);
  fs.writeFileSync(path.join(files, "prices.csv"), "item,price\nbox,3\n");
  fs.writeFileSync(path.join(files, "kitchen-prices.csv"), "Name,SKU,Price\nKettle,A-100,39\nToaster,B-200,25\n");
  // Row 3 has no answer: it is counted as failed, the other pair is kept.
  fs.writeFileSync(
    path.join(files, "delivery-faq.csv"),
    "question,answer,search method,attached material\nHow long does delivery take?,Two to three working days within the Netherlands.,question,\nDo you ship abroad?,,question,\n",
  );
  // A local web site for the website import; the server may reach this one loopback host only.
  site = http.createServer((request, response) => {
    if (request.url === "/shipping.html") response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(shippingPage);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  [parley, browser] = await Promise.all([
    startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_PLUGINS_ALLOWED_HOSTS: new URL(siteUrl).host }),
    launchBrowser(),
  ]);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  if (shots) fs.mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
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

describe("knowledge in Chromium: create → import a document → effective → segments → retrieval test", () => {
  let knowledgeBaseId = "";

  it("signs in and shows the empty knowledge base list", async () => {
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    await page.goto(`${parley.url}/console/knowledge`);
    await expect.poll(() => byTestId("knowledge-title").innerText()).toBe("Knowledge bases");
    await expect.poll(() => byTestId("knowledge-empty").count()).toBe(1);
  });

  it("creates a knowledge base; the chunking rule speaks before the server", async () => {
    await byTestId("knowledge-create").click();
    await byTestId("kb-name").fill("Parcel policies");
    await byTestId("kb-description").fill("How parcels are returned and refunded");
    await byTestId("kb-chunk-overlap").fill("600");
    await byTestId("kb-create-submit").click();
    await expect.poll(errorsShown).toContain("The overlap must be smaller than the segment size");
    await byTestId("kb-chunk-overlap").fill("40");
    await byTestId("kb-chunk-tokens").fill("120");
    await snap("knowledge-create-en");
    await byTestId("kb-create-submit").click();
    await page.waitForURL(/\/console\/knowledge\/knowledgeManage\/importFile\?id=kb_/);
    knowledgeBaseId = new URL(page.url()).searchParams.get("id")!;
    await expect.poll(() => byTestId("knowledge-base-name").innerText()).toBe("Parcel policies");

    const stored = (await (await fetch(`${parley.url}/api/v1/knowledge-bases/${knowledgeBaseId}`, { headers: { authorization: `Bearer ${ownerKey}` } })).json()) as {
      data: { name: string; chunkTokens: number; chunkOverlap: number };
    };
    expect(stored.data).toMatchObject({ name: "Parcel policies", chunkTokens: 120, chunkOverlap: 40 });
  });

  it("imports a Markdown file: type → upload (client checks first) → preview → confirm", async () => {
    await byTestId("import-type-document").click();
    expect(await byTestId("import-type-feishu").isDisabled()).toBe(true);
    await byTestId("import-next").click();

    const input = page.locator('[data-testid="import-upload-step"] input[type="file"]');
    await input.setInputFiles(path.join(files, "prices.csv"));
    await expect.poll(() => byTestId("import-pick-error").innerText()).toContain("prices.csv cannot be imported: upload txt, md, pdf, docx");

    await input.setInputFiles(path.join(files, "returns-policy.md"));
    await expect.poll(() => byTestId("import-picked").innerText()).toContain("returns-policy.md");
    expect(await byTestId("import-name").inputValue()).toBe("returns-policy");
    await byTestId("import-name").fill("returns policy!");
    await expect.poll(errorsShown).toContain("Use only letters, digits, underscores (_) and hyphens (-)");
    await byTestId("import-name").fill("returns-policy");
    await byTestId("import-upload").click();

    await expect.poll(() => byTestId("import-preview-step").count()).toBe(1);
    const total = Number(await byTestId("preview-total").innerText());
    expect(total).toBeGreaterThanOrEqual(2);
    await expect.poll(() => byTestId("preview-segment").count()).toBe(total);
    expect(await byTestId("preview-segments").innerText()).toContain("returned within 30 days of delivery");
    expect(await byTestId("preview-shown").innerText()).toBe(`Showing the first ${total} of ${total} segments.`);
    await snap("knowledge-preview-en");

    await byTestId("import-next").click();
    await expect.poll(() => byTestId("import-confirm-step").innerText()).toContain("120 tokens (40 overlap)");
    await byTestId("import-confirm").click();
    await page.waitForURL(new RegExp(`/knowledgeManage/baseFile\\?id=${knowledgeBaseId}$`));
  });

  it("shows the file becoming effective on the file list, then its segments", async () => {
    const row = byTestId("file-row-returns-policy");
    await expect.poll(() => row.count()).toBe(1);
    // The in-process worker indexes it; the list polls while it is processing.
    await expect.poll(() => row.locator('[data-testid="file-status"]').getAttribute("data-status"), { timeout: 20_000 }).toBe("effective");
    await byTestId("files-refresh").click();
    await expect.poll(() => row.locator('[data-testid="file-status"]').innerText()).toBe("Effective");
    const segments = Number(await row.locator('[data-testid="file-segments"]').innerText());
    expect(segments).toBeGreaterThanOrEqual(2);
    expect(await row.innerText()).toMatch(/Document/);
    await snap("knowledge-files-en");

    await row.locator('[data-testid="file-segments-open"]').click();
    await expect.poll(() => byTestId("segment-item").count()).toBe(segments);
    await expect.poll(() => byTestId("segments-total").innerText()).toBe(`${segments} segments in total`);
    expect(await byTestId("segments-drawer").innerText()).toContain("Damaged parcels");
    await snap("knowledge-segments-en");
    await page.keyboard.press("Escape");
    await expect.poll(() => new URL(page.url()).searchParams.has("file")).toBe(false);
  });

  it("imports Q&A pairs from a CSV: template download, import report with the failed row, pairs in the preview", async () => {
    await byTestId("tab-importFile").click();
    await page.waitForURL(new RegExp(`/knowledgeManage/importFile\\?id=${knowledgeBaseId}$`));
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
  });

  it("imports a table with a chosen index column, previews its rows, then adds a row once it is effective", async () => {
    await byTestId("tab-importFile").click();
    await byTestId("import-type-table").click();
    await byTestId("import-next").click();
    await page.locator('[data-testid="import-upload-step"] input[type="file"]').setInputFiles(path.join(files, "kitchen-prices.csv"));
    // The header is read in the browser: the first field is the default index column.
    const uploadStepText = () => byTestId("import-upload-step").evaluate((step) => `${(step as HTMLElement).innerText} ${[...step.querySelectorAll("input")].map((input) => input.placeholder).join(" ")}`);
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

  it("finds the document in all three retrieval lists", async () => {
    await byTestId("tab-retrievalFile").click();
    await page.waitForURL(new RegExp(`/knowledgeManage/retrievalFile\\?id=${knowledgeBaseId}$`));
    await byTestId("retrieval-query").fill("How many days do I have to return a parcel?");
    // The offline lexical embedder scores low similarities: lower the threshold to 0 by keyboard.
    await page.locator(".pl-kb-threshold .ant-slider-handle").focus();
    await page.keyboard.press("Home");
    await expect.poll(() => byTestId("retrieval-threshold-hint").innerText()).toBe("0.7 or less: more hits, some of them only loosely related.");
    await byTestId("retrieval-run").click();
    for (const kind of ["semantic", "fullText", "hybrid"]) {
      const list = byTestId(`retrieval-${kind}`);
      const hit = list.locator('[data-testid="retrieval-hit"]', { hasText: "returned within 30 days" });
      await expect.poll(() => hit.count(), { message: kind }).toBe(1);
      expect(await hit.locator('[data-testid="retrieval-hit-file"]').innerText()).toBe("returns-policy");
    }
    // The offline lexical embedder is the default: the screen says it is not semantic.
    await expect.poll(() => byTestId("retrieval-lexical").innerText()).toContain("offline lexical fallback");
    await snap("knowledge-retrieval-en");
  });

  it("speaks Chinese after switching the language", async () => {
    await byTestId("language-switch").click();
    await byTestId("language-option-zh-CN").click();
    await expect.poll(() => byTestId("tab-retrievalFile").innerText()).toBe("检索测试");
    expect(await byTestId("tab-baseFile").innerText()).toBe("文件管理");
    expect(await byTestId("retrieval-column-hybrid").innerText()).toContain("混合检索");
    await page.goto(`${parley.url}/console/knowledge`);
    await expect.poll(() => byTestId("knowledge-title").innerText()).toBe("知识库");
    const stored = (await (await fetch(`${parley.url}/api/v1/knowledge-bases/${knowledgeBaseId}`, { headers: { authorization: `Bearer ${ownerKey}` } })).json()) as { data: { fileCount: number } };
    expect(stored.data.fileCount).toBe(5);
    await expect.poll(() => byTestId(`knowledge-card-${knowledgeBaseId}`).innerText()).toContain("文件：5");
    await snap("knowledge-list-zh");
  });
});
