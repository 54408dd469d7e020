import { fail } from "../../../errors";

/** One deadline for each call to Feishu's open API. */
export const FEISHU_TIMEOUT_MS = 15_000;

/** A refusal or failure from Feishu: its error code (-1 when it never answered) and message. */
export class FeishuError extends Error {
  override name = "FeishuError";
  constructor(
    readonly code: number,
    readonly feishuMessage: string,
  ) {
    super(`Feishu: ${feishuMessage} (code ${code})`);
  }
}

/**
 * Checks a Feishu document address: it must be https (spec §5) and name a docx document,
 * `https://<tenant>.feishu.cn/docx/<document_id>`. Answers the document id.
 */
export function parseFeishuDocumentUrl(input: string): { url: URL; documentId: string } {
  const trimmed = input.trim();
  if (!/^https:\/\//i.test(trimmed)) throw fail.invalid("feishu_url_invalid", "url");
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw fail.invalid("feishu_url_invalid", "url");
  }
  const match = /^\/docx\/([A-Za-z0-9]{8,64})\/?$/.exec(url.pathname);
  if (!match) throw fail.invalid("feishu_document_unsupported", "url");
  return { url, documentId: match[1]! };
}

interface FeishuAnswer {
  code?: unknown;
  msg?: unknown;
  [key: string]: unknown;
}

async function call(url: string, init: RequestInit, timeoutMs: number): Promise<FeishuAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: "error", signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const reason =
      error instanceof Error && error.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : error instanceof Error ? error.message : String(error);
    throw new FeishuError(-1, reason);
  }
  let body: FeishuAnswer;
  try {
    body = (await response.json()) as FeishuAnswer;
  } catch {
    throw new FeishuError(-1, `unexpected answer (HTTP ${response.status})`);
  }
  // Feishu answers failures with a non-zero code, whatever the HTTP status.
  const code = typeof body.code === "number" ? body.code : -1;
  if (code !== 0) throw new FeishuError(code, typeof body.msg === "string" && body.msg ? body.msg : `HTTP ${response.status}`);
  return body;
}

/** A self-built app's tenant_access_token (POST /open-apis/auth/v3/tenant_access_token/internal). */
export async function tenantAccessToken(baseUrl: string, credentials: { appId: string; appSecret: string }, timeoutMs = FEISHU_TIMEOUT_MS): Promise<string> {
  const body = await call(
    `${baseUrl}/open-apis/auth/v3/tenant_access_token/internal`,
    {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ app_id: credentials.appId, app_secret: credentials.appSecret }),
    },
    timeoutMs,
  );
  if (typeof body.tenant_access_token !== "string" || !body.tenant_access_token) throw new FeishuError(-1, "no tenant_access_token in the answer");
  return body.tenant_access_token;
}

/**
 * A docx document's title (GET /open-apis/docx/v1/documents/:document_id) and plain text
 * (GET …/raw_content), read with a tenant_access_token.
 */
export async function fetchFeishuDocument(
  baseUrl: string,
  token: string,
  documentId: string,
  timeoutMs = FEISHU_TIMEOUT_MS,
): Promise<{ title: string; content: string }> {
  const headers = { authorization: `Bearer ${token}` };
  const path = `${baseUrl}/open-apis/docx/v1/documents/${encodeURIComponent(documentId)}`;
  const meta = await call(path, { headers }, timeoutMs);
  const raw = await call(`${path}/raw_content?lang=0`, { headers }, timeoutMs);
  const document = (meta.data as { document?: { title?: unknown } } | undefined)?.document;
  const content = (raw.data as { content?: unknown } | undefined)?.content;
  return { title: typeof document?.title === "string" ? document.title : "", content: typeof content === "string" ? content : "" };
}
