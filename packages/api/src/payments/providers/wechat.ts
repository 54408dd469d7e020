import { createDecipheriv, createSign, createVerify, randomBytes } from "node:crypto";
import type { Clock } from "../../kernel/clock";
import { NotificationRefused, PROVIDER_TIMEOUT_MS, type PaymentProvider, ProviderFailure } from "./port";
import type { WechatPayConfig } from "../../config";

/** WeChat Pay accepts a signed message this long after (or before) its timestamp. */
export const WECHATPAY_TOLERANCE_SECONDS = 300;

/** `WECHATPAY2-SHA256-RSA2048` request signature: SHA256withRSA over method, path, time, nonce and body, one per line. */
export function wechatAuthorization(
  config: Pick<WechatPayConfig, "mchid" | "merchantSerial" | "merchantPrivateKey">,
  method: string,
  pathWithQuery: string,
  body: string,
  timestamp: number,
  nonce: string,
): string {
  const message = `${method}\n${pathWithQuery}\n${timestamp}\n${nonce}\n${body}\n`;
  const signature = createSign("RSA-SHA256").update(message).sign(config.merchantPrivateKey, "base64");
  return `WECHATPAY2-SHA256-RSA2048 mchid="${config.mchid}",nonce_str="${nonce}",signature="${signature}",timestamp="${timestamp}",serial_no="${config.merchantSerial}"`;
}

/** Checks a `Wechatpay-Signature` over `timestamp\nnonce\nbody\n` with the platform key. */
export function verifyWechatSignature(publicKey: string, timestamp: string, nonce: string, body: string, signature: string): boolean {
  try {
    return createVerify("RSA-SHA256").update(`${timestamp}\n${nonce}\n${body}\n`).verify(publicKey, signature, "base64");
  } catch {
    return false;
  }
}

/** Opens an AEAD_AES_256_GCM resource: the ciphertext carries the 16-byte tag at its end. */
export function decryptWechatResource(apiV3Key: string, resource: { ciphertext: string; nonce: string; associated_data?: string }): string {
  const data = Buffer.from(resource.ciphertext, "base64");
  const decipher = createDecipheriv("aes-256-gcm", Buffer.from(apiV3Key, "utf8"), Buffer.from(resource.nonce, "utf8"));
  decipher.setAuthTag(data.subarray(data.length - 16));
  if (resource.associated_data) decipher.setAAD(Buffer.from(resource.associated_data, "utf8"));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]).toString("utf8");
}

interface Transaction {
  mchid?: string;
  appid?: string;
  out_trade_no?: string;
  transaction_id?: string;
  trade_state?: string;
  amount?: { total?: number; currency?: string };
}

/** WeChat Pay API v3, Native payment (QR `code_url`), with node:crypto (there is no official Node SDK). */
export function createWechatPay(config: WechatPayConfig, now: Clock): PaymentProvider {
  const base = config.baseUrl.replace(/\/+$/, "");

  async function call(method: "GET" | "POST", pathWithQuery: string, payload?: unknown): Promise<Record<string, unknown>> {
    const body = payload === undefined ? "" : JSON.stringify(payload);
    const timestamp = Math.floor(now().getTime() / 1000);
    const nonce = randomBytes(16).toString("hex");
    const response = await fetch(`${base}${pathWithQuery}`, {
      method,
      headers: {
        Authorization: wechatAuthorization(config, method, pathWithQuery, body, timestamp, nonce),
        Accept: "application/json",
        ...(payload === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(payload === undefined ? {} : { body }),
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
    const text = await response.text();
    // Answers are signed by the platform too: an answer that is not is not WeChat Pay's.
    const signature = response.headers.get("wechatpay-signature") ?? "";
    const signed = verifyWechatSignature(
      config.platformPublicKey,
      response.headers.get("wechatpay-timestamp") ?? "",
      response.headers.get("wechatpay-nonce") ?? "",
      text,
      signature,
    );
    if (!signed) throw new ProviderFailure("wechat", `unsigned answer (HTTP ${response.status})`);
    const json = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    if (!response.ok) throw new ProviderFailure("wechat", `${String(json.code ?? response.status)}: ${String(json.message ?? "")}`);
    return json;
  }

  return {
    name: "wechat",
    currency: "CNY",
    async createPayment(request) {
      const answer = await call("POST", "/v3/pay/transactions/native", {
        appid: config.appid,
        mchid: config.mchid,
        description: request.description.slice(0, 127),
        out_trade_no: request.number,
        notify_url: request.notifyUrl,
        amount: { total: request.amount, currency: request.currency },
      });
      if (typeof answer.code_url !== "string") throw new ProviderFailure("wechat", "no code_url");
      return { kind: "qr", payUrl: answer.code_url };
    },
    async verifyNotification({ headers, body }) {
      const timestamp = headers.get("wechatpay-timestamp") ?? "";
      const nonce = headers.get("wechatpay-nonce") ?? "";
      const signature = headers.get("wechatpay-signature") ?? "";
      if (headers.get("wechatpay-serial") !== config.platformSerial) throw new NotificationRefused("signature");
      if (!verifyWechatSignature(config.platformPublicKey, timestamp, nonce, body, signature)) throw new NotificationRefused("signature");
      if (!/^\d+$/.test(timestamp) || Math.abs(now().getTime() / 1000 - Number(timestamp)) > WECHATPAY_TOLERANCE_SECONDS)
        throw new NotificationRefused("stale");
      let event: { id?: string; event_type?: string; resource?: { ciphertext: string; nonce: string; associated_data?: string } };
      let transaction: Transaction;
      try {
        event = JSON.parse(body) as typeof event;
        transaction = JSON.parse(decryptWechatResource(config.apiV3Key, event.resource!)) as Transaction;
      } catch {
        throw new NotificationRefused("malformed");
      }
      if (!event.id || !event.event_type) throw new NotificationRefused("malformed");
      if (transaction.mchid !== config.mchid || (transaction.appid !== undefined && transaction.appid !== config.appid))
        throw new NotificationRefused("not_ours");
      return {
        eventId: event.id,
        type: event.event_type,
        paid: event.event_type === "TRANSACTION.SUCCESS" && transaction.trade_state === "SUCCESS",
        ...(transaction.out_trade_no ? { orderNumber: transaction.out_trade_no } : {}),
        ...(transaction.amount?.total !== undefined ? { amount: transaction.amount.total } : {}),
        ...(transaction.amount?.currency ? { currency: transaction.amount.currency } : {}),
        ...(transaction.transaction_id ? { reference: transaction.transaction_id } : {}),
        payload: JSON.stringify({ id: event.id, event_type: event.event_type, resource: transaction }),
      };
    },
    answer(accepted, reason) {
      return accepted
        ? { status: 200, contentType: "application/json", body: "" }
        : { status: 400, contentType: "application/json", body: JSON.stringify({ code: "FAIL", message: reason ?? "refused" }) };
    },
    async queryPayment({ number }) {
      const answer = (await call(
        "GET",
        `/v3/pay/transactions/out-trade-no/${encodeURIComponent(number)}?mchid=${encodeURIComponent(config.mchid)}`,
      )) as Transaction;
      return {
        paid: answer.trade_state === "SUCCESS",
        ...(answer.amount?.total !== undefined ? { amount: answer.amount.total } : {}),
        ...(answer.amount?.currency ? { currency: answer.amount.currency } : {}),
        ...(answer.transaction_id ? { reference: answer.transaction_id } : {}),
      };
    },
    async refund({ number, refundNumber, amount, currency }) {
      const answer = await call("POST", "/v3/refund/domestic/refunds", {
        out_trade_no: number,
        out_refund_no: refundNumber,
        amount: { refund: amount, total: amount, currency },
      });
      if (typeof answer.refund_id !== "string") throw new ProviderFailure("wechat", "no refund_id");
      return { reference: answer.refund_id };
    },
  };
}
