import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A self-built Feishu app the fake accepts. */
export interface FeishuFakeApp {
  appId: string;
  appSecret: string;
}

/** A docx document the fake serves. */
export interface FeishuFakeDocument {
  documentId: string;
  title: string;
  /** What `raw_content` answers: the document's plain text. */
  content: string;
  /** When true the app has no access to it (not shared with the app): code 1770032. */
  forbidden?: boolean;
}

/** Options of {@link startFeishuFake}. */
export interface FeishuFakeOptions {
  apps: FeishuFakeApp[];
  documents: FeishuFakeDocument[];
}

/** A running Feishu open platform fake; see {@link startFeishuFake}. */
export interface FeishuFake {
  /** Base URL standing in for `https://open.feishu.cn` (set PARLEY_FEISHU_BASE_URL to it). */
  url: string;
  /** Every request, oldest first: method, path and the Authorization header. */
  readonly requests: Array<{ method: string; path: string; authorization?: string }>;
  /** Makes every tenant_access_token issued so far invalid (code 99991663). */
  revokeTokens(): void;
  /** Changes an app's secret, as rotating it in the developer console does. */
  rotateSecret(appId: string, appSecret: string): void;
  close(): Promise<void>;
}

const tokenLifetimeSeconds = 7200;

/**
 * Starts a fake of Feishu's open platform on 127.0.0.1 (random port) speaking the endpoints the
 * document import uses, with the documented request and response shapes:
 * `POST /open-apis/auth/v3/tenant_access_token/internal` (`{app_id, app_secret}` →
 * `{code, msg, tenant_access_token, expire}`), `GET /open-apis/docx/v1/documents/:document_id`
 * (`data.document.title`) and `GET /open-apis/docx/v1/documents/:document_id/raw_content`
 * (`data.content`). Failures answer as Feishu does, a JSON body with a non-zero `code` and a
 * `msg`: 10003 unknown app id, 10014 wrong secret, 99991661 missing token, 99991663 invalid
 * token, 1770002 document not found, 1770032 no permission.
 */
export async function startFeishuFake(options: FeishuFakeOptions): Promise<FeishuFake> {
  const apps = new Map(options.apps.map((app) => [app.appId, app.appSecret]));
  const documents = new Map(options.documents.map((document) => [document.documentId, document]));
  const tokens = new Map<string, { appId: string; expiresAt: number }>();
  const requests: FeishuFake["requests"] = [];

  const answer = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    response.end(JSON.stringify(body));
  };
  const readJson = async (request: IncomingMessage): Promise<Record<string, unknown>> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    try {
      const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      return value && typeof value === "object" ? (value as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    requests.push({
      method: request.method ?? "GET",
      path: url.pathname,
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    });
    void (async () => {
      if (request.method === "POST" && url.pathname === "/open-apis/auth/v3/tenant_access_token/internal") {
        const body = await readJson(request);
        const appId = typeof body.app_id === "string" ? body.app_id : "";
        const appSecret = typeof body.app_secret === "string" ? body.app_secret : "";
        if (!apps.has(appId)) return answer(response, 400, { code: 10003, msg: "invalid param" });
        if (apps.get(appId) !== appSecret) return answer(response, 400, { code: 10014, msg: "app secret invalid" });
        const token = `t-${randomBytes(20).toString("hex")}`;
        tokens.set(token, { appId, expiresAt: Date.now() + tokenLifetimeSeconds * 1000 });
        return answer(response, 200, { code: 0, msg: "ok", tenant_access_token: token, expire: tokenLifetimeSeconds });
      }
      const match = /^\/open-apis\/docx\/v1\/documents\/([^/]+)(\/raw_content)?$/.exec(url.pathname);
      if (request.method === "GET" && match) {
        const header = request.headers.authorization ?? "";
        if (!header.startsWith("Bearer ")) {
          return answer(response, 400, { code: 99991661, msg: "Missing access token for authorization. Please make a request with token attached." });
        }
        const grant = tokens.get(header.slice("Bearer ".length));
        if (!grant || grant.expiresAt < Date.now()) {
          return answer(response, 400, { code: 99991663, msg: "Invalid access token for authorization. Please make a request with token attached." });
        }
        const document = documents.get(decodeURIComponent(match[1]!));
        if (!document) return answer(response, 404, { code: 1770002, msg: "not found" });
        if (document.forbidden) return answer(response, 403, { code: 1770032, msg: "forbidden" });
        if (match[2]) return answer(response, 200, { code: 0, msg: "success", data: { content: document.content } });
        return answer(response, 200, {
          code: 0,
          msg: "success",
          data: { document: { document_id: document.documentId, revision_id: 1, title: document.title, display_setting: { show_authors: true } } },
        });
      }
      return answer(response, 404, { code: 404, msg: "404 page not found" });
    })().catch(() => answer(response, 500, { code: 500, msg: "internal error" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    revokeTokens: () => tokens.clear(),
    rotateSecret: (appId, appSecret) => {
      apps.set(appId, appSecret);
      tokens.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
