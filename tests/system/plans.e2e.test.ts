import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postNotification, startWechatPayFake, type WechatPayFake } from "../../packages/api/src/testing/fakes/payments";
import { launchBrowser } from "./browser";
import { apiCall, codeFromOutbox, type ParleyProcess, startParley } from "./parley-process";

// A FREE owner reaches the app quota in real Chromium: the server refuses with 701, the console
// turns it into the upgrade dialog that leads to the price page, the owner buys Pro yearly
// through the WeChat Pay fake, and the plan, its quotas and the payment records change at once
// (issue 15's acceptance path, end to end).

const ownerKey = "pk_plans_e2e_owner_key_0123456789abcd";
const email = "free.owner@example.com";

let parley: ParleyProcess;
let browser: Browser;
let page: Page;
let token: string;
let wechat: WechatPayFake;

const appBody = (name: string) => ({
  name,
  description: "Answers questions about parcels",
  openingIntroduction: "Hello! Ask me anything.",
  avatarUrl: "https://cdn.example.com/parcel.png",
  category: "customer_service",
  settingsPrompt: "You are a friendly support agent.",
});

beforeAll(async () => {
  wechat = await startWechatPayFake();
  [parley, browser] = await Promise.all([startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, PARLEY_SEED_DEMO: "false", ...wechat.env }), launchBrowser()]);
  // A second account: not the instance administrator, so its personal space is on Free.
  const sent = await fetch(`${parley.url}/api/v1/auth/codes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ channel: "email", target: email, purpose: "register" }),
  });
  expect(sent.status).toBe(200);
  const code = await codeFromOutbox(parley.url, ownerKey, email);
  const registered = await fetch(`${parley.url}/api/v1/auth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ channel: "email", target: email, code, password: "free-passw0rd", name: "Free owner" }),
  });
  expect(registered.status).toBe(201);
  token = ((await registered.json()) as { data: { token: string } }).data.token;
  for (let index = 1; index <= 5; index++) await apiCall(parley.url, token, "POST", "/api/v1/apps", appBody(`Helper ${index}`));

  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${parley.url}/login`);
  await page.evaluate((value) => localStorage.setItem("token", value), token);
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await wechat?.close();
});

const byTestId = (id: string) => page.locator(`[data-testid="${id}"]`);

describe("a FREE owner at the app quota, in Chromium", () => {
  it("shows the plan and its usage in My account", async () => {
    await page.goto(`${parley.url}/console/account?tab=plan`);
    await expect.poll(() => byTestId("plan-usage-name").innerText()).toBe("Free");
    await expect.poll(() => byTestId("plan-usage-apps").innerText()).toContain("5 of 5");
  });

  it("creating a 6th app opens the upgrade dialog naming the quota and the plan, and nothing is created", async () => {
    await page.goto(`${parley.url}/console/createApp`);
    await byTestId("app-name").fill("One too many");
    await byTestId("app-description").fill("Answers questions about parcels");
    await byTestId("app-opening").fill("Hi! I track parcels.");
    await byTestId("app-avatar").fill("https://cdn.example.com/parcel.png");
    await byTestId("app-category").click();
    await page.locator(".ant-select-dropdown:visible .ant-select-item-option", { hasText: "Customer service" }).first().click();
    await byTestId("app-prompt").fill("You are a friendly support agent.");
    await byTestId("app-save").click();

    await expect.poll(() => byTestId("upgrade-dialog").count()).toBe(1);
    expect(await byTestId("upgrade-dialog-title").innerText()).toBe("Upgrade your plan");
    expect(await byTestId("upgrade-dialog-what").innerText()).toBe("You have reached the limit of 5 for Apps.");
    expect(await byTestId("upgrade-dialog-plan").innerText()).toBe("Current plan: Free");
    // No error toast: 701 is the dialog's alone (spec §8).
    expect(await page.locator(".ant-message-error").count()).toBe(0);
    const apps = await apiCall<{ items: unknown[] }>(parley.url, token, "GET", "/api/v1/apps");
    expect(apps.items).toHaveLength(5);

    await byTestId("upgrade-dialog-plans").click();
    await page.waitForURL(/\/console\/price$/);
  });

  it("buys Pro yearly through WeChat Pay from there: the plan and its quotas change at once and the order is in payment records", async () => {
    await expect.poll(() => byTestId("price-plan-free").getAttribute("data-current")).toBe("true");
    await byTestId("price-period-year").click();
    await byTestId("price-buy-pro").click();
    await byTestId("buy-provider-wechat").click();
    await byTestId("buy-confirm").click();
    await expect.poll(() => byTestId("buy-qr").getAttribute("data-pay-url")).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    const number = await byTestId("buy-order-number").innerText();
    // The payer pays in WeChat: the fake marks the order paid and sends the signed, encrypted notification.
    wechat.orders.get(number)!.state = "SUCCESS";
    const answer = await postNotification({ ...wechat.notification(number), url: `${parley.url}/api/v1/payments/wechat/notify` });
    expect(answer.status).toBe(200);
    await expect.poll(() => byTestId("buy-success").innerText(), { timeout: 15_000 }).toContain("Pro");
    await byTestId("buy-done").click();

    // The grade and the quotas change at once: the session reads Pro's grade, the app quota is Pro's.
    const me = await apiCall<{ memberGrade: string }>(parley.url, token, "GET", "/api/v1/me");
    expect(me.memberGrade).toBe("NORMAL");
    await page.goto(`${parley.url}/console/account?tab=plan`);
    await expect.poll(() => byTestId("plan-usage-name").innerText()).toBe("Pro");
    await expect.poll(() => byTestId("plan-usage-apps").innerText()).toContain("5 of 30");
    const sixth = await apiCall<{ id: string }>(parley.url, token, "POST", "/api/v1/apps", appBody("The sixth"));
    expect(sixth.id).toBeTruthy();

    await page.goto(`${parley.url}/console/account?tab=payments`);
    await expect.poll(() => byTestId("payment-records").innerText()).toContain(number);
    await expect.poll(() => byTestId("payment-records").innerText()).toContain("Completed");
  });
});
