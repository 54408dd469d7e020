import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as XLSX from "@e965/xlsx";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_database_console_e2e_owner_0123456789";
/** Set PARLEY_SCREENSHOTS to a directory to keep screenshots of the screens. */
const shots = process.env.PARLEY_SCREENSHOTS;

let parley: ParleyProcess;
let browser: Browser;
let page: Page;
let files: string;

beforeAll(async () => {
  files = fs.mkdtempSync(path.join(os.tmpdir(), "parley-database-e2e-"));
  const sheet = XLSX.utils.aoa_to_sheet([
    ["name", "price", "stock", "arrived", "Note"],
    ["Green tea", 3.5, 12, "2026-03-01 10:00:00", "skip me"],
    ["Black tea", 4.25, 0, "2026-03-02 11:30:00", ""],
    ["Oolong", 6, 7, "2026-03-03 09:15:00", "x"],
  ]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, "Teas");
  fs.writeFileSync(path.join(files, "teas.xlsx"), XLSX.write(book, { type: "buffer", bookType: "xlsx" }) as Buffer);
  [parley, browser] = await Promise.all([startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_SEED_DEMO: "false" }), launchBrowser()]);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
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
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
};
const errorsShown = () => page.locator(".ant-form-item-explain-error").allInnerTexts();
const api = async <T>(url: string) =>
  ((await (await fetch(`${parley.url}${url}`, { headers: { authorization: `Bearer ${ownerKey}` } })).json()) as { data: T }).data;

describe("databases in Chromium: create → table → import an XLSX → preview → edit → filter → export", () => {
  let databaseId = "";

  it("shows the empty list and creates a built-in database; remote waits for the plan", async () => {
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    await page.goto(`${parley.url}/console/database`);
    await expect.poll(() => byTestId("database-empty").count()).toBe(1);

    await byTestId("database-create").first().click();
    // The remote type follows the plan's customer service (spec §6).
    const plan = await api<{ usage: { quota: string; limit: number }[] }>("/api/v1/plans/current");
    const remoteAllowed = (plan.usage.find((usage) => usage.quota === "customerService")?.limit ?? 0) > 0;
    const remoteRadio = page.locator('[data-testid="database-create-form"] input[type="radio"][value="remote"]');
    await expect.poll(() => remoteRadio.isDisabled()).toBe(!remoteAllowed);
    expect(await byTestId("database-remote-locked").count()).toBe(remoteAllowed ? 0 : 1);
    if (remoteAllowed) {
      await byTestId("database-type-remote").click();
      await byTestId("database-name").fill("Warehouse");
      await byTestId("database-create-submit").click();
      await expect.poll(errorsShown).toEqual(expect.arrayContaining(["Enter the Host", "Enter the Username", "Enter the Password", "Enter the Database name"]));
      await byTestId("database-type-builtin").click();
    }
    await byTestId("database-name").fill("Tea shop");
    await byTestId("database-permission-query").click(); // unticks the default: none left
    await byTestId("database-create-submit").click();
    await expect.poll(errorsShown).toContain("Choose at least one permission: query, add, edit or delete");
    await byTestId("database-permission-query").click();
    await byTestId("database-permission-edit").click();
    await snap("database-create-en");
    await byTestId("database-create-submit").click();
    await page.waitForURL(/\/console\/database\/tableConfig\?id=db_/);
    databaseId = new URL(page.url()).searchParams.get("id")!;
    const stored = await api<{ type: string; permissions: Record<string, boolean> }>(`/api/v1/databases/${databaseId}`);
    expect(stored).toMatchObject({ type: "builtin", permissions: { query: true, add: false, edit: true, delete: false } });
  });

  it("creates a table with typed fields; a repeated field name is refused", async () => {
    await byTestId("database-table-create").click();
    await byTestId("database-table-name-input").fill("teas");
    const names = byTestId("database-field-name");
    const types = byTestId("database-field-type");
    const addField = async (name: string, type: string) => {
      await byTestId("database-table-field-more").click();
      await names.last().fill(name);
      await types.last().click();
      await page.keyboard.type(type);
      await page.keyboard.press("Enter");
      await expect.poll(() => types.last().innerText()).toBe(type);
    };
    await names.first().fill("name");
    await addField("price", "Decimal");
    await addField("stock", "Integer");
    await addField("arrived", "Date and time");
    await addField("Name", "Text");
    await byTestId("database-table-create-submit").click();
    await expect.poll(errorsShown).toContain("The field name name is used twice");
    await page.locator('[data-testid="database-table-create-form"] [aria-label="Delete"]').last().click();
    await byTestId("database-table-create-submit").click();
    await expect.poll(() => byTestId("database-table-name").innerText()).toContain("teas");
    await expect.poll(() => byTestId("database-fields").locator("tbody tr").count()).toBe(4);
    expect(await byTestId("database-fields").innerText()).toMatch(/price\s+Decimal/);
  });

  it("imports the XLSX through the wizard: preview, matching, import", async () => {
    await byTestId("database-import").click();
    await page.locator('.ant-modal input[type="file"]').setInputFiles(path.join(files, "teas.xlsx"));
    await expect.poll(() => byTestId("database-import-file").innerText()).toContain("teas.xlsx · XLSX");
    const matching = byTestId("database-import-matching");
    expect(await matching.innerText()).toContain("Green tea");
    expect(await byTestId("database-import-match-Note").innerText()).toContain("Skip this column");
    expect(await byTestId("database-import-match-price").innerText()).toContain("price");
    await snap("database-import-en");
    await byTestId("database-import-run").click();
    await expect.poll(() => byTestId("database-import-result").innerText()).toBe("3 rows imported");
    await byTestId("database-import-close").click();
    await expect.poll(() => byTestId("database-table-name").innerText()).toContain("3 rows");
  });

  it("previews the rows, edits one with typed inputs, filters", async () => {
    await byTestId("tab-preview").click();
    await page.waitForURL(/\/console\/database\/preview\?id=db_/);
    const rows = byTestId("database-rows").locator("tbody tr.ant-table-row");
    await expect.poll(() => rows.count()).toBe(3);
    expect(await byTestId("database-preview-total").innerText()).toBe("3 rows");
    expect(await byTestId("database-rows").innerText()).toContain("2026-03-02 11:30:00");

    await byTestId("database-row-edit-1").click();
    await expect.poll(() => byTestId("database-value-name").inputValue()).toBe("Green tea");
    await byTestId("database-value-name").fill("Jasmine tea");
    await byTestId("database-value-stock").fill("20");
    await byTestId("database-row-save").click();
    await expect.poll(() => rows.first().innerText()).toContain("Jasmine tea");
    const edited = await api<{ items: { values: Record<string, unknown> }[] }>(`/api/v1/database-tables/${await tableId()}/rows`);
    expect(edited.items[0]!.values).toMatchObject({ name: "Jasmine tea", stock: 20, price: 3.5 });

    await byTestId("database-filter-add").click();
    await byTestId("database-filter-field-0").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: /^price$/ }).click();
    await byTestId("database-filter-op-0").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: /^greater than$/ }).click();
    await byTestId("database-filter-value-0").fill("4");
    await byTestId("database-filter-apply").click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await byTestId("database-rows").innerText()).not.toContain("Jasmine tea");
    await snap("database-preview-en");
  });

  it("exports the table as a CSV download with the rows", async () => {
    await byTestId("tab-tableConfig").click();
    await byTestId("database-export").hover();
    const [download] = await Promise.all([page.waitForEvent("download"), byTestId("database-export-csv").click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const text = fs.readFileSync((await download.path())!, "utf8");
    expect(text).toContain("Jasmine tea");
    expect(text).toContain("Oolong");
    expect(text.split(/\r?\n/)[0]).toContain("name");
  });

  async function tableId(): Promise<string> {
    const tables = await api<{ id: string }[]>(`/api/v1/databases/${databaseId}/tables`);
    return tables[0]!.id;
  }
});
