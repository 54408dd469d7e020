import { ChannelError, type AdapterIO, type ChannelConfig, type ReplyHandle } from "../../types";
import { postJson, retryAfterMs, transientFailure, type PlatformAnswer } from "../workplace-shared/http";

/** Web API errors worth retrying: Slack's own rate limit, its transient failures, and an expired rotating token. */
const retryableErrors = new Set(["ratelimited", "rate_limited", "internal_error", "fatal_error", "service_unavailable", "request_timeout", "token_expired"]);

/** Classifies a Web API answer: returns its JSON when `ok`, throws a {@link ChannelError} otherwise. */
function accepted(answer: PlatformAnswer, method: string): Record<string, unknown> {
  const transient = transientFailure(answer, `Slack ${method}`);
  if (transient) throw transient;
  const body = answer.body;
  if (!body) throw new ChannelError(`Slack ${method}: unreadable answer (HTTP ${answer.status})`, { retryable: answer.status >= 500 });
  if (body.ok === true) return body;
  const error = typeof body.error === "string" ? body.error : "unknown_error";
  const retryAfter = retryAfterMs(answer.headers.get("retry-after"));
  throw new ChannelError(`Slack ${method}: ${error}`, {
    retryable: retryableErrors.has(error),
    platformCode: error,
    ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter }),
  });
}

function callWebApi(method: string, body: unknown, config: ChannelConfig, io: AdapterIO): Promise<PlatformAnswer> {
  return postJson(io.fetch, `${io.apiBase}/${method}`, body, { authorization: `Bearer ${config.botToken ?? ""}` });
}

/** Posts `text` with `chat.postMessage`, in the thread when the person wrote in one. */
export async function postSlackMessage(to: ReplyHandle, text: string, config: ChannelConfig, io: AdapterIO): Promise<{ ids: string[] }> {
  if (typeof to.channel !== "string" || !to.channel) throw new ChannelError("Slack reply handle has no channel", { retryable: false });
  const message: Record<string, unknown> = { channel: to.channel, text };
  if (typeof to.threadTs === "string" && to.threadTs) message.thread_ts = to.threadTs;
  const body = accepted(await callWebApi("chat.postMessage", message, config, io), "chat.postMessage");
  return { ids: typeof body.ts === "string" ? [body.ts] : [] };
}

/** Checks the bot token with `auth.test`. */
export async function testSlackAuth(config: ChannelConfig, io: AdapterIO): Promise<void> {
  accepted(await callWebApi("auth.test", {}, config, io), "auth.test");
}
