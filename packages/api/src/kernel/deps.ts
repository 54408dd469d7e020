import type { Config } from "../config";
import type { Db } from "../db/client";
import type { RemoteDatabaseRegistry } from "../databases/remote/registry";
import type { KnowledgeRuntime } from "../knowledge/runtime";
import type { Logger } from "../logger";
import type { ModelCatalog } from "../models/catalog";
import type { PluginRuntime } from "../plugins/runtime-types";
import type { SecretBox } from "../platform/secret-box";
import type { Clock } from "./clock";
import type { FileStore } from "./files/port";
import type { JobQueue } from "../jobs/port";
import type { MailSender, OidcClient, RealtimeHub, SmsSender, WechatOAuthClient } from "./ports";
import type { Throttle } from "./throttle";

/**
 * Everything the services need from outside, built once by the server (or a test) and handed
 * down. Services take the ports they use (`Pick<Deps, "db" | "files">`), not the whole object.
 */
export interface Deps {
  config: Config;
  /** The relational store (drizzle over SQLite or libsql). */
  db: Db;
  logger: Logger;
  /** Stored files: uploads, extracted texts, media (a folder now; object storage later). */
  files: FileStore;
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
  /** Connection pools of remote databases, one per database and settings version; closed on shutdown. */
  remoteDatabases: RemoteDatabaseRegistry;
  /** Real-time fan-out to consoles and web visitors (socket.io in the server). */
  realtime: RealtimeHub;
  /** Seals secrets kept in the database (channel credentials, webhook secrets). */
  secrets: SecretBox;
  /** The job queue when one is configured (BullMQ on Redis); without it, jobs go to the relational store (kernel/jobs.ts `jobsOf`). */
  jobs?: JobQueue;
  /** Current time; tests may pass a fixed clock. */
  now: Clock;
}
