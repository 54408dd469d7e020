import { fresh, sha1Hex } from "../../crypto";
import type { AdapterIO, InboundRequest, VerifyResult } from "../../types";
import { callbackSignature, decryptMessage, encryptMessage, randomNonce, signatureMatches } from "./crypto";
import { buildXml, parseXml } from "./xml";

/**
 * Callback handling shared by the three WeChat kinds: freshness, replay marking, the WeCom-style
 * encrypted callback (GET echostr decrypted, POST `<Encrypt>`), and encrypted passive replies.
 */

/**
 * Deliveries whose `timestamp` is further than this from our clock are refused. WeChat retries a
 * delivery within about 15 s and documents no window of its own; 5 minutes covers clock skew.
 */
export const FRESHNESS_WINDOW_SECONDS = 300;

/** A verified callback: the decrypted (or plaintext) XML fields, and whether this exact request was seen before. */
export interface CallbackPayload {
  fields: Record<string, string>;
  /** The same signed request arrived again within the freshness window (a replay): ack it, parse nothing. */
  replayed: boolean;
}

/** A refusal (verify never throws). */
export function reject(status: 400 | 401 | 403, reason: string): VerifyResult {
  return { kind: "rejected", status, reason };
}

/** True when the timestamp is a whole number of seconds within {@link FRESHNESS_WINDOW_SECONDS} of now. */
export function timestampFresh(timestamp: string, io: AdapterIO): boolean {
  return /^\d{1,12}$/.test(timestamp) && fresh(Number(timestamp), io.now(), FRESHNESS_WINDOW_SECONDS);
}

/**
 * Remembers a signed request for twice the freshness window; false when it was already seen.
 * A replay is acknowledged rather than refused: WeChat may resend a delivery byte for byte when
 * our answer was late, and a refusal would show the person "service unavailable".
 */
export async function firstSighting(io: AdapterIO, scope: string, request: InboundRequest): Promise<boolean> {
  const query = request.url.searchParams;
  const fingerprint = sha1Hex(
    [
      query.get("timestamp"),
      query.get("nonce"),
      query.get("msg_signature") ?? query.get("signature"),
      sha1Hex(Buffer.from(request.body).toString("latin1")),
    ].join("\n"),
  );
  return io.kv.setIfAbsent(`wechat-callback:${scope}:${fingerprint}`, "1", FRESHNESS_WINDOW_SECONDS * 2);
}

/** The request body as UTF-8 text. */
export function bodyText(request: InboundRequest): string {
  return new TextDecoder().decode(request.body);
}

/** Secrets the encrypted callback needs. */
export interface CallbackSecrets {
  token: string;
  encodingAesKey: string;
  /** CorpID for WeCom and Customer Service, AppID for Official Accounts. */
  receiveId: string;
}

/**
 * Verifies a WeCom-style callback (WeCom apps, WeChat Customer Service). GET: `msg_signature`
 * over token, timestamp, nonce and echostr, then the decrypted echostr is the answer. POST:
 * `msg_signature` over the body's `<Encrypt>`, decrypted for `receiveId`. Timestamps are checked first.
 */
export async function verifyEncryptedCallback(request: InboundRequest, secrets: CallbackSecrets, io: AdapterIO, scope: string): Promise<VerifyResult> {
  if (!secrets.token || !secrets.encodingAesKey || !secrets.receiveId) return reject(403, "the channel is not fully configured");
  const query = request.url.searchParams;
  const timestamp = query.get("timestamp") ?? "";
  const nonce = query.get("nonce") ?? "";
  const signature = query.get("msg_signature");
  if (!signature || !nonce || !timestamp) return reject(400, "msg_signature, timestamp and nonce are required");
  if (!timestampFresh(timestamp, io)) return reject(401, "timestamp outside the accepted window");
  if (request.method === "GET") {
    // Base64 has no spaces: a space is a "+" that reached us without percent-encoding.
    const echostr = query.get("echostr")?.replaceAll(" ", "+");
    if (!echostr) return reject(400, "echostr is required");
    if (!signatureMatches(callbackSignature(secrets.token, timestamp, nonce, echostr), signature)) return reject(401, "bad msg_signature");
    const opened = decryptMessage(echostr, secrets.encodingAesKey, secrets.receiveId);
    if (!opened.ok) return reject(400, `echostr: ${opened.reason}`);
    return { kind: "handshake", response: new Response(opened.message, { status: 200, headers: { "content-type": "text/plain; charset=utf-8" } }) };
  }
  if (request.method !== "POST") return reject(400, "only GET and POST are used");
  const outer = parseXml(bodyText(request));
  const encrypted = outer?.Encrypt;
  if (!encrypted) return reject(400, "the body has no Encrypt element");
  if (!signatureMatches(callbackSignature(secrets.token, timestamp, nonce, encrypted), signature)) return reject(401, "bad msg_signature");
  const opened = decryptMessage(encrypted, secrets.encodingAesKey, secrets.receiveId);
  if (!opened.ok) return reject(400, `Encrypt: ${opened.reason}`);
  const fields = parseXml(opened.message);
  if (!fields) return reject(400, "the decrypted message is not XML");
  const replayed = !(await firstSighting(io, scope, request));
  return { kind: "verified", payload: { fields, replayed } satisfies CallbackPayload };
}

/** True when `payload` is what {@link verifyEncryptedCallback} (or the OA verify) produced. */
export function isCallbackPayload(payload: unknown): payload is CallbackPayload {
  if (typeof payload !== "object" || payload === null) return false;
  const candidate = payload as Partial<CallbackPayload>;
  return typeof candidate.fields === "object" && candidate.fields !== null && typeof candidate.replayed === "boolean";
}

/**
 * The encrypted envelope of a passive reply: `<xml><Encrypt/><MsgSignature/><TimeStamp/><Nonce/></xml>`,
 * signed over token, timestamp, nonce and the ciphertext.
 */
export function encryptedEnvelope(innerXml: string, secrets: CallbackSecrets, timestamp: number, nonce: string = randomNonce()): string {
  const encrypted = encryptMessage(innerXml, secrets.encodingAesKey, secrets.receiveId);
  const signature = callbackSignature(secrets.token, String(timestamp), nonce, encrypted);
  return buildXml({ Encrypt: encrypted, MsgSignature: signature, TimeStamp: timestamp, Nonce: nonce });
}

/** An XML HTTP answer. */
export function xmlResponse(xml: string): Response {
  return new Response(xml, { status: 200, headers: { "content-type": "application/xml; charset=utf-8" } });
}

/** The "received, no passive reply" answer: `success` for Official Accounts, an empty body for WeCom (both stop retries). */
export function plainResponse(body: "success" | ""): Response {
  return new Response(body, { status: 200, headers: { "content-type": "text/plain; charset=utf-8" } });
}
