import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serve } from "@hono/node-server";
import { sql } from "drizzle-orm";
import { createApp } from "../app";
import { connectConversation } from "../wiring";
import { type Config, loadConfig } from "../config";
import { migrationsFolder, openDatabase } from "../db/client";
import type { Deps } from "../kernel";
import { createMemoryThrottle } from "../http/throttle";
import { createLogger } from "../logger";
import { createProviders } from "../platform/providers";
import { attachRealtime, type RealtimeServer } from "../realtime/socket";

/** Which driver the API tests run on: set by the vitest project (both run in CI). */
export function testDriver(): "better-sqlite3" | "libsql" {
  return process.env.PARLEY_TEST_DB_DRIVER === "libsql" ? "libsql" : "better-sqlite3";
}

const templates = new Map<string, Promise<string>>();

/** Every migration's name and SQL, so a template made by an older set of migrations is never reused. */
function migrationsDigest(): string {
  const hash = createHash("sha256");
  const folder = migrationsFolder();
  const sqlFiles = fs.readdirSync(folder).filter((name) => name.endsWith(".sql"));
  for (const file of [path.join("meta", "_journal.json"), ...sqlFiles.sort()]) {
    hash.update(`${file}\0`);
    hash.update(fs.readFileSync(path.join(folder, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * A database file the real migrations built on this driver, made once and shared by every test
 * file (a file per migrations digest in the temp directory). Each context starts from a copy:
 * running 30 migrations anew for every context cost more than most tests themselves. The copy is
 * still opened through openDatabase, whose migrator finds nothing pending.
 */
function migratedTemplate(driver: "better-sqlite3" | "libsql"): Promise<string> {
  const key = `${driver}-${migrationsDigest()}`;
  let made = templates.get(key);
  if (!made) {
    made = (async () => {
      const file = path.join(os.tmpdir(), "parley-test-templates", `${key}.db`);
      if (fs.existsSync(file)) return file;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // Built beside its final name and renamed into place, so a parallel worker never copies half a file.
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "parley-template-"));
      const building = `${file}.${process.pid}`;
      try {
        const database = await openDatabase({ driver, url: `file:${path.join(scratch, "parley.db")}` });
        // VACUUM INTO writes one complete file whatever the WAL still holds (libsql keeps its -wal after closing).
        await database.db.run(sql`VACUUM INTO ${building}`);
        await database.close();
        fs.renameSync(building, file);
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
        fs.rmSync(building, { force: true });
      }
      return file;
    })();
    made.catch(() => templates.delete(key));
    templates.set(key, made);
  }
  return made;
}

/** A real app on a fresh SQLite file with the real migrations. */
export interface TestContext {
  app: ReturnType<typeof createApp>;
  deps: Deps;
  config: Config;
  dataDir: string;
  /** Calls the app in-process, like a client would over HTTP. */
  request(path: string, init?: RequestInit & { json?: unknown; token?: string; form?: Record<string, string> }): Promise<Response>;
  /** Starts listening on 127.0.0.1 (on `port`, or a free one) with the socket.io namespaces; resolves to the base URL. */
  listen(port?: number): Promise<string>;
  /** The socket.io server attached by {@link TestContext.listen} (undefined before). */
  realtime(): RealtimeServer | undefined;
  close(): Promise<void>;
}

/** What {@link TestContext.request} sends: `json` or `form` as the body with its type, `token` as the bearer. */
export function requestInit(init: RequestInit & { json?: unknown; token?: string; form?: Record<string, string> }): RequestInit {
  const { json, token, form, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token) headers.set("authorization", `Bearer ${token}`);
  let body = rest.body;
  if (json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(json);
  } else if (form) {
    headers.set("content-type", "application/x-www-form-urlencoded");
    body = new URLSearchParams(form).toString();
  }
  return { ...rest, headers, ...(body !== undefined ? { body } : {}) };
}

/**
 * Builds a test instance. `env` overrides environment variables (throttles, providers); the
 * database is a new file in a new temporary directory, on the driver under test.
 */
export async function createTestContext(env: Record<string, string> = {}, overrides: Partial<Deps> = {}): Promise<TestContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-test-"));
  const config = loadConfig({
    PARLEY_DATA_DIR: dataDir,
    PARLEY_DATABASE_DRIVER: testDriver(),
    PARLEY_LOG_LEVEL: "silent",
    PARLEY_PUBLIC_URL: "http://127.0.0.1:3000",
    ...env,
  });
  // The default file in the fresh directory starts as a copy of the migrated template.
  if (config.database.url === `file:${path.join(dataDir, "parley.db")}`) {
    fs.copyFileSync(await migratedTemplate(config.database.driver), path.join(dataDir, "parley.db"));
  }
  const database = await openDatabase(config.database);
  // A logger passed in sees everything, the outbox's lines included.
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const deps: Deps = {
    config,
    db: database.db,
    logger,
    ...createProviders(config, database.db, logger),
    throttle: createMemoryThrottle(),
    now: () => new Date(),
    ...overrides,
  };
  connectConversation();
  const app = createApp(deps);
  let server: ReturnType<typeof serve> | undefined;
  let realtime: RealtimeServer | undefined;
  return {
    app,
    deps,
    config,
    dataDir,
    request(url, init = {}) {
      return Promise.resolve(app.request(url, requestInit(init)));
    },
    async listen(port = 0) {
      server = await new Promise<ReturnType<typeof serve>>((resolve) => {
        const instance = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => resolve(instance));
      });
      realtime = attachRealtime(server, deps);
      const address = server.address();
      return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
    },
    realtime: () => realtime,
    async close() {
      await realtime?.close();
      if (server) {
        const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
        // Keep-alive sockets from fetch would otherwise hold the server open.
        if ("closeAllConnections" in server) server.closeAllConnections();
        await closing;
      }
      await deps.knowledge.close();
      await deps.remoteDatabases.closeAll();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export { freePort } from "./free-port";

/** Reads the latest verification code sent to an address through the outbox. */
export async function latestCode(ctx: TestContext, to: string): Promise<string> {
  const { outbox } = await import("../db/schema/index");
  const { desc, eq } = await import("drizzle-orm");
  const row = await ctx.deps.db.select().from(outbox).where(eq(outbox.to, to)).orderBy(desc(outbox.createdAt), desc(outbox.id)).limit(1).get();
  const code = row?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code was sent to ${to}`);
  return code;
}

/** A registered user with a session, made through the real register flow. */
export interface TestUser {
  token: string;
  email: string;
  password: string;
  user: { id: string; spaceId: string; name: string; [key: string]: unknown };
}

/** Registers a user by e-mail code, exactly as the console does. */
export async function registerUser(ctx: TestContext, email: string, password = "passw0rd-ok"): Promise<TestUser> {
  const sent = await ctx.request("/api/v1/auth/codes", { method: "POST", json: { channel: "email", target: email, purpose: "register" } });
  if (sent.status !== 200) throw new Error(`code request failed: ${sent.status} ${await sent.text()}`);
  const code = await latestCode(ctx, email);
  const response = await ctx.request("/api/v1/auth/register", {
    method: "POST",
    json: { channel: "email", target: email, code, password, name: email.split("@")[0] },
  });
  if (response.status !== 201) throw new Error(`register failed: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { data: { token: string; user: TestUser["user"] } };
  return { token: body.data.token, email, password, user: body.data.user };
}
