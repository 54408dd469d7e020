import type { Config } from "../config";
import type { Db } from "../db/client";
import type { Logger } from "../logger";
import { createKnowledgeRuntime, type KnowledgeRuntime } from "../knowledge/runtime";
import { RemoteDatabaseRegistry, remoteDatabasePolicy } from "../databases/remote/registry";
import { outboundPolicy } from "../plugins/service/network";
import { createModelCatalog, type ModelCatalog } from "../models/catalog";
import { createSmtpMailSender } from "./mail/smtp";
import { createOidcClient } from "./oauth/oidc";
import { createWechatOAuthClient } from "./oauth/wechat";
import { createOutbox } from "./outbox";
import { createPluginRuntime } from "../plugins/service/runtime";
import type { PluginRuntime } from "../plugins/runtime-types";
import type { MailSender, OidcClient, SmsSender, WechatOAuthClient } from "./ports";
import { createAliyunSmsSender } from "./sms/aliyun";
import { createRealtimeHub, type RealtimeHub } from "../realtime/hub";
import { createSecretBox, loadSecretKey, type SecretBox } from "./secret-box";
import { createDiskFileStore } from "../kernel/files/disk";
import { createS3FileStore } from "../kernel/files/s3";
import type { FileStore } from "../kernel/files/port";

/** Picks each provider from the configuration: the real one when configured, else the embedded default. */
export function createProviders(
  config: Config,
  db: Db,
  logger: Logger,
): {
  mail: MailSender;
  sms: SmsSender;
  oidc: OidcClient | undefined;
  wechat: WechatOAuthClient | undefined;
  models: ModelCatalog;
  plugins: PluginRuntime;
  knowledge: KnowledgeRuntime;
  remoteDatabases: RemoteDatabaseRegistry;
  realtime: RealtimeHub;
  secrets: SecretBox;
  files: FileStore;
} {
  const outbox = createOutbox(db, logger);
  const secrets = createSecretBox(loadSecretKey(config.dataDir, config.channels.secretKey));
  return {
    mail: config.smtp ? createSmtpMailSender(config.smtp) : outbox.mail,
    sms: config.aliyunSms ? createAliyunSmsSender(config.aliyunSms) : outbox.sms,
    oidc: config.oidc
      ? createOidcClient({
          issuer: config.oidc.issuer,
          clientId: config.oidc.clientId,
          clientSecret: config.oidc.clientSecret,
          allowInsecureHttp: config.oidc.allowInsecureHttp,
        })
      : undefined,
    wechat: config.wechat ? createWechatOAuthClient(config.wechat) : undefined,
    models: createModelCatalog({ llm: config.llm, db, logger, policy: outboundPolicy(config), secrets }),
    plugins: createPluginRuntime({ db, secrets, config, logger, now: () => new Date() }),
    knowledge: createKnowledgeRuntime(config, logger),
    remoteDatabases: new RemoteDatabaseRegistry({ policy: remoteDatabasePolicy(config) }),
    secrets,
    // Stored files live in the configured bucket (PARLEY_S3_*), else under the data folder in the layout they always had.
    files: config.s3 ? createS3FileStore(config.s3) : createDiskFileStore(config.dataDir),
    realtime: createRealtimeHub((error) => logger.error("realtime listener failed", { error: String(error) })),
  };
}
