import { and, eq } from "drizzle-orm";
import { loadApp, parseJsonArray } from "../../apps/service/load";
import { knowledgeBases } from "../../db/schema/index";
import type { Auth, Deps } from "../../kernel";
import { uploadDocument } from "./files";
import type { UploadInput } from "./imports";
import { bindKnowledgeBases, checkTokenLimit, createKnowledgeBase, tokensOf } from "./knowledge-bases";

/** Largest document the create-app flow accepts (spec §5: 15 MB there, 10 MB elsewhere). */
export const APP_DOCUMENT_MAX_BYTES = 15 * 1024 * 1024;

/**
 * Uploads a document while creating an app: it goes to the app's own knowledge base, which is
 * made on first use (named after the app) and bound to the app with the usual binding rules
 * (same space, at most 1,000,000 tokens per app). Documents may be 15 MB here. Answers the
 * pending file, to be previewed and confirmed like any other.
 */
export async function uploadAppDocument(deps: Pick<Deps, "db" | "files" | "knowledge" | "now">, auth: Auth, appId: string, input: UploadInput) {
  const app = await loadApp(deps, auth, appId);
  const bound = parseJsonArray(app.knowledgeBaseIds);
  let own = await deps.db
    .select({ id: knowledgeBases.id })
    .from(knowledgeBases)
    .where(and(eq(knowledgeBases.appId, app.id), eq(knowledgeBases.spaceId, auth.spaceId)))
    .get();
  if (!own || !bound.includes(own.id)) {
    // Refuse before making anything when the app is already over the limit.
    checkTokenLimit(await tokensOf(deps, bound));
    own ??= await createKnowledgeBase(deps, auth, { name: app.name.slice(0, 100) || "App knowledge", description: "", appId: app.id });
    await bindKnowledgeBases(deps, auth, app.id, [own.id]);
  }
  return uploadDocument(deps, auth, own.id, { ...input, maxBytes: APP_DOCUMENT_MAX_BYTES });
}
