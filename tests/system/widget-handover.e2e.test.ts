import { createHmac } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import type { Server } from "node:http";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExampleServer } from "../../examples/embed-html/serve.mjs";
import { launchBrowser } from "./browser";
import { apiCall, type ParleyProcess, startParley } from "./parley-process";

// The real path, end to end: the built server in its own process, the example host page on a
// second origin under its strict CSP, headless Chromium as the visitor, and an operator signed in
// through the API (the owner's one-time sign-in link exchanged for a session) working the inbox.

const ownerKey = "pk_e2e_widget_handover_owner_012345";
let parley: ParleyProcess;
let browser: Browser;
let site: Server;
let siteUrl: string;
let operatorToken: string;

beforeAll(async () => {
  [parley, browser] = await Promise.all([startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey }), launchBrowser()]);
  site = createExampleServer({ parleyUrl: parley.url });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  // The operator signs in by API: the first start's sign-in link holds a one-time loginCode.
  const loginCode = new URL(parley.signInUrl!).searchParams.get("loginCode");
  const exchanged = await fetch(`${parley.url}/api/v1/auth/exchange`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ loginCode }),
  });
  expect(exchanged.status).toBe(200);
  operatorToken = ((await exchanged.json()) as { data: { token: string } }).data.token;
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
});

const api = (token: string, method: string, pathname: string, body?: unknown) => apiCall(parley.url, token, method, pathname, body);
const operator = (method: string, pathname: string, body?: unknown) => api(operatorToken, method, pathname, body);
const owner = (method: string, pathname: string, body?: unknown) => api(ownerKey, method, pathname, body);

interface Visitor {
  page: Page;
  context: BrowserContext;
  errors: string[];
}

async function visit(clientId: string, locale = "en-US", beforeOpen?: (page: Page) => Promise<void>): Promise<Visitor> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !/^Failed to load resource/.test(message.text())) errors.push(message.text());
  });
  await page.goto(`${siteUrl}/?client=${encodeURIComponent(clientId)}`);
  await beforeOpen?.(page);
  await page.getByRole("button", { name: locale === "zh-CN" ? "打开聊天" : "Open chat" }).click();
  return { page, context, errors };
}

/** Sends a message and waits until the log holds `answers` finished answers. */
async function ask(visitor: Visitor, text: string, answers: number): Promise<void> {
  const dialog = visitor.page.getByRole("dialog");
  await dialog.getByRole("textbox").fill(text);
  await dialog.getByRole("textbox").press("Enter");
  await expect.poll(() => dialog.getByRole("log").locator(".m.u ~ .m:not(.u):not(.r):not([aria-busy])").count(), { timeout: 20_000 }).toBe(answers);
}

/** The client's newest inbox session, found the way the console finds it. */
async function inboxSession(clientId: string): Promise<any> {
  const page = await operator("GET", `/api/v1/inbox/sessions?clientId=${encodeURIComponent(clientId)}`);
  expect(page.items.length).toBeGreaterThan(0);
  return page.items[0];
}

describe("an operator takes over a web visitor's conversation", () => {
  it("visitor asks → the operator takes over and replies → the reply shows in the widget at once; the AI stays silent after", async () => {
    // Listeners added before the chat loads hear everything from `ready` on.
    const demo = await owner("GET", "/api/v1/web-clients/demo");
    const client = await owner("POST", "/api/v1/web-clients", { appId: demo.appId, name: "Acme AI only", manualTransfer: false });
    const visitor = await visit(client.id, "en-US", (page) =>
      page.evaluate(() => {
        const heard: string[] = [];
        (window as unknown as { heard: string[] }).heard = heard;
        const parley = (window as unknown as { Parley(...args: unknown[]): void }).Parley;
        for (const event of ["ready", "open", "close", "message"])
          parley("on", event, (payload?: { role?: string }) => heard.push(payload?.role ? `${event}:${payload.role}` : event));
      }),
    );
    const dialog = visitor.page.getByRole("dialog");
    const log = dialog.getByRole("log");
    await ask(visitor, "Where is my parcel AX-1042?", 1);
    // This client does not offer manual transfer: no button.
    expect(await dialog.getByRole("button", { name: "Talk to a person", exact: true }).count()).toBe(0);

    const session = await inboxSession(client.id);
    const history = await operator("GET", `/api/v1/inbox/sessions/${session.sessionId}/messages`);
    expect(history.items.map((item: { content: string }) => item.content)).toContain("Where is my parcel AX-1042?");
    expect(session.serviceMode).toBe("FULL_AUTO_MODE");

    const taken = await operator("PUT", `/api/v1/inbox/sessions/${session.sessionId}/mode`, { serviceMode: "MANUAL_MODE", confirm: true });
    expect(taken.serviceMode).toBe("MANUAL_MODE");
    const status = dialog.getByRole("status");
    await expect.poll(async () => ((await status.count()) ? status.innerText() : ""), { timeout: 15_000 }).toBe("A person from our team will answer you here.");

    const sentAt = Date.now();
    const reply = await operator("POST", `/api/v1/inbox/sessions/${session.sessionId}/messages`, {
      content: "Hello, this is Dana. AX-1042 left our depot this morning.",
    });
    expect(reply.role).toBe("operator");
    const bubbles = log.locator(".m.r");
    await expect.poll(() => bubbles.count(), { timeout: 10_000 }).toBe(1);
    const shownAfter = Date.now() - sentAt;
    expect(await bubbles.first().innerText()).toContain("AX-1042 left our depot this morning.");
    expect((await bubbles.first().locator(".w").innerText()).trim().length).toBeGreaterThan(0);
    // Pushed, not polled: well under the live stream's 10 s reconnection delay.
    expect(shownAfter).toBeLessThan(5_000);
    expect(await visitor.page.evaluate(() => (window as unknown as { heard: string[] }).heard)).toEqual([
      "ready",
      "open",
      "message:assistant",
      "message:operator",
    ]);

    // The visitor writes back while the person has the session: stored for the operator, no AI answer, no empty bubble.
    await dialog.getByRole("textbox").fill("Great, thank you! Can it come on Friday?");
    await dialog.getByRole("textbox").press("Enter");
    const note = log.locator(".z");
    await expect.poll(() => note.count(), { timeout: 15_000 }).toBe(1);
    expect(await note.innerText()).toBe("Sent — a person will reply here.");
    expect(await log.locator(".m:not(.u)").evaluateAll((nodes) => nodes.filter((node) => !node.textContent?.trim()).length)).toBe(0);
    expect(await log.locator(".m.u ~ .m:not(.u):not(.r)").count()).toBe(1);
    await expect
      .poll(async () => (await operator("GET", `/api/v1/inbox/sessions/${session.sessionId}/messages`)).items.map((item: { content: string }) => item.content))
      .toContain("Great, thank you! Can it come on Friday?");

    // Handed back to the AI: the notice goes and the AI answers again.
    await operator("PUT", `/api/v1/inbox/sessions/${session.sessionId}/mode`, { serviceMode: "FULL_AUTO_MODE", confirm: true });
    await expect.poll(() => status.count()).toBe(0);
    await ask(visitor, "What are your opening hours?", 2);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
  });

  it("the visitor presses “Talk to a person”: the session is created and handed over, the button goes, and the operator's reply arrives", async () => {
    const demo = await owner("GET", "/api/v1/web-clients/demo");
    const client = await owner("POST", "/api/v1/web-clients", { appId: demo.appId, name: "Acme with people", manualTransfer: true });

    const visitor = await visit(client.id);
    const dialog = visitor.page.getByRole("dialog");
    const log = dialog.getByRole("log");
    const talk = dialog.getByRole("button", { name: "Talk to a person", exact: true });
    await talk.waitFor();
    // No message yet, so no session: the button makes one first.
    expect(await visitor.page.evaluate((key) => localStorage.getItem(key), `parley:${client.id}`)).toBeNull();
    await talk.click();
    await expect.poll(() => log.locator(".m:not(.u)").filter({ hasText: "A member of our team will be with you shortly." }).count()).toBe(1);
    await expect.poll(() => dialog.getByRole("status").innerText()).toBe("A person from our team will answer you here.");
    await expect.poll(() => talk.count()).toBe(0);

    const session = await inboxSession(client.id);
    expect(session.serviceMode).toBe("MANUAL_MODE");
    await operator("POST", `/api/v1/inbox/sessions/${session.sessionId}/messages`, { content: "Hi! Dana here, how can I help?" });
    await expect.poll(() => log.locator(".m.r").count(), { timeout: 10_000 }).toBe(1);
    expect(await log.locator(".m.r").innerText()).toContain("Dana here, how can I help?");

    // A reload keeps the conversation and the handed-over state: still no button, nothing shown twice.
    await visitor.page.reload();
    await visitor.page.getByRole("button", { name: "Open chat" }).click();
    await expect.poll(() => log.locator(".m.r").count()).toBe(1);
    expect(await log.locator(".m").filter({ hasText: "A member of our team will be with you shortly." }).count()).toBe(1);
    expect(await dialog.getByRole("button", { name: "Talk to a person", exact: true }).count()).toBe(0);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();

    // In Chinese: the button and the default reply.
    const zh = await visit(client.id, "zh-CN");
    const zhDialog = zh.page.getByRole("dialog");
    await zhDialog.getByRole("button", { name: "转人工客服", exact: true }).click();
    await expect.poll(() => zhDialog.getByRole("log").locator(".m").filter({ hasText: "正在为您转接人工客服，请稍候。" }).count()).toBe(1);
    await expect.poll(() => zhDialog.getByRole("status").innerText()).toBe("人工客服将在这里回复你。");
    expect(zh.errors).toEqual([]);
    await zh.context.close();

    // A client without manual transfer refuses the call itself.
    const aiOnly = await owner("POST", "/api/v1/web-clients", { appId: demo.appId, name: "Acme no people", manualTransfer: false });
    const refused = await fetch(`${parley.url}/api/v1/widget/${aiOnly.id}/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    const aiOnlySession = ((await refused.json()) as { data: { sessionId: string; visitorToken: string } }).data;
    const off = await fetch(`${parley.url}/api/v1/widget/${aiOnly.id}/sessions/${aiOnlySession.sessionId}/handover`, {
      method: "POST",
      headers: { authorization: `Bearer ${aiOnlySession.visitorToken}` },
    });
    expect(off.status).toBe(403);
    expect(off.headers.get("x-parley-error")).toBe("manual_transfer_off");
  });
});

describe("accessibility of the handover states", () => {
  it("has no serious or critical axe-core violations with the transfer button, then with the person's reply and the silent-handover note", async () => {
    const demo = await owner("GET", "/api/v1/web-clients/demo");
    const client = await owner("POST", "/api/v1/web-clients", { appId: demo.appId, name: "Acme accessible", manualTransfer: true });
    // axe is injected as an inline script, which the strict CSP rightly blocks: this context bypasses CSP.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US", bypassCSP: true });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${siteUrl}/?client=${client.id}`);
    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Talk to a person", exact: true }).waitFor();
    await page.addScriptTag({ content: fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8") });
    const severe = () =>
      page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<any> } }).axe;
        const run = await axe.run(document, { resultTypes: ["violations"] });
        return run.violations
          .filter((violation: any) => violation.impact === "serious" || violation.impact === "critical")
          .map((violation: any) => ({ id: violation.id, targets: violation.nodes.map((node: any) => JSON.stringify(node.target)) }));
      });
    expect(await severe()).toEqual([]);

    await dialog.getByRole("button", { name: "Talk to a person", exact: true }).click();
    await expect.poll(() => dialog.getByRole("status").innerText()).toBe("A person from our team will answer you here.");
    const session = await inboxSession(client.id);
    await operator("POST", `/api/v1/inbox/sessions/${session.sessionId}/messages`, { content: "Dana here." });
    await dialog.getByRole("textbox").fill("Thanks");
    await dialog.getByRole("textbox").press("Enter");
    await expect.poll(() => dialog.getByRole("log").locator(".z").count()).toBe(1);
    await expect.poll(() => dialog.getByRole("log").locator(".m.r").count()).toBe(1);
    expect(await severe()).toEqual([]);
    await context.close();
  });
});

describe("identify", () => {
  it("starts a new session for the identified user, without the anonymous messages; the same user again changes nothing", async () => {
    const demo = await owner("GET", "/api/v1/web-clients/demo");
    const client = await owner("POST", "/api/v1/web-clients", { appId: demo.appId, name: "Acme accounts" });
    const hash = createHmac("sha256", client.identitySecret).update("alice@example.com").digest("hex");

    const visitor = await visit(client.id);
    const dialog = visitor.page.getByRole("dialog");
    const log = dialog.getByRole("log");
    await ask(visitor, "Anonymous question about parcels", 1);
    const stored = () => visitor.page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? "null"), `parley:${client.id}`);
    const anonymous = await stored();

    await visitor.page.evaluate((identity) => (window as unknown as { Parley(...args: unknown[]): void }).Parley("identify", identity), {
      userId: "alice@example.com",
      hash,
    });
    await expect.poll(() => log.locator(".m.u").count()).toBe(0);
    expect(await stored()).toBeNull();
    await ask(visitor, "Signed-in question about my order", 1);
    const identified = await stored();
    expect(identified.sessionId).not.toBe(anonymous.sessionId);
    expect(identified.userId).toBe("alice@example.com");
    const session = await inboxSession(client.id);
    expect(session.senderName).toBe("alice@example.com");
    const history = await operator("GET", `/api/v1/inbox/sessions/${session.sessionId}/messages`);
    expect(history.items.map((item: { content: string }) => item.content)).not.toContain("Anonymous question about parcels");

    // The same user again (a page that identifies on every load): nothing changes.
    await visitor.page.evaluate((identity) => (window as unknown as { Parley(...args: unknown[]): void }).Parley("identify", identity), {
      userId: "alice@example.com",
      hash,
    });
    await visitor.page.waitForTimeout(300);
    expect((await stored()).sessionId).toBe(identified.sessionId);
    expect(await log.locator(".m.u").count()).toBe(1);
    expect(visitor.errors).toEqual([]);
    await visitor.context.close();
  });
});
