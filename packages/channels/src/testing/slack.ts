import { randomBytes } from "node:crypto";
import { slackSignature } from "../adapters/slack/signature";
import { fakeId, json, mediaResponse, serveFetch, type FakeDelivery, type FakeFailure, type FakeMedia, type FakeSentMessage, type PlatformFake } from "./fake";

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
  /** Files people shared, by file id (served at `url_private`). */
  const files = new Map<string, FakeMedia>();
  /** Uploads begun with files.getUploadURLExternal, by file id: the declared length, then the bytes. */
  const uploads = new Map<string, { filename: string; length: number; media?: FakeMedia }>();
  const signInPage = () => new Response("<!DOCTYPE html><html><body>Sign in to Slack</body></html>", { status: 200, headers: { "content-type": "text/html" } });
  let origin = "";

  const authorized = (request: Request) => request.headers.get("authorization") === `Bearer ${botToken}`;

  const server = await serveFetch(async (request) => {
    const path = new URL(request.url).pathname;
    const filePath = /^\/files-pri\/T0FAKETEAM-(F[A-Z0-9]+)\/[^/]+$/.exec(path);
    if (request.method === "GET" && filePath) {
      if (!authorized(request)) return signInPage();
      const media = files.get(filePath[1]!);
      return media ? mediaResponse(media) : new Response("<html><body>File not found</body></html>", { status: 404, headers: { "content-type": "text/html" } });
    }
    const uploadPath = /^\/upload\/v1\/(F[A-Z0-9]+)$/.exec(path);
    if (request.method === "POST" && uploadPath) {
      const upload = uploads.get(uploadPath[1]!);
      const file = (await request.formData().catch(() => undefined))?.get("file");
      if (!upload || !(file instanceof File)) return new Response("Bad Request", { status: 400 });
      if (file.size !== upload.length) return new Response("length mismatch", { status: 400 });
      upload.media = { kind: "image", bytes: new Uint8Array(await file.arrayBuffer()), mime: file.type, name: upload.filename };
      return new Response(`OK - ${file.size}`, { status: 200, headers: { "content-type": "text/plain" } });
    }
    if (request.method !== "POST") return json({ ok: false, error: "method_not_supported" }, 405);
    if (path === "/files.info") {
      if (!authorized(request)) return json({ ok: false, error: "invalid_auth" });
      const id = new URLSearchParams(await request.text()).get("file") ?? "";
      const media = files.get(id);
      if (!media) return json({ ok: false, error: "file_not_found" });
      return json({
        ok: true,
        file: { id, name: media.name ?? "file", mimetype: media.mime, url_private: `${origin}/files-pri/T0FAKETEAM-${id}/${media.name ?? "file"}` },
      });
    }
    if (path === "/files.getUploadURLExternal") {
      if (!authorized(request)) return json({ ok: false, error: "invalid_auth" });
      if (!(request.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) return json({ ok: false, error: "invalid_arguments" });
      const form = new URLSearchParams(await request.text());
      const length = Number(form.get("length"));
      const filename = form.get("filename") ?? "";
      if (!filename || !Number.isInteger(length) || length <= 0) return json({ ok: false, error: "invalid_arguments" });
      const fileId = `F${randomBytes(5).toString("hex").toUpperCase()}`;
      uploads.set(fileId, { filename, length });
      return json({ ok: true, upload_url: `${origin}/upload/v1/${fileId}`, file_id: fileId });
    }
    if (path === "/files.completeUploadExternal") {
      if (!authorized(request)) return json({ ok: false, error: "invalid_auth" });
      const body = (await request.json().catch(() => undefined)) as { files?: { id?: string }[]; channel_id?: string; thread_ts?: string } | undefined;
      const upload = body?.files?.[0]?.id ? uploads.get(body.files[0].id) : undefined;
      if (!upload?.media) return json({ ok: false, error: "file_not_found" });
      if (!body?.channel_id || !knownChannels.has(body.channel_id)) return json({ ok: false, error: "channel_not_found" });
      const media = upload.media;
      sent.push({
        to: body.channel_id,
        text: "",
        authorized: true,
        at: Date.now(),
        image: { bytes: media.bytes, mime: media.mime ?? "", name: media.name ?? "" },
        ...(body.thread_ts ? { threadTs: body.thread_ts } : {}),
      });
      return json({ ok: true, files: [{ id: body.files![0]!.id, title: upload.filename }] });
    }
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
    const shared = (message.media ?? []).map((media) => {
      const id = `F${randomBytes(5).toString("hex").toUpperCase()}`;
      files.set(id, media);
      const name = media.name ?? (media.kind === "image" ? "image.png" : "file");
      return {
        id,
        name,
        mimetype: media.mime ?? "application/octet-stream",
        size: media.bytes.byteLength,
        url_private: `${origin}/files-pri/T0FAKETEAM-${id}/${name}`,
      };
    });
    const withFiles = shared.length ? { subtype: "file_share", files: shared } : {};
    const event = isGroup
      ? { type: "app_mention", user, text: `<@${botUserId}> ${message.text}`, ts, channel, event_ts: ts, ...withFiles }
      : { type: "message", user, text: message.text, ts, channel, event_ts: ts, channel_type: "im", ...withFiles };
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

  origin = server.url;

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
