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

/** A message from any platform, in one shape. */
export interface NormalizedMessage {
  platform: Platform;
  /** The platform's own message id, for de-duplication of redeliveries. */
  externalId: string;
  conversationId: string;
  isGroup: boolean;
  groupName?: string;
  sender: { id: string; name?: string; avatarUrl?: string };
  text: string;
  receivedAt: string;
}

/** What a platform allows, as data the engine plans replies with. */
export interface Capabilities {
  /** Seconds the platform waits for a synchronous answer, if it waits at all. */
  replyDeadlineSeconds?: number;
  maxMessageLength: number;
  /** Hours after the user's last message in which a reply may still be sent. */
  replyWindowHours?: number;
  markdown: boolean;
}

/** What an adapter is given: no database, no server of its own. */
export interface AdapterContext {
  fetch: typeof fetch;
  now: () => Date;
  store: { get(key: string): Promise<string | undefined>; set(key: string, value: string, ttlSeconds?: number): Promise<void> };
}

/** One messaging platform. Implementations land with the channels issue. */
export interface ChannelAdapter<Config = unknown> {
  platform: Platform;
  capabilities: Capabilities;
  /** Checks the request's signature, timing-safe; false means drop it. */
  verify(request: Request, config: Config, context: AdapterContext): Promise<boolean>;
  /** Turns a verified webhook into messages (none for pings and receipts), plus an immediate answer if the platform wants one. */
  parse(request: Request, config: Config, context: AdapterContext): Promise<{ messages: NormalizedMessage[]; response?: Response }>;
  send(target: { conversationId: string }, text: string, config: Config, context: AdapterContext): Promise<{ externalId?: string }>;
}
