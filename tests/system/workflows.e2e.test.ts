import fs from "node:fs";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

/** Set PARLEY_SCREENSHOTS to a directory to keep screenshots of the editor in both languages. */
const shots = process.env.PARLEY_SCREENSHOTS;

let parley: ParleyProcess;
let browser: Browser;
let page: Page;
let editorUrl = "";

beforeAll(async () => {
  // No model keys: the offline responder answers the llm node.
  [parley, browser] = await Promise.all([startParley({ PARLEY_SEED_DEMO: "false" }), launchBrowser()]);
  const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  if (shots) fs.mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
});

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
const snap = async (name: string) => {
  if (!shots) return;
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(shots, `${name}.png`) });
};

/** Picks an option of the antd Select carrying `testId`. */
async function choose(testId: string, option: string | RegExp) {
  await byTestId(testId).click();
  await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: option }).first().click();
}

/** Waits until an element stops moving (the canvas animates its view). */
async function settled(locator: Locator) {
  let last = "";
  await expect
    .poll(
      async () => {
        const now = JSON.stringify(await locator.boundingBox());
        const still = now === last;
        last = now;
        return still;
      },
      { intervals: [150] },
    )
    .toBe(true);
}

/** Draws a line on the canvas from one handle to another with the mouse, as a person would. */
async function drawLine(from: Locator, to: Locator) {
  const start = (await from.boundingBox())!;
  const end = (await to.boundingBox())!;
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move((start.x + end.x) / 2, (start.y + end.y) / 2, { steps: 5 });
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 5 });
  await page.mouse.up();
}

describe("workflows in Chromium: build start → llm → end, save, run", () => {
  it("creates a workflow from the list and opens the editor with a start and an end node", async () => {
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    await page.goto(`${parley.url}/console/workflows`);
    await byTestId("workflows-empty").waitFor();

    await byTestId("workflows-create").click();
    // §5: the card fields are required; the rule speaks before anything is sent.
    await byTestId("wf-info-submit").click();
    await expect
      .poll(() => page.locator(".ant-form-item-explain-error").allInnerTexts())
      .toEqual(expect.arrayContaining(["Enter a name", "Enter a description", "Choose a category"]));
    await byTestId("wf-info-name").fill("Capital helper");
    await byTestId("wf-info-description").fill("Answers a geography question with the offline model");
    await choose("wf-info-category", /./);
    await byTestId("wf-info-submit").click();

    await page.waitForURL(/\/console\/workflow\?id=wf_/);
    editorUrl = page.url();
    await byTestId("wf-node-start").waitFor();
    await byTestId("wf-node-end").waitFor();
    expect(await byTestId("wf-title").innerText()).toBe("Capital helper");
    // The palette has the three groups of spec §3.
    expect(await byTestId("wf-palette").innerText()).toMatch(/Basic[\s\S]*Branch[\s\S]*Individuality/i);
  });

  it("drags an llm node onto the canvas; saving shows the server's validation error on the node", async () => {
    await byTestId("wf-palette-llm").dragTo(byTestId("wf-canvas"), { targetPosition: { x: 320, y: 90 } });
    await byTestId("wf-node-llm_1").waitFor();
    // The new node is selected and its form open.
    await byTestId("wf-form-llm").waitFor();

    await byTestId("wf-save").click();
    // §5: no model chosen — named on the node, and under the field in its form.
    await expect.poll(() => page.locator(".ant-message").innerText()).toMatch(/Problems to fix before it can run: 1/);
    await expect.poll(() => byTestId("wf-node-issues-llm_1").innerText()).toMatch(/choose a model/i);
    await expect.poll(() => byTestId("wf-error-model").innerText()).toMatch(/choose a model/i);
    await snap("workflow-issues-en");
  });

  it("connects start → llm → end, picks the offline model, sets the answer and saves cleanly", async () => {
    // A new workflow starts as start → end; a handle leads to one node, so start → llm replaces that line.
    await drawLine(byTestId("wf-handle-out-start"), byTestId("wf-handle-in-llm_1"));
    await drawLine(byTestId("wf-handle-out-llm_1"), byTestId("wf-handle-in-end"));
    await expect.poll(() => page.locator(".react-flow__edge").count()).toBe(2);

    await byTestId("wf-node-llm_1").click();
    await choose("wf-field-model", /offline/i);
    await byTestId("wf-field-input").fill("What is the capital of {{start.country}}? {{sys.query}}");

    // A start variable: the identifier rule speaks under the field as it is typed.
    await byTestId("wf-node-start").click();
    await byTestId("wf-variable-add").click();
    await byTestId("wf-variable-identifier-0").fill("my-country");
    await expect.poll(() => byTestId("wf-error-variables.0.identifier").innerText()).toMatch(/letters, digits and underscore only/);
    await byTestId("wf-variable-identifier-0").fill("country");
    await byTestId("wf-variable-display-0").fill("Country");
    await expect.poll(() => byTestId("wf-error-variables.0.identifier").count()).toBe(0);

    await byTestId("wf-node-end").click();
    await byTestId("wf-form-end").waitFor();
    // The answer box is named by its label (what a screen reader announces).
    await byTestId("wf-form-end").getByLabel("Answer", { exact: true }).fill("{{llm_1.output}}");
    expect(await byTestId("wf-field-output").inputValue()).toBe("{{llm_1.output}}");

    await byTestId("wf-save").click();
    await expect.poll(() => page.locator(".ant-message").innerText()).toContain("Saved");
    await expect.poll(() => byTestId("wf-node-issues-llm_1").count()).toBe(0);
    await expect.poll(() => byTestId("wf-node-issues-end").count()).toBe(0);
    expect(await byTestId("wf-dirty").count()).toBe(0);

    // Saved for real: a reload shows the same graph.
    await page.reload();
    await byTestId("wf-node-llm_1").waitFor();
    await expect.poll(() => page.locator(".react-flow__edge").count()).toBe(2);
  });

  it("runs the flow and shows the output and every node's state", async () => {
    await byTestId("wf-open-run").click();
    await byTestId("wf-run-query").fill("Please answer briefly.");
    await byTestId("wf-run-variable-country").fill("France");
    await byTestId("wf-run-start").click();

    await expect.poll(() => byTestId("wf-run-status").innerText(), { timeout: 30_000 }).toBe("Succeeded");
    expect((await byTestId("wf-run-output").innerText()).trim().length).toBeGreaterThan(0);
    // The llm node was given the start variable and the text, templates filled in.
    await byTestId("wf-run-panel").locator('[data-testid="wf-run-node-llm_1"]').click();
    await expect.poll(() => byTestId("wf-run-panel").innerText()).toContain("What is the capital of France? Please answer briefly.");
    for (const node of ["start", "llm_1", "end"]) {
      await expect.poll(() => byTestId(`wf-node-${node}`).getAttribute("data-status")).toBe("success");
      expect(await byTestId("wf-run-panel").locator(`[data-testid="wf-run-node-${node}"]`).getAttribute("data-status")).toBe("success");
    }
    // The nodes are listed in the order they ran (the graph holds end before llm_1).
    const listed = await byTestId("wf-run-panel")
      .locator('[data-testid^="wf-run-node-"][data-status]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-testid")));
    expect(listed).toEqual(["wf-run-node-start", "wf-run-node-llm_1", "wf-run-node-end"]);
    await snap("workflow-run-en");

    // The run is in the history with its type and status; its detail has the node states.
    await byTestId("wf-tab-history").click();
    const row = page.locator('[data-testid^="wf-history-run-"]').first();
    await expect.poll(() => row.innerText()).toMatch(/Whole flow[\s\S]*Succeeded/);
    await row.click();
    await expect.poll(() => byTestId("wf-history-detail").innerText()).toContain("Succeeded");
    expect(await byTestId("wf-history-detail").locator('[data-testid="wf-run-node-llm_1"]').getAttribute("data-status")).toBe("success");
  });

  it("runs one node alone (NODE)", async () => {
    await byTestId("wf-node-llm_1").click();
    await byTestId("wf-node-run").click();
    await byTestId("wf-node-run-input-sys.query").fill("Just this node.");
    await byTestId("wf-node-run-start").click();
    // The panel showed the FLOW run until now: wait for the NODE run, then for its end.
    const detail = byTestId("wf-run-panel").locator('[data-testid="wf-run-detail"]');
    await expect.poll(() => detail.innerText()).toContain("Single node");
    await expect.poll(() => detail.locator('[data-testid="wf-run-status"]').innerText(), { timeout: 30_000 }).toBe("Succeeded");
    expect(await detail.locator('[data-testid="wf-run-node-llm_1"]').getAttribute("data-status")).toBe("success");
  });

  it("previews a schedule: generate from a description, 10 next runs, a 6-field expression refused", async () => {
    await byTestId("wf-open-scheduler").click();
    await byTestId("wf-cron-description").fill("every day at 9:00");
    await byTestId("wf-cron-generate").click();
    await expect.poll(() => byTestId("wf-cron").inputValue()).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
    await expect.poll(() => byTestId("wf-cron-next-runs").locator(".ant-list-item").count()).toBe(10);

    await byTestId("wf-cron").fill("0 0 9 * * *");
    await expect.poll(() => byTestId("wf-cron-error").innerText()).toMatch(/5 fields/);
    await byTestId("wf-cron").fill("30 8 * * 1");
    await expect.poll(() => byTestId("wf-cron-next-runs").locator(".ant-list-item").count()).toBe(10);
    await byTestId("wf-scheduler-save").click();
    await expect.poll(() => byTestId("wf-scheduler-state").innerText()).toContain("30 8 * * 1");
    await byTestId("wf-scheduler-clear").click();
    await expect.poll(() => byTestId("wf-scheduler-state").innerText()).toBe("Not running");
  });

  it("gives a logic branch one handle per branch; deleting the node a branch leads to clears its line", async () => {
    await byTestId("wf-palette-logic_branch").dragTo(byTestId("wf-canvas"), { targetPosition: { x: 120, y: 60 } });
    await byTestId("wf-node-logic_branch_1").waitFor();
    // A condition branch and the else branch, each with its own outgoing handle.
    await expect.poll(() => byTestId("wf-node-logic_branch_1").locator(".react-flow__handle.source").count()).toBe(2);
    await byTestId("wf-branch-add").click();
    await expect.poll(() => byTestId("wf-node-logic_branch_1").locator(".react-flow__handle.source").count()).toBe(3);

    // A click in the palette inserts the node after the selected one, on its first free branch.
    const edges = await page.locator(".react-flow__edge").count();
    await byTestId("wf-palette-fixed_reply").click();
    await byTestId("wf-node-fixed_reply_1").waitFor();
    await expect.poll(() => page.locator(".react-flow__edge").count()).toBe(edges + 1);
    expect(await page.locator('.react-flow__edge[aria-label="Edge from logic_branch_1 to fixed_reply_1"]').count()).toBe(1);
    // The view fits the flow after an insertion: draw once the nodes stop moving.
    await settled(byTestId("wf-node-fixed_reply_1"));
    const elseHandle = byTestId("wf-node-logic_branch_1").locator(".react-flow__handle.source").last();
    await drawLine(elseHandle, byTestId("wf-handle-in-fixed_reply_1"));
    await expect.poll(() => page.locator(".react-flow__edge").count()).toBe(edges + 2);

    await byTestId("wf-node-fixed_reply_1").click();
    await byTestId("wf-node-delete").click();
    await byTestId("wf-node-delete-confirm").click();
    await expect.poll(() => byTestId("wf-node-fixed_reply_1").count()).toBe(0);
    await expect.poll(() => page.locator(".react-flow__edge").count()).toBe(edges);
    expect(await byTestId("wf-dirty").count()).toBe(1);

    // Unsaved: leaving for the list asks first; staying keeps the editor.
    await byTestId("wf-back").click();
    const confirm = page.locator(".ant-modal-confirm", { hasText: "Leave without saving?" });
    await confirm.waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => page.url()).toBe(editorUrl);
    expect(await byTestId("wf-node-logic_branch_1").count()).toBe(1);
  });

  it("shows the editor in Chinese", async () => {
    await page.evaluate(() => localStorage.setItem("language", "zh-CN"));
    await page.goto(editorUrl);
    await byTestId("wf-node-llm_1").waitFor();
    expect(await byTestId("wf-palette").innerText()).toMatch(/基础[\s\S]*分支[\s\S]*个性化/);
    expect(await byTestId("wf-palette-llm").innerText()).toBe("大模型");
    expect(await byTestId("wf-save").innerText()).toMatch(/保\s*存/);
    await byTestId("wf-node-llm_1").click();
    expect(await byTestId("wf-form-llm").innerText()).toContain("模型");
    await snap("workflow-editor-zh");
    await page.evaluate(() => localStorage.setItem("language", "en"));
  });

  it("edits the card, copies, publishes and cancels, and deletes after a confirmation from the list", async () => {
    await page.goto(`${parley.url}/console/workflows`);
    const table = byTestId("workflows-table");
    await expect.poll(() => table.innerText()).toContain("Capital helper");
    const id = new URL(editorUrl).searchParams.get("id")!;

    await byTestId(`workflow-edit-${id}`).click();
    await expect.poll(() => byTestId("wf-info-name").inputValue()).toBe("Capital helper");
    await byTestId("wf-info-name").fill("Capital answers");
    await byTestId("wf-info-submit").click();
    await expect.poll(() => table.innerText()).toContain("Capital answers");

    await byTestId(`workflow-publish-${id}`).click();
    await expect.poll(() => table.locator("tr", { hasText: "Capital answers" }).first().innerText()).toMatch(/Published/);
    await byTestId(`workflow-publish-${id}`).click();
    await expect.poll(() => table.locator("tr", { hasText: "Capital answers" }).first().innerText()).toMatch(/Not published/);

    await byTestId(`workflow-copy-${id}`).click();
    await expect.poll(() => table.locator("tbody tr").count()).toBe(2);
    const copyRow = table.locator("tbody tr").first();
    const copyName = await copyRow.locator('[data-testid^="workflow-open-"]').innerText();
    expect(copyName).not.toBe("Capital answers");
    expect(copyName).toContain("Capital answers");
    await copyRow.locator('[data-testid^="workflow-delete-"]').click();
    await page.locator('[data-testid="workflow-delete-confirm"]:visible').click();
    await expect.poll(() => table.locator("tbody tr").count()).toBe(1);
    await snap("workflows-list-en");
  });
});
