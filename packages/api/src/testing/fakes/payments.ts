import { createCipheriv, createHmac, createSign, createVerify, generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/*
 * Local payment providers that speak each provider's protocol and check its signatures with
 * their own code (not the client's): WeChat Pay API v3, the Alipay gateway and Stripe's API.
 * Each can also "pay" an order, which sends the real notification to the notify URL.
 */

/** An RSA key pair as PEM. */
export interface PemPair {
  publicKey: string;
  privateKey: string;
}

/** A fresh 2048-bit RSA pair. */
export function rsaPair(): PemPair {
  return generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>) {
  const server = createServer((request, response) => {
    handler(request, response).catch((error: unknown) => {
      response.writeHead(500, { "Content-Type": "application/json" });
      response.end(JSON.stringify({ error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, close };
}

/** A notification as a provider would post it, for tests to send, alter or replay. */
export interface FakeNotification {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Posts a notification; answers the status and body. */
export async function postNotification(notification: FakeNotification): Promise<{ status: number; body: string }> {
  const response = await fetch(notification.url, { method: "POST", headers: notification.headers, body: notification.body });
  return { status: response.status, body: await response.text() };
}

// ————— WeChat Pay API v3 —————

/** Options for {@link startWechatPayFake}; keys are made when omitted. */
export interface WechatPayFakeOptions {
  mchid?: string;
  appid?: string;
  merchantSerial?: string;
  apiV3Key?: string;
  platformSerial?: string;
}

interface WechatFakeOrder {
  outTradeNo: string;
  total: number;
  currency: string;
  notifyUrl: string;
  transactionId: string;
  state: "NOTPAY" | "SUCCESS" | "REFUND";
}

/** A running WeChat Pay fake. */
export interface WechatPayFake {
  url: string;
  /** PARLEY_WECHATPAY_* for a Parley pointed at this fake. */
  env: Record<string, string>;
  merchant: PemPair;
  platform: PemPair;
  orders: Map<string, WechatFakeOrder>;
  refunds: Array<{ outTradeNo: string; outRefundNo: string; refund: number }>;
  /** Requests refused for a bad Authorization. */
  refusedRequests: number;
  /** Builds the TRANSACTION.SUCCESS notification of an order (overrides alter the transaction). */
  notification(outTradeNo: string, options?: { id?: string; timestamp?: number; transaction?: Record<string, unknown>; signWith?: string }): FakeNotification;
  /** Marks the order paid and posts its notification. */
  pay(outTradeNo: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/** WeChat's Authorization header, parsed. */
function parseWechatAuthorization(header: string): Record<string, string> | undefined {
  const match = /^WECHATPAY2-SHA256-RSA2048 (.+)$/.exec(header);
  if (!match) return undefined;
  return Object.fromEntries([...match[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((part) => [part[1]!, part[2]!]));
}

/**
 * Starts a WeChat Pay API v3 fake: it checks each request's WECHATPAY2-SHA256-RSA2048
 * signature with the merchant's public key (and the mchid and serial), signs its answers with
 * the platform key, and sends notifications encrypted with AES-256-GCM under the API v3 key.
 */
export async function startWechatPayFake(options: WechatPayFakeOptions = {}): Promise<WechatPayFake> {
  const mchid = options.mchid ?? "1900000109";
  const appid = options.appid ?? "wxd678efh567hg6787";
  const merchantSerial = options.merchantSerial ?? "5157F09EFDC096DE15EBE81A47057A7232F1B8E1";
  const apiV3Key = options.apiV3Key ?? randomBytes(16).toString("hex");
  const platformSerial = options.platformSerial ?? "5157F09EFDC096DE15EBE81A47057A7232F1B8E2";
  const merchant = rsaPair();
  const platform = rsaPair();
  const orders = new Map<string, WechatFakeOrder>();
  const refunds: WechatPayFake["refunds"] = [];
  let refusedRequests = 0;

  const send = (response: ServerResponse, status: number, payload: unknown) => {
    const body = payload === undefined ? "" : JSON.stringify(payload);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(16).toString("hex");
    const signature = createSign("RSA-SHA256").update(`${timestamp}\n${nonce}\n${body}\n`).sign(platform.privateKey, "base64");
    response.writeHead(status, {
      "Content-Type": "application/json",
      "Wechatpay-Timestamp": timestamp,
      "Wechatpay-Nonce": nonce,
      "Wechatpay-Signature": signature,
      "Wechatpay-Serial": platformSerial,
    });
    response.end(body);
  };

  const server = await listen(async (request, response) => {
    const body = await readBody(request);
    const auth = parseWechatAuthorization(request.headers.authorization ?? "");
    const message = `${request.method}\n${request.url}\n${auth?.timestamp}\n${auth?.nonce_str}\n${body}\n`;
    const signed =
      auth !== undefined &&
      auth.mchid === mchid &&
      auth.serial_no === merchantSerial &&
      Math.abs(Date.now() / 1000 - Number(auth.timestamp)) <= 300 &&
      createVerify("RSA-SHA256")
        .update(message)
        .verify(merchant.publicKey, auth.signature ?? "", "base64");
    if (!signed) {
      refusedRequests++;
      return send(response, 401, { code: "SIGN_ERROR", message: "签名错误" });
    }
    const url = new URL(request.url ?? "/", "http://fake");
    if (request.method === "POST" && url.pathname === "/v3/pay/transactions/native") {
      const input = JSON.parse(body) as {
        appid: string;
        mchid: string;
        out_trade_no: string;
        notify_url: string;
        amount: { total: number; currency?: string };
      };
      if (input.mchid !== mchid || input.appid !== appid) return send(response, 400, { code: "PARAM_ERROR", message: "appid和mch_id不匹配" });
      if (!(input.amount.total > 0)) return send(response, 400, { code: "PARAM_ERROR", message: "total must be positive" });
      orders.set(input.out_trade_no, {
        outTradeNo: input.out_trade_no,
        total: input.amount.total,
        currency: input.amount.currency ?? "CNY",
        notifyUrl: input.notify_url,
        transactionId: `4200001${Date.now()}${Math.floor(Math.random() * 1000)}`,
        state: "NOTPAY",
      });
      return send(response, 200, { code_url: `weixin://wxpay/bizpayurl?pr=${randomBytes(5).toString("hex")}` });
    }
    const query = /^\/v3\/pay\/transactions\/out-trade-no\/([^/]+)$/.exec(url.pathname);
    if (request.method === "GET" && query) {
      const order = orders.get(decodeURIComponent(query[1]!));
      if (!order) return send(response, 404, { code: "ORDER_NOT_EXIST", message: "订单不存在" });
      return send(response, 200, {
        appid,
        mchid,
        out_trade_no: order.outTradeNo,
        transaction_id: order.transactionId,
        trade_state: order.state,
        amount: { total: order.total, payer_total: order.total, currency: order.currency, payer_currency: order.currency },
      });
    }
    if (request.method === "POST" && url.pathname === "/v3/refund/domestic/refunds") {
      const input = JSON.parse(body) as { out_trade_no: string; out_refund_no: string; amount: { refund: number; total: number } };
      const order = orders.get(input.out_trade_no);
      if (order?.state !== "SUCCESS") return send(response, 400, { code: "INVALID_REQUEST", message: "订单未支付" });
      if (input.amount.refund > order.total || input.amount.total !== order.total) return send(response, 400, { code: "PARAM_ERROR", message: "退款金额错误" });
      order.state = "REFUND";
      refunds.push({ outTradeNo: order.outTradeNo, outRefundNo: input.out_refund_no, refund: input.amount.refund });
      return send(response, 200, {
        refund_id: `50000${Date.now()}`,
        out_refund_no: input.out_refund_no,
        status: "PROCESSING",
        amount: { refund: input.amount.refund, total: order.total, currency: "CNY" },
      });
    }
    return send(response, 404, { code: "NOT_FOUND", message: "no such API" });
  });

  const notification: WechatPayFake["notification"] = (outTradeNo, extra = {}) => {
    const order = orders.get(outTradeNo);
    const transaction = {
      mchid,
      appid,
      out_trade_no: outTradeNo,
      transaction_id: order?.transactionId ?? "4200000000000000000",
      trade_type: "NATIVE",
      trade_state: "SUCCESS",
      trade_state_desc: "支付成功",
      bank_type: "OTHERS",
      success_time: new Date().toISOString(),
      payer: { openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" },
      amount: { total: order?.total ?? 1, payer_total: order?.total ?? 1, currency: "CNY", payer_currency: "CNY" },
      ...extra.transaction,
    };
    const nonce = randomBytes(6).toString("hex");
    const cipher = createCipheriv("aes-256-gcm", Buffer.from(apiV3Key, "utf8"), Buffer.from(nonce, "utf8"));
    cipher.setAAD(Buffer.from("transaction", "utf8"));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(transaction), "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64");
    const body = JSON.stringify({
      id: extra.id ?? randomUUID(),
      create_time: new Date().toISOString(),
      resource_type: "encrypt-resource",
      event_type: "TRANSACTION.SUCCESS",
      summary: "支付成功",
      resource: { original_type: "transaction", algorithm: "AEAD_AES_256_GCM", ciphertext, associated_data: "transaction", nonce },
    });
    const timestamp = String(extra.timestamp ?? Math.floor(Date.now() / 1000));
    const headerNonce = randomBytes(16).toString("hex");
    const signature = createSign("RSA-SHA256")
      .update(`${timestamp}\n${headerNonce}\n${body}\n`)
      .sign(extra.signWith ?? platform.privateKey, "base64");
    return {
      url: order?.notifyUrl ?? "",
      headers: {
        "Content-Type": "application/json",
        "Wechatpay-Timestamp": timestamp,
        "Wechatpay-Nonce": headerNonce,
        "Wechatpay-Signature": signature,
        "Wechatpay-Serial": platformSerial,
      },
      body,
    };
  };

  return {
    url: server.url,
    env: {
      PARLEY_WECHATPAY_MCHID: mchid,
      PARLEY_WECHATPAY_APPID: appid,
      PARLEY_WECHATPAY_MERCHANT_SERIAL: merchantSerial,
      PARLEY_WECHATPAY_MERCHANT_PRIVATE_KEY: merchant.privateKey,
      PARLEY_WECHATPAY_API_V3_KEY: apiV3Key,
      PARLEY_WECHATPAY_PLATFORM_PUBLIC_KEY: platform.publicKey,
      PARLEY_WECHATPAY_PLATFORM_SERIAL: platformSerial,
      PARLEY_WECHATPAY_BASE_URL: server.url,
    },
    merchant,
    platform,
    orders,
    refunds,
    get refusedRequests() {
      return refusedRequests;
    },
    notification,
    async pay(outTradeNo) {
      const order = orders.get(outTradeNo);
      if (!order) throw new Error(`no WeChat Pay order ${outTradeNo}`);
      order.state = "SUCCESS";
      return postNotification(notification(outTradeNo));
    },
    close: server.close,
  };
}

// ————— Alipay —————

function alipayContent(params: Record<string, string>, exclude: string[]): string {
  return Object.keys(params)
    .filter((key) => !exclude.includes(key) && params[key] !== "")
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join("&");
}

interface AlipayFakeOrder {
  outTradeNo: string;
  totalAmount: string;
  notifyUrl: string;
  tradeNo: string;
  status: "WAIT_BUYER_PAY" | "TRADE_SUCCESS" | "TRADE_CLOSED";
}

/** A running Alipay gateway fake. */
export interface AlipayFake {
  url: string;
  /** PARLEY_ALIPAY_* for a Parley pointed at this fake. */
  env: Record<string, string>;
  app: PemPair;
  alipay: PemPair;
  orders: Map<string, AlipayFakeOrder>;
  refunds: Array<{ outTradeNo: string; refundAmount: string; outRequestNo: string }>;
  refusedRequests: number;
  /** The async notification of a paid order (overrides alter its parameters). */
  notification(outTradeNo: string, options?: { params?: Record<string, string>; signWith?: string }): FakeNotification;
  pay(outTradeNo: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/**
 * Starts an Alipay open-platform gateway fake: it checks each request's RSA2 signature with the
 * app's public key and signs each `<method>_response` node with the Alipay private key.
 */
export async function startAlipayFake(options: { appId?: string } = {}): Promise<AlipayFake> {
  const appId = options.appId ?? "2021000000000000";
  const app = rsaPair();
  const alipay = rsaPair();
  const orders = new Map<string, AlipayFakeOrder>();
  const refunds: AlipayFake["refunds"] = [];
  let refusedRequests = 0;

  const send = (response: ServerResponse, method: string, node: Record<string, unknown>) => {
    const json = JSON.stringify(node);
    const sign = createSign("RSA-SHA256").update(json, "utf8").sign(alipay.privateKey, "base64");
    response.writeHead(200, { "Content-Type": "text/html;charset=utf-8" });
    response.end(`{"${method.replace(/\./g, "_")}_response":${json},"sign":"${sign}"}`);
  };

  const server = await listen(async (request, response) => {
    const params = Object.fromEntries(new URLSearchParams(await readBody(request))) as Record<string, string>;
    const method = params.method ?? "unknown";
    const signed =
      params.app_id === appId &&
      params.sign_type === "RSA2" &&
      createVerify("RSA-SHA256")
        .update(alipayContent(params, ["sign"]), "utf8")
        .verify(app.publicKey, params.sign ?? "", "base64");
    if (!signed) {
      refusedRequests++;
      return send(response, method, { code: "40002", msg: "Invalid Arguments", sub_code: "isv.invalid-signature", sub_msg: "验签出错" });
    }
    const biz = JSON.parse(params.biz_content ?? "{}") as Record<string, string>;
    if (method === "alipay.trade.precreate") {
      if (!/^\d+\.\d{2}$/.test(biz.total_amount ?? "") || Number(biz.total_amount) <= 0) {
        return send(response, method, { code: "40004", msg: "Business Failed", sub_code: "ACQ.INVALID_PARAMETER", sub_msg: "金额错误" });
      }
      orders.set(biz.out_trade_no!, {
        outTradeNo: biz.out_trade_no!,
        totalAmount: biz.total_amount!,
        notifyUrl: params.notify_url ?? "",
        tradeNo: `2026${Date.now()}${Math.floor(Math.random() * 1000)}`,
        status: "WAIT_BUYER_PAY",
      });
      return send(response, method, {
        code: "10000",
        msg: "Success",
        out_trade_no: biz.out_trade_no,
        qr_code: `https://qr.alipay.com/bax${randomBytes(8).toString("hex")}`,
      });
    }
    const order = orders.get(biz.out_trade_no ?? "");
    if (!order) return send(response, method, { code: "40004", msg: "Business Failed", sub_code: "ACQ.TRADE_NOT_EXIST", sub_msg: "交易不存在" });
    if (method === "alipay.trade.query") {
      return send(response, method, {
        code: "10000",
        msg: "Success",
        out_trade_no: order.outTradeNo,
        trade_no: order.tradeNo,
        trade_status: order.status,
        total_amount: order.totalAmount,
      });
    }
    if (method === "alipay.trade.refund") {
      if (order.status !== "TRADE_SUCCESS" || Number(biz.refund_amount) > Number(order.totalAmount)) {
        return send(response, method, { code: "40004", msg: "Business Failed", sub_code: "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL", sub_msg: "退款金额超限" });
      }
      order.status = "TRADE_CLOSED";
      refunds.push({ outTradeNo: order.outTradeNo, refundAmount: biz.refund_amount!, outRequestNo: biz.out_request_no! });
      return send(response, method, {
        code: "10000",
        msg: "Success",
        out_trade_no: order.outTradeNo,
        trade_no: order.tradeNo,
        fund_change: "Y",
        refund_fee: biz.refund_amount,
      });
    }
    return send(response, method, { code: "40004", msg: "Business Failed", sub_code: "isv.invalid-method", sub_msg: "不存在的方法名" });
  });

  const notification: AlipayFake["notification"] = (outTradeNo, extra = {}) => {
    const order = orders.get(outTradeNo);
    const now = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
    const params: Record<string, string> = {
      notify_time: now,
      notify_type: "trade_status_sync",
      notify_id: randomBytes(16).toString("hex"),
      app_id: appId,
      charset: "utf-8",
      version: "1.0",
      sign_type: "RSA2",
      trade_no: order?.tradeNo ?? "2026000000",
      out_trade_no: outTradeNo,
      trade_status: "TRADE_SUCCESS",
      total_amount: order?.totalAmount ?? "0.01",
      receipt_amount: order?.totalAmount ?? "0.01",
      buyer_logon_id: "159****5620",
      gmt_payment: now,
      ...extra.params,
    };
    params.sign = createSign("RSA-SHA256")
      .update(alipayContent(params, ["sign", "sign_type"]), "utf8")
      .sign(extra.signWith ?? alipay.privateKey, "base64");
    return {
      url: order?.notifyUrl ?? "",
      headers: { "Content-Type": "application/x-www-form-urlencoded; charset=utf-8" },
      body: new URLSearchParams(params).toString(),
    };
  };

  return {
    url: server.url,
    env: {
      PARLEY_ALIPAY_APP_ID: appId,
      PARLEY_ALIPAY_APP_PRIVATE_KEY: app.privateKey,
      PARLEY_ALIPAY_PUBLIC_KEY: alipay.publicKey,
      PARLEY_ALIPAY_GATEWAY_URL: `${server.url}/gateway.do`,
    },
    app,
    alipay,
    orders,
    refunds,
    get refusedRequests() {
      return refusedRequests;
    },
    notification,
    async pay(outTradeNo) {
      const order = orders.get(outTradeNo);
      if (!order) throw new Error(`no Alipay order ${outTradeNo}`);
      order.status = "TRADE_SUCCESS";
      return postNotification(notification(outTradeNo));
    },
    close: server.close,
  };
}

// ————— Stripe —————

/** Stripe's form encoding (`a[b][0][c]=v`) back into an object. */
function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter(Boolean);
    let node: Record<string, unknown> = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return root;
}

/** `t=…,v1=…`: HMAC-SHA256 of `t.payload` under the endpoint's secret, as Stripe documents. */
export function stripeSignatureHeader(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${payload}`, "utf8").digest("hex")}`;
}

interface StripeFakeSession {
  id: string;
  clientReferenceId: string;
  amountTotal: number;
  currency: string;
  paymentIntent: string;
  status: "open" | "complete";
  paymentStatus: "unpaid" | "paid";
  refunded: boolean;
}

/** A running Stripe API fake. */
export interface StripeFake {
  url: string;
  /** PARLEY_STRIPE_* for a Parley pointed at this fake. */
  env: Record<string, string>;
  webhookSecret: string;
  sessions: Map<string, StripeFakeSession>;
  refunds: Array<{ id: string; paymentIntent: string; amount: number }>;
  refusedRequests: number;
  /** A `checkout.session.completed` event for a session (overrides alter the session object). */
  notification(
    sessionId: string,
    notifyUrl: string,
    options?: { id?: string; timestamp?: number; object?: Record<string, unknown>; secret?: string },
  ): FakeNotification;
  pay(sessionId: string, notifyUrl: string): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
}

/** Starts a Stripe API fake: Bearer secret key, form-encoded requests, Checkout Sessions and Refunds. */
export async function startStripeFake(): Promise<StripeFake> {
  const secretKey = `sk_test_${randomBytes(12).toString("hex")}`;
  const webhookSecret = `whsec_${randomBytes(16).toString("hex")}`;
  const sessions = new Map<string, StripeFakeSession>();
  const refunds: StripeFake["refunds"] = [];
  let refusedRequests = 0;
  const json = (response: ServerResponse, status: number, payload: unknown) => {
    response.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${randomBytes(6).toString("hex")}` });
    response.end(JSON.stringify(payload));
  };
  const error = (response: ServerResponse, status: number, message: string, type = "invalid_request_error") =>
    json(response, status, { error: { type, message } });
  let base = "";
  const sessionObject = (session: StripeFakeSession) => ({
    id: session.id,
    object: "checkout.session",
    mode: "payment",
    client_reference_id: session.clientReferenceId,
    amount_total: session.amountTotal,
    currency: session.currency,
    payment_intent: session.status === "complete" ? session.paymentIntent : null,
    payment_status: session.paymentStatus,
    status: session.status,
    url: session.status === "open" ? `${base}/c/pay/${session.id}` : null,
    metadata: { order_number: session.clientReferenceId },
  });

  const server = await listen(async (request, response) => {
    const body = await readBody(request);
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      refusedRequests++;
      return error(response, 401, "Invalid API Key provided", "invalid_request_error");
    }
    const url = new URL(request.url ?? "/", "http://fake");
    const form = parseStripeForm(body);
    if (request.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      const item = (form.line_items as Record<string, { quantity: string; price_data: { currency: string; unit_amount: string } }> | undefined)?.["0"];
      const amount = Number(item?.price_data.unit_amount) * Number(item?.quantity ?? 1);
      if (!item || !Number.isInteger(amount) || amount <= 0) return error(response, 400, "line_items[0][price_data][unit_amount] must be a positive integer");
      const session: StripeFakeSession = {
        id: `cs_test_${randomBytes(12).toString("hex")}`,
        clientReferenceId: String(form.client_reference_id ?? ""),
        amountTotal: amount,
        currency: item.price_data.currency,
        paymentIntent: `pi_${randomBytes(12).toString("hex")}`,
        status: "open",
        paymentStatus: "unpaid",
        refunded: false,
      };
      sessions.set(session.id, session);
      return json(response, 200, sessionObject(session));
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (request.method === "GET" && retrieve) {
      const session = sessions.get(retrieve[1]!);
      return session ? json(response, 200, sessionObject(session)) : error(response, 404, "No such checkout.session");
    }
    if (request.method === "POST" && url.pathname === "/v1/refunds") {
      const session = [...sessions.values()].find((item) => item.paymentIntent === form.payment_intent && item.paymentStatus === "paid");
      if (!session) return error(response, 400, `No such payment_intent: '${String(form.payment_intent)}'`);
      if (session.refunded) return error(response, 400, "Charge has already been refunded.");
      session.refunded = true;
      const refund = { id: `re_${randomBytes(12).toString("hex")}`, paymentIntent: session.paymentIntent, amount: session.amountTotal };
      refunds.push(refund);
      return json(response, 200, {
        id: refund.id,
        object: "refund",
        amount: refund.amount,
        currency: session.currency,
        payment_intent: refund.paymentIntent,
        status: "succeeded",
      });
    }
    return error(response, 404, `Unrecognized request URL (${request.method}: ${url.pathname})`);
  });
  base = server.url;

  const notification: StripeFake["notification"] = (sessionId, notifyUrl, extra = {}) => {
    const session = sessions.get(sessionId);
    const object = { ...(session ? sessionObject({ ...session, status: "complete", paymentStatus: "paid" }) : {}), ...extra.object };
    const body = JSON.stringify(
      {
        id: extra.id ?? `evt_${randomBytes(12).toString("hex")}`,
        object: "event",
        api_version: "2025-10-29.clover",
        created: Math.floor(Date.now() / 1000),
        type: "checkout.session.completed",
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object },
      },
      null,
      2,
    );
    return {
      url: notifyUrl,
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Stripe-Signature": stripeSignatureHeader(body, extra.secret ?? webhookSecret, extra.timestamp),
      },
      body,
    };
  };

  return {
    url: server.url,
    env: { PARLEY_STRIPE_SECRET_KEY: secretKey, PARLEY_STRIPE_WEBHOOK_SECRET: webhookSecret, PARLEY_STRIPE_API_BASE: server.url },
    webhookSecret,
    sessions,
    refunds,
    get refusedRequests() {
      return refusedRequests;
    },
    notification,
    async pay(sessionId, notifyUrl) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no Stripe session ${sessionId}`);
      session.status = "complete";
      session.paymentStatus = "paid";
      return postNotification(notification(sessionId, notifyUrl));
    },
    close: server.close,
  };
}
