import { ChannelError, type AdapterIO } from "../../types";
import { callPlatform, readJson, retryAfterHeaderMs, stringAt } from "../global-shared/http";

/**
 * Calls HubSpot's API with the access token and returns the JSON answer. 429 (secondly/daily
 * limits) and 5xx retry; 401 `EXPIRED_AUTHENTICATION` retries (the token is renewed out of band);
 * other refusals (`INVALID_AUTHENTICATION`, `VALIDATION_ERROR`, `OBJECT_NOT_FOUND`…) are final.
 */
export async function callHubSpot(io: AdapterIO, method: string, path: string, accessToken: string, body?: unknown): Promise<unknown> {
  const response = await callPlatform(
    io.fetch,
    `${io.apiBase}${path}`,
    {
      method,
      headers: { authorization: `Bearer ${accessToken}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    "hubspot",
  );
  const answer = await readJson(response);
  if (response.ok) return answer;
  const category = stringAt(answer, "category") ?? stringAt(answer, "errorType");
  const message = stringAt(answer, "message") ?? `HTTP ${response.status}`;
  // HubSpot sends no Retry-After; its secondly limit resets within a second.
  const retryAfterMs = retryAfterHeaderMs(response, io.now()) ?? (stringAt(answer, "policyName") === "SECONDLY" ? 1000 : undefined);
  throw new ChannelError(`hubspot: ${message}`, {
    retryable: response.status === 429 || response.status >= 500 || category === "EXPIRED_AUTHENTICATION",
    platformCode: category ?? response.status,
    ...(response.status === 429 && retryAfterMs !== undefined ? { retryAfterMs } : {}),
  });
}
