import type { Config } from "../config";
import type { Db } from "../db/client";
import type { Logger } from "../logger";
import type { KnowledgeRuntime } from "../knowledge/runtime";
import type { ModelCatalog } from "../models/catalog";
import type { PluginRuntime } from "../plugins/runtime-types";
import type { MailSender, OidcClient, SmsSender, WechatOAuthClient } from "../platform/ports";
import type { Language } from "./messages";
import type { Throttle } from "./throttle";
import type { RealtimeHub } from "../realtime/hub";
import type { SecretBox } from "../platform/secret-box";

/** Everything the app needs from outside, injected into {@link createApp}. */
export interface Deps {
  config: Config;
  db: Db;
  logger: Logger;
  mail: MailSender;
  sms: SmsSender | undefined;
  oidc: OidcClient | undefined;
  wechat: WechatOAuthClient | undefined;
  throttle: Throttle;
  /** Language models: config and console providers plus the offline responder. */
  models: ModelCatalog;
  /** Plugins apps may call as tools. */
  plugins: PluginRuntime;
  /** Embedders and vector tables of knowledge bases. */
  knowledge: KnowledgeRuntime;
  /** Real-time fan-out to consoles and web visitors (socket.io in the server). */
  realtime: RealtimeHub;
  /** Seals secrets kept in the database (channel credentials, webhook secrets). */
  secrets: SecretBox;
  /** Current time; tests may pass a fixed clock. */
  now: () => Date;
}

/** Who is calling and in which space. */
export interface Auth {
  userId: string;
  spaceId: string;
  role: "owner" | "admin" | "member";
  via: "session" | "api-key";
  sessionId?: string;
  apiKeyId?: string;
}

/** Hono environment shared by every route. */
export interface AppEnv {
  Variables: {
    deps: Deps;
    language: Language;
    requestId: string;
    auth: Auth;
  };
}
