import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_evaluation_e2e_owner_key_0123456789";

const documents: Record<string, string> = {
  "returns-policy.md": [
    "# Returns",
    "Parcels can be returned within 30 days of delivery when they are unused.",
    "# Refunds",
    "Refunds reach the original payment method within five working days after the parcel arrives in Rotterdam.",
  ].join("\n\n"),
  "shipping-guide.md": [
    "# Express shipping",
    "Express shipping delivers the next working day when ordered before noon.",
    "# Pickup points",
    "Parcels wait fourteen days at a pickup point before they are sent back.",
  ].join("\n\n"),
  "warranty.md": ["# Warranty", "Every appliance carries a two-year warranty covering manufacturing defects."].join("\n\n"),
};

let parley: ParleyProcess;
let browser: Browser;
let page: Page;
let knowledgeBaseId = "";

async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${parley.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ownerKey}`, ...(body instanceof FormData || body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: body instanceof FormData ? body : JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as { success: boolean; data: T; message: string };
  if (!envelope.success) throw new Error(`${method} ${path}: ${envelope.message}`);
  return envelope.data;
}

beforeAll(async () => {
  [parley, browser] = await Promise.all([startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_SEED_DEMO: "false" }), launchBrowser()]);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  // A knowledge base of three indexed documents (offline lexical embedder), made through the API.
  knowledgeBaseId = (await api<{ id: string }>("POST", "/api/v1/knowledge-bases", { name: "Parcel help", chunkTokens: 60, chunkOverlap: 0 })).id;
  for (const [name, text] of Object.entries(documents)) {
    const form = new FormData();
    form.append("file", new File([text], name));
    const file = await api<{ id: string }>("POST", `/api/v1/knowledge-bases/${knowledgeBaseId}/files`, form);
    await api("POST", `/api/v1/knowledge-files/${file.id}/confirm`);
  }
  const deadline = Date.now() + 30_000;
  for (;;) {
    const statuses = (await api<Array<{ status: string }>>("GET", `/api/v1/knowledge-bases/${knowledgeBaseId}/files`)).map((file) => file.status);
    if (statuses.every((status) => status === "effective")) break;
    if (Date.now() > deadline) throw new Error(`files not indexed: ${statuses.join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
});

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);

describe("retrieval evaluation in Chromium: questions typed and imported → two runs side by side", () => {
  it("opens the Evaluation tab of a knowledge base", async () => {
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    await page.goto(`${parley.url}/console/knowledge/knowledgeManage/baseAll?id=${knowledgeBaseId}`);
    await byTestId("tab-evaluation").click();
    await page.waitForURL(new RegExp(`/knowledgeManage/evaluation\\?id=${knowledgeBaseId}$`));
    await expect.poll(() => byTestId("tab-evaluation").innerText()).toBe("Evaluation");
    await expect.poll(() => byTestId("knowledge-evaluation").innerText()).toContain("No questions yet");
    expect(await byTestId("evaluation-run").isDisabled()).toBe(true);
  });

  it("adds a typed question, picking its passage by searching the knowledge base", async () => {
    await byTestId("evaluation-add-question").click();
    await byTestId("evaluation-question-text").fill("How fast is express shipping?");
    await byTestId("evaluation-passage-search").fill("express shipping next working day");
    await byTestId("evaluation-passage-search-run").click();
    const hit = byTestId("evaluation-passage-hit").filter({ hasText: "Express shipping delivers" }).first();
    await hit.locator("input[type=checkbox]").check();
    await expect.poll(() => byTestId("evaluation-picked").innerText()).toContain("shipping-guide");
    await byTestId("evaluation-question-save").click();
    await expect.poll(() => byTestId("evaluation-question-row").allInnerTexts()).toEqual(["How fast is express shipping?"]);
  });

  it("imports questions from CSV and reports the lines it could not resolve", async () => {
    await byTestId("evaluation-import").click();
    await byTestId("evaluation-import-csv").fill(
      [
        "question,passage",
        "How long is the warranty?,two-year warranty covering manufacturing defects",
        "When do refunds arrive?,Refunds reach the original payment method",
        "How long may I return a parcel?,returned within 30 days of delivery",
        "How long does a pickup point keep a parcel?,Parcels wait fourteen days",
        "Where is the moon?,The moon is made of cheese",
      ].join("\n"),
    );
    await byTestId("evaluation-import-submit").click();
    await expect.poll(() => byTestId("evaluation-import-report").innerText()).toContain("4 questions imported from 4 of 5 lines");
    expect(await byTestId("evaluation-import-failure").allInnerTexts()).toEqual(["Line 6: No segment of this knowledge base contains the passage"]);
    await byTestId("evaluation-import-close").click();
    await expect.poll(() => byTestId("evaluation-question-row").count()).toBe(5);
  });

  it("runs an evaluation and shows its figures", async () => {
    await byTestId("evaluation-run").click();
    await expect.poll(() => byTestId("evaluation-run-row").count()).toBe(1);
    const row = byTestId("evaluation-run-row").first();
    expect(await row.locator('[data-testid="evaluation-run-settings"]').innerText()).toBe("Ranked Hybrid, k=10, threshold 0.00");
    const hitRate = await row.locator('[data-testid="evaluation-run-hitRate"]').innerText();
    expect(hitRate).toMatch(/^\d+\.\d%$/);
    // Every question's passage is in this small base's top 10 by hybrid search.
    expect(hitRate).toBe("100.0%");
    expect(await row.locator('[data-testid="evaluation-run-ndcg10"]').innerText()).toMatch(/^(0|1)\.\d{3}$/);

    const api_runs = await api<Array<{ hitRate: number; recall: number; ndcg10: number; questionCount: number }>>(
      "GET",
      `/api/v1/knowledge-bases/${knowledgeBaseId}/evaluation/runs`,
    );
    expect(api_runs).toHaveLength(1);
    expect(api_runs[0]).toMatchObject({ questionCount: 5, hitRate: 1, recall: 1 });
    expect(await row.locator('[data-testid="evaluation-run-ndcg10"]').innerText()).toBe(api_runs[0]!.ndcg10.toFixed(3));
  });

  it("runs again with other settings and shows both runs side by side, the best marked, with per-question detail", async () => {
    await byTestId("evaluation-mode").click();
    await page.locator(".ant-select-item-option", { hasText: "Semantic" }).click();
    await byTestId("evaluation-k").fill("1");
    // A threshold no semantic hit of the lexical fallback reaches: nothing is found.
    await byTestId("evaluation-threshold").fill("0.99");
    await byTestId("evaluation-run").click();
    await expect.poll(() => byTestId("evaluation-run-row").count()).toBe(2);
    const rows = byTestId("evaluation-run-row");
    expect(await rows.nth(0).locator('[data-testid="evaluation-run-settings"]').innerText()).toBe("Ranked Semantic, k=1, threshold 0.99");
    expect(await rows.nth(1).locator('[data-testid="evaluation-run-settings"]').innerText()).toBe("Ranked Hybrid, k=10, threshold 0.00");
    const figures = await api<Array<{ hitRate: number; ndcg10: number }>>("GET", `/api/v1/knowledge-bases/${knowledgeBaseId}/evaluation/runs`);
    expect(figures[0]).toMatchObject({ hitRate: 0, ndcg10: 0 });
    const shown = (index: number, figure: string) => rows.nth(index).locator(`[data-testid="evaluation-run-${figure}"]`).innerText();
    expect(await shown(0, "hitRate")).toBe("0.0%");
    expect(await shown(0, "ndcg10")).toBe("0.000");
    // The hybrid run is the better one in every figure, and marked so; the other is not.
    for (const figure of ["hitRate", "recall", "ndcg10", "mrr"]) {
      expect(await shown(1, figure)).toContain("best");
      expect(await shown(0, figure)).not.toContain("best");
    }

    await rows.nth(1).locator(".ant-table-row-expand-icon").click();
    await expect.poll(() => byTestId("evaluation-run-detail").innerText()).toContain("How fast is express shipping?");
    expect(await byTestId("evaluation-run-detail").innerText()).toMatch(/#\d/);
  });

  it("adds a retrieval-test result to the evaluation as the expected passage of the query", async () => {
    await byTestId("tab-retrievalFile").click();
    await byTestId("retrieval-query").fill("pickup point fourteen days");
    await byTestId("retrieval-run").click();
    const hit = byTestId("retrieval-hybrid").locator('[data-testid="retrieval-hit"]').filter({ hasText: "fourteen days" }).first();
    await hit.locator('[data-testid="retrieval-hit-evaluate"]').click();
    await expect.poll(() => page.locator(".ant-message").innerText()).toContain("Added to the evaluation questions");
    if (process.env.PARLEY_SCREENSHOTS) await page.screenshot({ path: `${process.env.PARLEY_SCREENSHOTS}/evaluation-retrieval.png`, fullPage: true });
    await byTestId("tab-evaluation").click();
    await expect.poll(() => byTestId("evaluation-question-row").allInnerTexts()).toContain("pickup point fourteen days");
    const questions = await api<Array<{ question: string; passages: Array<{ excerpt: string }> }>>(
      "GET",
      `/api/v1/knowledge-bases/${knowledgeBaseId}/evaluation/questions`,
    );
    expect(questions.find((question) => question.question === "pickup point fourteen days")!.passages[0]!.excerpt).toContain("Parcels wait fourteen days");
    if (process.env.PARLEY_SCREENSHOTS) {
      await page.locator(".ant-table-row-expand-icon").first().click();
      await page.waitForTimeout(500);
      await page.screenshot({ path: `${process.env.PARLEY_SCREENSHOTS}/evaluation.png`, fullPage: true });
    }
  });
});
