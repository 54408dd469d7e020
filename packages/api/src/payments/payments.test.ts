import { createCipheriv, createSign } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveCredits } from "../benefits/service/credits";
import { balanceOf } from "../billing/service/ledger";
import { spacePlanOf } from "../billing/service/plans";
import { orders, paymentEvents, users } from "../db/schema/index";
import {
  postNotification,
  rsaPair,
  startAlipayFake,
  startStripeFake,
  startWechatPayFake,
  type AlipayFake,
  type StripeFake,
  type WechatPayFake,
} from "../testing/fakes/index";
import { createTestContext, freePort, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { decryptWechatResource, verifyWechatSignature } from "./providers/wechat";
import { recoverFulfilments } from "./service/orders";
import { alipaySignContent, fenToYuan, yuanToFen } from "./providers/alipay";

let ctx: TestContext;
let base: string;
let wechat: WechatPayFake;
let alipay: AlipayFake;
let stripe: StripeFake;
let owner: TestUser;
let other: TestUser;
let admin: TestUser;

type Order = {
  id: string;
  number: string;
  status: string;
  amount: number;
  currency: string;
  payUrl: string | null;
  providerReference: string | null;
  granted: { credits: number; refund?: { creditsReversed: number; creditsShort: number } } | null;
};

async function json<T>(response: Response): Promise<{ status: number; body: { success: boolean; code: number; message: string; data: T } }> {
  return { status: response.status, body: (await response.json()) as never };
}

async function buy(user: TestUser, product: unknown, provider: string): Promise<Order> {
  const { status, body } = await json<Order>(await ctx.request("/api/v1/orders", { method: "POST", token: user.token, json: { product, provider } }));
  expect(status, JSON.stringify(body)).toBe(201);
  return body.data;
}

async function orderOf(user: TestUser, id: string) {
  return (await json<Order>(await ctx.request(`/api/v1/orders/${id}`, { token: user.token }))).body.data;
}

beforeAll(async () => {
  [wechat, alipay, stripe] = await Promise.all([startWechatPayFake(), startAlipayFake(), startStripeFake()]);
  const port = await freePort();
  ctx = await createTestContext({ PARLEY_PUBLIC_URL: `http://127.0.0.1:${port}`, PARLEY_WELCOME_CREDITS: "0", ...wechat.env, ...alipay.env, ...stripe.env });
  base = await ctx.listen(port);
  owner = await registerUser(ctx, "owner@example.com");
  other = await registerUser(ctx, "other@example.com");
  admin = await registerUser(ctx, "admin@example.com");
  await ctx.deps.db.update(users).set({ isInstanceOwner: true }).where(eq(users.id, admin.user.id));
});

afterAll(async () => {
  await ctx?.close();
  await Promise.all([wechat?.close(), alipay?.close(), stripe?.close()]);
});

describe("signature helpers", () => {
  it("opens an AES-256-GCM resource and checks a platform signature made with another implementation's key", () => {
    const pair = rsaPair();

    const signature = createSign("RSA-SHA256").update("1700000000\nabc\n{}\n").sign(pair.privateKey, "base64");
    expect(verifyWechatSignature(pair.publicKey, "1700000000", "abc", "{}", signature)).toBe(true);
    expect(verifyWechatSignature(pair.publicKey, "1700000001", "abc", "{}", signature)).toBe(false);
    const key = "0123456789abcdef0123456789abcdef";
    const cipher = createCipheriv("aes-256-gcm", Buffer.from(key), Buffer.from("nonce1234567"));
    cipher.setAAD(Buffer.from("transaction"));
    const ciphertext = Buffer.concat([cipher.update('{"a":1}'), cipher.final(), cipher.getAuthTag()]).toString("base64");
    expect(decryptWechatResource(key, { ciphertext, nonce: "nonce1234567", associated_data: "transaction" })).toBe('{"a":1}');
    expect(() => decryptWechatResource(key, { ciphertext, nonce: "nonce1234567", associated_data: "other" })).toThrow();
  });

  it("builds Alipay's sign content and converts amounts exactly", () => {
    expect(alipaySignContent({ b: "2", a: "1", sign: "x", sign_type: "RSA2", empty: "" }, ["sign", "sign_type"])).toBe("a=1&b=2");
    expect(fenToYuan(19800)).toBe("198.00");
    expect(fenToYuan(5)).toBe("0.05");
    expect(yuanToFen("198.00")).toBe(19800);
    expect(yuanToFen("0.5")).toBe(50);
    expect(yuanToFen("-1.00")).toBeUndefined();
  });
});

describe("catalogue", () => {
  it("lists plans with yearly = 10 months, the packs and the configured providers", async () => {
    const { body } = await json<{
      plans: Array<{ code: string; monthlyPrices: { CNY: number }; yearlyPrices: { CNY: number } }>;
      packs: unknown[];
      providers: Array<{ name: string }>;
      current: { code: string };
    }>(await ctx.request("/api/v1/payments/catalogue", { token: owner.token }));
    const pro = body.data.plans.find((plan) => plan.code === "pro")!;
    expect(pro.yearlyPrices.CNY).toBe(pro.monthlyPrices.CNY * 10);
    expect(body.data.packs).toHaveLength(3);
    expect(body.data.providers.map((provider) => provider.name).sort()).toEqual(["alipay", "stripe", "wechat"]);
    expect(body.data.current.code).toBe("free");
    const guest = await json<{ current: unknown; plans: unknown[] }>(await ctx.request("/api/v1/payments/catalogue"));
    expect(guest.status).toBe(200);
    expect(guest.body.data.current).toBeNull();
  });
});

describe("WeChat Pay", () => {
  it("creates a Native order, is notified, fulfils Pro yearly with its credits; a replay changes nothing", async () => {
    const order = await buy(owner, { type: "plan", planCode: "pro", period: "year" }, "wechat");
    expect(order).toMatchObject({ status: "created", amount: 99_000, currency: "CNY" });
    expect(order.payUrl).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(wechat.orders.get(order.number)?.total).toBe(99_000);

    const notification = wechat.notification(order.number);
    wechat.orders.get(order.number)!.state = "SUCCESS";
    expect((await postNotification(notification)).status).toBe(200);
    const paid = await orderOf(owner, order.id);
    expect(paid.status).toBe("fulfilled");
    expect(paid.granted?.credits).toBe(120_000);
    expect((await spacePlanOf(ctx.deps, owner.user.spaceId)).code).toBe("pro");
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(120_000);

    expect((await postNotification(notification)).status).toBe(200);
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(120_000);
    const events = await ctx.deps.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, order.id));
    expect(events.map((event) => event.outcome)).toEqual(["fulfilled"]);
  });

  it("refuses forged, stale, tampered, wrong-serial, other-amount and unknown-order notifications, crediting nothing", async () => {
    const order = await buy(owner, { type: "credits", packCode: "credits-1000" }, "wechat");
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const forged = wechat.notification(order.number, { signWith: rsaPair().privateKey });
    expect(await postNotification(forged)).toMatchObject({ status: 400 });
    const stale = wechat.notification(order.number, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect((await postNotification(stale)).body).toContain("stale");
    const tampered = wechat.notification(order.number);
    expect((await postNotification({ ...tampered, body: tampered.body.replace('"summary":"支付成功"', '"summary":"x"') })).status).toBe(400);
    const wrongSerial = wechat.notification(order.number);
    expect((await postNotification({ ...wrongSerial, headers: { ...wrongSerial.headers, "Wechatpay-Serial": "OTHER" } })).status).toBe(400);
    const cheaper = wechat.notification(order.number, { transaction: { amount: { total: 1, payer_total: 1, currency: "CNY", payer_currency: "CNY" } } });
    expect((await postNotification(cheaper)).body).toContain("amount_mismatch");
    const otherCurrency = wechat.notification(order.number, { transaction: { amount: { total: 1000, currency: "USD" } } });
    expect((await postNotification(otherCurrency)).body).toContain("amount_mismatch");
    const unknown = wechat.notification("PL00000000000000000000");
    expect((await postNotification({ ...unknown, url: `${base}/api/v1/payments/wechat/notify` })).body).toContain("unknown_order");
    expect((await orderOf(owner, order.id)).status).toBe("created");
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before);
  });

  it("queries an order at WeChat Pay with a signed request and refunds, taking back what is left", async () => {
    const order = await buy(owner, { type: "credits", packCode: "credits-5000" }, "wechat");
    const { paymentProviders } = await import("./providers/index");
    const provider = paymentProviders(ctx.deps).get("wechat")!;
    expect((await provider.queryPayment({ number: order.number })).paid).toBe(false);
    await wechat.pay(order.number);
    expect(await provider.queryPayment({ number: order.number })).toMatchObject({ paid: true, amount: 4500, currency: "CNY" });
    expect((await orderOf(owner, order.id)).status).toBe("fulfilled");
    const before = await balanceOf(ctx.deps, owner.user.spaceId);

    const refused = await json(await ctx.request(`/api/v1/instance/orders/${order.id}/refund`, { method: "POST", token: owner.token, json: {} }));
    expect(refused.status).toBe(403);
    const refunded = await json<Order>(
      await ctx.request(`/api/v1/instance/orders/${order.id}/refund`, { method: "POST", token: admin.token, json: { note: "asked" } }),
    );
    expect(refunded.status).toBe(200);
    expect(refunded.body.data.status).toBe("refunded");
    expect(wechat.refunds.at(-1)).toMatchObject({ outTradeNo: order.number, refund: 4500 });
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before - 5000);
    const again = await json(await ctx.request(`/api/v1/instance/orders/${order.id}/refund`, { method: "POST", token: admin.token, json: {} }));
    expect(again.status).toBe(409);
    expect(wechat.refusedRequests).toBe(0); // every request Parley signed was accepted
  });

  it("fulfils once under 50 concurrent copies of one notification, and once under 50 distinct notifications of one payment", async () => {
    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const order = await buy(owner, { type: "credits", packCode: "credits-1000" }, "wechat");
    wechat.orders.get(order.number)!.state = "SUCCESS";
    const notification = wechat.notification(order.number);
    const answers = await Promise.all(Array.from({ length: 50 }, () => postNotification(notification)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    const second = await buy(owner, { type: "credits", packCode: "credits-1000" }, "wechat");
    wechat.orders.get(second.number)!.state = "SUCCESS";
    await Promise.all(Array.from({ length: 50 }, () => postNotification(wechat.notification(second.number))));
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before + 2000);
    const outcomes = await ctx.deps.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, second.id));
    expect(outcomes.filter((event) => event.outcome === "fulfilled")).toHaveLength(1);
    expect(outcomes.filter((event) => event.outcome === "duplicate")).toHaveLength(49);
  });
});

describe("Alipay", () => {
  it("precreates a QR, is notified (answering success), fulfils, ignores a replay and refunds", async () => {
    const before = await balanceOf(ctx.deps, other.user.spaceId);
    const order = await buy(other, { type: "credits", packCode: "credits-20000" }, "alipay");
    expect(order.payUrl).toMatch(/^https:\/\/qr\.alipay\.com\//);
    expect(alipay.orders.get(order.number)?.totalAmount).toBe("160.00");
    const answer = await alipay.pay(order.number);
    expect(answer).toEqual({ status: 200, body: "success" });
    expect((await orderOf(other, order.id)).status).toBe("fulfilled");
    expect(await balanceOf(ctx.deps, other.user.spaceId)).toBe(before + 20_000);
    // The same notify_id again: recognised, nothing more.
    const replay = alipay.notification(order.number);
    const first = await postNotification(replay);
    expect(first.body).toBe("success");
    expect(await balanceOf(ctx.deps, other.user.spaceId)).toBe(before + 20_000);

    const refunded = await json<Order>(await ctx.request(`/api/v1/instance/orders/${order.id}/refund`, { method: "POST", token: admin.token, json: {} }));
    expect(refunded.body.data.status).toBe("refunded");
    expect(alipay.refunds.at(-1)).toMatchObject({ outTradeNo: order.number, refundAmount: "160.00" });
    expect(await balanceOf(ctx.deps, other.user.spaceId)).toBe(before);
    expect(alipay.refusedRequests).toBe(0);
  });

  it("refuses a forged signature, another app's notification and another amount", async () => {
    const order = await buy(other, { type: "credits", packCode: "credits-1000" }, "alipay");
    expect((await postNotification(alipay.notification(order.number, { signWith: rsaPair().privateKey }))).body).toBe("failure");
    expect((await postNotification(alipay.notification(order.number, { params: { app_id: "2021999999999999" } }))).body).toBe("failure");
    expect((await postNotification(alipay.notification(order.number, { params: { total_amount: "0.01" } }))).body).toBe("failure");
    const tampered = alipay.notification(order.number);
    expect((await postNotification({ ...tampered, body: tampered.body.replace("total_amount=10.00", "total_amount=1000.00") })).body).toBe("failure");
    expect((await orderOf(other, order.id)).status).toBe("created");
  });
});

describe("Stripe", () => {
  const notifyUrl = () => `${base}/api/v1/payments/stripe/notify`;

  it("creates a Checkout Session through the SDK, is notified by a signed webhook, fulfils and refunds", async () => {
    const order = await buy(other, { type: "plan", planCode: "team", period: "month" }, "stripe");
    expect(order).toMatchObject({ amount: 4500, currency: "USD" });
    expect(order.payUrl).toContain("/c/pay/cs_test_");
    const session = order.providerReference!;
    expect(stripe.sessions.get(session)?.amountTotal).toBe(4500);
    expect(await stripe.pay(session, notifyUrl())).toMatchObject({ status: 200 });
    expect((await orderOf(other, order.id)).status).toBe("fulfilled");
    expect((await spacePlanOf(ctx.deps, other.user.spaceId)).code).toBe("team");

    const refunded = await json<Order>(await ctx.request(`/api/v1/instance/orders/${order.id}/refund`, { method: "POST", token: admin.token, json: {} }));
    expect(refunded.body.data.status).toBe("refunded");
    expect(stripe.refunds).toHaveLength(1);
    expect((await spacePlanOf(ctx.deps, other.user.spaceId)).code).toBe("free");
  });

  it("refuses a wrong secret, a stale timestamp (300 s) and a tampered payload; a replayed event id changes nothing", async () => {
    const order = await buy(other, { type: "credits", packCode: "credits-1000" }, "stripe");
    const session = order.providerReference!;
    expect((await postNotification(stripe.notification(session, notifyUrl(), { secret: "whsec_wrong" }))).status).toBe(400);
    const stale = await postNotification(stripe.notification(session, notifyUrl(), { timestamp: Math.floor(Date.now() / 1000) - 301 }));
    expect(stale).toMatchObject({ status: 400 });
    expect(stale.body).toContain("stale");
    const good = stripe.notification(session, notifyUrl(), { id: "evt_replayed" });
    expect((await postNotification({ ...good, body: good.body.replace('"amount_total": 150', '"amount_total": 15000') })).status).toBe(400);
    expect((await orderOf(other, order.id)).status).toBe("created");
    const before = await balanceOf(ctx.deps, other.user.spaceId);
    expect((await postNotification(good)).status).toBe(200);
    expect((await postNotification(good)).status).toBe(200);
    expect(await balanceOf(ctx.deps, other.user.spaceId)).toBe(before + 1000);
  });
});

describe("orders: who may do what", () => {
  it("refuses absurd products, unknown providers, client-set amounts and another space's order", async () => {
    const cases = [
      { product: { type: "plan", planCode: "free", period: "month" }, provider: "wechat" },
      { product: { type: "plan", planCode: "custom", period: "year" }, provider: "wechat" },
      { product: { type: "credits", packCode: "credits-999999" }, provider: "wechat" },
      { product: { type: "credits", packCode: "credits-1000" }, provider: "paypal" },
      { product: { type: "credits", packCode: "credits-1000" }, provider: "wechat", amount: -1 },
    ];
    for (const body of cases) {
      const answer = await json(
        await ctx.request("/api/v1/orders", { method: "POST", token: owner.token, json: body, headers: { "Accept-Language": "zh-CN" } }),
      );
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.success).toBe(false);
    }
    const mine = await buy(owner, { type: "credits", packCode: "credits-1000" }, "alipay");
    expect((await ctx.request(`/api/v1/orders/${mine.id}`, { token: other.token })).status).toBe(404);
    expect((await ctx.request(`/api/v1/orders/${mine.id}/cancel`, { method: "POST", token: other.token })).status).toBe(404);
  });

  it("offers no route by which a user marks an order paid; only the administrator grants, and it is recorded", async () => {
    const order = await buy(owner, { type: "credits", packCode: "credits-1000" }, "wechat");
    for (const [method, path, body] of [
      ["PATCH", `/api/v1/orders/${order.id}`, { status: "paid" }],
      ["POST", `/api/v1/orders/${order.id}/pay`, {}],
      ["POST", "/api/v1/instance/orders", { spaceId: owner.user.spaceId, credits: 1000 }],
    ] as const) {
      const answer = await ctx.request(path, { method, token: owner.token, json: body });
      expect([403, 404, 405]).toContain(answer.status);
    }
    const notify = await ctx.request("/api/v1/payments/wechat/notify", {
      method: "POST",
      token: owner.token,
      json: { id: "x", event_type: "TRANSACTION.SUCCESS" },
    });
    expect(notify.status).toBe(400);
    expect((await orderOf(owner, order.id)).status).toBe("created");

    const before = await balanceOf(ctx.deps, owner.user.spaceId);
    const granted = await json<Order & { provider: string; actorUserId: string; note: string }>(
      await ctx.request("/api/v1/instance/orders", {
        method: "POST",
        token: admin.token,
        json: { spaceId: owner.user.spaceId, credits: 300, note: "goodwill" },
      }),
    );
    expect(granted.status).toBe(201);
    expect(granted.body.data).toMatchObject({ provider: "manual", status: "fulfilled", actorUserId: admin.user.id, note: "goodwill" });
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(before + 300);
    const absurd = await json(
      await ctx.request("/api/v1/instance/orders", { method: "POST", token: admin.token, json: { spaceId: owner.user.spaceId, credits: -5 } }),
    );
    expect(absurd.status).toBe(400);
    const nowhere = await json(await ctx.request("/api/v1/instance/orders", { method: "POST", token: admin.token, json: { spaceId: "spc_nope", credits: 5 } }));
    expect(nowhere.status).toBe(404);
  });

  it("refunds never take the balance below zero and record what was already spent", async () => {
    const { appendLedger } = await import("../billing/service/ledger");
    const order = await buy(owner, { type: "credits", packCode: "credits-1000" }, "alipay");
    await alipay.pay(order.number);
    const balance = await balanceOf(ctx.deps, owner.user.spaceId);
    await appendLedger(ctx.deps, { spaceId: owner.user.spaceId, delta: -(balance - 400), reason: "usage" });
    const refunded = await json<Order>(await ctx.request(`/api/v1/instance/orders/${order.id}/refund`, { method: "POST", token: admin.token, json: {} }));
    expect(refunded.body.data.granted?.refund).toMatchObject({ creditsReversed: 400, creditsShort: 600 });
    expect(await balanceOf(ctx.deps, owner.user.spaceId)).toBe(0);
  });

  it("closes orders left unpaid past their lifetime, and a member may not buy", async () => {
    const order = await buy(owner, { type: "credits", packCode: "credits-1000" }, "wechat");
    await ctx.deps.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 3 * 3_600_000).toISOString() })
      .where(eq(orders.id, order.id));
    expect((await orderOf(owner, order.id)).status).toBe("closed");
    const cancelled = await buy(owner, { type: "credits", packCode: "credits-1000" }, "wechat");
    expect((await json<Order>(await ctx.request(`/api/v1/orders/${cancelled.id}/cancel`, { method: "POST", token: owner.token }))).body.data.status).toBe(
      "closed",
    );
    expect((await ctx.request(`/api/v1/orders/${cancelled.id}/cancel`, { method: "POST", token: owner.token })).status).toBe(409);
    const list = await json<{ records: Order[]; total: number }>(await ctx.request("/api/v1/orders", { token: owner.token }));
    expect(list.body.data.records.some((record) => record.id === cancelled.id)).toBe(true);
  });
});

describe("a crash between fulfilling and granting", () => {
  it("start-up finishes an order left fulfilled without its grant, once, and never grants it twice", async () => {
    const buyer = await registerUser(ctx, "crashed.buyer@example.com");
    const order = await buy(buyer, { type: "plan", planCode: "pro", period: "year" }, "wechat");
    // The process died right after the claim paid -> fulfilled: nothing granted, nothing recorded.
    await ctx.deps.db.update(orders).set({ status: "fulfilled", paidAt: ctx.deps.now().toISOString() }).where(eq(orders.id, order.id));
    const before = await balanceOf(ctx.deps, buyer.user.spaceId);
    expect((await spacePlanOf(ctx.deps, buyer.user.spaceId)).code).toBe("free");

    expect(await recoverFulfilments(ctx.deps)).toBe(1);
    expect((await spacePlanOf(ctx.deps, buyer.user.spaceId)).code).toBe("pro");
    expect(await balanceOf(ctx.deps, buyer.user.spaceId)).toBe(before + 120_000);
    expect((await orderOf(buyer, order.id)).granted).toMatchObject({ credits: 120_000, applied: true });
    expect(await recoverFulfilments(ctx.deps)).toBe(0);
    expect(await balanceOf(ctx.deps, buyer.user.spaceId)).toBe(before + 120_000);
  });

  it("a grant recorded but cut off after its credits were booked is finished without booking them again", async () => {
    const buyer = await registerUser(ctx, "half.granted@example.com");
    const order = await buy(buyer, { type: "credits", packCode: "credits-1000" }, "wechat");
    const before = await balanceOf(ctx.deps, buyer.user.spaceId);
    // The process died after the grant was recorded and the credits booked, before it was marked applied.
    await ctx.deps.db
      .update(orders)
      .set({ status: "fulfilled", granted: JSON.stringify({ credits: 1000, applied: false }) })
      .where(eq(orders.id, order.id));
    await moveCredits(ctx.deps, { spaceId: buyer.user.spaceId, delta: 1000, reason: "purchase", reference: order.id, once: true });

    expect(await recoverFulfilments(ctx.deps)).toBe(1);
    expect(await balanceOf(ctx.deps, buyer.user.spaceId)).toBe(before + 1000);
    expect((await orderOf(buyer, order.id)).granted).toMatchObject({ credits: 1000, applied: true });
  });
});

describe("refunding a plan that was renewed after", () => {
  it("takes only the refunded period off the plan's end and keeps the renewal", async () => {
    const buyer = await registerUser(ctx, "renewing.buyer@example.com");
    const first = await buy(buyer, { type: "plan", planCode: "pro", period: "month" }, "wechat");
    await wechat.pay(first.number);
    const afterFirst = (await spacePlanOf(ctx.deps, buyer.user.spaceId)).expiresAt!;
    const second = await buy(buyer, { type: "plan", planCode: "pro", period: "month" }, "wechat");
    await wechat.pay(second.number);
    const afterSecond = (await spacePlanOf(ctx.deps, buyer.user.spaceId)).expiresAt!;
    expect(afterSecond > afterFirst).toBe(true);

    const refunded = await json<Order>(await ctx.request(`/api/v1/instance/orders/${first.id}/refund`, { method: "POST", token: admin.token, json: {} }));
    expect(refunded.body.data.status).toBe("refunded");
    // The renewal stands: one month of Pro is left, ending where the first order alone made it end.
    const plan = await spacePlanOf(ctx.deps, buyer.user.spaceId);
    expect(plan.code).toBe("pro");
    // (Equal to the day, but for month ends: a month taken off the 28th of February is the 28th of January.)
    expect(Math.abs(Date.parse(plan.expiresAt!) - Date.parse(afterFirst))).toBeLessThanOrEqual(3 * 86_400_000);
    expect(plan.expiresAt! < afterSecond).toBe(true);
  });
});

describe("Stripe's documented signature scheme", () => {
  it("the fake signs webhooks exactly as the official SDK's test header does (t=…,v1=HMAC-SHA256 of `t.payload`)", async () => {
    const { default: Stripe } = await import("stripe");
    const { stripeSignatureHeader } = await import("../testing/fakes/index");
    const payload = JSON.stringify({ id: "evt_test_webhook", object: "event" }, null, 2);
    const secret = "whsec_test_secret";
    const official = new Stripe("sk_test_x").webhooks.generateTestHeaderString({ payload, secret, timestamp: 1_700_000_000 });
    expect(stripeSignatureHeader(payload, secret, 1_700_000_000)).toBe(official);
  });
});

describe("an instance with no payment provider", () => {
  it("offers plans with the sales address, refuses to open orders, and the administrator grants a plan period, recorded", async () => {
    const bare = await createTestContext({ PARLEY_SALES_EMAIL: "sales@example.com" });
    try {
      const user = await registerUser(bare, "solo@example.com");
      const boss = await registerUser(bare, "boss@example.com");
      await bare.deps.db.update(users).set({ isInstanceOwner: true }).where(eq(users.id, boss.user.id));
      const catalogue = (await (await bare.request("/api/v1/payments/catalogue", { token: user.token })).json()) as {
        data: { providers: unknown[]; salesEmail: string };
      };
      expect(catalogue.data).toMatchObject({ providers: [], salesEmail: "sales@example.com" });
      const refused = await bare.request("/api/v1/orders", {
        method: "POST",
        token: user.token,
        headers: { "Accept-Language": "zh-CN" },
        json: { product: { type: "plan", planCode: "pro", period: "month" }, provider: "wechat" },
      });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toContain("未开通");
      const grant = await bare.request("/api/v1/instance/orders", {
        method: "POST",
        token: boss.token,
        json: { spaceId: user.user.spaceId, product: { type: "plan", planCode: "pro", period: "year" }, note: "contract 42" },
      });
      expect(grant.status).toBe(201);
      expect((await spacePlanOf(bare.deps, user.user.spaceId)).code).toBe("pro");
      const records = (await (await bare.request("/api/v1/orders", { token: user.token })).json()) as {
        data: { records: Array<{ provider: string; note: string }> };
      };
      expect(records.data.records[0]).toMatchObject({ provider: "manual", note: "contract 42" });
    } finally {
      await bare.close();
    }
  });
});

describe("a provider that refuses or cannot be reached", () => {
  it("answers 502 with the provider's reason, leaves no open order and credits nothing", async () => {
    const port = await freePort();
    const wrongKey = await createTestContext({ ...wechat.env, PARLEY_WECHATPAY_MERCHANT_PRIVATE_KEY: rsaPair().privateKey });
    const unreachable = await createTestContext({ ...wechat.env, PARLEY_WECHATPAY_BASE_URL: `http://127.0.0.1:${port}` });
    try {
      for (const context of [wrongKey, unreachable]) {
        const user = await registerUser(context, "buyer@example.com");
        const refusedBefore = wechat.refusedRequests;
        const answer = await context.request("/api/v1/orders", {
          method: "POST",
          token: user.token,
          json: { product: { type: "credits", packCode: "credits-1000" }, provider: "wechat" },
        });
        expect(answer.status).toBe(502);
        const body = (await answer.json()) as { success: boolean; message: string };
        expect(body.success).toBe(false);
        if (context === wrongKey) {
          expect(body.message).toContain("SIGN_ERROR");
          expect(wechat.refusedRequests).toBe(refusedBefore + 1);
        }
        const records = (await (await context.request("/api/v1/orders", { token: user.token })).json()) as { data: { records: Array<{ status: string }> } };
        expect(records.data.records.map((record) => record.status)).toEqual(["closed"]);
      }
    } finally {
      await Promise.all([wrongKey.close(), unreachable.close()]);
    }
  });
});
