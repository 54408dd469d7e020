import { eq } from "drizzle-orm";
import { knowledgeFeishuAuth } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { openValue, sealValue } from "../../platform/sealed";
import { createImportedFile } from "./files";
import { checkGivenName } from "./imports";
import { loadKnowledgeBase } from "./knowledge-bases";
import { FeishuError, fetchFeishuDocument, parseFeishuDocumentUrl, tenantAccessToken } from "./sources/feishu";
import { fileNameFromTitle } from "./sources/website";

/** The contract view of a space's Feishu authorization: the secret is never answered. */
function authorizationView(row: typeof knowledgeFeishuAuth.$inferSelect | undefined) {
  return row
    ? { appId: row.appId, configured: true, secretSet: row.appSecret !== "", updatedAt: row.updatedAt }
    : { appId: null, configured: false, secretSet: false, updatedAt: null };
}

/** The space's authorization with its secret opened (stored sealed under the instance key). */
async function loadAuthorization(deps: Pick<Deps, "db" | "secrets">, spaceId: string) {
  const row = await deps.db.select().from(knowledgeFeishuAuth).where(eq(knowledgeFeishuAuth.spaceId, spaceId)).get();
  return row ? { ...row, appSecret: openValue(deps.secrets, row.appSecret) } : undefined;
}

/** The caller's space's Feishu authorization: the app id and whether a secret is set. */
export async function getFeishuAuthorization(deps: Pick<Deps, "db" | "secrets">, auth: Auth) {
  return authorizationView(await loadAuthorization(deps, auth.spaceId));
}

/**
 * Saves the space's Feishu app credentials (owner or admin only). Omitting the secret keeps the
 * one saved. The credentials are tried first: Feishu refusing them is a 400 with Feishu's message
 * and nothing is saved; Feishu not answering is a 502.
 */
export async function saveFeishuAuthorization(deps: Pick<Deps, "config" | "db" | "now" | "secrets">, auth: Auth, input: { appId: string; appSecret?: string }) {
  if (auth.role !== "owner" && auth.role !== "admin") throw fail.forbidden("space_admin_only");
  const appId = input.appId.trim();
  if (!appId) throw fail.invalid("field_required", "appId", { field: "appId" });
  const existing = await loadAuthorization(deps, auth.spaceId);
  const appSecret = input.appSecret?.trim() || existing?.appSecret || "";
  if (!appSecret) throw fail.invalid("field_required", "appSecret", { field: "appSecret" });
  try {
    await tenantAccessToken(deps.config.knowledge.feishuBaseUrl, { appId, appSecret });
  } catch (error) {
    if (!(error instanceof FeishuError)) throw error;
    if (error.code === -1) throw new ServiceError("external", "feishu_unreachable", { reason: error.feishuMessage });
    throw fail.invalid("feishu_credentials_invalid", "appSecret", { reason: `${error.feishuMessage} (code ${error.code})` });
  }
  const row = { spaceId: auth.spaceId, appId, appSecret, updatedAt: deps.now().toISOString() };
  const sealed = sealValue(deps.secrets, appSecret);
  await deps.db
    .insert(knowledgeFeishuAuth)
    .values({ ...row, appSecret: sealed })
    .onConflictDoUpdate({ target: knowledgeFeishuAuth.spaceId, set: { appId, appSecret: sealed, updatedAt: row.updatedAt } });
  return authorizationView(row);
}

/**
 * Imports a Feishu docx document by its address (https only, `…/docx/<document_id>`) with the
 * space's saved authorization: a tenant_access_token, then the document's title and plain text.
 * It becomes a pending document named after its title (or the given name). When Feishu refuses
 * (bad credentials, no access to the document, not found) or does not answer, the file is kept as
 * failed with Feishu's message as its reason.
 */
export async function importFeishuDocument(
  deps: Pick<Deps, "config" | "db" | "files" | "logger" | "now" | "secrets">,
  auth: Auth,
  knowledgeBaseId: string,
  input: { url: string; name?: string },
) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const { url, documentId } = parseFeishuDocumentUrl(input.url);
  const givenName = checkGivenName(input.name);
  const credentials = await loadAuthorization(deps, auth.spaceId);
  if (!credentials) throw new ServiceError("conflict", "feishu_not_authorized");
  const source = url.toString();
  const fallbackName = `feishu-${documentId}`;
  const options = { feishu: { documentId, url: source }, extension: "txt" };
  try {
    const baseUrl = deps.config.knowledge.feishuBaseUrl;
    const token = await tenantAccessToken(baseUrl, credentials);
    const document = await fetchFeishuDocument(baseUrl, token, documentId);
    const text = document.content.trim();
    const bytes = new TextEncoder().encode(document.content);
    return await createImportedFile(deps, auth, base.id, {
      type: "document",
      name: givenName ?? fileNameFromTitle(document.title, fallbackName),
      source,
      sizeBytes: bytes.byteLength,
      mimeType: "text/plain",
      ...(text
        ? {
            original: { bytes, extension: "txt" },
            prepared: { kind: "text" as const, text: document.title ? `# ${document.title}\n\n${document.content}` : document.content },
          }
        : { failureReason: "document_empty" }),
      options: { ...options, title: document.title },
    });
  } catch (error) {
    if (!(error instanceof FeishuError)) throw error;
    deps.logger.info("feishu import failed", { documentId, code: error.code, reason: error.feishuMessage });
    return createImportedFile(deps, auth, base.id, {
      type: "document",
      name: givenName ?? fileNameFromTitle("", fallbackName),
      source,
      sizeBytes: 0,
      // Feishu's own message says best what went wrong; it reads the same in every language.
      failureReason: error.message,
      options: { ...options, error: { code: error.code, message: error.feishuMessage } },
    });
  }
}
