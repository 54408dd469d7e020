import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

/**
 * The console at a newcomer's 1440 × 900 window: lists follow a space switch without a
 * reload, knowledge file actions are in view, the sider reaches the bottom of long pages, a
 * confirmation does not hide its own Cancel, and the workflow editor inserts a clicked node
 * where it is useful.
 */
const ownerKey = "pk_polish_e2e_owner_key_0123456789ab";
const longName = "returns-and-refunds-policy-for-parcels-2026-edition";

let parley: ParleyProcess;
let browser: Browser;
let page: Page;
let files: string;
let token = "";

beforeAll(async () => {
  files = fs.mkdtempSync(path.join(os.tmpdir(), "parley-polish-e2e-"));
  fs.writeFileSync(
    path.join(files, `${longName}.md`),
    "# Returns\n\nParcels can be returned within 30 days of delivery.\n\n## Refunds\n\nRefunds arrive within five working days.\n",
  );
  [parley, browser] = await Promise.all([startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_SEED_DEMO: "false" }), launchBrowser()]);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(parley.signInUrl!);
  await page.waitForURL(/\/console\/agents$/);
  token = (await page.evaluate(() => localStorage.getItem("token")))!;
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  if (files) fs.rmSync(files, { recursive: true, force: true });
});

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);

/** Calls the API as the signed-in owner, in a given space. */
const api = <T>(method: string, pathname: string, body?: unknown, spaceId?: string) =>
  apiCall<T>(parley.url, token, method, pathname, body, spaceId ? { spaceId } : {});

const appBody = (name: string) => ({
  name,
  description: "Answers questions about parcels",
  openingIntroduction: "Hello! Ask me anything. [Where is my parcel?]",
  avatarUrl: "/assets/default-app-avatar.png",
  category: "customer_service",
  settingsPrompt: "You are a friendly support agent.",
});

/** Whether a box lies inside the window. */
async function inView(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  if (!box) return false;
  return box.x >= 0 && box.y >= 0 && box.x + box.width <= 1440 && box.y + box.height <= 900;
}

/** The element at the centre of a locator's box is the locator's element (nothing lies over it). */
async function onTop(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return hit !== null && element.contains(hit);
  });
}

describe("console polish in Chromium at 1440 px", () => {
  it("the apps list follows a space switch, without a reload", async () => {
    // A team space from the switcher, as a person makes one; the console moves into it.
    await byTestId("space-switcher").click();
    await byTestId("create-team").click();
    await byTestId("create-team-name").fill("Polish team");
    await byTestId("create-team-submit").click();
    // On a loaded machine the dialog once stayed open (CI, 1 run in 3): the name typed while it
    // was still opening did not reach the form. Type and submit again while the dialog is there.
    await expect
      .poll(
        async () => {
          if ((await byTestId("space-switcher").innerText()).includes("Polish team")) return true;
          if (await byTestId("create-team-submit").isVisible()) {
            await byTestId("create-team-name").fill("Polish team");
            await byTestId("create-team-submit")
              .click({ timeout: 5_000 })
              .catch(() => {});
          }
          return (await byTestId("space-switcher").innerText()).includes("Polish team");
        },
        { timeout: 30_000, intervals: [2_000] },
      )
      .toBe(true);

    const spaces = await api<Array<{ spaceId: string; kind: string; companyName: string }>>("GET", "/api/v1/me/spaces");
    const personal = spaces.find((space) => space.kind === "personal")!;
    const team = spaces.find((space) => space.companyName === "Polish team")!;
    await api("POST", "/api/v1/apps", appBody("Personal helper"), personal.spaceId);
    await api("POST", "/api/v1/apps", appBody("Team helper"), team.spaceId);

    // The team's list, read fresh by moving away and back (no reload).
    await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
    await byTestId("menu-knowledge").click();
    await byTestId("knowledge-title").waitFor();
    await byTestId("menu-apps").click();
    const list = page.locator(".pl-app-card");
    await expect.poll(() => list.allInnerTexts(), { timeout: 10_000 }).toEqual([expect.stringContaining("Team helper")]);

    // Switch to the personal space while on the apps page: the list follows.
    await byTestId("space-switcher").click();
    await byTestId(`space-option-${personal.spaceId}`).click();
    await expect.poll(() => byTestId("space-switcher").innerText()).toContain(personal.companyName);
    await expect.poll(() => list.allInnerTexts(), { timeout: 10_000 }).toEqual([expect.stringContaining("Personal helper")]);

    // From another page (workflows), back to the team: its list, not the personal one.
    await byTestId("menu-workflow").click();
    await page.waitForURL(/\/console\/workflows$/);
    await byTestId("space-switcher").click();
    await byTestId(`space-option-${team.spaceId}`).click();
    await page.waitForURL(/\/console\/agents$/);
    await expect.poll(() => list.allInnerTexts(), { timeout: 10_000 }).toEqual([expect.stringContaining("Team helper")]);
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  });

  it("the sider reaches the bottom of a long page, and its menu stays in view", async () => {
    await byTestId("menu-apps").click();
    await page.goto(`${parley.url}/console/createApp`);
    await byTestId("app-create-form").waitFor();
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeGreaterThan(900);
    // Scrolled by script: a wheel event lands on whatever the pointer is over (the sider's own
    // menu, at times), which made the scroll depend on the layout of the moment.
    await page.evaluate((top) => window.scrollTo(0, top), height);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    const sider = await page.locator(".pl-console__sider").boundingBox();
    // The column's background spans the page, from its top to its bottom.
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(sider!.y + scrolled).toBeLessThanOrEqual(1);
    expect(sider!.y + scrolled + sider!.height).toBeGreaterThanOrEqual(height - 1);
    expect(await inView(byTestId("menu-apps"))).toBe(true);
  });

  it("shows a knowledge file's actions inside the window, with a long file name", async () => {
    await page.goto(`${parley.url}/console/knowledge`);
    await byTestId("knowledge-create").click();
    await byTestId("kb-name").fill("Parcel policies");
    await byTestId("kb-description").fill("How parcels are returned");
    await byTestId("kb-create-submit").click();
    await page.waitForURL(/importFile\?id=kb_/);
    await byTestId("import-type-document").click();
    await byTestId("import-next").click();
    await page.locator('[data-testid="import-upload-step"] input[type="file"]').setInputFiles(path.join(files, `${longName}.md`));
    await expect.poll(() => byTestId("import-name").inputValue()).not.toBe("");
    await byTestId("import-upload").click();
    await byTestId("import-preview-step").waitFor();
    await byTestId("import-next").click();
    await byTestId("import-confirm").click();
    await page.waitForURL(/baseFile/);

    const row = page.locator('[data-testid^="file-row-"]').first();
    await row.waitFor();
    await page.waitForTimeout(300);
    for (const action of ["file-segments-open", "file-rename", "file-export", "file-delete"]) {
      const button = row.locator(`[data-testid="${action}"]`);
      expect(await inView(button), `${action} is inside the window`).toBe(true);
      expect(await onTop(button), `${action} is not covered`).toBe(true);
    }
    // The whole table fits: nothing scrolls sideways; the long name is cut with an ellipsis.
    const scroller = byTestId("files-table").locator(".ant-table-content");
    expect(await scroller.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(1);
    const name = row.locator('[data-testid="file-name"]');
    expect(await name.getAttribute("title")).toBe(await name.textContent());
    expect(await name.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    // The delete confirmation opens on click, its buttons in view.
    await row.locator('[data-testid="file-delete"]').click();
    expect(await inView(byTestId("file-delete-confirm"))).toBe(true);
    await page.keyboard.press("Escape");
  });

  it("the Delete context confirmation leaves its Cancel button free", async () => {
    const created = await api<{ code: string }>("POST", "/api/v1/apps", appBody("Context helper"));
    await page.goto(`${parley.url}/app/${created.code}`);
    await byTestId("chat-input").fill("Hello there");
    await byTestId("chat-send").click();
    await expect.poll(() => byTestId("chat-message-assistant").last().getAttribute("data-status"), { timeout: 20_000 }).toBe("complete");

    await byTestId("chat-clear-context").hover();
    await byTestId("chat-clear-context").click();
    const confirmation = page.locator(".ant-popconfirm:visible");
    const cancel = confirmation.getByRole("button", { name: "Cancel" });
    await cancel.waitFor();
    await page.waitForTimeout(600); // past any hover tooltip's delay
    expect(await inView(cancel)).toBe(true);
    expect(await onTop(cancel), "nothing lies over Cancel").toBe(true);
    expect(await onTop(confirmation.getByRole("button", { name: "Delete context" }))).toBe(true);
    await cancel.click({ timeout: 3000 });
    await expect.poll(() => confirmation.count()).toBe(0);
    expect(await byTestId("chat-context-divider").count()).toBe(0);
  });

  it("inserts a node clicked in the palette into the flow, connected and clear of the others; the minimap is off", async () => {
    const workflow = await api<{ id: string }>("POST", "/api/v1/workflows", {
      name: "Insertions",
      description: "Nodes clicked in the palette",
      avatarUrl: "/favicon.svg",
      category: "office",
    });
    await page.goto(`${parley.url}/console/workflow?id=${workflow.id}`);
    await byTestId("wf-node-start").waitFor();
    await byTestId("wf-node-end").waitFor();
    expect(await page.locator(".react-flow__minimap").count()).toBe(0);

    const edge = (source: string, target: string) => page.locator(`.react-flow__edge[aria-label="Edge from ${source} to ${target}"]`);
    await byTestId("wf-palette-llm").click();
    await byTestId("wf-node-llm_1").waitFor();
    await expect.poll(() => edge("start", "llm_1").count()).toBe(1);
    await expect.poll(() => edge("llm_1", "end").count()).toBe(1);
    expect(await page.locator(".react-flow__edge").count()).toBe(2);

    // With the llm node selected, the next one goes after it, before the end.
    await byTestId("wf-palette-fixed_reply").click();
    await byTestId("wf-node-fixed_reply_1").waitFor();
    await expect.poll(() => edge("llm_1", "fixed_reply_1").count()).toBe(1);
    await expect.poll(() => edge("fixed_reply_1", "end").count()).toBe(1);
    expect(await page.locator(".react-flow__edge").count()).toBe(3);

    // No node lies on another, and each is visible on the canvas.
    await page.waitForTimeout(400); // the view fits the flow after an insertion
    const boxes = await Promise.all(
      ["start", "llm_1", "fixed_reply_1", "end"].map(async (id) => ({ id, box: (await byTestId(`wf-node-${id}`).boundingBox())! })),
    );
    const canvas = (await byTestId("wf-canvas").boundingBox())!;
    for (const { id, box } of boxes) {
      expect(box.x >= canvas.x && box.x + box.width <= canvas.x + canvas.width, `${id} inside the canvas`).toBe(true);
      for (const other of boxes) {
        if (other.id === id) continue;
        const apart =
          box.x + box.width <= other.box.x ||
          other.box.x + other.box.width <= box.x ||
          box.y + box.height <= other.box.y ||
          other.box.y + other.box.height <= box.y;
        expect(apart, `${id} clear of ${other.id}`).toBe(true);
      }
    }

    // The End node's answer box is named by its label.
    await byTestId("wf-node-end").click();
    await byTestId("wf-form-end").getByLabel("Answer", { exact: true }).fill("{{fixed_reply_1.output}}");
    expect(await byTestId("wf-field-output").inputValue()).toBe("{{fixed_reply_1.output}}");

    // The minimap comes only when asked for.
    await byTestId("wf-minimap-toggle").click();
    await expect.poll(() => page.locator(".react-flow__minimap").count()).toBe(1);
    await byTestId("wf-minimap-toggle").click();
    await expect.poll(() => page.locator(".react-flow__minimap").count()).toBe(0);
  });
});
