import { randomBytes } from "node:crypto";
import { slackSignature } from "../adapters/slack/signature";
import { fakeId, json, serveFetch, type FakeDelivery, type FakeFailure, type FakeSentMessage, type PlatformFake } from "./fake";

/** A message `chat.postMessage` accepted, with the thread it was posted in. */
export interface SlackSentMessage extends FakeSentMessage {
  threadTs?: string;
}

/** The Slack fake, with the bot's user id (what mentions of the bot look like). */
export interface SlackFake extends PlatformFake {
  readonly sent: SlackSentMessage[];
  botUserId: string;
  /** Makes the next send answer HTTP 200 `{ok:false,error}` with this Web API error (e.g. `ratelimited`, `invalid_auth`). */
  failNextWithError(error: string): void;
}

/**
 * A local Slack: signs Events API deliveries with the v0 scheme and serves `chat.postMessage` and
 * `auth.test` under Bearer bot-token auth, answering with Slack's real error shapes.
 */
export async function startSlackFake(): Promise<SlackFake> {
  const botToken = `xoxb-${randomBytes(5).toString("hex")}-${randomBytes(6).toString("hex")}`;
  const signingSecret = randomBytes(16).toString("hex");
  const teamId = "T0FAKETEAM";
  const botUserId = "UBOTPARLEY";
  const sent: SlackSentMessage[] = [];
  const failures: (FakeFailure | { error: string })[] = [];
  const deliveredEventIds = new Set<string>();
  const knownChannels = new Set<string>();

  const authorized = (request: Request) => request.headers.get("authorization") === `Bearer ${botToken}`;

  const server = await serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    if (request.method !== "POST") return json({ ok: false, error: "method_not_supported" }, 405);
    if (path === "/auth.test") {
      if (!authorized(request)) return json({ ok: false, error: "invalid_auth" });
      return json({ ok: true, team_id: teamId, user_id: botUserId, bot_id: "BFAKEBOT" });
    }
    if (path !== "/chat.postMessage") return json({ ok: false, error: "unknown_method" }, 404);
    const failure = failures.shift();
    if (failure === "rate-limited") return json({ ok: false, error: "ratelimited" }, 429, { "retry-after": "1" });
    if (failure === "server-error") return new Response("upstream connect error", { status: 503 });
    if (failure === "token-expired") return json({ ok: false, error: "token_expired" });
    if (failure === "rejected") return json({ ok: false, error: "channel_not_found" });
    if (failure) return json({ ok: false, error: failure.error });
    const body = (await request.json().catch(() => undefined)) as Record<string, unknown> | undefined;
    if (!body || typeof body.channel !== "string") return json({ ok: false, error: "channel_not_found" });
    if (typeof body.text !== "string" || !body.text) return json({ ok: false, error: "no_text" });
    if (!authorized(request)) {
      sent.push({ to: body.channel, text: body.text, authorized: false, at: Date.now() });
      return json({ ok: false, error: "invalid_auth" });
    }
    if (!knownChannels.has(body.channel)) return json({ ok: false, error: "channel_not_found" });
    const ts = `${(Date.now() / 1000).toFixed(0)}.${String(sent.length + 1).padStart(6, "0")}`;
    const threadTs = typeof body.thread_ts === "string" ? { threadTs: body.thread_ts } : {};
    sent.push({ to: body.channel, text: body.text, authorized: true, at: Date.now(), ...threadTs });
    return json({ ok: true, channel: body.channel, ts, message: { type: "message", text: body.text, user: botUserId, ts } });
  });

  const eventBody = (message: FakeDelivery) => {
    const eventId = message.id ?? fakeId("Ev");
    const user = message.senderId ?? "U0PERSON01";
    const isGroup = message.isGroup ?? false;
    const channel = message.conversationId ?? (isGroup ? "C0GENERAL1" : `D${user.slice(1)}`);
    knownChannels.add(channel);
    const ts = `${Math.floor(Date.now() / 1000)}.000${Math.floor(Math.random() * 900 + 100)}`;
    const event = isGroup
      ? { type: "app_mention", user, text: `<@${botUserId}> ${message.text}`, ts, channel, event_ts: ts }
      : { type: "message", user, text: message.text, ts, channel, event_ts: ts, channel_type: "im" };
    return {
      body: JSON.stringify({
        token: "legacy-verification-token",
        team_id: teamId,
        api_app_id: "A0FAKEAPP",
        event: message.senderName ? { ...event, user_profile: { display_name: message.senderName, real_name: message.senderName } } : event,
        type: "event_callback",
        event_id: eventId,
        event_time: Math.floor(Date.now() / 1000),
        authorizations: [{ enterprise_id: null, team_id: teamId, user_id: botUserId, is_bot: true, is_enterprise_install: false }],
        is_ext_shared_channel: false,
      }),
      eventId,
    };
  };

  const signed = (webhookUrl: string, body: string, options: { secret?: string; timestamp?: number; headers?: Record<string, string> } = {}) => {
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    return new Request(webhookUrl, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": slackSignature(options.secret ?? signingSecret, timestamp, body),
        ...options.headers,
      },
    });
  };

  return {
    kind: "slack",
    apiBase: server.url,
    config: { botToken, signingSecret },
    botUserId,
    sent,
    get tokensIssued() {
      return 0;
    },
    async delivery(webhookUrl, message) {
      const { body, eventId } = eventBody(message);
      // Slack redelivers an event it thinks failed with the same event_id and a retry count.
      const retry: Record<string, string> = deliveredEventIds.has(eventId) ? { "x-slack-retry-num": "1", "x-slack-retry-reason": "http_timeout" } : {};
      deliveredEventIds.add(eventId);
      return signed(webhookUrl, body, { headers: retry });
    },
    async forged(webhookUrl, message) {
      return signed(webhookUrl, eventBody(message).body, { secret: randomBytes(16).toString("hex") });
    },
    async stale(webhookUrl, message) {
      return signed(webhookUrl, eventBody(message).body, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    },
    async handshake(webhookUrl) {
      const challenge = randomBytes(24).toString("base64url");
      const body = JSON.stringify({ token: "legacy-verification-token", challenge, type: "url_verification" });
      return { request: signed(webhookUrl, body), expectedBody: challenge };
    },
    failNext(failure, count = 1) {
      for (let index = 0; index < count; index += 1) failures.push(failure);
    },
    failNextWithError(error) {
      failures.push({ error });
    },
    close: () => server.close(),
  };
}

/** Starts a local Slack (see {@link startSlackFake}). */
export const startFake: () => Promise<PlatformFake> = startSlackFake;
