import { fresh } from "../../crypto";
import type { AdapterIO, ChannelConfig, InboundRequest, VerifyResult } from "../../types";
import { isRecord, parseJsonObject, rejected } from "../workplace-shared/http";
import { SLACK_SIGNATURE_WINDOW_SECONDS, slackSignatureMatches } from "./signature";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Form bodies (slash commands, interactivity) as an object of their fields; undefined when not valid UTF-8. */
function parseForm(body: Uint8Array): Record<string, unknown> | undefined {
  try {
    return { ...Object.fromEntries(new URLSearchParams(decoder.decode(body))), type: "form" };
  } catch {
    return undefined;
  }
}

/**
 * Checks a Slack request: the timestamp is within five minutes, then the v0 signature over the raw
 * body. A signed `url_verification` is answered with its challenge.
 */
export async function verifySlackRequest(request: InboundRequest, config: ChannelConfig, io: AdapterIO): Promise<VerifyResult> {
  if (request.method !== "POST") return rejected(400, "Slack delivers with POST");
  const signingSecret = config.signingSecret;
  if (!signingSecret) return rejected(401, "no signing secret configured");
  const timestamp = request.headers.get("x-slack-request-timestamp");
  const signature = request.headers.get("x-slack-signature");
  if (!timestamp || !signature) return rejected(401, "missing X-Slack-Request-Timestamp or X-Slack-Signature");
  if (!/^\d{1,12}$/.test(timestamp) || !fresh(Number(timestamp), io.now(), SLACK_SIGNATURE_WINDOW_SECONDS)) {
    return rejected(401, "timestamp outside the five-minute window");
  }
  if (!slackSignatureMatches(signingSecret, timestamp, request.body, signature)) return rejected(401, "signature mismatch");

  const contentType = request.headers.get("content-type") ?? "";
  const payload = contentType.includes("application/x-www-form-urlencoded") ? parseForm(request.body) : parseJsonObject(request.body);
  if (!payload) return rejected(400, "body is neither JSON nor a form");
  if (payload.type === "url_verification") {
    if (typeof payload.challenge !== "string") return rejected(400, "url_verification without a challenge");
    return { kind: "handshake", response: new Response(payload.challenge, { status: 200, headers: { "content-type": "text/plain" } }) };
  }
  if (payload.type === "event_callback" && !isRecord(payload.event)) return rejected(400, "event_callback without an event");
  return { kind: "verified", payload };
}
