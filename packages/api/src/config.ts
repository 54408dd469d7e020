import path from "node:path";
import proxyaddr from "proxy-addr";
import { z } from "zod";

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim()));

const integer = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);

/** Environment variables Parley reads, once, at start-up. */
export const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  PARLEY_DATA_DIR: z.string().default("./data"),
  /** `file:` or `libsql://` / `http(s)://` URL. Empty means the SQLite file in the data directory. */
  PARLEY_DATABASE_URL: optionalString,
  PARLEY_DATABASE_DRIVER: z.enum(["better-sqlite3", "libsql"]).optional(),
  PARLEY_DATABASE_AUTH_TOKEN: optionalString,
  /** SQLite page cache per connection, in MB (better-sqlite3 only). */
  PARLEY_SQLITE_CACHE_MB: z.coerce.number().int().min(1).max(65536).default(32),
  /** Memory-mapped reads of the SQLite file, in MB; 0 turns them off (better-sqlite3 only). */
  PARLEY_SQLITE_MMAP_MB: z.coerce.number().int().min(0).max(1048576).default(0),
  PARLEY_PUBLIC_URL: optionalString,
  PARLEY_BOOTSTRAP_API_KEY: optionalString,
  PARLEY_OWNER_EMAIL: optionalString,
  PARLEY_CONSOLE_DIR: optionalString,
  PARLEY_CORS_ORIGINS: z.string().default("*"),
  /**
   * Load balancers whose X-Forwarded-For is believed (comma list of addresses, CIDR ranges or
   * `loopback`, `linklocal`, `uniquelocal`); empty: the caller is the TCP peer.
   */
  PARLEY_TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform((value) =>
      value
        .split(",")
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .superRefine((entries, context) => {
      try {
        proxyaddr.compile(entries);
      } catch (error) {
        context.addIssue({ code: "custom", message: error instanceof Error ? error.message : String(error) });
      }
    }),
  PARLEY_BODY_LIMIT_BYTES: integer(1024 * 1024),
  PARLEY_SESSION_TTL_HOURS: integer(24 * 14),
  PARLEY_LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Failed sign-ins one address may make on one account per window before it backs off. */
  PARLEY_THROTTLE_LOGIN_PER_ACCOUNT: integer(10),
  PARLEY_THROTTLE_LOGIN_PER_IP: integer(60),
  /** Password attempts on one account from every address together per window (known addresses exempt). */
  PARLEY_THROTTLE_LOGIN_ACCOUNT_CEILING: integer(100),
  PARLEY_THROTTLE_CODES_PER_TARGET: integer(5),
  PARLEY_THROTTLE_CODES_PER_IP: integer(30),
  PARLEY_THROTTLE_WINDOW_SECONDS: integer(15 * 60),
  /** Widget visitor sessions one IP may start per 10 minutes. */
  PARLEY_THROTTLE_WIDGET_SESSIONS_PER_IP: z.coerce.number().int().positive().default(30),
  PARLEY_CODE_RESEND_SECONDS: integer(60),
  PARLEY_WELCOME_CREDITS: integer(2000),
  /** Daily check-in: credits are drawn at random between these two, inclusive. */
  PARLEY_CHECKIN_MIN: integer(10),
  PARLEY_CHECKIN_MAX: integer(50),
  /** IANA time zone whose calendar days the check-in counts (one per user per day). */
  PARLEY_TIME_ZONE: z
    .string()
    .default("UTC")
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat("en-CA", { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, "not a time zone Intl knows"),
  /** Credits the inviter receives when a new user registers through their link. */
  PARLEY_INVITE_REWARD: integer(300),
  /** Percent of the credits others spend on a published app credited to its creator's benefits. */
  PARLEY_CREATOR_SHARE_PERCENT: z.coerce.number().int().min(0).max(100).default(20),
  SMTP_HOST: optionalString,
  SMTP_PORT: z.coerce.number().int().positive().default(587),
  SMTP_SECURE: z.enum(["true", "false"]).default("false"),
  SMTP_USER: optionalString,
  SMTP_PASSWORD: optionalString,
  SMTP_FROM: z.string().default("Parley <no-reply@parley.local>"),
  ALIYUN_SMS_ACCESS_KEY_ID: optionalString,
  ALIYUN_SMS_ACCESS_KEY_SECRET: optionalString,
  ALIYUN_SMS_SIGN_NAME: optionalString,
  ALIYUN_SMS_TEMPLATE_CODE: optionalString,
  /** Template for "a conversation waits for a person" notices (params: app, customer). */
  ALIYUN_SMS_HANDOVER_TEMPLATE_CODE: optionalString,
  /** Template for "a channel client went offline" notices (param: client). */
  ALIYUN_SMS_OFFLINE_TEMPLATE_CODE: optionalString,
  /** Template for balance alerts (params: space, balance, threshold). */
  ALIYUN_SMS_BALANCE_TEMPLATE_CODE: optionalString,
  ALIYUN_SMS_ENDPOINT: optionalString,
  OIDC_ISSUER: optionalString,
  OIDC_CLIENT_ID: optionalString,
  OIDC_CLIENT_SECRET: optionalString,
  OIDC_NAME: z.string().default("SSO"),
  OIDC_ALLOW_INSECURE_HTTP: z.enum(["true", "false"]).default("false"),
  WECHAT_APP_ID: optionalString,
  WECHAT_APP_SECRET: optionalString,
  WECHAT_OPEN_BASE_URL: optionalString,
  WECHAT_API_BASE_URL: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString,
  PARLEY_OPENAI_MODELS: optionalString,
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalString,
  PARLEY_ANTHROPIC_MODELS: optionalString,
  GEMINI_API_KEY: optionalString,
  GEMINI_BASE_URL: optionalString,
  PARLEY_GEMINI_MODELS: optionalString,
  PARLEY_OPENAI_COMPATIBLE_BASE_URL: optionalString,
  PARLEY_OPENAI_COMPATIBLE_API_KEY: optionalString,
  PARLEY_OPENAI_COMPATIBLE_MODELS: optionalString,
  PARLEY_OPENAI_COMPATIBLE_NAME: z.string().default("OpenAI-compatible"),
  PARLEY_DEFAULT_MODEL: z.string().trim().min(1).default("gpt-4.1-mini"),
  PARLEY_LLM_TIMEOUT_SECONDS: z.coerce.number().int().positive().default(60),
  PARLEY_PLUGINS_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  PARLEY_PLUGINS_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(256 * 1024),
  PARLEY_PLUGINS_ALLOW_PRIVATE_NETWORK: z.enum(["true", "false"]).default("false"),
  /** Comma-separated `host` or `host:port` entries plugins may reach even when private. */
  PARLEY_PLUGINS_ALLOWED_HOSTS: z.string().default(""),
  /** Remote databases (MySQL/MariaDB, PostgreSQL): private ranges and loopback are refused unless these open them. */
  PARLEY_DATABASES_ALLOW_PRIVATE_NETWORK: z.enum(["true", "false"]).default("false"),
  PARLEY_DATABASES_ALLOW_LOOPBACK: z.enum(["true", "false"]).default("false"),
  PARLEY_WEB_SEARCH_PROVIDER: z.enum(["searxng"]).optional(),
  PARLEY_WEB_SEARCH_URL: optionalString,
  PARLEY_WEB_SEARCH_API_KEY: optionalString,
  /** Embeddings for knowledge bases: absent means the offline lexical embedder. */
  PARLEY_EMBEDDINGS_PROVIDER: z.enum(["openai", "ollama"]).optional(),
  PARLEY_EMBEDDINGS_BASE_URL: optionalString,
  PARLEY_EMBEDDINGS_API_KEY: optionalString,
  PARLEY_EMBEDDINGS_MODEL: optionalString,
  PARLEY_EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(8).max(8192).optional(),
  PARLEY_EMBEDDINGS_QUERY_PREFIX: optionalString,
  PARLEY_EMBEDDINGS_DOCUMENT_PREFIX: optionalString,
  /** Texts per embeddings request and requests in flight while indexing; defaults depend on the server. */
  PARLEY_EMBEDDINGS_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).optional(),
  PARLEY_EMBEDDINGS_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /** Where vectors live: LanceDB under the data directory (default) or process memory. */
  PARLEY_VECTOR_STORE: z.enum(["lancedb", "memory"]).default("lancedb"),
  /** Whether a first start seeds the demo app and the web client `demo`. */
  PARLEY_SEED_DEMO: z.enum(["true", "false"]).default("true"),
  /** How long a background job's claim lasts without a heartbeat before another worker may take it. */
  PARLEY_JOB_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Rows past which a vector table gets an ANN index. */
  PARLEY_VECTOR_ANN_THRESHOLD: z.coerce.number().int().positive().default(100_000),
  PARLEY_FULLTEXT_INDEX_THRESHOLD: z.coerce.number().int().positive().default(20_000),
  /** Website import: one deadline for the fetch (redirects included) and the most bytes read. */
  PARLEY_KNOWLEDGE_WEBSITE_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  PARLEY_KNOWLEDGE_WEBSITE_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  /** Feishu open platform for document import; tests point it at a local fake. */
  PARLEY_FEISHU_BASE_URL: z.string().url().default("https://open.feishu.cn"),
  /** 32 bytes (64 hex digits or base64) sealing stored channel secrets; else `secret.key` in the data directory. */
  PARLEY_SECRET_KEY: optionalString,
  /**
   * Messaging platform API bases, as `kind=url` pairs separated by commas (e.g. Lark instead of
   * Feishu, a Telegram Bot API server of your own, or local fakes in tests). Instance-wide only.
   */
  PARLEY_CHANNEL_API_BASES: z.string().default(""),
  /** WeChat Pay API v3 (Native). Keys are PEM; `\n` in the value stands for a line break. */
  PARLEY_WECHATPAY_MCHID: optionalString,
  PARLEY_WECHATPAY_APPID: optionalString,
  PARLEY_WECHATPAY_MERCHANT_SERIAL: optionalString,
  PARLEY_WECHATPAY_MERCHANT_PRIVATE_KEY: optionalString,
  PARLEY_WECHATPAY_API_V3_KEY: optionalString,
  PARLEY_WECHATPAY_PLATFORM_PUBLIC_KEY: optionalString,
  PARLEY_WECHATPAY_PLATFORM_SERIAL: optionalString,
  PARLEY_WECHATPAY_BASE_URL: z.string().url().default("https://api.mch.weixin.qq.com"),
  /** Alipay open platform (face-to-face precreate), RSA2 keys as PEM or bare base64. */
  PARLEY_ALIPAY_APP_ID: optionalString,
  PARLEY_ALIPAY_APP_PRIVATE_KEY: optionalString,
  PARLEY_ALIPAY_PUBLIC_KEY: optionalString,
  PARLEY_ALIPAY_GATEWAY_URL: z.string().url().default("https://openapi.alipay.com/gateway.do"),
  /** Stripe Checkout. */
  PARLEY_STRIPE_SECRET_KEY: optionalString,
  PARLEY_STRIPE_WEBHOOK_SECRET: optionalString,
  PARLEY_STRIPE_API_BASE: z.string().url().default("https://api.stripe.com"),
  /** Minutes an unpaid order stays open before it is closed. */
  PARLEY_ORDER_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(120),
  /** Where "contact sales" writes to when no payment provider is configured (default: the owner's address). */
  PARLEY_SALES_EMAIL: optionalString,
  /**
   * What this process does (decision 0030): `all` (the default: one process does everything), or
   * a comma-separated set of `api` (HTTP and sockets), `worker` (the job queues) and `scheduler`
   * (workflow timers, sweeps).
   */
  PARLEY_ROLE: z
    .string()
    .default("all")
    .transform((value) =>
      value
        .split(",")
        .map((role) => role.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(["all", "api", "worker", "scheduler"])).min(1, "name at least one role: all, api, worker or scheduler")),
  /** Redis for jobs, realtime across processes and shared limits; absent means the embedded defaults. */
  PARLEY_REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL")
      .optional(),
  ),
  /** S3-compatible object storage for stored files; absent means the data folder. */
  PARLEY_S3_ENDPOINT: optionalString,
  PARLEY_S3_BUCKET: optionalString,
  PARLEY_S3_REGION: z.string().trim().min(1).default("us-east-1"),
  PARLEY_S3_ACCESS_KEY_ID: optionalString,
  PARLEY_S3_SECRET_ACCESS_KEY: optionalString,
  /** Path-style addressing (`endpoint/bucket/key`), which most self-hosted servers need. */
  PARLEY_S3_FORCE_PATH_STYLE: z.enum(["true", "false"]).default("false"),
  /** A key prefix inside the bucket (several instances can share one bucket). */
  PARLEY_S3_PREFIX: z.string().default(""),
});

/** Parley's configuration, derived from the environment once and passed in. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  database: { driver: "better-sqlite3" | "libsql"; url: string; authToken?: string; cacheMb: number; mmapMb: number };
  bootstrapApiKey?: string;
  ownerEmail?: string;
  consoleDir?: string;
  corsOrigins: string[];
  /** Proxies whose X-Forwarded-For names the caller (proxy-addr trust list); empty: the TCP peer is the caller. */
  trustedProxies: string[];
  bodyLimitBytes: number;
  sessionTtlHours: number;
  /** Credits a space is granted the first time its balance is read. */
  welcomeCredits: number;
  /** Earned credits (issue 15): check-in range, the instance's calendar, invitation reward, creator share. */
  earning: { checkInMin: number; checkInMax: number; timeZone: string; inviteReward: number; creatorSharePercent: number };
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  throttle: {
    /** Failed sign-ins per account and address pair per window; each further lockout of the pair doubles its wait. */
    loginPerAccount: number;
    loginPerIp: number;
    /** Password attempts per account from all addresses per window; addresses that signed in before are exempt. */
    loginAccountCeiling: number;
    codesPerTarget: number;
    codesPerIp: number;
    windowSeconds: number;
    codeResendSeconds: number;
    /** Widget visitor sessions one IP may start per 10 minutes. */
    widgetSessionsPerIp: number;
  };
  smtp?: { host: string; port: number; secure: boolean; user?: string; password?: string; from: string };
  aliyunSms?: {
    accessKeyId: string;
    accessKeySecret: string;
    signName: string;
    templateCode: string;
    handoverTemplateCode?: string;
    offlineTemplateCode?: string;
    balanceTemplateCode?: string;
    endpoint?: string;
  };
  oidc?: { issuer: string; clientId: string; clientSecret: string; name: string; allowInsecureHttp: boolean };
  wechat?: { appId: string; appSecret: string; openBaseUrl?: string; apiBaseUrl?: string };
  /** Sealing of stored secrets and messaging platform API bases. */
  channels: { secretKey?: string; apiBases: Record<string, string> };
  /** Language-model providers configured by environment (the owner adds more in the console). */
  llm: {
    /** The model apps use unless they choose one; `gpt-4.1-mini` by default. */
    defaultModel: string;
    /** Idle timeout of one model call: for the answer to start and between two chunks. */
    timeoutSeconds: number;
    providers: LlmProviderConfig[];
  };
  plugins: {
    timeoutMs: number;
    maxResponseBytes: number;
    /**
     * When true, every server-side fetch of a user-supplied URL may reach private and link-local
     * addresses. Loopback and cloud metadata stay refused unless the host is in `allowedHosts`.
     */
    allowPrivateNetwork: boolean;
    /** Hosts (`host` or `host:port`) exempt from the address rules, loopback included. */
    allowedHosts: string[];
    /** The web_search built-in's provider; absent means web search is not configured. */
    webSearch?: { provider: "searxng"; url: string; apiKey?: string };
  };
  /** Where remote databases may be: cloud metadata is always refused; private ranges and loopback only when opened. */
  remoteDatabases: { allowPrivateNetwork: boolean; allowLoopback: boolean };
  knowledge: {
    /** A configured embeddings provider; absent means the offline lexical embedder. */
    embeddings?: {
      provider: "openai" | "ollama";
      baseUrl: string;
      apiKey?: string;
      model: string;
      dimensions: number;
      queryPrefix?: string;
      documentPrefix?: string;
      /** Texts per request while indexing (texts of concurrent files share a batch). */
      batchSize: number;
      /** Indexing requests in flight at once; queries go out beside them. */
      concurrency: number;
    };
    vectorStore: "lancedb" | "memory";
    annThreshold: number;
    /** Chunks at which the LanceDB full-text index is built and answers instead of FTS5 (decision 0024). */
    fullTextIndexThreshold: number;
    /** Website import limits; outbound addresses follow `plugins.allowPrivateNetwork` and `plugins.allowedHosts`. */
    website: { timeoutMs: number; maxBytes: number };
    /** Base URL of Feishu's open API (`https://open.feishu.cn`). */
    feishuBaseUrl: string;
  };
  jobs: { leaseSeconds: number };
  /** What this process runs (PARLEY_ROLE): HTTP and sockets, the job workers, the timers. */
  roles: { api: boolean; worker: boolean; scheduler: boolean };
  /** Redis (PARLEY_REDIS_URL): jobs, realtime across processes and shared limits; absent: embedded defaults. */
  redis?: { url: string };
  /** S3-compatible object storage for stored files (PARLEY_S3_*); absent: the data folder. */
  s3?: {
    /** Absent for AWS itself (the region picks the endpoint). */
    endpoint?: string;
    bucket: string;
    region: string;
    accessKeyId: string;
    secretAccessKey: string;
    forcePathStyle: boolean;
    /** A key prefix inside the bucket (`parley` or empty), without slashes at either end. */
    prefix: string;
  };
  /** Seed the demo app and web client `demo` on a first start. */
  seedDemo: boolean;
  /** Payment providers configured (none: plans are granted by the administrator). */
  payments: {
    wechat?: WechatPayConfig;
    alipay?: AlipayConfig;
    stripe?: StripeConfig;
    orderTtlMinutes: number;
    salesEmail?: string;
  };
}

/** WeChat Pay API v3 merchant settings (PARLEY_WECHATPAY_*). */
export interface WechatPayConfig {
  mchid: string;
  appid: string;
  /** Serial number of the merchant API certificate. */
  merchantSerial: string;
  merchantPrivateKey: string;
  /** 32-byte key that encrypts notification resources (AES-256-GCM). */
  apiV3Key: string;
  platformPublicKey: string;
  platformSerial: string;
  baseUrl: string;
}

/** Alipay open platform settings (PARLEY_ALIPAY_*). */
export interface AlipayConfig {
  appId: string;
  appPrivateKey: string;
  alipayPublicKey: string;
  gatewayUrl: string;
}

/** Stripe settings (PARLEY_STRIPE_*). */
export interface StripeConfig {
  secretKey: string;
  webhookSecret: string;
  /** `https://api.stripe.com`, or a local server in tests. */
  apiBase: string;
}

/** Thrown when the environment cannot be turned into a configuration. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment (defaults to `process.env`) into a {@link Config}. */
export function loadConfig(environment: Record<string, string | undefined> = process.env): Config {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.PARLEY_DATA_DIR);
  const url = env.PARLEY_DATABASE_URL ?? `file:${path.join(dataDir, "parley.db")}`;
  const remote = /^(libsql|https?|wss?):/.test(url);
  if (remote && env.PARLEY_DATABASE_DRIVER === "better-sqlite3") {
    throw new ConfigError("PARLEY_DATABASE_DRIVER=better-sqlite3 can only open file: URLs");
  }
  const driver = env.PARLEY_DATABASE_DRIVER ?? (remote ? "libsql" : "better-sqlite3");
  const both = <T>(pairs: Array<[string, string | undefined]>, build: () => T): T | undefined => {
    const set = pairs.filter(([, value]) => value !== undefined);
    if (set.length === 0) return undefined;
    if (set.length !== pairs.length) {
      const missing = pairs.filter(([, value]) => value === undefined).map(([name]) => name);
      throw new ConfigError(`Incomplete configuration: also set ${missing.join(", ")}`);
    }
    return build();
  };
  return {
    port: env.PORT,
    host: env.HOST,
    dataDir,
    publicUrl: (env.PARLEY_PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
    database: {
      driver,
      url,
      ...(env.PARLEY_DATABASE_AUTH_TOKEN ? { authToken: env.PARLEY_DATABASE_AUTH_TOKEN } : {}),
      cacheMb: env.PARLEY_SQLITE_CACHE_MB,
      mmapMb: env.PARLEY_SQLITE_MMAP_MB,
    },
    bootstrapApiKey: env.PARLEY_BOOTSTRAP_API_KEY,
    ownerEmail: env.PARLEY_OWNER_EMAIL?.toLowerCase(),
    consoleDir: env.PARLEY_CONSOLE_DIR,
    trustedProxies: env.PARLEY_TRUSTED_PROXIES,
    corsOrigins: env.PARLEY_CORS_ORIGINS.split(",")
      .map((origin) => origin.trim())
      .filter(Boolean),
    bodyLimitBytes: env.PARLEY_BODY_LIMIT_BYTES,
    sessionTtlHours: env.PARLEY_SESSION_TTL_HOURS,
    welcomeCredits: env.PARLEY_WELCOME_CREDITS,
    earning: {
      checkInMin: Math.min(env.PARLEY_CHECKIN_MIN, env.PARLEY_CHECKIN_MAX),
      checkInMax: Math.max(env.PARLEY_CHECKIN_MIN, env.PARLEY_CHECKIN_MAX),
      timeZone: env.PARLEY_TIME_ZONE,
      inviteReward: env.PARLEY_INVITE_REWARD,
      creatorSharePercent: env.PARLEY_CREATOR_SHARE_PERCENT,
    },
    logLevel: env.PARLEY_LOG_LEVEL,
    throttle: {
      loginPerAccount: env.PARLEY_THROTTLE_LOGIN_PER_ACCOUNT,
      loginPerIp: env.PARLEY_THROTTLE_LOGIN_PER_IP,
      loginAccountCeiling: env.PARLEY_THROTTLE_LOGIN_ACCOUNT_CEILING,
      codesPerTarget: env.PARLEY_THROTTLE_CODES_PER_TARGET,
      codesPerIp: env.PARLEY_THROTTLE_CODES_PER_IP,
      windowSeconds: env.PARLEY_THROTTLE_WINDOW_SECONDS,
      codeResendSeconds: env.PARLEY_CODE_RESEND_SECONDS,
      widgetSessionsPerIp: env.PARLEY_THROTTLE_WIDGET_SESSIONS_PER_IP,
    },
    smtp:
      env.SMTP_HOST === undefined
        ? undefined
        : {
            host: env.SMTP_HOST,
            port: env.SMTP_PORT,
            secure: env.SMTP_SECURE === "true",
            user: env.SMTP_USER,
            password: env.SMTP_PASSWORD,
            from: env.SMTP_FROM,
          },
    aliyunSms: both(
      [
        ["ALIYUN_SMS_ACCESS_KEY_ID", env.ALIYUN_SMS_ACCESS_KEY_ID],
        ["ALIYUN_SMS_ACCESS_KEY_SECRET", env.ALIYUN_SMS_ACCESS_KEY_SECRET],
        ["ALIYUN_SMS_SIGN_NAME", env.ALIYUN_SMS_SIGN_NAME],
        ["ALIYUN_SMS_TEMPLATE_CODE", env.ALIYUN_SMS_TEMPLATE_CODE],
      ],
      () => ({
        accessKeyId: env.ALIYUN_SMS_ACCESS_KEY_ID!,
        accessKeySecret: env.ALIYUN_SMS_ACCESS_KEY_SECRET!,
        signName: env.ALIYUN_SMS_SIGN_NAME!,
        templateCode: env.ALIYUN_SMS_TEMPLATE_CODE!,
        ...(env.ALIYUN_SMS_HANDOVER_TEMPLATE_CODE ? { handoverTemplateCode: env.ALIYUN_SMS_HANDOVER_TEMPLATE_CODE } : {}),
        ...(env.ALIYUN_SMS_OFFLINE_TEMPLATE_CODE ? { offlineTemplateCode: env.ALIYUN_SMS_OFFLINE_TEMPLATE_CODE } : {}),
        ...(env.ALIYUN_SMS_BALANCE_TEMPLATE_CODE ? { balanceTemplateCode: env.ALIYUN_SMS_BALANCE_TEMPLATE_CODE } : {}),
        ...(env.ALIYUN_SMS_ENDPOINT ? { endpoint: env.ALIYUN_SMS_ENDPOINT } : {}),
      }),
    ),
    oidc: both(
      [
        ["OIDC_ISSUER", env.OIDC_ISSUER],
        ["OIDC_CLIENT_ID", env.OIDC_CLIENT_ID],
        ["OIDC_CLIENT_SECRET", env.OIDC_CLIENT_SECRET],
      ],
      () => ({
        issuer: env.OIDC_ISSUER!,
        clientId: env.OIDC_CLIENT_ID!,
        clientSecret: env.OIDC_CLIENT_SECRET!,
        name: env.OIDC_NAME,
        allowInsecureHttp: env.OIDC_ALLOW_INSECURE_HTTP === "true",
      }),
    ),
    wechat: both(
      [
        ["WECHAT_APP_ID", env.WECHAT_APP_ID],
        ["WECHAT_APP_SECRET", env.WECHAT_APP_SECRET],
      ],
      () => ({
        appId: env.WECHAT_APP_ID!,
        appSecret: env.WECHAT_APP_SECRET!,
        ...(env.WECHAT_OPEN_BASE_URL ? { openBaseUrl: env.WECHAT_OPEN_BASE_URL } : {}),
        ...(env.WECHAT_API_BASE_URL ? { apiBaseUrl: env.WECHAT_API_BASE_URL } : {}),
      }),
    ),
    llm: llmConfig(env),
    knowledge: knowledgeConfig(env),
    jobs: { leaseSeconds: env.PARLEY_JOB_LEASE_SECONDS },
    roles: rolesOf(env.PARLEY_ROLE),
    ...(env.PARLEY_REDIS_URL ? { redis: { url: env.PARLEY_REDIS_URL } } : {}),
    ...s3Config(env, both),
    channels: {
      ...(env.PARLEY_SECRET_KEY ? { secretKey: env.PARLEY_SECRET_KEY } : {}),
      apiBases: parseApiBases(env.PARLEY_CHANNEL_API_BASES),
    },
    seedDemo: env.PARLEY_SEED_DEMO === "true",
    payments: {
      ...paymentProviders(env, both),
      orderTtlMinutes: env.PARLEY_ORDER_TTL_MINUTES,
      ...(env.PARLEY_SALES_EMAIL || env.PARLEY_OWNER_EMAIL ? { salesEmail: (env.PARLEY_SALES_EMAIL ?? env.PARLEY_OWNER_EMAIL)! } : {}),
    },
    remoteDatabases: {
      allowPrivateNetwork: env.PARLEY_DATABASES_ALLOW_PRIVATE_NETWORK === "true",
      allowLoopback: env.PARLEY_DATABASES_ALLOW_LOOPBACK === "true",
    },
    plugins: {
      timeoutMs: env.PARLEY_PLUGINS_TIMEOUT_MS,
      maxResponseBytes: env.PARLEY_PLUGINS_MAX_RESPONSE_BYTES,
      allowPrivateNetwork: env.PARLEY_PLUGINS_ALLOW_PRIVATE_NETWORK === "true",
      allowedHosts: env.PARLEY_PLUGINS_ALLOWED_HOSTS.split(",")
        .map((host) => host.trim().toLowerCase())
        .filter(Boolean),
      ...(env.PARLEY_WEB_SEARCH_URL
        ? {
            webSearch: {
              provider: env.PARLEY_WEB_SEARCH_PROVIDER ?? "searxng",
              url: env.PARLEY_WEB_SEARCH_URL.replace(/\/+$/, ""),
              ...(env.PARLEY_WEB_SEARCH_API_KEY ? { apiKey: env.PARLEY_WEB_SEARCH_API_KEY } : {}),
            },
          }
        : {}),
    },
  };
}

/** The roles named in PARLEY_ROLE; `all` is every one. */
function rolesOf(names: Array<"all" | "api" | "worker" | "scheduler">): Config["roles"] {
  const all = names.includes("all");
  return { api: all || names.includes("api"), worker: all || names.includes("worker"), scheduler: all || names.includes("scheduler") };
}

/** Object storage when its bucket and keys are set (all three, or none). */
function s3Config(
  env: z.infer<typeof environmentSchema>,
  both: <T>(pairs: Array<[string, string | undefined]>, build: () => T) => T | undefined,
): { s3?: NonNullable<Config["s3"]> } {
  const s3 = both(
    [
      ["PARLEY_S3_BUCKET", env.PARLEY_S3_BUCKET],
      ["PARLEY_S3_ACCESS_KEY_ID", env.PARLEY_S3_ACCESS_KEY_ID],
      ["PARLEY_S3_SECRET_ACCESS_KEY", env.PARLEY_S3_SECRET_ACCESS_KEY],
    ],
    () => ({
      ...(env.PARLEY_S3_ENDPOINT ? { endpoint: env.PARLEY_S3_ENDPOINT.replace(/\/+$/, "") } : {}),
      bucket: env.PARLEY_S3_BUCKET!,
      region: env.PARLEY_S3_REGION,
      accessKeyId: env.PARLEY_S3_ACCESS_KEY_ID!,
      secretAccessKey: env.PARLEY_S3_SECRET_ACCESS_KEY!,
      forcePathStyle: env.PARLEY_S3_FORCE_PATH_STYLE === "true",
      prefix: env.PARLEY_S3_PREFIX.replace(/^\/+|\/+$/g, ""),
    }),
  );
  if (!s3 && env.PARLEY_S3_ENDPOINT)
    throw new ConfigError("PARLEY_S3_ENDPOINT is set: also set PARLEY_S3_BUCKET, PARLEY_S3_ACCESS_KEY_ID, PARLEY_S3_SECRET_ACCESS_KEY");
  return s3 ? { s3 } : {};
}

/** One language-model provider set by environment variables. */
export interface LlmProviderConfig {
  /** `env-openai`, `env-anthropic`, `env-gemini` or `env-openai-compatible`. */
  id: string;
  kind: "openai" | "openai-compatible" | "anthropic" | "gemini";
  name: string;
  baseUrl?: string;
  apiKey?: string;
  models: string[];
}

const defaultModelLists = {
  openai: ["gpt-4.1-mini", "gpt-4.1", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini"],
  anthropic: ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1"],
  gemini: ["gemini-2.5-flash", "gemini-2.5-pro", "gemini-2.5-flash-lite"],
};

function modelList(value: string | undefined, fallback: string[]): string[] {
  if (value === undefined) return fallback;
  return [
    ...new Set(
      value
        .split(",")
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
}

function knowledgeConfig(env: z.infer<typeof environmentSchema>): Config["knowledge"] {
  const common = {
    vectorStore: env.PARLEY_VECTOR_STORE,
    annThreshold: env.PARLEY_VECTOR_ANN_THRESHOLD,
    fullTextIndexThreshold: env.PARLEY_FULLTEXT_INDEX_THRESHOLD,
    website: { timeoutMs: env.PARLEY_KNOWLEDGE_WEBSITE_TIMEOUT_MS, maxBytes: env.PARLEY_KNOWLEDGE_WEBSITE_MAX_BYTES },
    feishuBaseUrl: env.PARLEY_FEISHU_BASE_URL.replace(/\/+$/, ""),
  };
  if (!env.PARLEY_EMBEDDINGS_PROVIDER && !env.PARLEY_EMBEDDINGS_BASE_URL) return common;
  const provider = env.PARLEY_EMBEDDINGS_PROVIDER ?? "openai";
  if (!env.PARLEY_EMBEDDINGS_MODEL || !env.PARLEY_EMBEDDINGS_DIMENSIONS) {
    throw new ConfigError("Embeddings are configured: also set PARLEY_EMBEDDINGS_MODEL and PARLEY_EMBEDDINGS_DIMENSIONS");
  }
  const baseUrl = env.PARLEY_EMBEDDINGS_BASE_URL ?? (provider === "ollama" ? "http://127.0.0.1:11434" : "https://api.openai.com/v1");
  return {
    ...common,
    embeddings: {
      provider,
      baseUrl: baseUrl.replace(/\/+$/, ""),
      ...(env.PARLEY_EMBEDDINGS_API_KEY ? { apiKey: env.PARLEY_EMBEDDINGS_API_KEY } : {}),
      model: env.PARLEY_EMBEDDINGS_MODEL,
      dimensions: env.PARLEY_EMBEDDINGS_DIMENSIONS,
      ...(env.PARLEY_EMBEDDINGS_QUERY_PREFIX ? { queryPrefix: env.PARLEY_EMBEDDINGS_QUERY_PREFIX } : {}),
      ...(env.PARLEY_EMBEDDINGS_DOCUMENT_PREFIX ? { documentPrefix: env.PARLEY_EMBEDDINGS_DOCUMENT_PREFIX } : {}),
      ...embeddingsThroughput(baseUrl, env),
    },
  };
}

/**
 * Batch size and requests in flight for indexing, unless set. OpenAI's API takes up to 2,048
 * inputs (300k tokens) per request and is far away: 256 chunks per request (chunks stay well
 * under 1,000 tokens) and 4 in flight hide the round trip while staying inside a first tier's
 * rate limit (a 429 backs off). Everything else (Ollama, TEI, vLLM, Xinference, a local model
 * server) is usually near and bound by its own compute, so more in flight only queues there:
 * 32 texts is TEI's default `--max-client-batch-size` (larger requests are refused) and a
 * comfortable batch for Ollama, which runs one request of a model at a time by default; 2 in
 * flight let the server start the next batch while the previous answer travels back.
 */
function embeddingsThroughput(baseUrl: string, env: z.infer<typeof environmentSchema>): { batchSize: number; concurrency: number } {
  const openAi = URL.canParse(baseUrl) && new URL(baseUrl).hostname === "api.openai.com";
  const defaults = openAi ? { batchSize: 256, concurrency: 4 } : { batchSize: 32, concurrency: 2 };
  return { batchSize: env.PARLEY_EMBEDDINGS_BATCH_SIZE ?? defaults.batchSize, concurrency: env.PARLEY_EMBEDDINGS_CONCURRENCY ?? defaults.concurrency };
}

/**
 * OpenAI is configured by a key or a base URL (a local server may need no key); Anthropic and
 * Gemini likewise; the OpenAI-compatible entry by its base URL, with its model list required.
 */
function llmConfig(env: z.infer<typeof environmentSchema>): Config["llm"] {
  const providers: LlmProviderConfig[] = [];
  const add = (entry: LlmProviderConfig) =>
    providers.push({
      id: entry.id,
      kind: entry.kind,
      name: entry.name,
      ...(entry.baseUrl ? { baseUrl: entry.baseUrl.replace(/\/+$/, "") } : {}),
      ...(entry.apiKey ? { apiKey: entry.apiKey } : {}),
      models: entry.models,
    });
  if (env.OPENAI_API_KEY || env.OPENAI_BASE_URL) {
    add({
      id: "env-openai",
      kind: "openai",
      name: "OpenAI",
      baseUrl: env.OPENAI_BASE_URL,
      apiKey: env.OPENAI_API_KEY,
      models: modelList(env.PARLEY_OPENAI_MODELS, defaultModelLists.openai),
    });
  }
  if (env.ANTHROPIC_API_KEY || env.ANTHROPIC_BASE_URL) {
    add({
      id: "env-anthropic",
      kind: "anthropic",
      name: "Anthropic",
      baseUrl: env.ANTHROPIC_BASE_URL,
      apiKey: env.ANTHROPIC_API_KEY,
      models: modelList(env.PARLEY_ANTHROPIC_MODELS, defaultModelLists.anthropic),
    });
  }
  if (env.GEMINI_API_KEY || env.GEMINI_BASE_URL) {
    add({
      id: "env-gemini",
      kind: "gemini",
      name: "Gemini",
      baseUrl: env.GEMINI_BASE_URL,
      apiKey: env.GEMINI_API_KEY,
      models: modelList(env.PARLEY_GEMINI_MODELS, defaultModelLists.gemini),
    });
  }
  if (env.PARLEY_OPENAI_COMPATIBLE_BASE_URL) {
    const models = modelList(env.PARLEY_OPENAI_COMPATIBLE_MODELS, []);
    if (models.length === 0)
      throw new ConfigError("PARLEY_OPENAI_COMPATIBLE_BASE_URL is set: also set PARLEY_OPENAI_COMPATIBLE_MODELS (comma-separated model ids)");
    add({
      id: "env-openai-compatible",
      kind: "openai-compatible",
      name: env.PARLEY_OPENAI_COMPATIBLE_NAME,
      baseUrl: env.PARLEY_OPENAI_COMPATIBLE_BASE_URL,
      apiKey: env.PARLEY_OPENAI_COMPATIBLE_API_KEY,
      models,
    });
  }
  return { defaultModel: env.PARLEY_DEFAULT_MODEL, timeoutSeconds: env.PARLEY_LLM_TIMEOUT_SECONDS, providers };
}

/** `kind=url,kind=url` → {kind: url}; a malformed pair is a configuration error, not a silent default. */
function parseApiBases(value: string): Record<string, string> {
  const bases: Record<string, string> = {};
  for (const pair of value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)) {
    const at = pair.indexOf("=");
    const kind = pair.slice(0, at).trim();
    const url = pair.slice(at + 1).trim();
    if (at <= 0 || !/^https?:\/\/[^\s]+$/.test(url)) throw new ConfigError(`PARLEY_CHANNEL_API_BASES: "${pair}" is not kind=http(s)-url`);
    bases[kind] = url.replace(/\/+$/, "");
  }
  return bases;
}

/** A key given in one line: `\n` stands for a line break; bare base64 is wrapped as PEM of `kind`. */
function pemOf(value: string, kind: "PRIVATE KEY" | "PUBLIC KEY"): string {
  const text = value.replace(/\\n/g, "\n").trim();
  if (text.startsWith("-----BEGIN")) return `${text}\n`;
  const body = text
    .replace(/\s+/g, "")
    .replace(/(.{64})/g, "$1\n")
    .trim();
  return `-----BEGIN ${kind}-----\n${body}\n-----END ${kind}-----\n`;
}

type Both = <T>(pairs: Array<[string, string | undefined]>, build: () => T) => T | undefined;

/** Each provider is configured by all of its variables or none. */
function paymentProviders(env: z.infer<typeof environmentSchema>, both: Both): Pick<Config["payments"], "wechat" | "alipay" | "stripe"> {
  const wechat = both(
    [
      ["PARLEY_WECHATPAY_MCHID", env.PARLEY_WECHATPAY_MCHID],
      ["PARLEY_WECHATPAY_APPID", env.PARLEY_WECHATPAY_APPID],
      ["PARLEY_WECHATPAY_MERCHANT_SERIAL", env.PARLEY_WECHATPAY_MERCHANT_SERIAL],
      ["PARLEY_WECHATPAY_MERCHANT_PRIVATE_KEY", env.PARLEY_WECHATPAY_MERCHANT_PRIVATE_KEY],
      ["PARLEY_WECHATPAY_API_V3_KEY", env.PARLEY_WECHATPAY_API_V3_KEY],
      ["PARLEY_WECHATPAY_PLATFORM_PUBLIC_KEY", env.PARLEY_WECHATPAY_PLATFORM_PUBLIC_KEY],
      ["PARLEY_WECHATPAY_PLATFORM_SERIAL", env.PARLEY_WECHATPAY_PLATFORM_SERIAL],
    ],
    (): WechatPayConfig => {
      if (Buffer.byteLength(env.PARLEY_WECHATPAY_API_V3_KEY!, "utf8") !== 32) throw new ConfigError("PARLEY_WECHATPAY_API_V3_KEY must be 32 bytes");
      return {
        mchid: env.PARLEY_WECHATPAY_MCHID!,
        appid: env.PARLEY_WECHATPAY_APPID!,
        merchantSerial: env.PARLEY_WECHATPAY_MERCHANT_SERIAL!,
        merchantPrivateKey: pemOf(env.PARLEY_WECHATPAY_MERCHANT_PRIVATE_KEY!, "PRIVATE KEY"),
        apiV3Key: env.PARLEY_WECHATPAY_API_V3_KEY!,
        platformPublicKey: pemOf(env.PARLEY_WECHATPAY_PLATFORM_PUBLIC_KEY!, "PUBLIC KEY"),
        platformSerial: env.PARLEY_WECHATPAY_PLATFORM_SERIAL!,
        baseUrl: env.PARLEY_WECHATPAY_BASE_URL.replace(/\/+$/, ""),
      };
    },
  );
  const alipay = both(
    [
      ["PARLEY_ALIPAY_APP_ID", env.PARLEY_ALIPAY_APP_ID],
      ["PARLEY_ALIPAY_APP_PRIVATE_KEY", env.PARLEY_ALIPAY_APP_PRIVATE_KEY],
      ["PARLEY_ALIPAY_PUBLIC_KEY", env.PARLEY_ALIPAY_PUBLIC_KEY],
    ],
    (): AlipayConfig => ({
      appId: env.PARLEY_ALIPAY_APP_ID!,
      appPrivateKey: pemOf(env.PARLEY_ALIPAY_APP_PRIVATE_KEY!, "PRIVATE KEY"),
      alipayPublicKey: pemOf(env.PARLEY_ALIPAY_PUBLIC_KEY!, "PUBLIC KEY"),
      gatewayUrl: env.PARLEY_ALIPAY_GATEWAY_URL,
    }),
  );
  const stripe = both(
    [
      ["PARLEY_STRIPE_SECRET_KEY", env.PARLEY_STRIPE_SECRET_KEY],
      ["PARLEY_STRIPE_WEBHOOK_SECRET", env.PARLEY_STRIPE_WEBHOOK_SECRET],
    ],
    (): StripeConfig => ({
      secretKey: env.PARLEY_STRIPE_SECRET_KEY!,
      webhookSecret: env.PARLEY_STRIPE_WEBHOOK_SECRET!,
      apiBase: env.PARLEY_STRIPE_API_BASE.replace(/\/+$/, ""),
    }),
  );
  return { ...(wechat ? { wechat } : {}), ...(alipay ? { alipay } : {}), ...(stripe ? { stripe } : {}) };
}
