import type { Server } from "node:http";
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createExampleServer } from "../../examples/embed-html/serve.mjs";
import { createAppVia } from "../../packages/api/src/apps/testing";
import { conversations, messages, webClientSessions } from "../../packages/api/src/db/schema/index";
import { publishToVisitor } from "../../packages/api/src/realtime/events";
import { closeVisitorStreams } from "../../packages/api/src/realtime/visitor-stream";
import { upgradeSpaceForTest } from "../../packages/api/src/plans/testing";
import { createTestContext, registerUser, type TestContext } from "../../packages/api/src/testing/harness";
import { launchBrowser } from "./browser";

// An in-process server (so the test can publish on its real-time hub), the widget on a host page
// of another origin under the example's strict CSP, and headless Chromium.
let ctx: TestContext;
let base: string;
let browser: Browser;
let site: Server;
let siteUrl: string;
let clientId: string;

beforeAll(async () => {
  [ctx, browser] = await Promise.all([createTestContext(), launchBrowser()]);
  base = await ctx.listen();
  const owner = await registerUser(ctx, "owner-realtime-e2e@example.com");
  // Web clients (and manual transfer in them) come with a paid plan: Free has none.
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  const app = await createAppVia(ctx, owner, { name: "Parcel helper", openingIntroduction: "Hello! [Where is my parcel?]" });
  const created = await ctx.request("/api/v1/web-clients", { method: "POST", token: owner.token, json: { appId: app.id, name: "Acme support" } });
  clientId = ((await created.json()) as { data: { id: string } }).data.id;
  site = createExampleServer({ parleyUrl: base });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  await ctx?.close();
});

/** The visitor session the widget keeps in localStorage. */
async function widgetSession(page: Page): Promise<{ sessionId: string; visitorToken: string }> {
  const stored = await page.evaluate((key) => localStorage.getItem(key), `parley:${clientId}`);
  if (!stored) throw new Error("the widget has no session yet");
  return JSON.parse(stored);
}

describe("operator messages pushed to the widget (the visitor event stream)", () => {
  it("shows an operator's message as it is sent, counts it while closed, and fetches what it missed after a reconnection", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-US" });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    const live: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      // A CSP violation is reported on the console: the stream must work under the example's strict CSP.
      if (message.type() === "error" && /Content Security Policy/i.test(message.text())) errors.push(message.text());
    });
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith("/socket.io/")) live.push(`socket.io ${request.method()}`);
      if (url.pathname.endsWith("/events"))
        live.push(`${request.method()} ${url.pathname}${url.search} ${request.headers().authorization ? "with a bearer token" : "without a token"}`);
    });
    await page.goto(`${siteUrl}/?client=${clientId}`);

    await page.getByRole("button", { name: "Open chat" }).click();
    const dialog = page.getByRole("dialog");
    const input = dialog.getByRole("textbox");
    await input.fill("Where is my parcel?");
    await input.press("Enter");
    const log = dialog.getByRole("log");
    const answer = log.locator(".m.u ~ .m").first();
    await expect
      .poll(async () => (await answer.count()) > 0 && (await answer.getAttribute("aria-busy")) !== "true" && (await answer.innerText()).trim().length, {
        timeout: 20_000,
      })
      .toBeGreaterThan(5);
    const session = await widgetSession(page);
    const answerText = await answer.innerText();

    // The same message id until it shows: the stream may still be connecting; the widget shows an id once.
    const first = {
      id: "msg_operator_1",
      role: "operator" as const,
      content: "Hi, I am Dana from Acme. Your parcel left the depot today.",
      createdAt: new Date().toISOString(),
      senderName: "Dana",
    };
    const operatorBubbles = log.locator(".m.r");
    await expect
      .poll(async () => {
        publishToVisitor(ctx.deps.realtime, clientId, session.sessionId, "message", first);
        return operatorBubbles.count();
      })
      .toBe(1);
    await expect.poll(() => operatorBubbles.first().innerText()).toContain("Your parcel left the depot today.");
    expect(await operatorBubbles.first().locator(".w").innerText()).toBe("Dana");
    // In the log region (role=log, aria-live=polite): screen readers announce it.
    expect(await log.getAttribute("aria-live")).toBe("polite");
    // One GET to the API origin the CSP already allows; the token in a header, not in the URL; no socket.io.
    expect(live).toEqual([`GET /api/v1/widget/${clientId}/sessions/${session.sessionId}/events with a bearer token`]);

    // Closed panel: a message without a name says who it is from, and the bubble counts it.
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.isVisible()).toBe(false);
    publishToVisitor(ctx.deps.realtime, clientId, session.sessionId, "message", {
      id: "msg_operator_2",
      role: "operator",
      content: "Anything else I can do?",
      createdAt: new Date().toISOString(),
    });
    const badge = page.locator("[data-parley]").locator(".k");
    await expect.poll(() => badge.innerText()).toBe("1");
    await page.getByRole("button", { name: "Open chat" }).click();
    await expect.poll(() => operatorBubbles.count()).toBe(2);
    expect(await operatorBubbles.nth(1).locator(".w").innerText()).toBe("Support agent");
    await expect.poll(() => badge.innerText()).toBe("");

    // A drop: a message stored while the visitor was away shows after the reconnection (10 s later).
    const row = await ctx.deps.db.select().from(webClientSessions).where(eq(webClientSessions.id, session.sessionId)).get();
    // The stream ends (as when a network drops or the server restarts): the widget reconnects.
    closeVisitorStreams(ctx.deps);
    const dropped = Date.now();
    const conversation = await ctx.deps.db.select().from(conversations).where(eq(conversations.id, row!.conversationId)).get();
    // What an operator said while the visitor was away (stored, its push lost).
    await ctx.deps.db.insert(messages).values({
      id: "msg_missed_1",
      spaceId: conversation!.spaceId,
      conversationId: row!.conversationId,
      role: "operator",
      senderName: "Dana",
      content: "Update: your parcel is out for delivery.",
      createdAt: new Date().toISOString(),
    });
    await expect.poll(() => operatorBubbles.count(), { timeout: 25_000 }).toBe(3);
    expect(await operatorBubbles.nth(2).innerText()).toContain("your parcel is out for delivery");
    expect(await operatorBubbles.nth(2).locator(".w").innerText()).toBe("Dana");
    // Nothing shown twice: the refetched history held the earlier messages too.
    expect(await operatorBubbles.count()).toBe(3);
    expect(await log.locator(".m.u").count()).toBe(1);
    expect(await log.locator(".m").filter({ hasText: answerText }).count()).toBe(1);
    expect(Date.now() - dropped).toBeGreaterThanOrEqual(9_000);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("speaks Chinese: an operator taking over and an unnamed operator's message", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "zh-CN" });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${siteUrl}/?client=${clientId}`);
    await page.getByRole("button", { name: "打开聊天" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox").fill("我的包裹在哪里？");
    await dialog.getByRole("textbox").press("Enter");
    const log = dialog.getByRole("log");
    await expect
      .poll(async () => (await log.locator(".m.u ~ .m").count()) > 0 && (await log.locator(".m.u ~ .m").first().getAttribute("aria-busy")) !== "true")
      .toBe(true);
    const session = await widgetSession(page);

    const status = dialog.getByRole("status");
    await expect
      .poll(async () => {
        publishToVisitor(ctx.deps.realtime, clientId, session.sessionId, "mode", { serviceMode: "MANUAL_MODE" });
        return (await status.count()) > 0 ? status.innerText() : "";
      })
      .toBe("人工客服将在这里回复你。");
    publishToVisitor(ctx.deps.realtime, clientId, session.sessionId, "message", {
      id: "msg_operator_zh",
      role: "operator",
      content: "您好，我来帮您查询。",
      createdAt: new Date().toISOString(),
    });
    const bubble = log.locator(".m.r");
    await expect.poll(() => bubble.count()).toBe(1);
    expect(await bubble.locator(".w").innerText()).toBe("人工客服");
    expect(await bubble.innerText()).toContain("您好，我来帮您查询。");
    await context.close();
  });
});
