/** Platforms Parley connects agents to (spec §1). */
export const platforms = [
  "web",
  "open-api",
  "wechat-official-account",
  "wechat-work",
  "wechat-customer-service",
  "feishu",
  "dingtalk",
  "discord",
  "telegram",
  "slack",
  "hubspot",
  "whatsapp",
] as const;

/** One of {@link platforms}. */
export type Platform = (typeof platforms)[number];

/** The messaging platforms reached through a webhook adapter (every platform but the web widget and the open API). */
export const channelKinds = [
  "wechat-official-account",
  "wechat-work",
  "wechat-customer-service",
  "feishu",
  "dingtalk",
  "discord",
  "telegram",
  "slack",
  "hubspot",
  "whatsapp",
] as const satisfies readonly Platform[];

/** One of {@link channelKinds}. */
export type ChannelKind = (typeof channelKinds)[number];

/** A webhook request as it arrived, read once: signatures are checked against these exact bytes. */
export interface InboundRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: Uint8Array;
}

/** What {@link ChannelAdapter.verify} decided. */
export type VerifyResult =
  /** A URL check (echostr, challenge, PING, hub.challenge): answer it and store nothing. */
  | { kind: "handshake"; response: Response }
  /** Authentic (and decrypted): hand `payload` to `ack` and `parse`. */
  | { kind: "verified"; payload: unknown }
  /** Forged, stale, replayed or malformed: answer `status`, store nothing. */
  | { kind: "rejected"; status: 400 | 401 | 403; reason: string };

/** A file, image, audio or video that came with a message; `ref` is the platform's handle for it. */
export interface InboundAttachment {
  kind: "image" | "audio" | "video" | "file" | "location" | "link";
  ref: string;
  mime?: string;
  name?: string;
}

/**
 * What {@link ChannelAdapter.send} needs to answer later: JSON only (it is stored with the job),
 * e.g. `{chatId}` for Telegram, `{channel, threadTs}` for Slack, `{openid}` for WeChat.
 */
export type ReplyHandle = Record<string, string | number | boolean | null>;

/** A message from any platform, in one shape. */
export interface InboundMessage {
  /** Unique per delivery of the same message across the platform's retries (event_id, MsgId, update_id, wamid…). */
  dedupeKey: string;
  conversation: { id: string; isGroup: boolean; name?: string };
  sender: { id: string; name?: string; avatarUrl?: string; isBot: boolean };
  /** Plain text with bot mentions removed; empty when the message has only attachments. */
  text: string;
  attachments: InboundAttachment[];
  /** Milliseconds since the epoch. */
  sentAt: number;
  reply: ReplyHandle;
}

/** What a platform allows, as data the reply planner uses. */
export interface Capabilities {
  /** How long the platform waits for the webhook's HTTP answer. */
  ackDeadlineMs: number;
  /** The answer may be given in the webhook's HTTP response (WeChat passive reply). */
  passiveReply: boolean;
  /** The longest message the send API takes, and in which unit it counts. */
  maxText: { unit: "chars" | "utf8-bytes"; value: number };
  /** After the person's last message, replies are accepted only this long (and this many). */
  replyWindow?: { hours: number; maxMessages?: number };
  markdown: boolean;
  edit: boolean;
  typing: boolean;
}

/** One field of a channel's configuration form (the console draws the form from these). */
export interface ConfigField {
  key: string;
  label: { en: string; "zh-CN": string };
  help?: { en: string; "zh-CN": string };
  /** Secrets are encrypted at rest and never returned by the API; the form shows them as set or not set. */
  secret: boolean;
  required: boolean;
  /** A closed list of values; absent means free text. */
  options?: { value: string; label: { en: string; "zh-CN": string } }[];
  /** Used when the field is left empty. */
  default?: string;
  /** A regular expression the value must match (the API checks it on save). */
  pattern?: string;
}

/** A channel's entry in the catalogue. */
export interface ChannelDescriptor {
  kind: ChannelKind;
  name: { en: string; "zh-CN": string };
  fields: ConfigField[];
  /** The production API base (tests point adapters at a local fake instead). */
  defaultApiBase: string;
}

/** Configuration of one connected account: the values of the descriptor's fields, by key. */
export type ChannelConfig = Record<string, string>;

/** A key-value store with expiry, shared by every process of the server (cursors, tokens, replay guards). */
export interface KeyValueStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Sets the key only when it is absent or expired; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  delete(key: string): Promise<void>;
}

/** An access token and its lifetime, as a platform's token endpoint returns it. */
export interface IssuedToken {
  token: string;
  expiresInSeconds: number;
}

/** Access tokens per account: fetched once, refreshed early, dropped when the platform says they expired. */
export interface TokenCache {
  get(key: string, issue: () => Promise<IssuedToken>): Promise<string>;
  invalidate(key: string): Promise<void>;
}

/** What an adapter is given: no database, no server of its own. */
export interface AdapterIO {
  fetch: typeof fetch;
  /** The platform's API base, without a trailing slash (the official one, or a local fake in tests). */
  apiBase: string;
  /** Milliseconds since the epoch. */
  now: () => number;
  kv: KeyValueStore;
  tokens: TokenCache;
}

/**
 * Raised by `send` (and `parse` when it calls the platform) when the platform refused or failed.
 * `retryable` failures (5xx, 429, timeouts, expired tokens) are retried with backoff by the job queue.
 */
export class ChannelError extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs: number | undefined;
  readonly platformCode: string | undefined;
  constructor(message: string, options: { retryable: boolean; retryAfterMs?: number; platformCode?: string | number }) {
    super(message);
    this.name = "ChannelError";
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.platformCode = options.platformCode === undefined ? undefined : String(options.platformCode);
  }
}

/** The bytes of an attachment, as {@link ChannelAdapter.fetchMedia} read them from the platform. */
export interface FetchedMedia {
  bytes: Uint8Array;
  /** The type the platform declared (the server checks the bytes themselves). */
  mime?: string;
  name?: string;
}

/** An image an operator sends to a platform conversation (already checked: JPEG or PNG). */
export interface OutboundImage {
  bytes: Uint8Array;
  mime: string;
  name: string;
}

/** One messaging platform. */
export interface ChannelAdapter {
  readonly kind: ChannelKind;
  readonly descriptor: ChannelDescriptor;
  readonly capabilities: Capabilities;
  /**
   * Authenticates the request against its raw bytes (timing-safe; stale timestamps and replays
   * refused), decrypts it, and answers URL handshakes. Never throws for bad input: it rejects.
   */
  verify(request: InboundRequest, config: ChannelConfig, io: AdapterIO): Promise<VerifyResult>;
  /** The webhook's immediate answer once verified ("success", 200 `{}`, Discord's deferred type 5, …). */
  ack(payload: unknown, config: ChannelConfig): Response;
  /** The messages a verified payload carries: none for receipts, pings and the bot's own messages. May call the platform (WeChat customer service `sync_msg`). */
  parse(payload: unknown, config: ChannelConfig, io: AdapterIO): Promise<InboundMessage[]>;
  /** Sends one message of at most `capabilities.maxText`; returns the platform's message ids. */
  send(to: ReplyHandle, text: string, config: ChannelConfig, io: AdapterIO): Promise<{ ids: string[] }>;
  /** The webhook's HTTP response carrying `text` as the answer (only when `capabilities.passiveReply`). */
  passiveReply?(message: InboundMessage, text: string, config: ChannelConfig, io: AdapterIO): Response;
  /** Tells the platform where to deliver (Telegram `setWebhook`); platforms configured by hand have none. */
  register?(webhookUrl: string, config: ChannelConfig, io: AdapterIO): Promise<void>;
  /** Checks credentials with the platform (fetches a token, gets the bot); throws a ChannelError when they are wrong. */
  probe?(config: ChannelConfig, io: AdapterIO): Promise<void>;
  /**
   * Downloads an image or file of `message` with the platform's media API (at most
   * {@link MEDIA_MAX_BYTES}: a larger one is refused while reading). A media id the platform
   * refuses is a non-retryable ChannelError carrying the platform's code.
   */
  fetchMedia?(attachment: InboundAttachment, message: InboundMessage, config: ChannelConfig, io: AdapterIO): Promise<FetchedMedia>;
  /** Sends an image to the conversation (platforms without it get a link to the image as text). */
  sendImage?(to: ReplyHandle, image: OutboundImage, config: ChannelConfig, io: AdapterIO): Promise<{ ids: string[] }>;
}

/** The largest attachment Parley downloads from a platform (the chat files' document limit). */
export const MEDIA_MAX_BYTES = 15 * 1024 * 1024;
