import fs from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import type { TelegramFake } from "@parley/channels/testing";
import { fakes } from "@parley/channels/testing";
import { createClient } from "@parley/sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_inbox_e2e_owner_key_0123456789ab";
/** Set PARLEY_SCREENSHOTS to a directory to keep screenshots of the screens. */
const shots = process.env.PARLEY_SCREENSHOTS;

let telegram: TelegramFake;
let parley: ParleyProcess;
let browser: Browser;
let page: Page;

/** A port nobody listens on, so PARLEY_PUBLIC_URL can name the server's real address before it starts. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  telegram = (await fakes.telegram!()) as TelegramFake;
  const port = await freePort();
  [parley, browser] = await Promise.all([
    startParley({
      PARLEY_BOOTSTRAP_API_KEY: ownerKey,
      PORT: String(port),
      PARLEY_PUBLIC_URL: `http://127.0.0.1:${port}`,
      PARLEY_CHANNEL_API_BASES: `telegram=${telegram.apiBase}`,
    }),
    launchBrowser(),
  ]);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  if (shots) fs.mkdirSync(shots, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await telegram?.close();
});

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);
const snap = async (name: string) => {
  if (!shots) return;
  await page.waitForTimeout(400); // let antd's transitions settle
  await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
};
const searchBox = () => page.locator('input[data-testid="inbox-search"], [data-testid="inbox-search"] input').first();
const errorsShown = () => page.locator(".ant-form-item-explain-error").allInnerTexts();
const api = () => createClient({ baseUrl: parley.url, apiKey: ownerKey });

describe("channel client and sessions inbox in Chromium: connect Telegram → live session → take over → reply", () => {
  let clientId = "";
  let webhookUrl = "";
  let sessionId = "";

  it("connects a Telegram channel client from the catalogue form, checked like the server", async () => {
    const created = await api().POST("/api/v1/apps", {
      body: {
        name: "Shop helper",
        description: "Answers shop questions",
        openingIntroduction: "Hi! How can I help?",
        avatarUrl: "https://cdn.example.com/a.png",
        category: "productivity",
        settingsPrompt: "Answer briefly.",
      },
    });
    expect(created.error).toBeUndefined();
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);

    await page.goto(`${parley.url}/console/clients/configClient`);
    await byTestId("channel-telegram-open").click();
    await page.waitForURL(/\/console\/clients\/config\?kind=telegram$/);
    await expect.poll(() => byTestId("channel-config-title").innerText()).toBe("Connect Telegram");
    expect(await byTestId("channel-field-botToken-state").innerText()).toBe("Not set");

    await byTestId("channel-config-save").click();
    await expect.poll(errorsShown).toEqual(expect.arrayContaining(["Enter a name", "Choose an app", "Enter Bot token"]));
    await byTestId("channel-config-name").fill("Support on Telegram");
    await byTestId("channel-config-app").click();
    await page.locator(".ant-select-item-option", { hasText: "Shop helper" }).click();
    await byTestId("channel-field-botToken").fill("not-a-token");
    await byTestId("channel-field-secretToken").fill(telegram.config.secretToken!);
    await byTestId("channel-config-save").click();
    await expect.poll(errorsShown).toContain("Bot token is not in the expected format");
    expect((await api().GET("/api/v1/channel-clients")).data).toEqual([]);

    await byTestId("channel-field-botToken").fill(telegram.config.botToken!);
    await byTestId("channel-config-save").click();
    await page.waitForURL(/\/console\/clients\/config\?id=ch_/);
    clientId = new URL(page.url()).searchParams.get("id")!;
    webhookUrl = `${parley.url}/api/v1/channels/${clientId}/webhook`;
    await expect.poll(() => byTestId("channel-webhook-url").innerText()).toBe(webhookUrl);
    expect(await byTestId("channel-field-botToken-state").innerText()).toBe("Set");
    const stored = await api().GET("/api/v1/channel-clients/{id}", { params: { path: { id: clientId } } });
    expect(stored.data).toMatchObject({ kind: "telegram", name: "Support on Telegram", secretsSet: expect.arrayContaining(["botToken", "secretToken"]) });

    await byTestId("channel-check").click();
    await expect.poll(() => byTestId("channel-check-result").innerText()).toContain("Connected");
    expect(telegram.webhook?.url).toBe(webhookUrl);
    await snap("channel-client-config-en");
  });

  it("lists the channel client with its platform, app and status", async () => {
    await page.goto(`${parley.url}/console/clients`);
    const row = byTestId(`channel-client-row-${clientId}`);
    await expect.poll(() => row.innerText()).toContain("Support on Telegram");
    const text = await row.innerText();
    expect(text).toContain("Telegram");
    expect(text).toContain("Shop helper");
    expect(text).toContain("Online");
    await snap("clients-with-channels-en");
  });

  it("shows a Telegram message at the top as unread without a reload", async () => {
    await page.goto(`${parley.url}/console/chatManage`);
    await expect.poll(() => byTestId("chat-manage-title").innerText()).toBe("Chat management");
    await expect.poll(() => byTestId("inbox-realtime").getAttribute("data-state")).toBe("connected");
    await expect.poll(() => byTestId("inbox-empty").count()).toBe(1);

    const response = await fetch(await telegram.delivery(webhookUrl, { text: "Hello, where is my parcel?", senderName: "Ada" }));
    expect(response.status).toBe(200);

    // The preview is the latest message: the customer's, then the AI's answer (here: that no model is configured).
    const first = page.locator('[data-testid="inbox-sessions"] [role="listitem"]').first();
    await expect.poll(() => first.innerText()).toContain("Ada");
    expect(await first.getAttribute("data-read")).toBe("UNREAD");
    expect(await first.innerText()).toContain("Support on Telegram");
    expect(await first.innerText()).toContain("AI reply");
    await expect.poll(() => byTestId("inbox-unread-count").getAttribute("data-count")).toBe("1");
    sessionId = (await first.getAttribute("data-testid"))!.replace("inbox-session-", "");
    await snap("inbox-unread-en");
  });

  it("opening the session reads it and shows the customer's message", async () => {
    await byTestId(`inbox-session-${sessionId}`).click();
    await expect.poll(() => byTestId(`inbox-session-${sessionId}`).getAttribute("data-read")).toBe("HAVE_READ");
    await expect.poll(() => byTestId("message-user").first().innerText()).toContain("Hello, where is my parcel?");
    await expect
      .poll(async () => (await api().GET("/api/v1/inbox/sessions/{sessionId}", { params: { path: { sessionId } } })).data?.readStatus)
      .toBe("HAVE_READ");
    await expect.poll(() => byTestId("inbox-unread-count").getAttribute("data-count")).toBe("0");
  });

  it("takes the session over after confirmation and the reply reaches Telegram", async () => {
    await byTestId("conversation-take-over").click();
    await expect.poll(() => byTestId("mode-confirm-text").innerText()).toContain("You answer this customer");
    await byTestId("mode-confirm-ok").click();
    await expect
      .poll(async () => (await api().GET("/api/v1/inbox/sessions/{sessionId}", { params: { path: { sessionId } } })).data?.serviceMode)
      .toBe("MANUAL_MODE");
    await expect.poll(() => byTestId("conversation-hand-back").count()).toBe(1);
    await expect.poll(() => byTestId(`inbox-session-${sessionId}`).innerText()).toContain("Manual reply");

    await byTestId("reply-input").fill("Your parcel left the depot this morning.");
    await byTestId("reply-send").click();
    await expect.poll(() => telegram.sent.find((message) => message.text === "Your parcel left the depot this morning.")).toMatchObject({ authorized: true });
    const operator = byTestId("message-operator").last();
    await expect.poll(() => operator.innerText()).toContain("Your parcel left the depot this morning.");
    await expect.poll(() => operator.locator('[data-testid="message-delivery"]').getAttribute("data-delivery")).toBe("sent");
    // The message can arrive over the live stream before the send's own answer clears the input.
    await expect.poll(() => byTestId("reply-input").inputValue()).toBe("");

    // An operator sends a picture back: uploaded, then sent with Telegram's sendPhoto, and shown in the inbox.
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    await byTestId("reply-attach-input").setInputFiles({ name: "label.png", mimeType: "image/png", buffer: png });
    await expect.poll(() => byTestId("pending-file").getAttribute("data-status")).toBe("done");
    await byTestId("reply-send").click();
    await expect.poll(() => telegram.sent.some((message) => message.image !== undefined)).toBe(true);
    const picture = byTestId("message-operator").last().locator('[data-testid="message-attachments"] img');
    await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1);
    await snap("inbox-conversation-en");
  });

  it("exports the ticked session as a CSV download", async () => {
    await byTestId(`inbox-session-${sessionId}`).locator('[data-testid="inbox-session-check"]').click();
    await byTestId("inbox-export").click();
    await byTestId("export-from").fill("2020-01-01");
    await byTestId("export-submit").click();
    await expect.poll(() => byTestId("export-error").innerText()).toBe("The range can span at most 31 days");
    const today = new Date().toISOString().slice(0, 10);
    await byTestId("export-from").fill(today);
    await byTestId("export-to").fill(today);
    const download = page.waitForEvent("download");
    await byTestId("export-submit").click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`sessions-${today}-${today}.csv`);
    const text = fs.readFileSync((await file.path())!, "utf8");
    // The browser's offset was sent: the file has a local time column after the UTC one.
    expect(text.split("\r\n")[0]).toBe("\uFEFFsession,channel,customer,time,local time,from,message");
    expect(text).toContain("Hello, where is my parcel?");
    expect(text).toContain("Your parcel left the depot this morning.");
  });

  it("speaks Chinese after switching the language, and hands the session back to the AI", async () => {
    await byTestId("language-switch").click();
    await byTestId("language-option-zh-CN").click();
    await expect.poll(() => byTestId("chat-manage-title").innerText()).toBe("会话管理");
    await expect.poll(() => byTestId("conversation-hand-back").innerText()).toContain("转回 AI");
    expect(await byTestId(`inbox-session-${sessionId}`).innerText()).toContain("人工回复");
    expect(await byTestId("inbox-filter-unread").innerText()).toBe("未读");
    await snap("inbox-conversation-zh");

    await byTestId("conversation-hand-back").click();
    await byTestId("mode-confirm-ok").click();
    await expect
      .poll(async () => (await api().GET("/api/v1/inbox/sessions/{sessionId}", { params: { path: { sessionId } } })).data?.serviceMode)
      .toBe("FULL_AUTO_MODE");
    await expect.poll(() => byTestId("conversation-take-over").innerText()).toContain("转人工");

    await page.goto(`${parley.url}/console/clients`);
    await expect.poll(() => byTestId(`channel-client-row-${clientId}`).innerText()).toContain("在线");
    expect(await byTestId("channel-clients-title").innerText()).toBe("渠道客户端");
    await snap("clients-with-channels-zh");
  });

  it("keeps the unread filter live: new and returning senders appear, read all empties it", async () => {
    await page.goto(`${parley.url}/console/chatManage`);
    await expect.poll(() => byTestId("inbox-realtime").getAttribute("data-state")).toBe("connected");
    await byTestId("inbox-filter-unread").click();
    await expect.poll(() => byTestId("inbox-empty").count()).toBe(1);

    await fetch(await telegram.delivery(webhookUrl, { text: "Do you ship to Oslo?", senderName: "Grace", senderId: "424242" }));
    const items = page.locator('[data-testid="inbox-sessions"] [role="listitem"]');
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().innerText()).toContain("Grace");
    expect(await items.first().getAttribute("data-read")).toBe("UNREAD");

    // Ada's session was read: a new message from her brings it (fetched, not listed before) to the top.
    await fetch(await telegram.delivery(webhookUrl, { text: "One more question", senderName: "Ada" }));
    await expect.poll(() => items.first().getAttribute("data-testid")).toBe(`inbox-session-${sessionId}`);
    await expect.poll(() => items.count()).toBe(2);
    await expect.poll(() => byTestId("inbox-unread-count").getAttribute("data-count")).toBe("2");

    await byTestId("inbox-read-all").click();
    await expect.poll(() => byTestId("inbox-unread-count").getAttribute("data-count")).toBe("0");
    await expect.poll(() => byTestId("inbox-empty").count()).toBe(1);
    expect((await api().GET("/api/v1/inbox/sessions", { params: { query: { read: "unread" } } })).data?.items).toEqual([]);
    await byTestId("inbox-filter-read").click();
    await expect.poll(() => items.count()).toBe(2);
  });

  it("narrows the list with the search box; a live message of a session the keyword does not match stays out", async () => {
    await byTestId("inbox-filter-all").click();
    const items = page.locator('[data-testid="inbox-sessions"] [role="listitem"]');
    await expect.poll(() => items.count()).toBe(2);
    await searchBox().fill("grace");
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().innerText()).toContain("Grace");

    await fetch(await telegram.delivery(webhookUrl, { text: "Still waiting for the parcel", senderName: "Ada" }));
    await expect.poll(async () => (await api().GET("/api/v1/inbox/sessions/{sessionId}", { params: { path: { sessionId } } })).data?.readStatus).toBe("UNREAD");
    await page.waitForTimeout(500);
    expect(await items.count()).toBe(1);
    expect(await items.first().innerText()).toContain("Grace");

    await searchBox().fill("");
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.first().getAttribute("data-testid")).toBe(`inbox-session-${sessionId}`);
  });

  it("sends a refused reply again with Retry, delivered once", async () => {
    await byTestId(`inbox-session-${sessionId}`).click();
    await expect.poll(() => byTestId("message-user").count()).toBeGreaterThan(0);
    telegram.failNext("rejected");
    await byTestId("reply-input").fill("Sorry for the wait, it ships today.");
    await byTestId("reply-send").click();
    const refused = byTestId("message-operator").last();
    await expect.poll(() => refused.innerText()).toContain("Sorry for the wait, it ships today.");
    await expect.poll(() => refused.locator('[data-testid="message-delivery"]').getAttribute("data-delivery")).toBe("failed");
    expect(telegram.sent.filter((message) => message.text === "Sorry for the wait, it ships today.")).toHaveLength(0);
    await snap("inbox-delivery-failed-zh");

    await refused.locator('[data-testid="message-retry"]').click();
    await expect.poll(() => refused.locator('[data-testid="message-delivery"]').getAttribute("data-delivery")).toBe("sent");
    expect(await refused.locator('[data-testid="message-retry"]').count()).toBe(0);
    await expect.poll(() => telegram.sent.filter((message) => message.text === "Sorry for the wait, it ships today.").length).toBe(1);
  });

  it("disables and deletes the channel client from the list", async () => {
    await page.goto(`${parley.url}/console/clients`);
    const row = byTestId(`channel-client-row-${clientId}`);
    await row.locator('[data-testid="channel-client-enabled"]').click();
    await expect.poll(async () => (await api().GET("/api/v1/channel-clients/{id}", { params: { path: { id: clientId } } })).data?.enabled).toBe(false);
    await expect.poll(() => row.locator('[data-testid="client-status"]').innerText()).toBe("离线");
    await row.locator('[data-testid="channel-client-delete"]').click();
    // The delete call's own answer, so a failure says whether the server or the list kept the row.
    const deleted = page.waitForResponse(
      (response) => response.request().method() === "DELETE" && response.url().endsWith(`/api/v1/channel-clients/${clientId}`),
    );
    await byTestId("channel-client-delete-confirm").click();
    expect((await deleted).status()).toBe(200);
    await expect.poll(() => row.count()).toBe(0);
    expect((await api().GET("/api/v1/channel-clients")).data).toEqual([]);
    await expect.poll(() => byTestId("channel-clients-empty").count()).toBe(1);
  });
});
