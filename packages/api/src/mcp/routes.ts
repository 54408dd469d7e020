import { randomUUID } from "node:crypto";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Context } from "hono";
import { cors } from "hono/cors";
import { accessFor, checkAccess } from "../http/auth";
import type { AppEnv } from "../http/context";
import { errorCatalogue } from "../http/envelope";
import { translate } from "../http/translate";
import { sha256 } from "../crypto";
import { ServiceError } from "../errors";
import { authenticate } from "../identity/service/sessions";
import { openAiCaller, openAiModelApp } from "../openai/service";
import { loadWorkflow } from "../workflows/service/workflows";
import { appMcpServer } from "./app-server";
import { McpSessionStore } from "./sessions";
import { workflowMcpServer } from "./workflow-server";

/** JSON-RPC's code for an error of the server's own (the range -32000 to -32099). */
const SERVER_ERROR = -32001;

/** An error answered outside any session, as JSON-RPC over HTTP: the client raises it with its status. */
function rpcError(c: Context<AppEnv>, status: number, message: string, code = SERVER_ERROR) {
  return c.json({ jsonrpc: "2.0", error: { code, message }, id: null }, status as 400);
}

function fromServiceError(c: Context<AppEnv>, error: ServiceError) {
  const { status } = errorCatalogue[error.kind];
  if (error.kind === "rate_limited" && error.extra.retryAfterSeconds) c.header("Retry-After", String(error.extra.retryAfterSeconds));
  // A refusal for another reason than the protocol's is never a 5xx: the request was understood.
  return rpcError(c, status >= 500 ? 400 : status, translate(c.var.language, error.messageId, error.params));
}

/** What a request reaches and, on initialize, how its session's server is made. */
interface Target {
  key: string;
  open(): McpServer;
}

/**
 * Every app (`/mcp/apps/{code}`) and every published workflow (`/mcp/workflows/{id}`) as an MCP
 * server over Streamable HTTP (decision 0034). The bearer is a personal API key (with
 * `X-Parley-Space`) or, for apps, a user key; each request is authenticated again, and must carry
 * the key its session was opened with. Sessions live in this process's memory.
 */
export function registerMcpRoutes(app: OpenAPIHono<AppEnv>, store = new McpSessionStore()) {
  app.use(
    "/mcp/*",
    cors({
      origin: "*",
      allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
      allowHeaders: ["Authorization", "Content-Type", "Accept", "Accept-Language", "X-Parley-Space", "Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-ID"],
      exposeHeaders: ["Mcp-Session-Id", "Mcp-Protocol-Version", "WWW-Authenticate", "Retry-After"],
      maxAge: 600,
    }),
  );

  async function serve(c: Context<AppEnv>, resolve: (bearer: string | undefined, space: string | undefined) => Promise<Target>) {
    const { deps, language } = c.var;
    try {
      const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
      const space = c.req.header("x-parley-space")?.trim() || undefined;
      const target = await resolve(bearer, space);
      const keyDigest = sha256(`${bearer}\0${space ?? ""}`);
      const sessionId = c.req.header("mcp-session-id");
      if (sessionId) {
        const session = store.get(sessionId);
        // The protocol's answer for a session this process does not hold: the client initializes again.
        if (!session) return rpcError(c, 404, translate(language, "mcp_session_unknown"));
        if (session.keyDigest !== keyDigest) return rpcError(c, 403, translate(language, "mcp_session_key_mismatch"));
        if (session.target !== target.key) return rpcError(c, 403, translate(language, "mcp_session_target_mismatch"));
        const response = await session.transport.handleRequest(c.req.raw);
        if (c.req.method === "DELETE") store.close(sessionId);
        return response;
      }
      if (c.req.method !== "POST") return rpcError(c, 400, translate(language, "mcp_session_required"), -32000);
      const server = target.open();
      const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        maxRequestBodySize: deps.config.bodyLimitBytes,
        onsessioninitialized: (id): void => store.add({ id, transport, server, target: target.key, keyDigest, lastUsedAt: Date.now() }),
      });
      transport.onclose = () => {
        if (transport.sessionId) store.close(transport.sessionId);
      };
      await server.connect(transport);
      const response = await transport.handleRequest(c.req.raw);
      // Anything but an initialize request opened no session: nothing is kept.
      if (!transport.sessionId) await server.close();
      return response;
    } catch (error) {
      if (error instanceof ServiceError) return fromServiceError(c, error);
      throw error;
    }
  }

  // Asking an app is chatting with it: a person's role needs what the console's chat needs, and their data range applies.
  const askAccess = accessFor("POST /api/v1/chat/stream");
  const appHandler = (c: Context<AppEnv>) => {
    const code = c.req.param("code") ?? "";
    const conversation: { id?: string; turn?: Promise<unknown> } = {};
    return serve(c, async (bearer, space) => {
      const caller = await openAiCaller(c.var.deps, bearer, space, (auth) => checkAccess(auth, askAccess));
      const chatApp = await openAiModelApp(c.var.deps, caller, code).catch((error: unknown) => {
        if (error instanceof ServiceError && error.kind === "not_found") throw new ServiceError("not_found", "mcp_app_not_found", { code });
        throw error;
      });
      // Only the caller's own space's apps: a public app of another space is not served (it would spend that space's credits).
      if (chatApp.spaceId !== caller.spaceId) throw new ServiceError("not_found", "mcp_app_not_found", { code });
      return {
        key: `app:${chatApp.id}`,
        open: () => appMcpServer(chatApp, { deps: c.var.deps, caller, appCode: code, language: c.var.language, conversation }),
      };
    });
  };

  const runAccess = accessFor("POST /api/v1/workflows/{workflowId}/runs");
  const workflowHandler = (c: Context<AppEnv>) => {
    const id = c.req.param("id") ?? "";
    return serve(c, async (bearer, space) => {
      if (!bearer) throw new ServiceError("unauthenticated", "login_required");
      if (bearer.startsWith("uk_")) throw new ServiceError("forbidden", "mcp_workflow_user_key");
      const auth = await authenticate(c.var.deps, bearer, space);
      checkAccess(auth, runAccess);
      const workflow = await loadWorkflow(c.var.deps, auth, id).catch(() => undefined);
      if (!workflow?.publishedAt) throw new ServiceError("not_found", "mcp_workflow_not_found", { id });
      return { key: `workflow:${workflow.id}`, open: () => workflowMcpServer(c.var.deps, workflow, auth, c.var.language) };
    });
  };

  app.on(["GET", "POST", "DELETE"], "/mcp/apps/:code", appHandler);
  app.on(["GET", "POST", "DELETE"], "/mcp/workflows/:id", workflowHandler);
  return store;
}
