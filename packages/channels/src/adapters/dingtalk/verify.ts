import { fresh } from "../../crypto";
import type { AdapterIO, ChannelConfig, InboundRequest, VerifyResult } from "../../types";
import { parseJsonObject, rejected } from "../workplace-shared/http";
import { DINGTALK_SIGNATURE_WINDOW_SECONDS, dingtalkSignMatches } from "./sign";

/**
 * Checks an HTTP-mode robot callback: the `timestamp` header (milliseconds) within an hour, then
 * its `sign`. DingTalk's sign covers only the timestamp, not the body, so the body's `robotCode`
 * must also name this robot; replays of one delivery are absorbed by the `msgId` dedupe.
 */
export async function verifyDingtalkRequest(request: InboundRequest, config: ChannelConfig, io: AdapterIO): Promise<VerifyResult> {
  if (request.method !== "POST") return rejected(400, "DingTalk delivers with POST");
  const appSecret = config.appSecret;
  if (!appSecret) return rejected(401, "no app secret configured");
  const timestamp = request.headers.get("timestamp");
  const sign = request.headers.get("sign");
  if (!timestamp || !sign) return rejected(401, "missing timestamp or sign header");
  if (!/^\d{1,15}$/.test(timestamp) || !fresh(Number(timestamp) / 1000, io.now(), DINGTALK_SIGNATURE_WINDOW_SECONDS)) {
    return rejected(401, "timestamp outside the one-hour window");
  }
  if (!dingtalkSignMatches(appSecret, timestamp, sign)) return rejected(401, "sign mismatch");
  const payload = parseJsonObject(request.body);
  if (!payload) return rejected(400, "body is not a JSON object");
  const expectedRobot = config.robotCode || config.appKey;
  if (typeof payload.robotCode === "string" && expectedRobot && payload.robotCode !== expectedRobot) {
    return rejected(403, "the message is for another robot");
  }
  return { kind: "verified", payload };
}
