import { hubSignature } from "../adapters/whatsapp/signature";
import { GRAPH_VERSION } from "../adapters/whatsapp/client";
import type { FakeDelivery, FakeFailure, FakeMedia, FakeSentMessage, PlatformFake } from "./fake";
import { fakeId, json, mediaResponse, serveFetch } from "./fake";

/** Serialises like Meta's webhooks: non-ASCII characters escaped as `\uXXXX`. */
export function metaJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A Cloud API text message as it appears in `value.messages[]`. */
export function whatsappTextMessage(message: FakeDelivery, now = Date.now()) {
  return {
    from: message.senderId ?? "15551230001",
    id: `wamid.${Buffer.from(message.id ?? fakeId("m")).toString("base64url")}`,
    timestamp: String(Math.floor(now / 1000)),
    type: "text",
    text: { body: message.text },
  };
}

/** A signed webhook POST carrying `value` (the `changes[].value` of one entry). */
export function whatsappNotification(webhookUrl: string, appSecret: string, entries: unknown[]): Request {
  const body = metaJson({ object: "whatsapp_business_account", entry: entries });
  return new Request(webhookUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": hubSignature(appSecret, body) },
    body,
  });
}

/**
 * A local Graph API for the WhatsApp Cloud API: `POST /v21.0/{phone-number-id}/messages` with a
 * Bearer token, Meta's `{error:{message, type, code, error_subcode, fbtrace_id}}` failures, and
 * webhook deliveries signed with `X-Hub-Signature-256` over Meta-style escaped JSON.
 */
export async function startWhatsAppFake(): Promise<PlatformFake> {
  const phoneNumberId = "106540352242922";
  const config = {
    phoneNumberId,
    accessToken: "EAAGfakeSystemUserTokenForParleyTests",
    appSecret: "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
    verifyToken: "parley-verify-token",
  };
  const sent: FakeSentMessage[] = [];
  const failures: FakeFailure[] = [];
  /** Media people sent and images uploaded, by media id (`GET /{media-id}` then its url). */
  const media = new Map<string, FakeMedia>();
  let origin = "";
  const keepMedia = (item: FakeMedia) => {
    const id = String(1_000_000_000_000_000 + media.size * 7919 + Math.floor(Math.random() * 1000));
    media.set(id, item);
    return id;
  };

  const graphError = (status: number, code: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    json({ error: { message, type: "OAuthException", code, ...extra, fbtrace_id: "AbCdEfGhIjK" } }, status, headers);

  const server = await serveFetch(async (request) => {
    const url = new URL(request.url);
    const authorized = request.headers.get("authorization") === `Bearer ${config.accessToken}`;
    const download = /^\/whatsapp_business\/attachments\/$/.test(url.pathname) ? media.get(url.searchParams.get("mid") ?? "") : undefined;
    if (request.method === "GET" && url.pathname === "/whatsapp_business/attachments/") {
      if (!authorized || !download) return new Response("", { status: 404 });
      return mediaResponse(download);
    }
    const mediaInfo = request.method === "GET" ? new RegExp(`^/${GRAPH_VERSION}/(\\d+)$`).exec(url.pathname) : null;
    if (mediaInfo && mediaInfo[1] !== phoneNumberId) {
      if (!authorized) return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
      const item = media.get(mediaInfo[1]!);
      if (!item) {
        return graphError(
          400,
          100,
          `Unsupported get request. Object with ID '${mediaInfo[1]}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
          { error_subcode: 33 },
        );
      }
      return json({
        messaging_product: "whatsapp",
        url: `${origin}/whatsapp_business/attachments/?mid=${mediaInfo[1]}&ext=1700000000&hash=ATfake`,
        mime_type: item.mime ?? "application/octet-stream",
        sha256: "0".repeat(64),
        ...(item.hideSize ? {} : { file_size: item.bytes.byteLength }),
        id: mediaInfo[1],
      });
    }
    if (request.method === "POST" && url.pathname === `/${GRAPH_VERSION}/${phoneNumberId}/media`) {
      if (!authorized) return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
      const form = await request.formData().catch(() => undefined);
      const file = form?.get("file");
      if (form?.get("messaging_product") !== "whatsapp" || !(file instanceof File))
        return graphError(400, 100, "(#100) The parameter messaging_product is required.");
      return json({ id: keepMedia({ kind: "image", bytes: new Uint8Array(await file.arrayBuffer()), mime: file.type, name: file.name }) });
    }
    if (request.method === "GET" && url.pathname === `/${GRAPH_VERSION}/${phoneNumberId}`) {
      if (!authorized) return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
      return json({ verified_name: "Parley Test", display_phone_number: "+1 555-010-0000", id: phoneNumberId });
    }
    if (request.method !== "POST" || url.pathname !== `/${GRAPH_VERSION}/${phoneNumberId}/messages`) {
      return graphError(400, 100, "Unsupported post request.", { error_subcode: 33 });
    }
    const body = (await request.json().catch(() => ({}))) as {
      messaging_product?: unknown;
      to?: unknown;
      type?: unknown;
      text?: { body?: unknown };
      image?: { id?: unknown };
    };
    const to = String(body.to ?? "");
    const text = String(body.text?.body ?? "");
    const image = body.type === "image" ? media.get(String(body.image?.id ?? "")) : undefined;
    if (!authorized) {
      sent.push({ to, text, authorized: false, at: Date.now() });
      return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
    }
    const failure = failures.shift();
    if (failure === "rate-limited")
      return graphError(
        429,
        130429,
        "(#130429) Rate limit hit",
        { error_data: { messaging_product: "whatsapp", details: "Cloud API message throughput has been reached." } },
        { "retry-after": "2" },
      );
    if (failure === "server-error")
      return graphError(500, 131000, "(#131000) Something went wrong", { error_data: { messaging_product: "whatsapp", details: "Something went wrong" } });
    if (failure === "token-expired")
      return graphError(401, 190, "Error validating access token: Session has expired on Saturday, 21-Nov-26 10:00:00 PST.", { error_subcode: 463 });
    if (failure === "rejected") {
      return graphError(400, 131047, "(#131047) Re-engagement message", {
        error_data: {
          messaging_product: "whatsapp",
          details: "Message failed to send because more than 24 hours have passed since the customer last replied to this number.",
        },
      });
    }
    if (image && body.messaging_product === "whatsapp" && to) {
      sent.push({ to, text: "", authorized: true, at: Date.now(), image: { bytes: image.bytes, mime: image.mime ?? "", name: image.name ?? "" } });
      return json({
        messaging_product: "whatsapp",
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: `wamid.${Buffer.from(fakeId("out")).toString("base64url")}` }],
      });
    }
    if (body.messaging_product !== "whatsapp" || body.type !== "text" || !to || !text) {
      return graphError(400, 100, "(#100) Invalid parameter");
    }
    if (text.length > 4096) return graphError(400, 100, "(#100) Param text['body'] must be at most 4096 characters long.");
    sent.push({ to, text, authorized: true, at: Date.now() });
    return json({
      messaging_product: "whatsapp",
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id: `wamid.${Buffer.from(fakeId("out")).toString("base64url")}` }],
    });
  });

  const entry = (message: FakeDelivery) => ({
    id: "102290129340398",
    changes: [
      {
        field: "messages",
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: "15550100000", phone_number_id: phoneNumberId },
          contacts: [{ profile: { name: message.senderName ?? "Ada" }, wa_id: message.senderId ?? "15551230001" }],
          messages: [mediaMessage(message) ?? whatsappTextMessage(message)],
        },
      },
    ],
  });

  origin = server.url;

  /** A person's image or document as `value.messages[]` carries it (the media id, its type, a caption). */
  function mediaMessage(message: FakeDelivery) {
    const item = message.media?.[0];
    if (!item) return undefined;
    const text = whatsappTextMessage(message);
    const type = item.kind === "image" ? "image" : "document";
    const content = {
      id: keepMedia(item),
      mime_type: item.mime ?? "application/octet-stream",
      sha256: "0".repeat(64),
      ...(message.text ? { caption: message.text } : {}),
    };
    return {
      from: text.from,
      id: text.id,
      timestamp: text.timestamp,
      type,
      [type]: type === "document" ? { ...content, filename: item.name ?? "file" } : content,
    };
  }

  return {
    kind: "whatsapp",
    apiBase: server.url,
    config,
    async delivery(webhookUrl, message) {
      return whatsappNotification(webhookUrl, config.appSecret, [entry(message)]);
    },
    async forged(webhookUrl, message) {
      return whatsappNotification(webhookUrl, `${config.appSecret}-wrong`, [entry(message)]);
    },
    async handshake(webhookUrl) {
      const url = new URL(webhookUrl);
      url.searchParams.set("hub.mode", "subscribe");
      url.searchParams.set("hub.challenge", "1158201444");
      url.searchParams.set("hub.verify_token", config.verifyToken);
      return { request: new Request(url), expectedBody: "1158201444" };
    },
    sent,
    get tokensIssued() {
      // System-user tokens are issued in Business Manager, not fetched by the adapter.
      return 0;
    },
    failNext(failure, count = 1) {
      for (let index = 0; index < count; index += 1) failures.push(failure);
    },
    close: server.close,
  };
}

/** Starts the WhatsApp Cloud API fake. */
export const startFake: () => Promise<PlatformFake> = startWhatsAppFake;
