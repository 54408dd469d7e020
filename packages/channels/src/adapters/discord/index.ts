import { fresh } from "../../crypto";
import { ChannelError, type AdapterIO, type ChannelAdapter, type ChannelConfig, type ReplyHandle } from "../../types";
import { callPlatform, isObject, numberAt, parseJson, stringAt } from "../global-shared/http";
import { downloadFailure, mediaType, readMediaBody } from "../global-shared/media";
import { callDiscord, expiredInteractionCodes } from "./client";
import { signedBytes, verifyEd25519 } from "./ed25519";
import { InteractionType, INTERACTION_TOKEN_LIFETIME_MS, parseInteraction } from "./parse";

/** Discord documents no window for X-Signature-Timestamp; Parley accepts five minutes either way. */
const TIMESTAMP_WINDOW_SECONDS = 300;
/** Stop using the interaction token a little before Discord does, so a slow call does not straddle expiry. */
const TOKEN_SAFETY_MARGIN_MS = 10_000;
/** Never let the agent's answer ping @everyone, roles or users. */
const NO_MENTIONS = { parse: [] as string[] };

/** The slash command `register` creates: `/ask question:<text>`. */
export const askCommand = {
  name: "ask",
  type: 1,
  description: "Ask the assistant",
  description_localizations: { "zh-CN": "向助手提问" },
  options: [
    {
      type: 3,
      name: "question",
      description: "Your question",
      description_localizations: { "zh-CN": "你的问题" },
      required: true,
      max_length: 2000,
    },
  ],
};

function botToken(config: ChannelConfig): string | undefined {
  return config.botToken?.trim() || undefined;
}

/**
 * Sends through the interaction webhook while its token lives: the first answer replaces the
 * deferred "thinking…" placeholder (PATCH `@original`), later ones are follow-ups. Which one is
 * first is kept in `io.kv`, because the reply handle is stored data the adapter cannot change.
 * Returns undefined when the token has expired, so the caller falls back to the bot token.
 */
async function sendThroughInteraction(to: ReplyHandle, content: string, io: AdapterIO): Promise<string | undefined> {
  const { applicationId, interactionId, interactionToken, expiresAt } = to;
  if (typeof applicationId !== "string" || typeof interactionToken !== "string" || typeof expiresAt !== "number") return undefined;
  if (io.now() >= expiresAt - TOKEN_SAFETY_MARGIN_MS) return undefined;
  const base = `/webhooks/${applicationId}/${interactionToken}`;
  const originalKey = `discord:original:${String(interactionId)}`;
  const first = await io.kv.setIfAbsent(originalKey, "edited", Math.ceil(INTERACTION_TOKEN_LIFETIME_MS / 1000));
  try {
    const message = first
      ? await callDiscord(io, "PATCH", `${base}/messages/@original`, { body: { content, allowed_mentions: NO_MENTIONS } })
      : await callDiscord(io, "POST", `${base}?wait=true`, { body: { content, allowed_mentions: NO_MENTIONS } });
    return stringAt(message, "id") ?? "";
  } catch (error) {
    // The placeholder was not replaced: the next attempt must try @original again.
    if (first) await io.kv.delete(originalKey);
    if (error instanceof ChannelError && error.platformCode !== undefined && expiredInteractionCodes.has(error.platformCode)) return undefined;
    throw error;
  }
}

/**
 * Discord over the HTTP interactions endpoint: slash commands signed with Ed25519, answered
 * with a deferred response (type 5) and then through the interaction token (15 minutes), after
 * which replies go to the channel with the bot token. Plain DMs and @mentions need the Gateway,
 * which this webhook adapter does not open.
 */
export const adapter: ChannelAdapter = {
  kind: "discord",
  descriptor: {
    kind: "discord",
    name: { en: "Discord", "zh-CN": "Discord" },
    defaultApiBase: "https://discord.com/api/v10",
    fields: [
      {
        key: "applicationId",
        label: { en: "Application ID", "zh-CN": "应用 ID（Application ID）" },
        help: { en: "Developer Portal → General Information.", "zh-CN": "开发者门户 → General Information。" },
        secret: false,
        required: true,
        pattern: "^\\d{17,20}$",
      },
      {
        key: "publicKey",
        label: { en: "Public key", "zh-CN": "公钥（Public Key）" },
        help: { en: "64 hex characters, used to check Discord's Ed25519 signatures.", "zh-CN": "64 位十六进制字符，用于校验 Discord 的 Ed25519 签名。" },
        secret: false,
        required: true,
        pattern: "^[0-9a-fA-F]{64}$",
      },
      {
        key: "botToken",
        label: { en: "Bot token", "zh-CN": "机器人令牌（Bot Token）" },
        help: {
          en: "Registers the /ask command and posts answers that come after the 15-minute interaction window.",
          "zh-CN": "用于注册 /ask 命令，并在 15 分钟交互有效期过后向频道发送回答。",
        },
        secret: true,
        required: true,
      },
    ],
  },
  capabilities: {
    ackDeadlineMs: 3000,
    passiveReply: false,
    maxText: { unit: "chars", value: 2000 },
    markdown: true,
    edit: false,
    typing: false,
  },

  async verify(request, config, io) {
    if (request.method !== "POST") return { kind: "rejected", status: 400, reason: "interactions arrive by POST" };
    const signature = request.headers.get("x-signature-ed25519") ?? "";
    const timestamp = request.headers.get("x-signature-timestamp") ?? "";
    // Discord probes endpoints with bad signatures and expects 401 for every one of them.
    if (!/^\d{1,12}$/.test(timestamp) || !fresh(Number(timestamp), io.now(), TIMESTAMP_WINDOW_SECONDS)) {
      return { kind: "rejected", status: 401, reason: "X-Signature-Timestamp missing or outside five minutes" };
    }
    if (!verifyEd25519(config.publicKey ?? "", signedBytes(timestamp, request.body), signature)) {
      return { kind: "rejected", status: 401, reason: "X-Signature-Ed25519 missing or wrong" };
    }
    const interaction = parseJson(request.body);
    const type = numberAt(interaction, "type");
    if (!isObject(interaction) || type === undefined) return { kind: "rejected", status: 400, reason: "not an interaction" };
    if (type === InteractionType.PING) {
      return { kind: "handshake", response: new Response(JSON.stringify({ type: 1 }), { status: 200, headers: { "content-type": "application/json" } }) };
    }
    return { kind: "verified", payload: interaction };
  },

  ack(payload) {
    const type = numberAt(payload, "type");
    // 5 DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE for commands, 6 DEFERRED_UPDATE_MESSAGE for components, 8 empty choices for autocomplete.
    const response =
      type === InteractionType.MESSAGE_COMPONENT ? { type: 6 } : type === InteractionType.AUTOCOMPLETE ? { type: 8, data: { choices: [] } } : { type: 5 };
    return new Response(JSON.stringify(response), { status: 200, headers: { "content-type": "application/json" } });
  },

  async parse(payload) {
    return parseInteraction(payload);
  },

  async send(to, text, config, io) {
    const viaInteraction = await sendThroughInteraction(to, text, io);
    if (viaInteraction !== undefined) return { ids: [viaInteraction] };
    const token = botToken(config);
    if (typeof to.channelId !== "string" || !token) {
      throw new ChannelError("discord: the interaction expired and no bot token is configured to post in the channel", {
        retryable: false,
        platformCode: 50027,
      });
    }
    const message = await callDiscord(io, "POST", `/channels/${to.channelId}/messages`, {
      botToken: token,
      body: { content: text, allowed_mentions: NO_MENTIONS },
    });
    return { ids: [stringAt(message, "id") ?? ""] };
  },

  /** Creates (or updates) the `/ask` command and points the application's interactions endpoint at Parley. */
  async register(webhookUrl, config, io) {
    const token = botToken(config);
    if (!token) throw new ChannelError("discord: a bot token is needed to register the command", { retryable: false });
    await callDiscord(io, "POST", `/applications/${config.applicationId}/commands`, { botToken: token, body: askCommand });
    // Discord checks the new URL with a signed PING before it saves it.
    await callDiscord(io, "PATCH", "/applications/@me", { botToken: token, body: { interactions_endpoint_url: webhookUrl } });
  },

  async fetchMedia(attachment, _message, _config, io) {
    // Attachments are public CDN addresses (signed by Discord): fetched directly, without the bot token.
    if (!trustedAttachmentUrl(attachment.ref, io)) {
      throw new ChannelError("discord: the attachment is not on Discord's CDN", { retryable: false, platformCode: "untrusted_attachment_url" });
    }
    const what = "discord attachment download";
    const response = await callPlatform(io.fetch, attachment.ref, { method: "GET" }, what);
    if (!response.ok) throw downloadFailure(response, what);
    const bytes = await readMediaBody(response, what);
    const mime = attachment.mime ?? mediaType(response);
    return { bytes, ...(mime ? { mime } : {}), ...(attachment.name ? { name: attachment.name } : {}) };
  },

  async probe(config, io) {
    const token = botToken(config);
    if (!token) throw new ChannelError("discord: no bot token", { retryable: false });
    const application = await callDiscord(io, "GET", "/applications/@me", { botToken: token });
    if (stringAt(application, "id") !== config.applicationId) {
      throw new ChannelError("discord: the bot token belongs to another application", { retryable: false });
    }
    const verifyKey = stringAt(application, "verify_key");
    if (verifyKey && verifyKey.toLowerCase() !== (config.publicKey ?? "").toLowerCase()) {
      throw new ChannelError("discord: the public key is not this application's", { retryable: false });
    }
  },
};

/** Discord's attachment hosts (and, in tests, the API's own origin). */
function trustedAttachmentUrl(url: string, io: AdapterIO): boolean {
  try {
    const parsed = new URL(url);
    const discordHost = parsed.hostname === "cdn.discordapp.com" || parsed.hostname === "media.discordapp.net";
    return (parsed.protocol === "https:" && discordHost) || parsed.origin === new URL(io.apiBase).origin;
  } catch {
    return false;
  }
}
