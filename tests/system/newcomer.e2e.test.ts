import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { root } from "./parley-process";

// The newcomer's first hour, as one journey: a fresh data directory, `npm start` exactly as the
// README says (no model, no embedder, no settings), the printed sign-in link, and then the
// obvious things in real Chromium. Each step logs how long it took (`journey step=… ms=…`).

/** Set PARLEY_SCREENSHOTS to a directory to keep screenshots of each step. */
const shots = process.env.PARLEY_SCREENSHOTS;

const handbook = [
  "# Harbour Bikes handbook",
  "",
  "## Opening hours",
  "",
  "The Harbour Bikes workshop on Quay Street opens at 07:30 on weekdays and closes at 18:00.",
  "",
  "## Rentals",
  "",
  "A city bike rents for 14 euros a day. Electric bikes cost 29 euros a day and need a deposit of 200 euros.",
  "",
  "## Repairs",
  "",
  "Puncture repairs are done while you wait and take about twenty minutes.",
].join("\n");

interface StartedByNpm {
  url: string;
  signInUrl: string;
  output(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs `npm start` in the repository, as the README says, with only a port and a fresh data directory. */
async function npmStart(dataDir: string): Promise<StartedByNpm> {
  const port = await freePort();
  // Its own process group, so stopping ends npm, the start script and the server it spawned — and nothing else.
  const child: ChildProcess = spawn("npm", ["start"], {
    cwd: root,
    detached: true,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: String(port), PARLEY_DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const signInUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no sign-in link within 90 s:\n${output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const link = /(http:\/\/\S+\?loginCode=\S+)/.exec(output)?.[1];
      if (link && /listening on/.test(output)) {
        clearTimeout(timer);
        resolve(link);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code}:\n${output}`));
    });
  });
  const url = new URL(signInUrl);
  return {
    url: `${url.protocol}//${url.host}`,
    signInUrl,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    },
  };
}

let dataDir: string;
let files: string;
let parley: StartedByNpm;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const timings: Array<[string, number]> = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-newcomer-"));
  files = fs.mkdtempSync(path.join(os.tmpdir(), "parley-newcomer-files-"));
  fs.writeFileSync(path.join(files, "harbour-bikes.md"), handbook);
  const started = performance.now();
  [parley, browser] = await Promise.all([npmStart(dataDir), launchBrowser()]);
  timings.push(["npm start to sign-in link", performance.now() - started]);
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(20_000);
  if (shots) fs.mkdirSync(shots, { recursive: true });
}, 120_000);

afterAll(async () => {
  for (const [step, ms] of timings) process.stdout.write(`journey step=${JSON.stringify(step)} ms=${Math.round(ms)}\n`);
  await browser?.close();
  await parley?.stop();
  for (const dir of [dataDir, files]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const byTestId = (id: string, on: Page = page) => on.locator(`[data-testid="${id}"]`);
const snap = async (name: string, on: Page = page) => {
  if (!shots) return;
  await on.waitForTimeout(400);
  await on.screenshot({ path: path.join(shots, `newcomer-${name}.png`) });
};
/** Runs one step of the journey and records how long it took. */
async function step(name: string, body: () => Promise<void>): Promise<void> {
  const begin = performance.now();
  try {
    await body();
  } catch (error) {
    await snap(`failed-${name.replace(/\W+/g, "-")}`).catch(() => undefined);
    throw error;
  }
  timings.push([name, performance.now() - begin]);
}

describe("a newcomer's first run, exactly as the README says", () => {
  let knowledgeBaseId = "";
  let appId = "";

  it("opens the printed sign-in link and sees Clients, Chat management and Dashboard in the menu", async () => {
    await step("sign in and see the menu", async () => {
      expect(parley.output()).toMatch(/Sign in as the owner/);
      await page.goto(parley.signInUrl);
      await page.waitForURL(/\/console\/agents$/);
      for (const entry of ["clients", "chatManage", "dashboard"]) await expect.poll(() => byTestId(`menu-${entry}`).count(), { message: entry }).toBe(1);
      expect(await byTestId("console-menu").innerText()).toMatch(/Clients[\s\S]*Chat management[\s\S]*Dashboard/);
      await snap("menu");
    });
  });

  it("creates a knowledge base and imports a Markdown file until it is effective", async () => {
    await step("create a knowledge base and import a .md file", async () => {
      await page.goto(`${parley.url}/console/knowledge`);
      await byTestId("knowledge-create").click();
      await byTestId("kb-name").fill("Harbour Bikes");
      await byTestId("kb-description").fill("Opening hours, rentals and repairs");
      await byTestId("kb-create-submit").click();
      await page.waitForURL(/\/knowledgeManage\/importFile\?id=kb_/);
      knowledgeBaseId = new URL(page.url()).searchParams.get("id")!;
      await byTestId("import-type-document").click();
      await byTestId("import-next").click();
      await page.locator('[data-testid="import-upload-step"] input[type="file"]').setInputFiles(path.join(files, "harbour-bikes.md"));
      await expect.poll(() => byTestId("import-picked").innerText()).toContain("harbour-bikes.md");
      await byTestId("import-upload").click();
      await expect.poll(() => byTestId("import-preview-step").count()).toBe(1);
      await byTestId("import-next").click();
      await byTestId("import-confirm").click();
      await page.waitForURL(/\/knowledgeManage\/baseFile\?id=/);
      const row = byTestId("file-row-harbour-bikes");
      await expect.poll(() => row.locator('[data-testid="file-status"]').getAttribute("data-status"), { timeout: 30_000 }).toBe("effective");
      await snap("knowledge-file");
    });
  });

  it("creates a knowledge app with default settings, binds the base and gets the answer with a citation", async () => {
    await step("create a knowledge app with default settings", async () => {
      await page.goto(`${parley.url}/console/agents`);
      await byTestId("app-create").first().click();
      await page.waitForURL(/\/console\/createApp$/);
      await page.locator('[data-testid="app-type"] label', { hasText: "Knowledge app" }).click();
      await byTestId("app-name").fill("Bike desk");
      await byTestId("app-description").fill("Answers questions about Harbour Bikes");
      await byTestId("app-opening").fill("Hello! Ask me about Harbour Bikes. [When do you open?]");
      await byTestId("app-category").click();
      await page.locator(".ant-select-dropdown:visible .ant-select-item-option").first().click();
      await byTestId("app-prompt").fill("You answer questions about Harbour Bikes from the handbook.");
      await byTestId("app-save").click();
      await page.waitForURL(/\/console\/agent\?id=/);
      appId = new URL(page.url()).searchParams.get("id")!;
      await byTestId("editor-tab-advanced").click();
      await byTestId("app-knowledge-bases").click();
      await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "Harbour Bikes" }).first().click();
      await page.keyboard.press("Escape");
      await byTestId("app-save").click();
      await expect.poll(() => page.locator(".ant-message").innerText()).toContain("Changes saved");
    });
    await step("ask the knowledge app a question answered in the file", async () => {
      await byTestId("preview-input").fill("What time does the workshop open on weekdays?");
      await byTestId("preview-send").click();
      const answer = byTestId("chat-message-assistant").last();
      await expect.poll(() => answer.getAttribute("data-status"), { timeout: 30_000 }).toBe("complete");
      expect(await answer.innerText()).toContain("07:30");
      await expect.poll(() => answer.locator('[data-testid="chat-citations"]').innerText()).toContain("harbour-bikes");
      await snap("knowledge-answer");
    });
    expect(appId).toMatch(/\S/);
    expect(knowledgeBaseId).toMatch(/^kb_/);
  });

  let visitor: BrowserContext;
  let firstTab: Page;

  it("opens /web/agent/demo and gets an answer to each of its guiding questions", async () => {
    await step("answer each guiding question of the demo", async () => {
      const config = (await (await fetch(`${parley.url}/api/v1/widget/demo/config`)).json()) as { data: { guidingQuestions: string[] } };
      const questions = config.data.guidingQuestions;
      expect(questions.length).toBeGreaterThan(0);
      visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      firstTab = await visitor.newPage();
      firstTab.setDefaultTimeout(20_000);
      await firstTab.goto(`${parley.url}/web/agent/demo`);
      const dialog = firstTab.getByRole("dialog");
      const log = dialog.getByRole("log");
      for (const [index, question] of questions.entries()) {
        // The suggestions are offered until the first message; the rest are asked by typing them.
        if (index === 0) await dialog.getByRole("button", { name: question, exact: true }).click();
        else {
          await dialog.getByRole("textbox").fill(question);
          await dialog.getByRole("textbox").press("Enter");
        }
        const answers = log.locator(".m.u ~ .m:not(.u):not(.r):not([aria-busy])");
        await expect.poll(() => answers.count(), { timeout: 30_000, message: question }).toBe(index + 1);
        const answer = await answers.nth(index).innerText();
        expect(answer, question).not.toMatch(/cannot answer|No language model|Sorry/i);
        expect(answer.length, question).toBeGreaterThan(40);
      }
      await snap("demo-answers", firstTab);
    });
  });

  it("asks for a person; the operator takes over in Chat management and replies; the visitor sees it in both tabs", async () => {
    await step("ask for a person", async () => {
      const dialog = firstTab.getByRole("dialog");
      await dialog.getByRole("button", { name: "Talk to a person" }).click();
      await expect.poll(() => dialog.getByRole("status").innerText()).toMatch(/person/i);
    });
    await step("take over in Chat management and reply", async () => {
      await page.goto(`${parley.url}/console/chatManage`);
      await expect.poll(() => byTestId("inbox-realtime").getAttribute("data-state")).toBe("connected");
      const session = page.locator('[data-testid^="inbox-session-"]:not([data-testid="inbox-session-check"])').first();
      await session.click();
      if (await byTestId("conversation-take-over").count()) {
        await byTestId("conversation-take-over").click();
        await byTestId("mode-confirm-ok").click();
      }
      await expect.poll(() => byTestId("conversation-hand-back").count()).toBe(1);
      await byTestId("reply-input").fill("Hi, this is Sam from the Parley team. How can I help?");
      await byTestId("reply-send").click();
      await expect.poll(() => byTestId("message-operator").last().innerText()).toContain("Sam from the Parley team");
      await snap("chat-manage");
    });
    await step("the visitor sees the reply, in a second tab too", async () => {
      const log = firstTab.getByRole("dialog").getByRole("log");
      await expect.poll(() => log.locator(".m.r").last().innerText(), { timeout: 10_000 }).toContain("Sam from the Parley team");
      const secondTab = await visitor.newPage();
      secondTab.setDefaultTimeout(20_000);
      await secondTab.goto(`${parley.url}/web/agent/demo`);
      const secondLog = secondTab.getByRole("dialog").getByRole("log");
      await expect.poll(() => secondLog.locator(".m.r").count()).toBe(1);
      expect(await secondLog.innerText()).toContain("Sam from the Parley team");
      await byTestId("reply-input").fill("Your rental is booked for Saturday.");
      await byTestId("reply-send").click();
      for (const tab of [firstTab, secondTab])
        await expect
          .poll(() => tab.getByRole("dialog").getByRole("log").locator(".m.r").last().innerText(), { timeout: 10_000 })
          .toContain("booked for Saturday");
      await snap("second-tab", secondTab);
    });
  });

  it("switches the UI to Chinese: the offline answer and every visible label are Chinese", async () => {
    await step("switch the console to Chinese", async () => {
      await page.goto(`${parley.url}/console/agent?id=${appId}`);
      await byTestId("language-switch").click();
      await byTestId("language-option-zh-CN").click();
      // The Chinese catalogue loads on demand: allow for a loaded machine.
      await expect.poll(() => byTestId("editor-tab-advanced").innerText(), { timeout: 10_000 }).toBe("高级配置");
      // A question the handbook cannot answer: the offline responder says so, in Chinese.
      await byTestId("preview-input").fill("今天股市怎么样？");
      await byTestId("preview-send").click();
      const answer = byTestId("chat-message-assistant").last();
      await expect.poll(() => answer.getAttribute("data-status"), { timeout: 30_000 }).toBe("complete");
      const text = await answer.innerText();
      expect(text).toMatch(/[\u4e00-\u9fff]{8}/);
      expect(text).not.toMatch(/language model|Settings|configured/i);
      await snap("offline-zh");
      for (const route of ["/console/agents", "/console/knowledge", "/console/chatManage", "/console/clients"]) {
        await page.goto(`${parley.url}${route}`);
        await expect.poll(() => byTestId("console-menu").innerText()).toContain("应用");
        await page.waitForLoadState("networkidle");
        // The interface's own words (menus, headers, titles, buttons, labels, tabs, table heads,
        // placeholders and accessible names), not what people typed or named.
        const chrome = await page.evaluate(() => {
          const selectors =
            ".ant-layout-sider, .ant-layout-header, .pl-page-header, button, label, th, .ant-tabs-tab, .ant-empty, .ant-segmented, .ant-card-head-title";
          const texts = [...document.querySelectorAll<HTMLElement>(selectors)].filter((node) => node.offsetParent !== null).map((node) => node.innerText);
          for (const node of document.querySelectorAll<HTMLElement>("[placeholder], [aria-label]")) {
            // Ant Design's icons label themselves with their file name ("appstore"); they sit inside labelled controls.
            if (node.offsetParent === null || node.classList.contains("anticon")) continue;
            texts.push(node.getAttribute("placeholder") ?? "", node.getAttribute("aria-label") ?? "");
          }
          return texts.join("\n");
        });
        // Names people gave, product and platform names, and code words such as `script`.
        const shown = chrome.replace(
          /Harbour Bikes|Harbour team|Bike desk|Parley( demo| guide)?|Owner|demo|https?:\/\/\S+|API|AI|SDK|Token|gpt-[\w.-]+|script|Telegram|WeChat|Slack|Discord|WhatsApp|HubSpot|DingTalk|Feishu|Lark/g,
          "",
        );
        const english = shown.match(/\b[A-Za-z]{4,}\b/g) ?? [];
        expect(english.join(" "), route).toBe("");
      }
    });
  });

  it("switches to a new team space and back: every list follows the space", async () => {
    await step("switch space and see the lists follow", async () => {
      await page.goto(`${parley.url}/console/agents`);
      await expect.poll(() => page.locator('[data-testid^="app-card-name-"]').allInnerTexts()).toContain("Bike desk");
      await byTestId("space-switcher").click();
      await byTestId("create-team").click();
      await byTestId("create-team-name").fill("Harbour team");
      await byTestId("create-team-submit").click();
      await expect.poll(() => byTestId("space-switcher").innerText()).toContain("Harbour team");
      await expect.poll(() => page.locator('[data-testid^="app-card-name-"]').count()).toBe(0);
      await page.goto(`${parley.url}/console/knowledge`);
      await expect.poll(() => byTestId("knowledge-empty").count()).toBe(1);
      await byTestId("space-switcher").click();
      const personal = page.locator('[data-testid^="space-option-"]').filter({ hasNotText: "Harbour team" }).first();
      await personal.click();
      await expect.poll(() => byTestId(`knowledge-card-${knowledgeBaseId}`).count()).toBe(1);
      await page.goto(`${parley.url}/console/agents`);
      await expect.poll(() => page.locator('[data-testid^="app-card-name-"]').allInnerTexts()).toContain("Bike desk");
      await snap("space-back");
    });
  });
});
