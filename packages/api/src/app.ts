import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { requestId } from "hono/request-id";
import { ServiceError } from "./errors";
import type { AppEnv, Deps } from "./http/context";
import { failure, handleError, serviceErrorResponse, validationHook } from "./http/envelope";
import { pickLanguage, translate } from "./http/translate";
import { registerAuthRoutes, registerMeRoutes } from "./identity/routes";
import { registerAnnouncementRoutes } from "./announcements/routes";
import { registerSpeechRoutes, SPEECH_UPLOAD_PATH } from "./speech/routes";
import { CHAT_FILE_UPLOAD_MAX_BYTES, CHAT_FILE_UPLOAD_PATH, registerChatFileRoutes } from "./chat/files/routes";
import { registerAppRoutes } from "./apps/routes";
import { registerBenefitRoutes } from "./benefits/routes";
import { registerChatRoutes } from "./chat/routes";
import { registerClientRoutes, widgetCors } from "./clients/routes";
import { CHANNEL_WEBHOOK_PATH, registerChannelRoutes } from "./channels/routes";
import { registerHostingRoutes } from "./hosting/routes";
import { registerInboxRoutes } from "./inbox/routes";
import { registerCustomerRoutes } from "./customers/routes";
import { registerInstanceRoutes } from "./instance/routes";
import { registerKeyRoutes } from "./keys/routes";
import { registerKnowledgeImportRoutes } from "./knowledge/import-routes";
import { registerKnowledgeEvaluationRoutes } from "./knowledge/evaluation-routes";
import { DATABASE_UPLOAD_MAX_BYTES, DATABASE_UPLOAD_PATH, registerDatabaseRoutes } from "./databases/routes";
import { registerRemoteDatabaseRoutes } from "./databases/remote-routes";
import { KNOWLEDGE_UPLOAD_MAX_BYTES, KNOWLEDGE_UPLOAD_PATH, registerKnowledgeRoutes } from "./knowledge/routes";
import { registerModelRoutes } from "./models/routes";
import { registerVoiceRoutes } from "./voice/routes";
import { registerOpenAiRoutes } from "./openai/routes";
import { registerMcpRoutes } from "./mcp/routes";
import { registerPaymentRoutes } from "./payments/routes";
import { registerPlanRoutes } from "./plans/routes";
import { registerCreditRoutes } from "./credits/routes";
import { registerPluginRoutes } from "./plugins/routes";
import { PORTABLE_IMPORT_MAX_BYTES, PORTABLE_IMPORT_PATH, registerPortableRoutes } from "./portable/routes";
import { registerRoleRoutes } from "./roles/routes";
import { registerSpaceRoutes } from "./spaces/routes";
import { registerAnalysisRoutes } from "./analysis/routes";
import { registerImageRoutes } from "./images/routes";
import { registerTeamRoutes } from "./teams/routes";
import { APP_VERSION, registerSystemRoutes } from "./system/routes";
import { registerWorkflowRoutes } from "./workflows/routes";
import { registerTemplateRoutes } from "./templates/routes";
import { registerStoreRoutes } from "./store/routes";

const BODY_TYPES = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * Builds the Parley HTTP app from its dependencies. No side effects: nothing listens, nothing
 * is read from the environment.
 */
export function createApp(deps: Deps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as never });

  app.use("*", requestId({ headerName: "X-Request-Id" }));
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    c.set("language", pickLanguage(c.req.header("accept-language")));
    await next();
  });
  app.use("/api/v1/widget/*", widgetCors());
  for (const prefix of ["/api/*", "/v1/*"]) {
    app.use(
      prefix,
      cors({
        origin: deps.config.corsOrigins.includes("*") ? "*" : deps.config.corsOrigins,
        allowHeaders: ["Authorization", "Content-Type", "Accept-Language", "X-Parley-Space", "X-Request-Id"],
        exposeHeaders: ["X-Request-Id", "Retry-After"],
        maxAge: 600,
      }),
    );
    const limitOf = (maxSize: number) =>
      bodyLimit({
        maxSize,
        onError: (c) =>
          // The OpenAI-compatible routes answer in OpenAI's error format, this refusal included.
          c.req.path.startsWith("/v1/")
            ? c.json(
                {
                  error: {
                    message: translate(c.var.language, "payload_too_large", { limit: maxSize }),
                    type: "invalid_request_error",
                    param: null,
                    code: "payload_too_large",
                  },
                },
                413,
              )
            : serviceErrorResponse(c as never, new ServiceError("payload_too_large", "payload_too_large", { limit: maxSize })),
      });
    const generalLimit = limitOf(deps.config.bodyLimitBytes);
    // Knowledge uploads may be up to 15 MB plus the multipart framing; everything else keeps the general limit.
    const uploadLimit = limitOf(Math.max(deps.config.bodyLimitBytes, KNOWLEDGE_UPLOAD_MAX_BYTES, CHAT_FILE_UPLOAD_MAX_BYTES));
    // Database imports take files up to the fast import's limit.
    const databaseLimit = limitOf(Math.max(deps.config.bodyLimitBytes, DATABASE_UPLOAD_MAX_BYTES));
    // Portable imports take a zip bundle with knowledge contents.
    const portableLimit = limitOf(Math.max(deps.config.bodyLimitBytes, PORTABLE_IMPORT_MAX_BYTES));
    app.use(prefix, (c, next) => {
      if (c.req.method !== "POST") return generalLimit(c, next);
      if (KNOWLEDGE_UPLOAD_PATH.test(c.req.path) || SPEECH_UPLOAD_PATH.test(c.req.path) || CHAT_FILE_UPLOAD_PATH.test(c.req.path)) return uploadLimit(c, next);
      if (PORTABLE_IMPORT_PATH.test(c.req.path)) return portableLimit(c, next);
      return (DATABASE_UPLOAD_PATH.test(c.req.path) ? databaseLimit : generalLimit)(c, next);
    });
  }
  app.use("/api/*", async (c, next) => {
    const method = c.req.method;
    // Platform webhooks speak their own formats (WeChat posts XML); their adapters read the raw bytes.
    if ((method === "POST" || method === "PUT" || method === "PATCH") && !CHANNEL_WEBHOOK_PATH.test(c.req.path)) {
      const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
      const hasBody =
        c.req.header("content-length") !== "0" && (c.req.header("content-length") !== undefined || c.req.header("transfer-encoding") !== undefined);
      if (hasBody && !BODY_TYPES.includes(type)) {
        return serviceErrorResponse(c, new ServiceError("unsupported_media_type", "unsupported_media_type", { expected: "application/json" }));
      }
    }
    await next();
  });

  registerSystemRoutes(app);
  registerAuthRoutes(app);
  registerMeRoutes(app);
  registerSpaceRoutes(app);
  registerKeyRoutes(app);
  registerModelRoutes(app);
  registerSpeechRoutes(app);
  registerInstanceRoutes(app);
  registerPlanRoutes(app);
  registerTemplateRoutes(app);
  registerAppRoutes(app);
  registerPluginRoutes(app);
  registerPortableRoutes(app);
  registerKnowledgeRoutes(app);
  registerKnowledgeImportRoutes(app);
  registerKnowledgeEvaluationRoutes(app);
  registerChatRoutes(app);
  registerChatFileRoutes(app);
  registerClientRoutes(app);
  registerVoiceRoutes(app);
  registerChannelRoutes(app);
  registerInboxRoutes(app);
  registerHostingRoutes(app);
  registerOpenAiRoutes(app);
  registerMcpRoutes(app);
  registerWorkflowRoutes(app);
  registerStoreRoutes(app);
  registerBenefitRoutes(app);
  registerPaymentRoutes(app);
  registerTeamRoutes(app);
  registerCreditRoutes(app);
  registerRoleRoutes(app);
  registerAnnouncementRoutes(app);
  registerCustomerRoutes(app);
  registerDatabaseRoutes(app);
  registerRemoteDatabaseRoutes(app);
  registerAnalysisRoutes(app);
  registerImageRoutes(app);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "A session token (`pst_…`) from a sign-in call, or a personal API key. Add `X-Parley-Space` to act in another space you belong to.",
  });
  app.doc31("/openapi.json", openApiInfo(deps.config.publicUrl));

  // The reference page's 3.5 MB script is read once, on first request, not at start-up.
  let scalarBundle: Uint8Array | null | undefined;
  app.get("/docs/scalar.js", (c) => {
    if (scalarBundle === undefined) {
      const file = findScalarBundle();
      scalarBundle = file ? new Uint8Array(fs.readFileSync(file)) : null;
    }
    if (!scalarBundle) return c.text("API reference bundle missing", 404);
    c.header("Content-Type", "application/javascript; charset=utf-8");
    c.header("Cache-Control", "public, max-age=86400");
    return c.body(scalarBundle as Uint8Array<ArrayBuffer>);
  });
  // Nothing on the page may leave the machine (an instance can run offline): Scalar's defaults
  // fetch its fonts from fonts.scalar.com, route "Try it" and the AI agent's registry search
  // through proxy.scalar.com, and show the developer toolbar (share/deploy to scalar.com) on
  // localhost. System fonts, direct requests to this server, and no agent or toolbar instead.
  app.get(
    "/docs",
    Scalar({
      url: "/openapi.json",
      cdn: "/docs/scalar.js",
      pageTitle: "Parley API reference",
      withDefaultFonts: false,
      proxyUrl: "",
      showDeveloperTools: "never",
      telemetry: false,
      agent: { disabled: true },
    }),
  );

  app.all("/api/*", (c) => {
    const { body, status } = failure(c.var.language, "not_found", translate(c.var.language, "route_not_found", { method: c.req.method, path: c.req.path }));
    return c.json(body, status);
  });

  const consoleDir = deps.config.consoleDir;
  if (consoleDir && fs.existsSync(path.join(consoleDir, "index.html"))) {
    const root = path.relative(process.cwd(), consoleDir) || ".";
    const indexHtml = fs.readFileSync(path.join(consoleDir, "index.html"), "utf8");
    app.use("/assets/*", async (c, next) => {
      c.header("Cache-Control", "public, max-age=31536000, immutable");
      await next();
    });
    app.use("*", serveStatic({ root }));
    // Client-side routes of the console (spec §2) all load the same page.
    app.get("*", (c) => c.html(indexHtml));
  }

  app.notFound((c) => {
    const { body, status } = failure(c.var.language, "not_found", translate(c.var.language, "route_not_found", { method: c.req.method, path: c.req.path }));
    return c.json(body, status);
  });
  app.onError(handleError);
  return app;
}

/** The OpenAPI document's info block. */
export function openApiInfo(serverUrl?: string) {
  return {
    openapi: "3.1.0",
    info: {
      title: "Parley API",
      version: APP_VERSION,
      description:
        "The Parley platform API. Every JSON answer is an envelope `{ success, code, message, data }` whose `code` matches the HTTP status, except 701 (upgrade required) and 870 (insufficient credits), which travel with HTTP 402. Send `Accept-Language: zh-CN` for Chinese messages.",
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
  };
}

function findScalarBundle(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const main = require.resolve("@scalar/api-reference");
    const file = path.join(path.dirname(main), "browser", "standalone.js");
    return fs.existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}
