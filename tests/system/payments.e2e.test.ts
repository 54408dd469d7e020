import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postNotification, startWechatPayFake, type WechatPayFake } from "../../packages/api/src/testing/fakes/payments";
import { launchBrowser } from "./browser";
import { codeFromOutbox, type ParleyProcess, startParley } from "./parley-process";

const ownerKey = "pk_e2e_payments_owner_0123456789abcdef";
let parley: ParleyProcess;
let browser: Browser;
let wechat: WechatPayFake;
/** A FREE owner of a personal space, registered through the API. */
let buyerToken: string;
/** The order bought in the first test, refunded in the second. */
let orderId: string;

async function api<T>(path: string, json: unknown): Promise<T> {
  const response = await fetch(`${parley.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(json) });
  const body = (await response.json()) as { success: boolean; data: T };
  if (!body.success) throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}

beforeAll(async () => {
  wechat = await startWechatPayFake();
  [parley, browser] = await Promise.all([startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey, ...wechat.env }), launchBrowser()]);
  const email = "buyer@example.com";
  await api("/api/v1/auth/codes", { channel: "email", target: email, purpose: "register" });
  const code = await codeFromOutbox(parley.url, ownerKey, email);
  buyerToken = (await api<{ token: string }>("/api/v1/auth/register", { channel: "email", target: email, code, password: "buyer-passw0rd", name: "Buyer" }))
    .token;
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await wechat?.close();
});

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);

describe("buying a plan in Chromium", () => {
  it("a FREE owner buys Pro yearly through WeChat Pay from /console/price, sees the new plan and the order in payment records", async () => {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${parley.url}/login`);
    await page.evaluate((token) => localStorage.setItem("token", token), buyerToken);

    await page.goto(`${parley.url}/console/price`);
    await expect.poll(() => byTestId(page, "price-plan-free").getAttribute("data-current")).toBe("true");
    await byTestId(page, "price-period-year").click();
    await expect.poll(() => byTestId(page, "price-amount-pro").innerText()).toContain("990");
    await expect.poll(() => byTestId(page, "price-saving-pro").innerText()).toContain("198");
    await byTestId(page, "price-buy-pro").click();
    await byTestId(page, "buy-provider-wechat").click();
    await byTestId(page, "buy-confirm").click();

    // The QR code carries WeChat Pay's code_url; the payer "scans" it: the fake notifies Parley.
    await expect.poll(() => byTestId(page, "buy-qr").getAttribute("data-pay-url")).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    const number = await byTestId(page, "buy-order-number").innerText();
    const order = wechat.orders.get(number)!;
    expect(order.total).toBe(99_000);
    order.state = "SUCCESS";
    const answer = await postNotification({ ...wechat.notification(number), url: `${parley.url}/api/v1/payments/wechat/notify` });
    expect(answer.status).toBe(200);

    await expect.poll(() => byTestId(page, "buy-success").innerText(), { timeout: 15_000 }).toContain("Pro");
    await byTestId(page, "buy-done").click();
    await expect.poll(() => byTestId(page, "price-plan-pro").getAttribute("data-current")).toBe("true");
    await expect.poll(() => byTestId(page, "price-expires").isVisible()).toBe(true);

    await page.goto(`${parley.url}/console/account?tab=payments`);
    await expect.poll(() => byTestId(page, "payment-records").innerText()).toContain(number);
    await expect.poll(() => byTestId(page, "payment-records").innerText()).toContain("Completed");
    const opener = page.locator('[data-testid^="order-open-"]').first();
    orderId = (await opener.getAttribute("data-testid"))!.replace("order-open-", "");
    await opener.click();
    await expect.poll(() => byTestId(page, "order-drawer-status").innerText()).toBe("Completed");
    await expect.poll(() => byTestId(page, "order-drawer").innerText()).toContain("120,000 credits");
    await context.close();
  });

  it("the administrator refunds the order in Instance -> Orders and the space is Free again", async () => {
    expect(orderId).toMatch(/^ord_/);
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    await page.goto(`${parley.url}/console/instance`);
    await byTestId(page, "instance-tab-orders").click();
    await byTestId(page, `order-refund-${orderId}`).click();
    await page.locator(".ant-popconfirm .ant-btn-primary").click();
    await expect.poll(() => byTestId(page, `order-status-${orderId}`).innerText()).toBe("Refunded");
    expect(wechat.refunds.map((refund) => refund.refund)).toEqual([99_000]);
    const catalogue = await fetch(`${parley.url}/api/v1/payments/catalogue`, { headers: { authorization: `Bearer ${buyerToken}` } });
    expect(((await catalogue.json()) as { data: { current: { code: string } } }).data.current.code).toBe("free");
    await context.close();
  });
});
