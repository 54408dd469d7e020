import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { createApp } from "./app";
import { bootstrap } from "./bootstrap";
import { ensureSeeded } from "./templates/service/templates";
import { sealStoredSecrets } from "./platform/seal-stored";
import { type Config, ConfigError, loadConfig } from "./config";
import { openDatabase } from "./db/client";
import type { Deps } from "./kernel";
import { createLogger } from "./logger";
import { createProviders } from "./platform/providers";
import { openSharedState } from "./platform/shared-state";
import { createKnowledgeWorker } from "./knowledge/worker";
import { createChannelWorker, startKeyValueSweeper } from "./channels/worker";
import { markInterruptedAnswers } from "./conversation/metering";
import { recoverFulfilments } from "./payments/service/orders";
import { attachRealtime } from "./realtime/socket";
import { startWorkflowWorkers } from "./workflows/workers";
import { createImageWorker, recoverImageTasks } from "./images/worker";
import { connectConversation } from "./wiring";

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
  const database = await openDatabase(config.database);
  const providers = createProviders(config, database.db, logger);
  // Realtime events and limit counters: in memory, or shared over Redis when configured.
  const shared = await openSharedState(config, logger, providers.realtime);
  const deps: Deps = {
    config: { ...config, consoleDir: config.consoleDir ?? defaultConsoleDir() },
    db: database.db,
    logger,
    ...providers,
    realtime: shared.realtime,
    throttle: shared.throttle,
    now: () => new Date(),
  };
  // Databases written before secrets were sealed at rest get theirs sealed now (idempotent).
  const sealed = await sealStoredSecrets(deps);
  if (Object.values(sealed).some((n) => n > 0)) logger.info("sealed secrets stored in plain text by an earlier version", { ...sealed });
  const result = await bootstrap(deps);
  // Shipped templates are (re)written on every start: new ones added, upgraded ones replaced.
  await ensureSeeded(deps);
  // Answers a previous process was still streaming when it died keep their text, marked interrupted.
  const interrupted = await markInterruptedAnswers(deps);
  if (interrupted > 0) logger.warn("marked answers cut off by the previous shutdown as interrupted", { interrupted });
  // Orders a crash left fulfilled but not (or not wholly) granted get their grant finished.
  await recoverFulfilments(deps);
  connectConversation();
  const app = createApp(deps);
  const worker = createKnowledgeWorker(deps, { leaseMs: config.jobs.leaseSeconds * 1000 });
  worker.start();
  // Messaging: answers, deliveries with retries, delayed replies after handover (resumed after a restart).
  const channelWorker = createChannelWorker(deps);
  channelWorker.start();
  const stopSweeper = startKeyValueSweeper(deps);
  // Workflows: durable runs (resumed after a restart) and the cron scheduler.
  const workflowWorkers = startWorkflowWorkers(deps);
  // Image tasks: submitted to their provider and polled to their end (resumed after a restart).
  const imageWorker = createImageWorker(deps);
  const recoveredImages = await recoverImageTasks(deps);
  if (recoveredImages > 0) logger.warn("queued image tasks left without a job again", { tasks: recoveredImages });
  imageWorker.start();
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
      await worker.stop();
      stopSweeper();
      await channelWorker.stop();
      await workflowWorkers.stop();
      await imageWorker.stop();
      await deps.knowledge.close();
      await deps.remoteDatabases.closeAll();
      await shared.close();
      await database.close();
    },
  };
}

/** Runs Parley from the environment until SIGINT/SIGTERM. */
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
  const running = await startServer(config);
  const stop = async (signal: string) => {
    running.deps.logger.info(`Received ${signal}, shutting down`);
    await running.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));
}
