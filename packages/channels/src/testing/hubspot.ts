import { randomUUID } from "node:crypto";
import { signatureV3 } from "../adapters/hubspot/signature";
import type { FakeDelivery, FakeFailure, FakeSentMessage, PlatformFake } from "./fake";
import { fakeId, json, serveFetch } from "./fake";

/** The HubSpot fake, with the bodies published to it. */
export interface HubSpotFake extends PlatformFake {
  /** Every accepted publish request body, in order. */
  readonly published: Record<string, unknown>[];
  /** Signs any webhook body the way HubSpot does (v3), at `timestampMs`. */
  signedWebhook(webhookUrl: string, body: string, timestampMs?: number): Request;
}

/** An `OUTGOING_CHANNEL_MESSAGE_CREATED` event: someone in HubSpot wrote `message.text` in a thread of the channel. */
export function outgoingMessageEvent(ids: { portalId: number; channelId: string; channelAccountId: string }, message: FakeDelivery, now = Date.now()) {
  const agentId = /^\d+$/.test(message.senderId ?? "") ? message.senderId : String(1000 + (((message.senderId ?? "agent").length * 7919) % 9000));
  const threadId = message.conversationId ?? "8712345001";
  return {
    type: "OUTGOING_CHANNEL_MESSAGE_CREATED",
    portalId: ids.portalId,
    channelId: ids.channelId,
    channelAccountId: ids.channelAccountId,
    channelIntegrationThreadIds: [`parley-thread-${threadId}`],
    message: {
      id: message.id ?? fakeId("msg"),
      type: "MESSAGE",
      text: message.text,
      richText: `<p>${message.text.replace(/&/g, "&amp;").replace(/</g, "&lt;")}</p>`,
      direction: "OUTGOING",
      channelId: ids.channelId,
      channelAccountId: ids.channelAccountId,
      conversationsThreadId: threadId,
      createdAt: new Date(now).toISOString(),
      createdBy: `A-${agentId}`,
      client: { clientType: "HUBSPOT" },
      senders: [{ actorId: `A-${agentId}`, name: message.senderName ?? "Ada Agent", senderField: "FROM" }],
      recipients: [{ deliveryIdentifier: { type: "CHANNEL_SPECIFIC_OPAQUE_ID", value: "parley-assistant" }, recipientField: "TO" }],
      attachments: [],
      truncationStatus: "NOT_TRUNCATED",
      archived: false,
    },
  };
}

/**
 * A local HubSpot: the Custom Channels publish endpoint
 * (`POST /conversations/v3/custom-channels/{channelId}/messages`, Bearer token, idempotent by
 * `integrationIdempotencyId`), channel-account lookup, HubSpot's `{status:"error", message,
 * category}` errors, and webhooks signed with X-HubSpot-Signature-v3.
 */
export async function startHubSpotFake(): Promise<HubSpotFake> {
  const config = {
    appId: "3141592",
    clientSecret: "5b1c7a3e-94d2-4f6b-8a0e-2c9d1f7e6a4b",
    accessToken: "pat-na1-11111111-2222-3333-4444-555555555555",
    channelId: "1048576",
    channelAccountId: "2097152",
  };
  const ids = { portalId: 62515, channelId: config.channelId, channelAccountId: config.channelAccountId };
  const sent: FakeSentMessage[] = [];
  const published: Record<string, unknown>[] = [];
  const failures: FakeFailure[] = [];
  const byIdempotencyId = new Map<string, Record<string, unknown>>();

  const error = (status: number, category: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    json({ status: "error", message, correlationId: randomUUID(), category, ...extra }, status, headers);

  const server = await serveFetch(async (request) => {
    const url = new URL(request.url);
    const authorized = request.headers.get("authorization") === `Bearer ${config.accessToken}`;
    const account = /^\/conversations\/v3\/custom-channels\/([^/]+)\/channel-accounts\/([^/]+)$/.exec(url.pathname);
    if (account && request.method === "GET") {
      if (!authorized) return error(401, "INVALID_AUTHENTICATION", "Authentication credentials not found.");
      if (account[1] !== config.channelId || account[2] !== config.channelAccountId) return error(404, "OBJECT_NOT_FOUND", "Channel account not found");
      return json({
        id: config.channelAccountId,
        channelId: config.channelId,
        name: "Parley assistant",
        active: true,
        inboxId: "147959634",
        deliveryIdentifier: { type: "CHANNEL_SPECIFIC_OPAQUE_ID", value: "parley-assistant" },
      });
    }
    const publish = /^\/conversations\/v3\/custom-channels\/([^/]+)\/messages$/.exec(url.pathname);
    if (!publish || request.method !== "POST") return error(404, "OBJECT_NOT_FOUND", "Not found");
    const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
    const to = String(body.integrationThreadId ?? "");
    const text = String(body.text ?? "");
    if (!authorized) {
      sent.push({ to, text, authorized: false, at: Date.now() });
      return error(401, "INVALID_AUTHENTICATION", "Authentication credentials not found. This API supports OAuth 2.0 authentication.");
    }
    const failure = failures.shift();
    if (failure === "rate-limited") {
      return error(
        429,
        "RATE_LIMITS",
        "You have reached your secondly limit.",
        { errorType: "RATE_LIMIT", policyName: "SECONDLY" },
        {
          "x-hubspot-ratelimit-interval-milliseconds": "10000",
          "x-hubspot-ratelimit-max": "100",
          "x-hubspot-ratelimit-remaining": "0",
        },
      );
    }
    if (failure === "server-error") return error(502, "INTERNAL_ERROR", "Bad Gateway");
    if (failure === "token-expired") return error(401, "EXPIRED_AUTHENTICATION", "The OAuth token used to make this call expired 12 second(s) ago.");
    if (failure === "rejected") return error(400, "VALIDATION_ERROR", "Thread not found for integrationThreadId");
    if (publish[1] !== config.channelId) return error(404, "OBJECT_NOT_FOUND", `Channel ${publish[1]} not found`);
    const senders = Array.isArray(body.senders) ? (body.senders as { deliveryIdentifier?: { type?: unknown; value?: unknown } }[]) : [];
    if (
      body.messageDirection !== "INCOMING" ||
      body.channelAccountId !== config.channelAccountId ||
      !text ||
      !senders[0]?.deliveryIdentifier?.type ||
      !senders[0]?.deliveryIdentifier?.value
    ) {
      return error(400, "VALIDATION_ERROR", "Invalid input JSON on line 1");
    }
    const idempotencyId = typeof body.integrationIdempotencyId === "string" ? body.integrationIdempotencyId : undefined;
    const earlier = idempotencyId ? byIdempotencyId.get(idempotencyId) : undefined;
    if (earlier) return json(earlier);
    sent.push({ to, text, authorized: true, at: Date.now() });
    published.push(body);
    const message = {
      id: randomUUID().replace(/-/g, ""),
      type: "MESSAGE",
      text,
      direction: "INCOMING",
      channelId: config.channelId,
      channelAccountId: config.channelAccountId,
      conversationsThreadId: "8712345001",
      createdAt: new Date().toISOString(),
      createdBy: `I-${config.appId}`,
      client: { clientType: "INTEGRATION", integrationAppId: Number(config.appId) },
      senders: body.senders,
      recipients: body.recipients ?? [],
      truncationStatus: "NOT_TRUNCATED",
      archived: false,
    };
    if (idempotencyId) byIdempotencyId.set(idempotencyId, message);
    return json(message);
  });

  const signedWebhook = (webhookUrl: string, body: string, timestampMs = Date.now()) => {
    const timestamp = String(timestampMs);
    return new Request(webhookUrl, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-hubspot-signature-v3": signatureV3(config.clientSecret, "POST", webhookUrl, body, timestamp),
        "x-hubspot-request-timestamp": timestamp,
      },
      body,
    });
  };

  return {
    kind: "hubspot",
    apiBase: server.url,
    config,
    published,
    signedWebhook,
    async delivery(webhookUrl, message) {
      return signedWebhook(webhookUrl, JSON.stringify(outgoingMessageEvent(ids, message)));
    },
    async forged(webhookUrl, message) {
      const request = signedWebhook(webhookUrl, JSON.stringify(outgoingMessageEvent(ids, message)));
      const headers = new Headers(request.headers);
      const signature = headers.get("x-hubspot-signature-v3") ?? "";
      // The same signature with its first character changed.
      headers.set("x-hubspot-signature-v3", `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`);
      return new Request(webhookUrl, { method: "POST", headers, body: await request.text() });
    },
    async stale(webhookUrl, message) {
      return signedWebhook(webhookUrl, JSON.stringify(outgoingMessageEvent(ids, message)), Date.now() - 10 * 60 * 1000);
    },
    sent,
    get tokensIssued() {
      // The access token is configured, not fetched.
      return 0;
    },
    failNext(failure, count = 1) {
      for (let index = 0; index < count; index += 1) failures.push(failure);
    },
    close: server.close,
  };
}

/** Starts the HubSpot fake. */
export const startFake: () => Promise<PlatformFake> = startHubSpotFake;
