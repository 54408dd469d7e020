import { createSign, createVerify } from "node:crypto";
import type { Clock } from "../../kernel/clock";
import { NotificationRefused, PROVIDER_TIMEOUT_MS, type PaymentProvider, ProviderFailure } from "./port";
import type { AlipayConfig } from "../../config";

/** The content Alipay signs: parameters sorted by name, empty ones and the `exclude`d left out, as `k=v&k=v`. */
export function alipaySignContent(params: Record<string, string>, exclude: string[] = ["sign"]): string {
  return Object.keys(params)
    .filter((key) => !exclude.includes(key) && params[key] !== undefined && params[key] !== "")
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join("&");
}

/** RSA2: SHA256withRSA, base64. */
export function rsa2Sign(content: string, privateKey: string): string {
  return createSign("RSA-SHA256").update(content, "utf8").sign(privateKey, "base64");
}

/** Checks an RSA2 signature; a malformed one is false, never a throw. */
export function rsa2Verify(content: string, signature: string, publicKey: string): boolean {
  try {
    return createVerify("RSA-SHA256").update(content, "utf8").verify(publicKey, signature, "base64");
  } catch {
    return false;
  }
}

/** Alipay amounts are yuan with two decimals ("198.00"); ours are fen. */
export function yuanToFen(value: string): number | undefined {
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
}

/** Fen as Alipay's yuan string. */
export function fenToYuan(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, "0")}`;
}

/**
 * The exact text of `"<node>": {…}` in an answer, which is what Alipay signs (re-serialising the
 * parsed JSON could change it).
 */
export function signedNode(text: string, node: string): string | undefined {
  const key = `"${node}"`;
  let index = text.indexOf(key);
  if (index < 0) return undefined;
  index = text.indexOf("{", index + key.length);
  if (index < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let at = index; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === "\\") at++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return text.slice(index, at + 1);
  }
  return undefined;
}

/** Alipay's `yyyy-MM-dd HH:mm:ss` in China time. */
function gatewayTimestamp(date: Date): string {
  return new Date(date.getTime() + 8 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
}

/**
 * Alipay face-to-face precreate (QR `qr_code`), RSA2 both ways, with node:crypto: the official
 * alipay-sdk would add nine runtime packages for what is one signature each way.
 */
export function createAlipay(config: AlipayConfig, now: Clock): PaymentProvider {
  async function call(method: string, biz: Record<string, unknown>, extra: Record<string, string> = {}): Promise<Record<string, string>> {
    const params: Record<string, string> = {
      app_id: config.appId,
      method,
      format: "JSON",
      charset: "utf-8",
      sign_type: "RSA2",
      timestamp: gatewayTimestamp(now()),
      version: "1.0",
      biz_content: JSON.stringify(biz),
      ...extra,
    };
    params.sign = rsa2Sign(alipaySignContent(params), config.appPrivateKey);
    const response = await fetch(config.gatewayUrl, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded;charset=utf-8" },
      body: new URLSearchParams(params).toString(),
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
    const text = await response.text();
    const nodeName = `${method.replace(/\./g, "_")}_response`;
    const node = signedNode(text, nodeName);
    let parsed: { sign?: string; [key: string]: unknown };
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      throw new ProviderFailure("alipay", `unreadable answer (HTTP ${response.status})`);
    }
    if (!node || typeof parsed.sign !== "string" || !rsa2Verify(node, parsed.sign, config.alipayPublicKey)) {
      throw new ProviderFailure("alipay", "answer not signed by Alipay");
    }
    const result = parsed[nodeName] as Record<string, string>;
    if (result.code !== "10000") throw new ProviderFailure("alipay", `${result.code} ${result.sub_code ?? ""} ${result.sub_msg ?? result.msg ?? ""}`.trim());
    return result;
  }

  return {
    name: "alipay",
    currency: "CNY",
    async createPayment(request) {
      const answer = await call(
        "alipay.trade.precreate",
        { out_trade_no: request.number, total_amount: fenToYuan(request.amount), subject: request.description.slice(0, 256) },
        { notify_url: request.notifyUrl },
      );
      if (!answer.qr_code) throw new ProviderFailure("alipay", "no qr_code");
      return { kind: "qr", payUrl: answer.qr_code };
    },
    async verifyNotification({ body }) {
      const params = Object.fromEntries(new URLSearchParams(body)) as Record<string, string>;
      if (!params.sign || !rsa2Verify(alipaySignContent(params, ["sign", "sign_type"]), params.sign, config.alipayPublicKey)) {
        throw new NotificationRefused("signature");
      }
      if (params.app_id !== config.appId) throw new NotificationRefused("not_ours");
      if (!params.notify_id) throw new NotificationRefused("malformed");
      const amount = params.total_amount === undefined ? undefined : yuanToFen(params.total_amount);
      return {
        eventId: params.notify_id,
        type: params.trade_status ?? params.notify_type ?? "unknown",
        paid: params.trade_status === "TRADE_SUCCESS" || params.trade_status === "TRADE_FINISHED",
        ...(params.out_trade_no ? { orderNumber: params.out_trade_no } : {}),
        ...(amount !== undefined ? { amount } : {}),
        // Face-to-face payments are settled in CNY; the notification carries no currency.
        currency: "CNY",
        ...(params.trade_no ? { reference: params.trade_no } : {}),
        payload: JSON.stringify(params),
      };
    },
    answer(accepted) {
      return { status: 200, contentType: "text/plain", body: accepted ? "success" : "failure" };
    },
    async queryPayment({ number }) {
      const answer = await call("alipay.trade.query", { out_trade_no: number });
      const amount = answer.total_amount ? yuanToFen(answer.total_amount) : undefined;
      return {
        paid: answer.trade_status === "TRADE_SUCCESS" || answer.trade_status === "TRADE_FINISHED",
        ...(amount !== undefined ? { amount } : {}),
        currency: "CNY",
        ...(answer.trade_no ? { reference: answer.trade_no } : {}),
      };
    },
    async refund({ number, refundNumber, amount }) {
      const answer = await call("alipay.trade.refund", { out_trade_no: number, refund_amount: fenToYuan(amount), out_request_no: refundNumber });
      return { reference: answer.trade_no ?? refundNumber };
    },
  };
}
