import { randomBytes } from "node:crypto";
import { feishuEncrypt, feishuSignature } from "../adapters/feishu/crypto";
import { fakeId, json, mediaResponse, serveFetch, type FakeDelivery, type FakeFailure, type FakeMedia, type FakeSentMessage, type PlatformFake } from "./fake";

/** The Feishu fake: a tenant whose app is `config.appId`, with a way to deliver any event body. */
export interface FeishuFake extends PlatformFake {
  /** The bot's open_id (what an @mention of the bot names). */
  botOpenId: string;
  /** Encrypts and signs `event` (a whole schema 2.0 or url_verification body) as Feishu would deliver it. */
  deliverRaw(webhookUrl: string, event: unknown, options?: { timestamp?: number }): Request;
}

/**
 * A local Feishu open platform: issues tenant_access_tokens (`auth/v3/tenant_access_token/internal`),
 * accepts `im/v1/messages?receive_id_type=chat_id` under Bearer auth (honouring `uuid`), and
 * delivers encrypted, signed `im.message.receive_v1` events.
 */
export async function startFeishuFake(): Promise<FeishuFake> {
  const appId = `cli_${randomBytes(8).toString("hex")}`;
  const appSecret = randomBytes(16).toString("base64url");
  const verificationToken = randomBytes(12).toString("base64url");
  const encryptKey = randomBytes(16).toString("base64url");
  const botOpenId = "ou_parleybot0001";
  const tenantKey = "tenant_fake_1";
  const sent: FakeSentMessage[] = [];
  const failures: FakeFailure[] = [];
  const liveTokens = new Set<string>();
  const knownChats = new Set<string>();
  const sentByUuid = new Map<string, string>();
  let tokensIssued = 0;
  /** Resources of the messages people sent, by message_id then key (image_key or file_key). */
  const resources = new Map<string, Map<string, FakeMedia>>();
  /** Images uploaded with im/v1/images, by image_key. */
  const images = new Map<string, FakeMedia>();
  const invalidToken = () => json({ code: 99991663, msg: "Invalid access token for authorization. Please make a request with token attached." }, 400);

  const server = await serveFetch(async (request) => {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === "/open-apis/auth/v3/tenant_access_token/internal") {
      const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
      if (body.app_id !== appId) return json({ code: 10003, msg: "invalid param: app_id" }, 400);
      if (body.app_secret !== appSecret) return json({ code: 10014, msg: "app secret invalid" }, 400);
      const token = `t-${randomBytes(16).toString("hex")}`;
      liveTokens.add(token);
      tokensIssued += 1;
      return json({ code: 0, msg: "ok", tenant_access_token: token, expire: 7200 });
    }
    const resource = /^\/open-apis\/im\/v1\/messages\/([^/]+)\/resources\/([^/]+)$/.exec(url.pathname);
    if (request.method === "GET" && resource) {
      if (!liveTokens.has((request.headers.get("authorization") ?? "").replace(/^Bearer /, ""))) return invalidToken();
      const type = url.searchParams.get("type");
      if (type !== "image" && type !== "file") return json({ code: 234001, msg: "Invalid request param." }, 400);
      const media = resources.get(decodeURIComponent(resource[1]!))?.get(decodeURIComponent(resource[2]!));
      if (!media) return json({ code: 234003, msg: "File not in msg." }, 400);
      return mediaResponse(media, media.name ? { "content-disposition": `attachment; filename="${media.name}"` } : {});
    }
    if (request.method === "POST" && url.pathname === "/open-apis/im/v1/images") {
      if (!liveTokens.has((request.headers.get("authorization") ?? "").replace(/^Bearer /, ""))) return invalidToken();
      const form = await request.formData().catch(() => undefined);
      const file = form?.get("image");
      if (form?.get("image_type") !== "message" || !(file instanceof File)) return json({ code: 234001, msg: "Invalid request param." }, 400);
      const bytes = new Uint8Array(await file.arrayBuffer());
      if (!((bytes[0] === 0xff && bytes[1] === 0xd8) || (bytes[0] === 0x89 && bytes[1] === 0x50)))
        return json({ code: 234011, msg: "Can't recognize image format." }, 400);
      const imageKey = `img_v3_${randomBytes(10).toString("hex")}`;
      images.set(imageKey, { kind: "image", bytes, mime: file.type, name: file.name });
      return json({ code: 0, msg: "success", data: { image_key: imageKey } });
    }
    if (request.method === "POST" && url.pathname === "/open-apis/im/v1/messages") {
      const failure = failures.shift();
      if (failure === "rate-limited") {
        return json({ code: 99991400, msg: "request trigger frequency limit" }, 429, { "x-ogw-ratelimit-limit": "50", "x-ogw-ratelimit-reset": "1" });
      }
      if (failure === "server-error") return json({ code: 1500, msg: "internal error" }, 500);
      if (failure === "token-expired") {
        // The platform expired every token it had handed out.
        liveTokens.clear();
        return json({ code: 99991663, msg: "Invalid access token for authorization. Please make a request with token attached." }, 400);
      }
      if (failure === "rejected") return json({ code: 230002, msg: "Bot/User can NOT be out of the chat." }, 400);
      const token = (request.headers.get("authorization") ?? "").replace(/^Bearer /, "");
      const body = (await request.json().catch(() => undefined)) as Record<string, unknown> | undefined;
      if (url.searchParams.get("receive_id_type") !== "chat_id" || !body || typeof body.receive_id !== "string") {
        return json({ code: 230001, msg: "Your request contains an invalid request parameter." }, 400);
      }
      const content = typeof body.content === "string" ? (JSON.parse(body.content) as Record<string, unknown>) : {};
      const text = typeof content.text === "string" ? content.text : "";
      const image = body.msg_type === "image" && typeof content.image_key === "string" ? images.get(content.image_key) : undefined;
      if (!liveTokens.has(token)) {
        sent.push({ to: body.receive_id, text, authorized: false, at: Date.now() });
        return json({ code: 99991663, msg: "Invalid access token for authorization. Please make a request with token attached." }, 400);
      }
      if (body.msg_type === "image" && !image) return json({ code: 230001, msg: "Your request contains an invalid request parameter." }, 400);
      if (!image && (body.msg_type !== "text" || !text)) return json({ code: 230001, msg: "Your request contains an invalid request parameter." }, 400);
      if (!knownChats.has(body.receive_id)) return json({ code: 230002, msg: "Bot/User can NOT be out of the chat." }, 400);
      const uuid = typeof body.uuid === "string" ? body.uuid : undefined;
      const earlier = uuid ? sentByUuid.get(uuid) : undefined;
      const messageId = earlier ?? `om_${randomBytes(12).toString("hex")}`;
      if (!earlier) {
        if (uuid) sentByUuid.set(uuid, messageId);
        sent.push({
          to: body.receive_id,
          text,
          authorized: true,
          at: Date.now(),
          ...(image ? { image: { bytes: image.bytes, mime: image.mime ?? "", name: image.name ?? "" } } : {}),
        });
      }
      return json({ code: 0, msg: "success", data: { message_id: messageId, chat_id: body.receive_id, msg_type: "text" } });
    }
    return json({ code: 404, msg: "not found" }, 404);
  });

  const eventBody = (message: FakeDelivery) => {
    const isGroup = message.isGroup ?? false;
    const senderId = message.senderId ?? "ou_person0001";
    const chatId = message.conversationId ?? (isGroup ? "oc_group0001" : `oc_p2p_${senderId}`);
    knownChats.add(chatId);
    const now = Date.now();
    const messageId = fakeId("om_");
    // One picture or file per message, as Feishu sends them (image: image_key; file: file_key and file_name).
    const media = message.media?.[0];
    const key = media ? `${media.kind === "image" ? "img_v3_" : "file_v3_"}${randomBytes(8).toString("hex")}` : undefined;
    if (media && key) resources.set(messageId, new Map([[key, media]]));
    const mentions = isGroup ? [{ key: "@_user_1", id: { open_id: botOpenId, user_id: null, union_id: "on_bot" }, name: "Parley", tenant_key: tenantKey }] : [];
    return {
      schema: "2.0",
      header: {
        event_id: message.id ?? fakeId("evt_"),
        token: verificationToken,
        create_time: String(now),
        event_type: "im.message.receive_v1",
        tenant_key: tenantKey,
        app_id: appId,
      },
      event: {
        sender: { sender_id: { open_id: senderId, union_id: `on_${senderId}`, user_id: null }, sender_type: "user", tenant_key: tenantKey },
        message: {
          message_id: messageId,
          create_time: String(now),
          chat_id: chatId,
          chat_type: isGroup ? "group" : "p2p",
          ...(media && key
            ? {
                message_type: media.kind,
                content: JSON.stringify(media.kind === "image" ? { image_key: key } : { file_key: key, file_name: media.name ?? "file" }),
              }
            : { message_type: "text", content: JSON.stringify({ text: isGroup ? `@_user_1 ${message.text}` : message.text }) }),
          mentions,
        },
      },
    };
  };

  const deliverRaw = (webhookUrl: string, event: unknown, options: { timestamp?: number; key?: string } = {}) => {
    const body = JSON.stringify({ encrypt: feishuEncrypt(encryptKey, JSON.stringify(event)) });
    const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
    const nonce = randomBytes(8).toString("hex");
    return new Request(webhookUrl, {
      method: "POST",
      body,
      headers: {
        "content-type": "application/json",
        "x-lark-request-timestamp": timestamp,
        "x-lark-request-nonce": nonce,
        "x-lark-signature": feishuSignature(timestamp, nonce, options.key ?? encryptKey, body),
      },
    });
  };

  return {
    kind: "feishu",
    apiBase: server.url,
    config: { appId, appSecret, verificationToken, encryptKey },
    botOpenId,
    sent,
    get tokensIssued() {
      return tokensIssued;
    },
    deliverRaw,
    async delivery(webhookUrl, message) {
      return deliverRaw(webhookUrl, eventBody(message));
    },
    async forged(webhookUrl, message) {
      return deliverRaw(webhookUrl, eventBody(message), { key: randomBytes(16).toString("base64url") });
    },
    async stale(webhookUrl, message) {
      return deliverRaw(webhookUrl, eventBody(message), { timestamp: Math.floor(Date.now() / 1000) - 600 });
    },
    async handshake(webhookUrl) {
      const challenge = randomBytes(16).toString("hex");
      return {
        request: deliverRaw(webhookUrl, { challenge, token: verificationToken, type: "url_verification" }),
        expectedBody: JSON.stringify({ challenge }),
      };
    },
    failNext(failure, count = 1) {
      for (let index = 0; index < count; index += 1) failures.push(failure);
    },
    close: () => server.close(),
  };
}

/** Starts a local Feishu (see {@link startFeishuFake}). */
export const startFake: () => Promise<PlatformFake> = startFeishuFake;
