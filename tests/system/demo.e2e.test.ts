import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_QUESTIONS } from "../../packages/api/src/clients/demo-content";
import { launchBrowser } from "./browser";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

// The seeded demo as a newcomer meets it: the built server started fresh (no model provider),
// /web/agent/demo in Chromium, each guiding question answered offline from the seeded knowledge,
// "Talk to a person", and an operator's replies reaching the visitor in two tabs of one browser.

const ownerKey = "pk_e2e_demo_owner_0123456789abcdef";
let parley: ParleyProcess;
let browser: Browser;

beforeAll(async () => {
  [parley, browser] = await Promise.all([startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
});

const owner = (method: string, pathname: string, body?: unknown) => apiCall(parley.url, ownerKey, method, pathname, body);

/** The visitor event streams each tab has open (answered): its live events are joining. */
const liveStreams = new WeakMap<Page, number>();

/** Opens /web/agent/demo (full page: the chat opens by itself) in a tab of `context`. */
async function openDemo(context: BrowserContext, errors: string[]): Promise<Page> {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  page.on("response", (response) => {
    if (/\/api\/v1\/widget\/[^/]+\/sessions\/[^/]+\/events$/.test(new URL(response.url()).pathname) && response.ok())
      liveStreams.set(page, (liveStreams.get(page) ?? 0) + 1);
  });
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !/^Failed to load resource/.test(message.text())) errors.push(message.text());
  });
  await page.goto(`${parley.url}/web/agent/demo`);
  await page.getByRole("dialog").getByRole("log").waitFor();
  return page;
}

/** The finished answers in the log (not the visitor's, not an operator's, not streaming). */
const answers = (page: Page) => page.getByRole("dialog").getByRole("log").locator(".m.u ~ .m:not(.u):not(.r):not([aria-busy])");

/** Asks by typing and answers the text of the answer that follows. */
async function ask(page: Page, question: string): Promise<string> {
  const before = await answers(page).count();
  const input = page.getByRole("dialog").getByRole("textbox");
  await input.fill(question);
  await input.press("Enter");
  await expect.poll(() => answers(page).count(), { timeout: 20_000 }).toBe(before + 1);
  return answers(page).nth(before).innerText();
}

/** A phrase each answer must hold, by guiding question. */
const mustSay = {
  en: ["open AI agent platform", 'data-client-id="demo"', "API access → Models", "Talk to a person"],
  "zh-CN": ["开放的 AI 智能体平台", 'data-client-id="demo"', "API 接入 → 模型", "转人工客服"],
} as const;

describe("the seeded demo on a fresh start", () => {
  it("answers its guiding questions offline, hands over to a person, and the operator's replies reach two tabs", async () => {
    // The seed is indexed by the background worker moments after the start.
    const [base] = await owner("GET", "/api/v1/knowledge-bases");
    expect(base.name).toBe("Parley guide");
    await expect
      .poll(async () => ((await owner("GET", `/api/v1/knowledge-bases/${base.id}/files`)) as Array<{ status: string }>).map((file) => file.status), {
        timeout: 10_000,
      })
      .toEqual(["effective", "effective"]);

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    const errors: string[] = [];
    const first = await openDemo(context, errors);
    const dialog = first.getByRole("dialog");
    const suggested = dialog.getByRole("list", { name: "Suggested questions" }).getByRole("button");
    await expect.poll(() => suggested.allInnerTexts()).toEqual([...DEMO_QUESTIONS.en]);
    // The first by its button (the list goes once the conversation starts), the others typed.
    await suggested.first().click();
    await expect.poll(() => answers(first).count(), { timeout: 20_000 }).toBe(1);
    const replies = [await answers(first).first().innerText()];
    for (const question of DEMO_QUESTIONS.en.slice(1)) replies.push(await ask(first, question));
    replies.forEach((reply, index) => expect(reply, DEMO_QUESTIONS.en[index]).toContain(mustSay.en[index]));
    expect(replies.join("\n")).not.toContain("cannot answer");
    await expect.poll(() => dialog.getByRole("list", { name: "Sources" }).first().innerText()).toContain("parley-faq");

    // "Talk to a person": handed over, waiting in the inbox.
    await dialog.getByRole("button", { name: "Talk to a person", exact: true }).click();
    await expect.poll(() => dialog.getByRole("status").innerText()).toBe("A person from our team will answer you here.");
    const [session] = (await owner("GET", "/api/v1/inbox/sessions?clientId=demo")).items;
    expect(session.serviceMode).toBe("MANUAL_MODE");
    expect(session.handoverRequestedAt).toBeTruthy();

    const operatorBubbles = (page: Page) => page.getByRole("dialog").getByRole("log").locator(".m.r");
    await owner("POST", `/api/v1/inbox/sessions/${session.sessionId}/messages`, { content: "Hi, Dana here from the Parley team." });
    await expect.poll(() => operatorBubbles(first).count(), { timeout: 10_000 }).toBe(1);

    // A second tab of the same browser continues the conversation: its history, no transfer button, and live replies.
    const second = await openDemo(context, errors);
    await expect.poll(() => operatorBubbles(second).count()).toBe(1);
    await expect.poll(() => second.getByRole("dialog").getByRole("log").locator(".m.u").count()).toBe(4);
    expect(await second.getByRole("dialog").getByRole("button", { name: "Talk to a person", exact: true }).count()).toBe(0);
    await expect.poll(() => second.getByRole("dialog").getByRole("status").innerText()).toBe("A person from our team will answer you here.");
    // Once the second tab's stream is open, an operator message reaches both tabs at once.
    await expect.poll(() => liveStreams.get(second) ?? 0).toBeGreaterThan(0);
    const sentAt = Date.now();
    await owner("POST", `/api/v1/inbox/sessions/${session.sessionId}/messages`, { content: "You can embed the widget with one script tag." });
    for (const page of [first, second]) {
      await expect.poll(() => operatorBubbles(page).count(), { timeout: 10_000 }).toBe(2);
      expect(await operatorBubbles(page).nth(1).innerText()).toContain("one script tag");
    }
    // Pushed, not refetched: well under the stream's 10 s reconnection delay.
    expect(Date.now() - sentAt).toBeLessThan(5_000);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("answers the Chinese guiding questions for a Chinese visitor, and starts cleanly when the stored session is unknown", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "zh-CN" });
    const errors: string[] = [];
    const page = await openDemo(context, errors);
    // A session the server does not know (another instance's, a wiped data directory): dropped, a new one starts.
    await page.evaluate(() => localStorage.setItem("parley:demo", JSON.stringify({ sessionId: "wcs_gone", visitorToken: "wvt_gone", visitorId: "v_gone" })));
    await page.reload();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "转人工客服", exact: true }).waitFor();
    await expect.poll(() => page.evaluate(() => localStorage.getItem("parley:demo"))).toBeNull();
    for (const [index, question] of DEMO_QUESTIONS["zh-CN"].entries()) expect(await ask(page, question), question).toContain(mustSay["zh-CN"][index]);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("parley:demo") ?? "null"));
    expect(stored.sessionId).toMatch(/^wcs_/);
    expect(stored.sessionId).not.toBe("wcs_gone");
    expect(errors).toEqual([]);
    await context.close();
  });
});
