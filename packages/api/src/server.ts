import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import { type Config, ConfigError, loadConfig } from "./config";
import { openDatabase } from "./db/client";
import type { Deps } from "./kernel";
import { createLogger } from "./logger";
import { createProviders } from "./platform/providers";
import { openSharedState } from "./platform/shared-state";
import { attachRealtime } from "./realtime/socket";
import { connectConversation } from "./wiring";
import { checkS3Bucket, S3UnavailableError } from "./kernel/files/s3";
import { RedisUnavailableError } from "./platform/redis";
import { openJobQueue } from "./kernel/jobs";
import { describeRoles, startRoles } from "./roles";

/** The console build next to this package in the monorepo, if it was built. */
function defaultConsoleDir(): string | undefined {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidate = path.resolve(here, "../../console/dist");
  return fs.existsSync(path.join(candidate, "index.html")) ? candidate : undefined;
}

/** A running Parley server. */
export interface RunningServer {
  url: string;
  port: number;
  deps: Deps;
  close(): Promise<void>;
}

/** Opens storage, applies migrations, bootstraps the instance and listens. */
export async function startServer(config: Config): Promise<RunningServer> {
  const started = performance.now();
  const logger = createLogger(config.logLevel);
  fs.mkdirSync(config.dataDir, { recursive: true });
  // A process configured with object storage refuses to start while the bucket cannot be used.
  if (config.s3) await checkS3Bucket(config.s3);
  const database = await openDatabase(config.database);
  const providers = createProviders(config, database.db, logger);
  const jobs = await openJobQueue(config, { logger, now: () => new Date() });
  // Realtime events and limit counters: in memory, or shared over Redis when configured.
  const shared = await openSharedState(config, logger, providers.realtime);
  const deps: Deps = {
    config: { ...config, consoleDir: config.consoleDir ?? defaultConsoleDir() },
    db: database.db,
    logger,
    ...providers,
    realtime: shared.realtime,
    throttle: shared.throttle,
    ...(jobs ? { jobs } : {}),
    now: () => new Date(),
  };
  // Migrations ran in openDatabase; bootstrap, seeding and the once-only recoveries follow (roles.ts).
  const roles = await startRoles(deps, config.roles);
  connectConversation();
  const app = createApp(deps);
  /** Stops this process's roles, then closes every store it opened (after the sockets, when it listens). */
  const closeRolesAndStores = async () => {
    await roles.stop();
    await jobs?.close();
    await deps.knowledge.close();
    await deps.remoteDatabases.closeAll();
    await shared.close();
    await database.close();
  };
  if (!config.roles.api) {
    logger.info(`Parley is ready (roles: ${describeRoles(config.roles)}; database: ${database.driver})`);
    return { url: "", port: 0, deps, close: closeRolesAndStores };
  }
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const instance = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(instance));
  });
  // Clients (SDKs, proxies) keep connections open between calls; closing idle ones after
  // Node's 5 s default races with requests already on their way.
  if ("keepAliveTimeout" in server) {
    server.keepAliveTimeout = 65_000;
    server.headersTimeout = 66_000;
  }
  const realtime = attachRealtime(server, deps);
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  const url = `http://localhost:${port}`;
  logger.info(`Parley is listening on ${url} (database: ${database.driver}, data: ${config.dataDir}) in ${Math.round(performance.now() - started)} ms`);
  if (!deps.config.consoleDir) logger.warn("The console is not built; run `npm run build` to serve it");
  const result = roles.bootstrap;
  if (result.ownerCreated) logger.info("Created the owner account of this instance");
  if (result.apiKeyCreated) logger.info("Created the owner's API key from PARLEY_BOOTSTRAP_API_KEY");
  if (result.signInUrl) {
    const link = result.signInUrl.replace(config.publicUrl, config.publicUrl === `http://localhost:${config.port}` ? url : config.publicUrl);
    process.stdout.write(`\n  Sign in as the owner (single use, valid 60 minutes):\n  ${link}\n\n`);
  }
  return {
    url,
    port,
    deps,
    close: async () => {
      // Sockets first: open WebSockets would keep the HTTP server from closing.
      await realtime.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeRolesAndStores();
    },
  };
}

/** Runs Parley from the environment until SIGINT/SIGTERM (a process of any roles: PARLEY_ROLE). */
export async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const running = await startServer(config).catch((error: unknown) => {
    // An engine named in the configuration that cannot be used: one clear line, no stack.
    if (!(error instanceof S3UnavailableError) && !(error instanceof RedisUnavailableError)) throw error;
    process.stderr.write(`Parley cannot start: ${error.message}\n`);
    process.exit(2);
  });
  const stop = async (signal: string) => {
    running.deps.logger.info(`Received ${signal}, shutting down`);
    await running.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}
