import { ChannelError, type AdapterIO, type FetchedMedia, type OutboundImage } from "../../types";
import { downloadFailure, imageBlob, mediaType, readMediaBody, MEDIA_TOO_LARGE } from "../global-shared/media";
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
  const form = init.body instanceof FormData ? init.body : undefined;
  const response = await callPlatform(
    io.fetch,
    `${io.apiBase}/${GRAPH_VERSION}${path}`,
    {
      method: init.method,
      headers: { authorization: `Bearer ${accessToken}`, ...(init.body === undefined || form ? {} : { "content-type": "application/json" }) },
      ...(init.body === undefined ? {} : { body: form ?? JSON.stringify(init.body) }),
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

/** Meta's media host, the only one the access token is sent to (besides the API itself, in tests). */
function trustedMediaUrl(url: string, io: AdapterIO): boolean {
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === "https:" && (parsed.hostname === "lookaside.fbsbx.com" || parsed.hostname.endsWith(".fbsbx.com"))) ||
      parsed.origin === new URL(io.apiBase).origin
    );
  } catch {
    return false;
  }
}

/**
 * Downloads received media: `GET /{media-id}` answers a short-lived `url` (and the size and type),
 * which is then fetched with the same bearer token. An id Meta does not know is its error 100.
 */
export async function downloadWhatsAppMedia(mediaId: string, accessToken: string, io: AdapterIO): Promise<FetchedMedia> {
  const meta = await callGraph(`/${encodeURIComponent(mediaId)}`, { method: "GET" }, accessToken, io);
  const url = stringAt(meta, "url");
  if (!url) throw new ChannelError("whatsapp media: no url in the answer", { retryable: false });
  if (!trustedMediaUrl(url, io))
    throw new ChannelError("whatsapp media: the url is not on Meta's media host", { retryable: false, platformCode: "untrusted_media_url" });
  const size = numberAt(meta, "file_size");
  if (size !== undefined && size > 15 * 1024 * 1024) {
    throw new ChannelError("whatsapp media: the media is larger than 15 MB", { retryable: false, platformCode: MEDIA_TOO_LARGE });
  }
  const what = "whatsapp media download";
  const response = await callPlatform(io.fetch, url, { method: "GET", headers: { authorization: `Bearer ${accessToken}` } }, what);
  if (!response.ok) throw downloadFailure(response, what);
  const bytes = await readMediaBody(response, what);
  const mime = stringAt(meta, "mime_type") ?? mediaType(response);
  return { bytes, ...(mime ? { mime } : {}) };
}

/** Uploads an image to the phone number's media (`POST /{phone-number-id}/media`); answers the media id. */
export async function uploadWhatsAppImage(phoneNumberId: string, image: OutboundImage, accessToken: string, io: AdapterIO): Promise<string> {
  const form = new FormData();
  form.set("messaging_product", "whatsapp");
  form.set("type", image.mime);
  form.set("file", imageBlob(image), image.name);
  const answer = await callGraph(`/${encodeURIComponent(phoneNumberId)}/media`, { method: "POST", body: form }, accessToken, io);
  const id = stringAt(answer, "id");
  if (!id) throw new ChannelError("whatsapp media upload: no id in the answer", { retryable: true });
  return id;
}
