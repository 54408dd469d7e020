import { ChannelError, type AdapterIO } from "../../types";
import { callPlatform, numberAt, objectAt, readJson, retryAfterHeaderMs, stringAt } from "../global-shared/http";

/** The Graph API version Parley calls. */
export const GRAPH_VERSION = "v21.0";

/** Error codes that mean "slow down" (throughput, pair and account rate limits, app-level limits). */
const rateLimitCodes = new Set([4, 17, 32, 613, 80007, 130429, 131056]);
/** Error codes Meta documents as temporary on its side. */
const temporaryCodes = new Set([1, 2, 131000, 131016]);

/**
 * Calls the Graph API and returns the JSON answer. Meta's `{error:{code, error_subcode, message}}`
 * becomes a ChannelError: rate limits (HTTP 429, 130429, 131056, 80007…) and temporary errors
 * retry; an expired access token (190 with subcode 463) retries after the operator renews it;
 * 131047 (the 24-hour window has closed) and other refusals are final.
 */
export async function callGraph(path: string, init: { method: string; body?: unknown }, accessToken: string, io: AdapterIO): Promise<unknown> {
  const response = await callPlatform(
    io.fetch,
    `${io.apiBase}/${GRAPH_VERSION}${path}`,
    {
      method: init.method,
      headers: { authorization: `Bearer ${accessToken}`, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    },
    "whatsapp",
  );
  const answer = await readJson(response);
  if (response.ok) return answer;
  const error = objectAt(answer, "error");
  const code = numberAt(error, "code");
  const subcode = numberAt(error, "error_subcode");
  const details = stringAt(objectAt(error, "error_data"), "details");
  const message = [stringAt(error, "message") ?? `HTTP ${response.status}`, details].filter(Boolean).join(": ");
  const rateLimited = response.status === 429 || (code !== undefined && rateLimitCodes.has(code));
  const retryable = rateLimited || response.status >= 500 || (code !== undefined && temporaryCodes.has(code)) || (code === 190 && subcode === 463);
  const retryAfterMs = retryAfterHeaderMs(response, io.now());
  throw new ChannelError(`whatsapp: ${message}`, {
    retryable,
    platformCode: code ?? response.status,
    ...(rateLimited && retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}
