import { fresh, safeEqual } from "../../crypto";
import type { AdapterIO, ChannelConfig, InboundRequest, VerifyResult } from "../../types";
import { isRecord, parseJsonObject, rejected } from "../workplace-shared/http";
import { FEISHU_SIGNATURE_WINDOW_SECONDS, feishuDecrypt, feishuSignature } from "./crypto";

/** The verification token a payload carries: `header.token` in schema 2.0, top-level `token` otherwise. */
function payloadToken(payload: Record<string, unknown>): string | undefined {
  if (isRecord(payload.header) && typeof payload.header.token === "string") return payload.header.token;
  return typeof payload.token === "string" ? payload.token : undefined;
}

/**
 * Checks a Feishu event subscription request. With an Encrypt Key the body must be `{encrypt}`:
 * the signature headers (timestamp within five minutes first, then the SHA-256) are checked when
 * present and required for events, then the body is decrypted. In every mode the Verification
 * Token inside must match. A `url_verification` is answered with `{"challenge"}`.
 */
export async function verifyFeishuRequest(request: InboundRequest, config: ChannelConfig, io: AdapterIO): Promise<VerifyResult> {
  if (request.method !== "POST") return rejected(400, "Feishu delivers with POST");
  const verificationToken = config.verificationToken;
  if (!verificationToken) return rejected(401, "no verification token configured");
  const encryptKey = config.encryptKey ?? "";
  const outer = parseJsonObject(request.body);
  if (!outer) return rejected(400, "body is not a JSON object");

  let signed = false;
  const signature = request.headers.get("x-lark-signature");
  if (encryptKey && signature) {
    const timestamp = request.headers.get("x-lark-request-timestamp") ?? "";
    const nonce = request.headers.get("x-lark-request-nonce") ?? "";
    if (!/^\d{1,12}$/.test(timestamp) || !fresh(Number(timestamp), io.now(), FEISHU_SIGNATURE_WINDOW_SECONDS)) {
      return rejected(401, "timestamp outside the five-minute window");
    }
    if (!safeEqual(signature, feishuSignature(timestamp, nonce, encryptKey, request.body))) return rejected(401, "signature mismatch");
    signed = true;
  }

  let payload = outer;
  if (encryptKey) {
    if (typeof outer.encrypt !== "string") return rejected(400, "an Encrypt Key is set but the body is not encrypted");
    const plain = feishuDecrypt(encryptKey, outer.encrypt);
    const decrypted = plain === undefined ? undefined : parseJsonObject(plain);
    if (!decrypted) return rejected(401, "cannot decrypt the body with the Encrypt Key");
    payload = decrypted;
  } else if (outer.encrypt !== undefined) {
    return rejected(400, "the body is encrypted but no Encrypt Key is configured");
  }

  const token = payloadToken(payload);
  if (!token || !safeEqual(token, verificationToken)) return rejected(401, "verification token mismatch");

  if (payload.type === "url_verification") {
    if (typeof payload.challenge !== "string") return rejected(400, "url_verification without a challenge");
    return { kind: "handshake", response: Response.json({ challenge: payload.challenge }) };
  }
  // Feishu signs every event when an Encrypt Key is set; an unsigned one is not Feishu's.
  if (encryptKey && !signed) return rejected(401, "missing X-Lark-Signature");
  return { kind: "verified", payload };
}
