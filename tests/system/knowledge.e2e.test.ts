import fs from "node:fs";
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

let parley: ParleyProcess;
let browser: Browser;
let page: Page;
let files: string;

beforeAll(async () => {
  files = fs.mkdtempSync(path.join(os.tmpdir(), "parley-knowledge-e2e-"));
  fs.writeFileSync(path.join(files, "returns-policy.md"), policy);
  fs.writeFileSync(path.join(files, "prices.csv"), "item,price\nbox,3\n");
  [parley, browser] = await Promise.all([startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_SEED_DEMO: "false" }), launchBrowser()]);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  if (shots) fs.mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
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

    const stored = (await (
      await fetch(`${parley.url}/api/v1/knowledge-bases/${knowledgeBaseId}`, { headers: { authorization: `Bearer ${ownerKey}` } })
    ).json()) as {
      data: { name: string; chunkTokens: number; chunkOverlap: number };
    };
    expect(stored.data).toMatchObject({ name: "Parcel policies", chunkTokens: 120, chunkOverlap: 40 });
  });

  it("imports a Markdown file: type → upload (client checks first) → preview → confirm", async () => {
    await byTestId("import-type-document").click();
    expect(await page.locator('[data-testid^="import-type-"]:enabled').count()).toBe(5);
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

    // Export hands back the original document under its name.
    const [download] = await Promise.all([page.waitForEvent("download"), row.locator('[data-testid="file-export"]').click()]);
    expect(download.suggestedFilename()).toBe("returns-policy.md");
    expect(fs.readFileSync((await download.path())!, "utf8")).toBe(policy);
  });

  it("sums the base up on the overview and edits it in settings", async () => {
    await byTestId("tab-baseAll").click();
    await page.waitForURL(new RegExp(`/knowledgeManage/baseAll\\?id=${knowledgeBaseId}$`));
    await expect.poll(() => byTestId("overview-segments").innerText()).toContain("3");
    expect(await byTestId("overview-status-effective").innerText()).toBe("1");
    expect(await byTestId("overview-lexical").innerText()).toContain("offline lexical fallback");
    await snap("knowledge-overview-en");

    await byTestId("tab-baseSetting").click();
    await expect.poll(() => byTestId("kb-name").inputValue()).toBe("Parcel policies");
    await byTestId("kb-chunk-tokens").fill("30");
    await byTestId("kb-settings-save").click();
    await expect.poll(errorsShown).toContain("The segment size must be a whole number from 50 to 4000");
    await byTestId("kb-chunk-tokens").fill("120");
    await byTestId("kb-description").fill("Returns, refunds and damaged parcels");
    await byTestId("kb-settings-save").click();
    await expect.poll(() => page.locator(".pl-page-header").innerText()).toContain("Returns, refunds and damaged parcels");
    await snap("knowledge-settings-en");
  });

  it("finds the document in all three retrieval lists and in what an app answers from, starting from a new app's settings", async () => {
    await byTestId("tab-retrievalFile").click();
    await page.waitForURL(new RegExp(`/knowledgeManage/retrievalFile\\?id=${knowledgeBaseId}$`));
    await byTestId("retrieval-query").fill("How many days do I have to return a parcel?");
    // A new app's threshold (0.75, calibrated per embedder, decision 0010) finds it with the offline lexical embedder too.
    await expect.poll(() => page.locator(".pl-kb-threshold").innerText()).toContain("Similarity threshold: 0.75");
    expect(await byTestId("retrieval-threshold-hint").innerText()).toBe("Between 0.7 and 0.8: a balance of recall and precision.");
    await byTestId("retrieval-run").click();
    await expect.poll(() => byTestId("retrieval-app-settings").innerText()).toContain("Hybrid, 6 semantic + 4 full-text hits, similarity threshold 0.75");
    // Full-text hits show the share of the query's words they hold, not a BM25 of about 0.
    await expect
      .poll(() => byTestId("retrieval-fullText").locator('[data-testid="retrieval-hit-match"]').first().innerText())
      .toMatch(/^Words matched [1-9]\d*%$/);
    for (const kind of ["semantic", "fullText", "hybrid", "app"]) {
      const list = byTestId(`retrieval-${kind}`);
      await expect.poll(() => list.locator('[data-testid="retrieval-hit"]').count(), { message: kind }).toBeGreaterThan(0);
      const hit = list.locator('[data-testid="retrieval-hit"]', { hasText: "returned within 30 days" });
      expect(await hit.count(), kind).toBe(1);
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
    const stored = (await (
      await fetch(`${parley.url}/api/v1/knowledge-bases/${knowledgeBaseId}`, { headers: { authorization: `Bearer ${ownerKey}` } })
    ).json()) as { data: { fileCount: number } };
    expect(stored.data.fileCount).toBe(1);
    await expect.poll(() => byTestId(`knowledge-card-${knowledgeBaseId}`).innerText()).toContain("文件：1");
    await snap("knowledge-list-zh");
  });

  it("a knowledge app with default settings answers from the file with a citation; in Chinese, the offline message links API access → Models", async () => {
    const headers = { authorization: `Bearer ${ownerKey}`, "content-type": "application/json" };
    const create = (body: Record<string, unknown>) =>
      fetch(`${parley.url}/api/v1/apps`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          type: "KNOWLEDGE",
          name: "Returns helper",
          description: "Answers questions about returns",
          openingIntroduction: "Ask me about returns.",
          avatarUrl: "https://cdn.example.com/avatars/returns.png",
          category: "customer_service",
          settingsPrompt: "You answer questions about returns.",
          ...body,
        }),
      }).then(async (response) => ((await response.json()) as { data: { code: string } }).data.code);
    await page.goto(`${parley.url}/app/${await create({ knowledgeBaseIds: [knowledgeBaseId] })}`);
    // Words only the returns section holds: in a base of three sections, BM25 weighs the others' words at about 0.
    await byTestId("chat-input").fill("Can a parcel be returned after delivery?");
    await byTestId("chat-send").click();
    const answer = byTestId("chat-message-assistant").last();
    await expect.poll(() => answer.innerText()).toContain("returned within 30 days");
    await expect.poll(() => answer.locator('[data-testid="chat-citations"]').innerText()).toContain("returns-policy");

    // Nothing to answer from and no model: the one offline message, its place a link the console follows in place.
    await page.goto(`${parley.url}/app/${await create({ name: "No knowledge" })}`);
    await byTestId("chat-input").fill("今天天气怎么样？");
    await byTestId("chat-send").click();
    const offline = byTestId("chat-message-assistant").last();
    // The console is in Chinese now (the test before): so is the offline message.
    await expect.poll(() => offline.innerText()).toContain("这个应用还没有可用的语言模型");
    await offline.locator('[data-testid="reply-console-link"]').click();
    await page.waitForURL(/\/console\/Integrations\?tab=models$/);
    await expect.poll(() => page.locator('[role="tab"][aria-selected="true"]').innerText()).toBe("模型");
  });
});
