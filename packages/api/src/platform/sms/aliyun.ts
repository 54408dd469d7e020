import { createHmac, randomUUID } from "node:crypto";
import { ExternalProviderError, type OutgoingSms, type SmsSender } from "../ports.js";

/** Credentials and template settings for Aliyun Short Message Service (Dysmsapi). */
export interface AliyunSmsConfig {
  accessKeyId: string;
  accessKeySecret: string;
  /** Approved signature name shown as the sender, e.g. `Parley`. */
  signName: string;
  /** Vendor template code for the `verification-code` template, e.g. `SMS_123456789`. */
  templateCode: string;
  /** Vendor template code for the `handover-notice` template (a conversation waits for a person); optional. */
  handoverTemplateCode?: string;
  /** Vendor template code for the `client-offline` template (a channel client stopped working); optional. */
  offlineTemplateCode?: string;
  /** Vendor template code for the `balance-alert` template (credits fell below the alert threshold); optional. */
  balanceTemplateCode?: string;
  /** Defaults to `https://dysmsapi.aliyuncs.com`. */
  endpoint?: string;
  /** Defaults to `cn-hangzhou`. */
  regionId?: string;
  /** Request timeout; defaults to 10 seconds. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Overridable for tests; defaults to the current time. */
  now?: () => Date;
}

/**
 * RFC 3986 percent-encoding as Aliyun's RPC signature expects it. `encodeURIComponent`
 * already writes spaces as `%20` and leaves `~` alone, but it keeps `!'()*` literal,
 * which Aliyun's servers escape before signing.
 */
export function aliyunPercentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Sorted, encoded `key=value&…` query over every parameter except `Signature`. */
export function aliyunCanonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .filter((key) => key !== "Signature")
    .sort()
    .map((key) => `${aliyunPercentEncode(key)}=${aliyunPercentEncode(params[key]!)}`)
    .join("&");
}

/**
 * Aliyun RPC signature version 1.0: base64 HMAC-SHA1 of
 * `METHOD&%2F&percentEncode(canonicalQuery)` keyed with `secret + '&'`.
 */
export function signAliyunRpcRequest(input: { method: "GET" | "POST"; params: Record<string, string>; accessKeySecret: string }): string {
  const stringToSign = `${input.method}&${aliyunPercentEncode("/")}&${aliyunPercentEncode(aliyunCanonicalQuery(input.params))}`;
  return createHmac("sha1", `${input.accessKeySecret}&`).update(stringToSign).digest("base64");
}

/** `yyyy-MM-ddTHH:mm:ssZ` in UTC, the only timestamp form the RPC API accepts. */
export function aliyunTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

interface SendSmsAnswer {
  Code?: string;
  Message?: string;
  BizId?: string;
  RequestId?: string;
}

/**
 * A {@link SmsSender} calling Aliyun Dysmsapi `SendSms` (version 2017-05-25) over signed GET.
 * Any answer other than `Code: "OK"` becomes an {@link ExternalProviderError} carrying the
 * vendor's `Code` and `Message`.
 */
export function createAliyunSmsSender(config: AliyunSmsConfig): SmsSender {
  const endpoint = config.endpoint ?? "https://dysmsapi.aliyuncs.com";
  const doFetch = config.fetch ?? fetch;
  const now = config.now ?? (() => new Date());

  return {
    kind: "aliyun",
    async send(sms: OutgoingSms) {
      const templateCode =
        sms.template === "handover-notice"
          ? config.handoverTemplateCode
          : sms.template === "client-offline"
            ? config.offlineTemplateCode
            : sms.template === "balance-alert"
              ? config.balanceTemplateCode
              : config.templateCode;
      if (!templateCode) throw new ExternalProviderError("sms", `No Aliyun template code is configured for ${sms.template}`);
      const params: Record<string, string> = {
        AccessKeyId: config.accessKeyId,
        Action: "SendSms",
        Format: "JSON",
        PhoneNumbers: sms.phone,
        RegionId: config.regionId ?? "cn-hangzhou",
        SignName: config.signName,
        SignatureMethod: "HMAC-SHA1",
        SignatureNonce: randomUUID(),
        SignatureVersion: "1.0",
        TemplateCode: templateCode,
        TemplateParam: JSON.stringify(sms.params),
        Timestamp: aliyunTimestamp(now()),
        Version: "2017-05-25",
      };
      const signature = signAliyunRpcRequest({ method: "GET", params, accessKeySecret: config.accessKeySecret });
      const url = `${endpoint.replace(/\/$/, "")}/?Signature=${aliyunPercentEncode(signature)}&${aliyunCanonicalQuery(params)}`;

      let status: number;
      let body: string;
      try {
        const response = await doFetch(url, {
          method: "GET",
          headers: { accept: "application/json" },
          signal: AbortSignal.timeout(config.timeoutMs ?? 10_000),
        });
        status = response.status;
        body = await response.text();
      } catch (error) {
        // The URL carries the signature; report only the transport's reason.
        const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "unknown";
        throw new ExternalProviderError("aliyun", `Aliyun SMS request failed: ${reason}`);
      }

      let answer: SendSmsAnswer;
      try {
        answer = JSON.parse(body) as SendSmsAnswer;
      } catch {
        throw new ExternalProviderError("aliyun", `Aliyun SMS answered HTTP ${status} without JSON`, { status });
      }
      if (answer.Code !== "OK") {
        const code = answer.Code ?? `HTTP_${status}`;
        throw new ExternalProviderError("aliyun", `Aliyun SMS refused: ${code}: ${answer.Message ?? "no message"}`, {
          status,
          code,
          requestId: answer.RequestId,
        });
      }
      if (!answer.BizId) {
        throw new ExternalProviderError("aliyun", "Aliyun SMS answered OK without BizId", { status, requestId: answer.RequestId });
      }
      return { messageId: answer.BizId };
    },
  };
}
