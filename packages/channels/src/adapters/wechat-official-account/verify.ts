import type { AdapterIO, ChannelConfig, InboundRequest, VerifyResult } from "../../types";
import { bodyText, firstSighting, reject, timestampFresh, type CallbackPayload } from "../wechat-shared/callback";
import { callbackSignature, decryptMessage, signatureMatches } from "../wechat-shared/crypto";
import { parseXml } from "../wechat-shared/xml";

/** How the account's messages are protected (the "message encryption mode" on the platform). */
export type OfficialAccountMode = "plaintext" | "compatible" | "safe";

/** The configured mode; safe when unset. */
export function modeOf(config: ChannelConfig): OfficialAccountMode {
  return config.mode === "plaintext" || config.mode === "compatible" ? config.mode : "safe";
}

/**
 * Checks an Official Account callback. Every request carries `signature` = SHA-1 of the sorted
 * token, timestamp and nonce (checked after the timestamp). GET is the URL check: `echostr` is
 * answered unchanged. POST in compatible/safe mode (`encrypt_type=aes`) also carries
 * `msg_signature` over the `<Encrypt>` value, which is decrypted for the AppID. A plaintext POST is
 * refused unless the account is configured in plaintext mode, where WeChat signs no body at all.
 */
export async function verifyOfficialAccount(request: InboundRequest, config: ChannelConfig, io: AdapterIO): Promise<VerifyResult> {
  const { token, appId } = config;
  if (!token || !appId) return reject(403, "the channel is not fully configured");
  const query = request.url.searchParams;
  const timestamp = query.get("timestamp") ?? "";
  const nonce = query.get("nonce") ?? "";
  const signature = query.get("signature");
  if (!signature || !timestamp || !nonce) return reject(400, "signature, timestamp and nonce are required");
  if (!timestampFresh(timestamp, io)) return reject(401, "timestamp outside the accepted window");
  if (!signatureMatches(callbackSignature(token, timestamp, nonce), signature)) return reject(401, "bad signature");

  if (request.method === "GET") {
    const echostr = query.get("echostr");
    if (!echostr) return reject(400, "echostr is required");
    return { kind: "handshake", response: new Response(echostr, { status: 200, headers: { "content-type": "text/plain; charset=utf-8" } }) };
  }
  if (request.method !== "POST") return reject(400, "only GET and POST are used");

  const outer = parseXml(bodyText(request));
  if (!outer) return reject(400, "the body is not WeChat XML");
  let fields: Record<string, string> | undefined;
  if (query.get("encrypt_type") === "aes") {
    if (!config.encodingAesKey) return reject(403, "an encrypted delivery came but no EncodingAESKey is configured");
    const encrypted = outer.Encrypt;
    if (!encrypted) return reject(400, "the body has no Encrypt element");
    if (!signatureMatches(callbackSignature(token, timestamp, nonce, encrypted), query.get("msg_signature"))) return reject(401, "bad msg_signature");
    const opened = decryptMessage(encrypted, config.encodingAesKey, appId);
    if (!opened.ok) return reject(400, `Encrypt: ${opened.reason}`);
    fields = parseXml(opened.message);
  } else {
    // A plaintext delivery to an account set to encrypt would be a downgrade: refuse it.
    if (modeOf(config) !== "plaintext") return reject(400, `a plaintext delivery was refused in ${modeOf(config)} mode`);
    fields = outer;
  }
  if (!fields?.MsgType || !fields.FromUserName) return reject(400, "the message has no MsgType or FromUserName");
  const replayed = !(await firstSighting(io, `wechat-official-account:${appId}`, request));
  return { kind: "verified", payload: { fields, replayed } satisfies CallbackPayload };
}
