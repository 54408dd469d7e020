import { generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import { rawPublicKeyHex, signedBytes, signEd25519 } from "../adapters/discord/ed25519";
import { snowflakeAt } from "../adapters/discord/snowflake";
import type { FakeDelivery, FakeFailure, FakeMedia, FakeSentMessage, PlatformFake } from "./fake";
import { fakeId, json, mediaResponse, serveFetch } from "./fake";

/** The Discord fake, with what `register` told it. */
export interface DiscordFake extends PlatformFake {
  readonly commands: unknown[];
  readonly interactionsEndpointUrl: string | undefined;
  /** Every send call in order: "edit-original", "follow-up" or "channel-message". */
  readonly calls: string[];
  /** Signs any interaction body the way Discord does (for tests that build their own payloads). */
  signedInteraction(webhookUrl: string, body: string, timestampSeconds?: number): Request;
  /** Makes an issued interaction token expire now. */
  expireInteractionTokens(): void;
}

/**
 * A local Discord API (`/api/v10`): interaction webhooks (`PATCH …/messages/@original`, `POST
 * /webhooks/{app}/{token}`) accept only tokens this fake issued in a delivery and for 15 minutes;
 * `POST /channels/{id}/messages` wants `Authorization: Bot <token>`. Errors use Discord's JSON
 * `{message, code}` and its 429 body `{message, retry_after, global}` with `Retry-After`.
 * Deliveries are signed with an Ed25519 key pair made at start; `config.publicKey` is its public half.
 */
export async function startDiscordFake(): Promise<DiscordFake> {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519") as { privateKey: KeyObject; publicKey: KeyObject };
  const applicationId = snowflakeAt(Date.parse("2024-01-01T00:00:00Z"), 7);
  const config = {
    applicationId,
    publicKey: rawPublicKeyHex(publicKey),
    botToken: `MTI${randomBytes(18).toString("base64url")}.Gx${randomBytes(3).toString("base64url")}.${randomBytes(27).toString("base64url")}`,
  };
  const sent: FakeSentMessage[] = [];
  const failures: FakeFailure[] = [];
  const interactionIds = new Map<string, { id: string; token: string }>();
  /** Files people attached to a command, by attachment id (served at their CDN url). */
  const attachments = new Map<string, FakeMedia>();
  let origin = "";
  const tokens = new Map<string, { channelId: string; expiresAt: number }>();
  const commands: unknown[] = [];
  const calls: string[] = [];
  let interactionsEndpointUrl: string | undefined;
  let sequence = 0;

  const failure = (): Response | undefined => {
    const next = failures.shift();
    if (next === "rate-limited") {
      return json({ message: "You are being rate limited.", retry_after: 1.25, global: false }, 429, {
        "retry-after": "2",
        "x-ratelimit-limit": "5",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset-after": "1.25",
        "x-ratelimit-scope": "user",
      });
    }
    if (next === "server-error") return json({ message: "502: Bad Gateway", code: 0 }, 502);
    if (next === "token-expired") return json({ message: "Invalid Webhook Token", code: 50027 }, 401);
    if (next === "rejected")
      return json(
        { message: "Invalid Form Body", code: 50035, errors: { content: { _errors: [{ code: "BASE_TYPE_REQUIRED", message: "This field is required" }] } } },
        400,
      );
    return undefined;
  };

  const message = (channelId: string, content: string) => ({
    id: snowflakeAt(Date.now(), ++sequence),
    type: 0,
    channel_id: channelId,
    content,
    author: { id: applicationId, username: "Parley", bot: true },
    timestamp: new Date().toISOString(),
  });

  const accept = (channelId: string, content: unknown): Response => {
    if (typeof content !== "string" || !content) return json({ message: "Cannot send an empty message", code: 50006 }, 400);
    if ([...content].length > 2000) return json({ message: "Invalid Form Body", code: 50035 }, 400);
    sent.push({ to: channelId, text: content, authorized: true, at: Date.now() });
    return json(message(channelId, content));
  };

  const server = await serveFetch(async (request) => {
    const url = new URL(request.url);
    const cdn = /^\/attachments\/\d+\/(\d+)\/[^/]+$/.exec(url.pathname);
    if (request.method === "GET" && cdn) {
      const media = attachments.get(cdn[1]!);
      // Discord's CDN answers a missing or expired attachment with a plain 404.
      return media ? mediaResponse(media) : new Response("This content is no longer available.", { status: 404, headers: { "content-type": "text/plain" } });
    }
    const path = url.pathname.replace(/^\/api\/v10/, "");
    const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
    const botAuthorized = request.headers.get("authorization") === `Bot ${config.botToken}`;
    const webhook = /^\/webhooks\/(\d+)\/([^/]+)(\/messages\/@original)?$/.exec(path);
    if (webhook) {
      const [, app, token, original] = webhook;
      calls.push(original ? "edit-original" : "follow-up");
      if ((original && request.method !== "PATCH") || (!original && request.method !== "POST"))
        return json({ message: "405: Method Not Allowed", code: 0 }, 405);
      const issued = tokens.get(token ?? "");
      if (app !== applicationId || !issued || issued.expiresAt <= Date.now()) {
        sent.push({ to: issued?.channelId ?? "", text: String(body.content ?? ""), authorized: false, at: Date.now() });
        return json({ message: "Invalid Webhook Token", code: 50027 }, 401);
      }
      return failure() ?? accept(issued.channelId, body.content);
    }
    const channel = /^\/channels\/(\d+)\/messages$/.exec(path);
    if (channel && request.method === "POST") {
      calls.push("channel-message");
      if (!botAuthorized) {
        sent.push({ to: channel[1] ?? "", text: String(body.content ?? ""), authorized: false, at: Date.now() });
        return json({ message: "401: Unauthorized", code: 0 }, 401);
      }
      return failure() ?? accept(channel[1] ?? "", body.content);
    }
    if (!botAuthorized) return json({ message: "401: Unauthorized", code: 0 }, 401);
    if (path === "/applications/@me" && request.method === "GET") {
      return json({ id: applicationId, name: "Parley Test", verify_key: config.publicKey, bot_public: false });
    }
    if (path === "/applications/@me" && request.method === "PATCH") {
      interactionsEndpointUrl = String(body.interactions_endpoint_url ?? "");
      return json({ id: applicationId, interactions_endpoint_url: interactionsEndpointUrl });
    }
    if (path === `/applications/${applicationId}/commands` && request.method === "POST") {
      commands.push(body);
      return json({ id: snowflakeAt(Date.now(), ++sequence), application_id: applicationId, version: "1", ...body }, 201);
    }
    return json({ message: "404: Not Found", code: 0 }, 404);
  });

  const signedInteraction = (webhookUrl: string, body: string, timestampSeconds = Math.floor(Date.now() / 1000)) => {
    const timestamp = String(timestampSeconds);
    return new Request(webhookUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-signature-ed25519": signEd25519(privateKey, signedBytes(timestamp, new TextEncoder().encode(body))),
        "x-signature-timestamp": timestamp,
      },
      body,
    });
  };

  /** A `/ask question:<text>` APPLICATION_COMMAND interaction, in a server channel or a DM. */
  const attachmentOptions = (delivery: FakeDelivery, channelId: string) => {
    const media = delivery.media?.[0];
    if (!media) return { options: [], resolved: {} };
    const id = snowflakeAt(Date.now(), ++sequence);
    attachments.set(id, media);
    const filename = media.name ?? (media.kind === "image" ? "image.png" : "file");
    return {
      options: [{ name: "file", type: 11, value: id }],
      resolved: {
        resolved: {
          attachments: {
            [id]: {
              id,
              filename,
              size: media.bytes.byteLength,
              url: `${origin}/attachments/${channelId}/${id}/${filename}?ex=65f0&is=65de&hm=fake`,
              proxy_url: `${origin}/attachments/${channelId}/${id}/${filename}`,
              ...(media.mime ? { content_type: media.mime } : {}),
            },
          },
        },
      },
    };
  };

  const interaction = (delivery: FakeDelivery) => {
    const key = delivery.id ?? fakeId("interaction");
    let issued = interactionIds.get(key);
    if (!issued) {
      issued = { id: snowflakeAt(Date.now(), ++sequence), token: `aW50ZXJhY3Rpb246${randomBytes(96).toString("base64url")}` };
      interactionIds.set(key, issued);
    }
    const channelId = delivery.conversationId ?? snowflakeAt(Date.parse("2024-02-01T00:00:00Z"), 3);
    tokens.set(issued.token, { channelId, expiresAt: Date.now() + 15 * 60 * 1000 });
    const user = {
      id: delivery.senderId ?? "80351110224678912",
      username: (delivery.senderName ?? "ada").toLowerCase(),
      global_name: delivery.senderName ?? "Ada",
      avatar: "8342729096ea3675442027381ff50dfe",
      discriminator: "0",
    };
    const inGuild = delivery.isGroup !== false;
    const attached = attachmentOptions(delivery, channelId);
    return {
      app_permissions: "442368",
      application_id: applicationId,
      authorizing_integration_owners: { "0": "290926444748734465" },
      channel: { id: channelId, name: "support", type: inGuild ? 0 : 1 },
      channel_id: channelId,
      context: inGuild ? 0 : 1,
      data: {
        id: snowflakeAt(Date.parse("2024-01-02T00:00:00Z"), 1),
        name: "ask",
        type: 1,
        options: [{ name: "question", type: 3, value: delivery.text }, ...attached.options],
        ...attached.resolved,
      },
      entitlements: [],
      ...(inGuild
        ? {
            guild_id: "290926444748734465",
            guild_locale: "en-US",
            member: { user, roles: [], joined_at: "2024-01-01T00:00:00.000000+00:00", permissions: "2248473465835073", nick: null },
          }
        : { user }),
      id: issued.id,
      locale: "en-US",
      token: issued.token,
      type: 2,
      version: 1,
    };
  };

  origin = server.url;

  return {
    kind: "discord",
    apiBase: `${server.url}/api/v10`,
    config,
    calls,
    get commands() {
      return commands;
    },
    get interactionsEndpointUrl() {
      return interactionsEndpointUrl;
    },
    signedInteraction,
    expireInteractionTokens() {
      for (const entry of tokens.values()) entry.expiresAt = Date.now();
    },
    async delivery(webhookUrl, delivery) {
      return signedInteraction(webhookUrl, JSON.stringify(interaction(delivery)));
    },
    async forged(webhookUrl, delivery) {
      const request = signedInteraction(webhookUrl, JSON.stringify(interaction(delivery)));
      const signature = request.headers.get("x-signature-ed25519") ?? "";
      // One flipped bit in the signature.
      const flipped = (parseInt(signature.slice(0, 2), 16) ^ 1).toString(16).padStart(2, "0") + signature.slice(2);
      const headers = new Headers(request.headers);
      headers.set("x-signature-ed25519", flipped);
      return new Request(webhookUrl, { method: "POST", headers, body: await request.text() });
    },
    async stale(webhookUrl, delivery) {
      return signedInteraction(webhookUrl, JSON.stringify(interaction(delivery)), Math.floor(Date.now() / 1000) - 600);
    },
    async handshake(webhookUrl) {
      const body = JSON.stringify({
        application_id: applicationId,
        id: snowflakeAt(Date.now(), ++sequence),
        token: `aW50ZXJhY3Rpb246${randomBytes(32).toString("base64url")}`,
        type: 1,
        version: 1,
      });
      return { request: signedInteraction(webhookUrl, body), expectedBody: '{"type":1}' };
    },
    sent,
    get tokensIssued() {
      // Bot tokens are static and interaction tokens come with each interaction: no token endpoint.
      return 0;
    },
    failNext(next, count = 1) {
      for (let index = 0; index < count; index += 1) failures.push(next);
    },
    close: server.close,
  };
}

/** Starts the Discord fake. */
export const startFake: () => Promise<PlatformFake> = startDiscordFake;
