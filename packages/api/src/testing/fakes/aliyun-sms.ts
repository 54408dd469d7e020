import { createHmac, randomInt, randomUUID, timingSafeEqual } from "node:crypto";
import { EventEmitter } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One SendSms call the fake accepted. */
export interface AliyunSentSms {
  phoneNumbers: string;
  signName: string;
  templateCode: string;
  templateParam: Record<string, string>;
  bizId: string;
  requestId: string;
}

/** Options for {@link startAliyunSmsFake}. */
export interface AliyunSmsFakeOptions {
  accessKeyId: string;
  accessKeySecret: string;
  /** Approved signatures; any sign name is accepted when omitted. */
  signNames?: string[];
  /** Approved template codes; any code is accepted when omitted. */
  templateCodes?: string[];
  /** Allowed distance between the request's Timestamp and the fake's clock; 15 minutes by default. */
  maxClockSkewMs?: number;
}

/** A vendor refusal queued with {@link AliyunSmsFake.failNext}. */
export interface AliyunBusinessError {
  Code: string;
  Message: string;
}

/** A running Aliyun Dysmsapi fake; see {@link startAliyunSmsFake}. */
export interface AliyunSmsFake {
  /** Base URL to pass as the sender's `endpoint`. */
  url: string;
  /** Accepted messages, oldest first. */
  readonly messages: AliyunSentSms[];
  /** Every request's outcome code (`OK` or the error code), oldest first. */
  readonly answers: string[];
  /** Resolves with the first accepted message (past or future) matching `predicate`. */
  waitFor(predicate: (sms: AliyunSentSms) => boolean, timeoutMs?: number): Promise<AliyunSentSms>;
  /** The next correctly signed SendSms is refused with this business error (HTTP 200), e.g. `isv.BUSINESS_LIMIT_CONTROL`. */
  failNext(error: AliyunBusinessError): void;
  clear(): void;
  close(): Promise<void>;
}

const hostId = "dysmsapi.aliyuncs.com";

/**
 * Starts a fake of Aliyun's Dysmsapi RPC endpoint on 127.0.0.1 (random port).
 * It checks the signature v1 with its own implementation (independent of the sender's),
 * the timestamp window and nonce reuse, and answers in Aliyun's JSON shapes:
 * platform errors with HTTP 4xx `{RequestId, HostId, Code, Message, Recommend}`,
 * business errors (`isv.*`) with HTTP 200 `{RequestId, Code, Message}`.
 */
export async function startAliyunSmsFake(options: AliyunSmsFakeOptions): Promise<AliyunSmsFake> {
  const messages: AliyunSentSms[] = [];
  const answers: string[] = [];
  const usedNonces = new Set<string>();
  const queuedFailures: AliyunBusinessError[] = [];
  const events = new EventEmitter();
  const maxSkew = options.maxClockSkewMs ?? 15 * 60_000;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const requestId = randomUUID().toUpperCase();
    const reply = (status: number, body: Record<string, unknown>) => {
      answers.push(String(body.Code));
      response.writeHead(status, { "content-type": "application/json;charset=utf-8" });
      response.end(JSON.stringify({ RequestId: requestId, ...body }));
    };
    const platformError = (status: number, code: string, message: string) =>
      reply(status, {
        HostId: hostId,
        Code: code,
        Message: message,
        Recommend: `https://api.aliyun.com/troubleshoot?q=${encodeURIComponent(code)}&product=Dysmsapi`,
      });
    const businessError = (code: string, message: string) => reply(200, { Code: code, Message: message });

    const method = request.method === "POST" ? "POST" : "GET";
    const target = new URL(request.url ?? "/", "http://fake");
    let rawQuery = target.search.slice(1);
    if (method === "POST") rawQuery = await readBody(request);
    const params = parseRawQuery(rawQuery);

    for (const name of ["AccessKeyId", "Signature", "SignatureNonce", "Timestamp", "Action", "Version"]) {
      if (!params[name]) return platformError(400, `Missing${name}`, `${name} is mandatory for this action.`);
    }
    if (params.AccessKeyId !== options.accessKeyId) {
      return platformError(404, "InvalidAccessKeyId.NotFound", "Specified access key is not found.");
    }
    if (params.SignatureMethod !== "HMAC-SHA1" || params.SignatureVersion !== "1.0") {
      return platformError(400, "InvalidSignatureMethod", "Specified signature method is not supported.");
    }
    const stringToSign = `${method}&${rfc3986("/")}&${rfc3986(canonicalize(params))}`;
    const expected = createHmac("sha1", `${options.accessKeySecret}&`).update(stringToSign).digest();
    const given = Buffer.from(params.Signature!, "base64");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return platformError(400, "SignatureDoesNotMatch", `Specified signature does not match our calculation. server string to sign is:${stringToSign}`);
    }
    const timestamp = params.Timestamp!;
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/.test(timestamp)) {
      return platformError(400, "InvalidTimeStamp.Format", "Specified time stamp or date value is not well formatted.");
    }
    if (Math.abs(Date.parse(timestamp) - Date.now()) > maxSkew) {
      return platformError(400, "InvalidTimeStamp.Expired", "Specified time stamp or date value is expired.");
    }
    if (usedNonces.has(params.SignatureNonce!)) {
      return platformError(400, "SignatureNonceUsed", "Specified signature nonce was used already.");
    }
    usedNonces.add(params.SignatureNonce!);
    if (params.Action !== "SendSms") {
      return platformError(404, "InvalidAction.NotFound", "Specified api is not found, please check your url and method.");
    }
    if (params.Version !== "2017-05-25") {
      return platformError(400, "InvalidVersion", "Specified parameter Version is not valid.");
    }
    for (const name of ["PhoneNumbers", "SignName", "TemplateCode"]) {
      if (!params[name]) return platformError(400, `Missing${name}`, `${name} is mandatory for this action.`);
    }

    const failure = queuedFailures.shift();
    if (failure) return businessError(failure.Code, failure.Message);
    if (options.signNames && !options.signNames.includes(params.SignName!)) {
      return businessError("isv.SMS_SIGNATURE_ILLEGAL", "The signature is not found under this account.");
    }
    if (options.templateCodes && !options.templateCodes.includes(params.TemplateCode!)) {
      return businessError("isv.SMS_TEMPLATE_ILLEGAL", "The template is not found under this account.");
    }
    const phones = params.PhoneNumbers!.split(",");
    if (phones.length > 1000 || !phones.every(isAcceptedPhone)) {
      return businessError("isv.MOBILE_NUMBER_ILLEGAL", "The mobile number is illegal.");
    }
    const templateParam = parseTemplateParam(params.TemplateParam);
    if (!templateParam) {
      return businessError("isv.INVALID_JSON_PARAM", "TemplateParam must be a JSON object with string values.");
    }

    const bizId = `${randomInt(100_000_000, 999_999_999)}${randomInt(100_000_000, 999_999_999)}^0`;
    const sent: AliyunSentSms = {
      phoneNumbers: params.PhoneNumbers!,
      signName: params.SignName!,
      templateCode: params.TemplateCode!,
      templateParam,
      bizId,
      requestId,
    };
    messages.push(sent);
    events.emit("sms", sent);
    return reply(200, { Code: "OK", Message: "OK", BizId: bizId });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { "content-type": "text/plain" });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    messages,
    answers,
    waitFor(predicate, timeoutMs = 5_000) {
      const existing = messages.find(predicate);
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve, reject) => {
        const onSms = (sms: AliyunSentSms) => {
          if (!predicate(sms)) return;
          clearTimeout(timer);
          events.off("sms", onSms);
          resolve(sms);
        };
        const timer = setTimeout(() => {
          events.off("sms", onSms);
          reject(new Error(`no matching SMS within ${timeoutMs} ms (received ${messages.length})`));
        }, timeoutMs);
        events.on("sms", onSms);
      });
    },
    failNext(error) {
      queuedFailures.push(error);
    },
    clear() {
      messages.length = 0;
      answers.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** Form-style decoding, as Aliyun's gateway reads the query: `+` is a space. */
function parseRawQuery(query: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const pair of query.split("&")) {
    if (!pair) continue;
    const equals = pair.indexOf("=");
    const key = equals === -1 ? pair : pair.slice(0, equals);
    const value = equals === -1 ? "" : pair.slice(equals + 1);
    params[decodeURIComponent(key.replace(/\+/g, " "))] = decodeURIComponent(value.replace(/\+/g, " "));
  }
  return params;
}

function canonicalize(params: Record<string, string>): string {
  return Object.entries(params)
    .filter(([key]) => key !== "Signature")
    .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
    .map(([key, value]) => `${rfc3986(key)}=${rfc3986(value)}`)
    .join("&");
}

/** Byte-wise RFC 3986: everything outside the unreserved set is escaped. Written apart from the sender's on purpose. */
function rfc3986(value: string): string {
  let encoded = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return encoded;
}

/** Mainland mobile numbers with or without the 86 prefix, or international numbers with a 00/+ prefix. */
function isAcceptedPhone(phone: string): boolean {
  return /^(?:\+?86|0086)?1[3-9]\d{9}$/.test(phone) || /^(?:\+|00)[1-9]\d{6,14}$/.test(phone);
}

function parseTemplateParam(raw: string | undefined): Record<string, string> | undefined {
  if (raw === undefined || raw === "") return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const entries = Object.entries(value);
    if (!entries.every(([, item]) => typeof item === "string")) return undefined;
    return Object.fromEntries(entries) as Record<string, string>;
  } catch {
    return undefined;
  }
}
