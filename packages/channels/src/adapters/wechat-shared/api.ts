import { ChannelError, type AdapterIO, type FetchedMedia, type IssuedToken, type OutboundImage } from "../../types";
import { dispositionName, downloadFailure, imageBlob, mediaType, readMediaBody } from "../global-shared/media";

/**
 * Calls to api.weixin.qq.com and qyapi.weixin.qq.com. Both answer HTTP 200 with
 * `{errcode, errmsg}` for most failures; these helpers turn those into {@link ChannelError}s.
 */

/** Every WeChat/WeCom answer carries these (errcode 0 or absent means success). */
export interface WechatAnswer {
  errcode?: number;
  errmsg?: string;
  [field: string]: unknown;
}

/** Codes meaning the access token is invalid or expired: drop it and fetch another. */
export const tokenExpiredCodes: ReadonlySet<number> = new Set([40001, 40014, 42001]);

/**
 * Codes worth retrying later: -1 system busy, 45009 API call quota reached,
 * 45033 (WeCom) too many concurrent calls, 45011 (WeCom) API frequency limit.
 */
export const retryableCodes: ReadonlySet<number> = new Set([-1, 45009, 45011, 45033]);

const requestTimeoutMs = 15_000;

/** The error for a non-zero errcode: expired tokens and busy/limit codes retry, everything else (45015, 45047, invalid user…) does not. */
export function errorForCode(errcode: number, errmsg: string | undefined, what: string): ChannelError {
  const message = `${what} failed: errcode ${errcode}${errmsg ? ` (${errmsg})` : ""}`;
  if (tokenExpiredCodes.has(errcode)) return new ChannelError(message, { retryable: true, platformCode: errcode });
  if (errcode === 45009 || errcode === 45011) return new ChannelError(message, { retryable: true, retryAfterMs: 60_000, platformCode: errcode });
  return new ChannelError(message, { retryable: retryableCodes.has(errcode), platformCode: errcode });
}

/** Fetches `url` and reads a JSON answer; network failures, timeouts and 5xx/429 are retryable errors. */
export async function requestJson(io: AdapterIO, url: string, init: RequestInit, what: string): Promise<WechatAnswer> {
  let response: Response;
  try {
    response = await io.fetch(url, { ...init, signal: AbortSignal.timeout(requestTimeoutMs) });
  } catch (error) {
    throw new ChannelError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`, { retryable: true });
  }
  if (!response.ok) {
    const retryAfter = Number(response.headers.get("retry-after"));
    throw new ChannelError(`${what} failed: HTTP ${response.status}`, {
      retryable: response.status === 429 || response.status >= 500,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
      platformCode: response.status,
    });
  }
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    throw new ChannelError(`${what} failed: the answer is not JSON`, { retryable: true });
  }
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) {
    throw new ChannelError(`${what} failed: unexpected answer`, { retryable: true });
  }
  return answer as WechatAnswer;
}

/** Reads an access-token answer (`{access_token, expires_in}`) from a token endpoint. */
export async function issueToken(io: AdapterIO, url: string, what: string): Promise<IssuedToken> {
  const answer = await requestJson(io, url, { method: "GET" }, what);
  if (answer.errcode) {
    // A token endpoint's 40001/40013/40125 mean wrong credentials, not an expired token.
    const retryable = retryableCodes.has(answer.errcode);
    throw new ChannelError(`${what} failed: errcode ${answer.errcode}${answer.errmsg ? ` (${answer.errmsg})` : ""}`, {
      retryable,
      platformCode: answer.errcode,
    });
  }
  if (typeof answer.access_token !== "string" || !answer.access_token) {
    throw new ChannelError(`${what} failed: no access_token in the answer`, { retryable: true });
  }
  const expiresIn = typeof answer.expires_in === "number" && answer.expires_in > 0 ? answer.expires_in : 7200;
  return { token: answer.access_token, expiresInSeconds: expiresIn };
}

/**
 * POSTs `body` as JSON to `path?access_token=…` with the cached token. When the platform says the
 * token expired, the token is invalidated and the call made once more with a fresh one; a second
 * expiry is thrown as retryable.
 */
export async function postWithToken(
  io: AdapterIO,
  tokenKey: string,
  issue: () => Promise<IssuedToken>,
  path: string,
  body: unknown,
  what: string,
): Promise<WechatAnswer> {
  return callWithToken(io, tokenKey, issue, { method: "POST", path, body }, what);
}

/** Like {@link postWithToken} for a GET with `query` added after the access token. */
export async function getWithToken(
  io: AdapterIO,
  tokenKey: string,
  issue: () => Promise<IssuedToken>,
  path: string,
  query: Record<string, string>,
  what: string,
): Promise<WechatAnswer> {
  return callWithToken(io, tokenKey, issue, { method: "GET", path, query }, what);
}

async function callWithToken(
  io: AdapterIO,
  tokenKey: string,
  issue: () => Promise<IssuedToken>,
  call: { method: "GET" | "POST"; path: string; query?: Record<string, string>; body?: unknown },
  what: string,
): Promise<WechatAnswer> {
  for (let attempt = 0; ; attempt += 1) {
    const token = await io.tokens.get(tokenKey, issue);
    const query = new URLSearchParams({ access_token: token, ...call.query });
    const init: RequestInit =
      call.method === "POST" ? { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(call.body) } : { method: "GET" };
    const answer = await requestJson(io, `${io.apiBase}${call.path}?${query}`, init, what);
    const errcode = answer.errcode ?? 0;
    if (errcode === 0) return answer;
    if (tokenExpiredCodes.has(errcode)) {
      await io.tokens.invalidate(tokenKey);
      if (attempt === 0) continue;
    }
    throw errorForCode(errcode, answer.errmsg, what);
  }
}

/** A token-bearing call to `path` (`GET` or a multipart `POST`), with the expired-token retry of {@link postWithToken}; answers the raw response. */
async function rawWithToken(
  io: AdapterIO,
  tokenKey: string,
  issue: () => Promise<IssuedToken>,
  call: { path: string; query: Record<string, string>; body?: () => FormData },
  what: string,
): Promise<{ response: Response; answer: WechatAnswer | undefined }> {
  for (let attempt = 0; ; attempt += 1) {
    const token = await io.tokens.get(tokenKey, issue);
    const query = new URLSearchParams({ access_token: token, ...call.query });
    let response: Response;
    try {
      response = await io.fetch(`${io.apiBase}${call.path}?${query}`, {
        method: call.body ? "POST" : "GET",
        ...(call.body ? { body: call.body() } : {}),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      throw new ChannelError(`${what} failed: ${error instanceof Error ? error.message : String(error)}`, { retryable: true });
    }
    if (!response.ok) throw downloadFailure(response, `${what} failed`);
    // A refusal (and an upload's answer) is JSON; media comes with its own type.
    const type = mediaType(response) ?? "";
    if (!type.includes("json") && !type.startsWith("text/")) return { response, answer: undefined };
    const answer = (await response.json().catch(() => undefined)) as WechatAnswer | undefined;
    const errcode = answer?.errcode ?? 0;
    if (answer && errcode === 0) return { response, answer };
    if (!answer) throw new ChannelError(`${what} failed: unexpected answer`, { retryable: true });
    if (tokenExpiredCodes.has(errcode)) {
      await io.tokens.invalidate(tokenKey);
      if (attempt === 0) continue;
    }
    throw errorForCode(errcode, answer.errmsg, what);
  }
}

/**
 * Downloads temporary media (`GET /cgi-bin/media/get?media_id=…`), the same call on the Official
 * Account and WeCom APIs: the bytes, or `{errcode: 40007, "invalid media_id"}` for an unknown id.
 */
export async function downloadWechatMedia(
  io: AdapterIO,
  tokenKey: string,
  issue: () => Promise<IssuedToken>,
  mediaId: string,
  what: string,
): Promise<FetchedMedia> {
  const { response, answer } = await rawWithToken(io, tokenKey, issue, { path: "/cgi-bin/media/get", query: { media_id: mediaId } }, what);
  if (answer) throw new ChannelError(`${what} failed: the answer carries no media`, { retryable: false });
  const bytes = await readMediaBody(response, what);
  const mime = mediaType(response);
  const name = dispositionName(response);
  return { bytes, ...(mime ? { mime } : {}), ...(name ? { name } : {}) };
}

/** Uploads an image as temporary media (`POST /cgi-bin/media/upload?type=image`, field `media`); answers its media_id. */
export async function uploadWechatImage(
  io: AdapterIO,
  tokenKey: string,
  issue: () => Promise<IssuedToken>,
  image: OutboundImage,
  what: string,
): Promise<string> {
  const body = () => {
    const form = new FormData();
    form.set("media", imageBlob(image), image.name);
    return form;
  };
  const { answer } = await rawWithToken(io, tokenKey, issue, { path: "/cgi-bin/media/upload", query: { type: "image" }, body }, what);
  const mediaId = answer?.media_id;
  if (typeof mediaId !== "string" || !mediaId) throw new ChannelError(`${what} failed: no media_id in the answer`, { retryable: true });
  return mediaId;
}
