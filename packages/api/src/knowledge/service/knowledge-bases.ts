import { and, desc, eq, inArray, sum } from "drizzle-orm";
import { newId, newShortCode } from "../../crypto";
import { apps, knowledgeBases, knowledgeFiles } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import type { RangeCaller } from "../../access/follow";
import { rangeCondition } from "../../access/range";
import { loadApp, parseJsonArray } from "../../apps/service/load";
import { knowledgeKeys } from "./storage";
import { deleteIndexed } from "./vectors";

/** A stored knowledge base row. */
export type KnowledgeBaseRow = typeof knowledgeBases.$inferSelect;

/** One app may hold at most this many tokens of knowledge (spec §5 Files). */
export const APP_TOKEN_LIMIT = 1_000_000;

/** What creating a knowledge base takes. */
export interface CreateKnowledgeBaseInput {
  name: string;
  description?: string;
  chunkTokens?: number;
  chunkOverlap?: number;
  /** Set when the knowledge base is an app's own (the create-app upload makes it). */
  appId?: string;
}

/** What an update may change. */
export type UpdateKnowledgeBaseInput = Partial<CreateKnowledgeBaseInput>;

/** The contract view of a knowledge base, with its file and token totals. */
export function knowledgeBaseView(deps: Pick<Deps, "knowledge">, row: KnowledgeBaseRow, totals: { fileCount: number; tokenCount: number }) {
  const embedder = deps.knowledge.embedder(row.embeddingModel);
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    embeddingModel: row.embeddingModel,
    embeddingModelLabel: embedder?.label ?? null,
    lexicalEmbedder: embedder?.lexical === true,
    chunkTokens: row.chunkTokens,
    chunkOverlap: row.chunkOverlap,
    fileCount: totals.fileCount,
    tokenCount: totals.tokenCount,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * Loads a knowledge base of a space; one of another space does not exist for the caller, nor
 * (when a member's access is given instead of a space id) one outside the member's data range.
 */
export async function loadKnowledgeBase(deps: Pick<Deps, "db">, scope: string | RangeCaller, knowledgeBaseId: string): Promise<KnowledgeBaseRow> {
  const spaceId = typeof scope === "string" ? scope : scope.spaceId;
  const row = await deps.db
    .select()
    .from(knowledgeBases)
    .where(
      and(
        eq(knowledgeBases.id, knowledgeBaseId),
        eq(knowledgeBases.spaceId, spaceId),
        typeof scope === "string" ? undefined : rangeCondition(scope, "knowledgeBase", knowledgeBases),
      ),
    )
    .get();
  if (!row) throw fail.notFound("knowledge_base");
  return row;
}

function checkChunking(input: { chunkTokens: number; chunkOverlap: number }) {
  if (input.chunkOverlap >= input.chunkTokens) throw fail.invalid("chunk_overlap_too_large", "chunkOverlap");
}

async function totalsOf(deps: Pick<Deps, "db">, ids: string[]): Promise<Map<string, { fileCount: number; tokenCount: number }>> {
  const out = new Map<string, { fileCount: number; tokenCount: number }>();
  if (ids.length === 0) return out;
  const rows = await deps.db
    .select({ id: knowledgeFiles.knowledgeBaseId, tokens: knowledgeFiles.tokenCount })
    .from(knowledgeFiles)
    .where(inArray(knowledgeFiles.knowledgeBaseId, ids))
    .all();
  for (const row of rows) {
    const entry = out.get(row.id) ?? { fileCount: 0, tokenCount: 0 };
    entry.fileCount += 1;
    entry.tokenCount += row.tokens;
    out.set(row.id, entry);
  }
  return out;
}

/** Creates a knowledge base in the caller's space. */
export async function createKnowledgeBase(deps: Pick<Deps, "db" | "knowledge" | "now">, auth: Auth, input: CreateKnowledgeBaseInput) {
  const now = deps.now().toISOString();
  const row: KnowledgeBaseRow = {
    id: newId("kb"),
    spaceId: auth.spaceId,
    code: newShortCode(10),
    name: input.name.trim(),
    description: (input.description ?? "").trim(),
    embeddingModel: deps.knowledge.defaultEmbedder.id,
    chunkTokens: input.chunkTokens ?? 500,
    chunkOverlap: input.chunkOverlap ?? 50,
    appId: input.appId ?? null,
    createdBy: auth.userId,
    createdAt: now,
    updatedAt: now,
  };
  if (!row.name) throw fail.invalid("field_required", "name", { field: "name" });
  checkChunking(row);
  await deps.db.insert(knowledgeBases).values(row);
  return knowledgeBaseView(deps, row, { fileCount: 0, tokenCount: 0 });
}

/** The knowledge bases of the caller's space, newest first. */
export async function listKnowledgeBases(deps: Pick<Deps, "db" | "knowledge">, auth: Auth) {
  const rows = await deps.db
    .select()
    .from(knowledgeBases)
    .where(and(eq(knowledgeBases.spaceId, auth.spaceId), rangeCondition(auth, "knowledgeBase", knowledgeBases)))
    .orderBy(desc(knowledgeBases.createdAt), desc(knowledgeBases.id))
    .all();
  const totals = await totalsOf(
    deps,
    rows.map((row) => row.id),
  );
  return rows.map((row) => knowledgeBaseView(deps, row, totals.get(row.id) ?? { fileCount: 0, tokenCount: 0 }));
}

/** One knowledge base of the caller's space. */
export async function getKnowledgeBase(deps: Pick<Deps, "db" | "knowledge">, auth: Auth, knowledgeBaseId: string) {
  const row = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const totals = await totalsOf(deps, [row.id]);
  return knowledgeBaseView(deps, row, totals.get(row.id) ?? { fileCount: 0, tokenCount: 0 });
}

/** Changes a knowledge base's name, description or chunking (new chunking applies to later imports). */
export async function updateKnowledgeBase(deps: Pick<Deps, "db" | "knowledge" | "now">, auth: Auth, knowledgeBaseId: string, input: UpdateKnowledgeBaseInput) {
  const row = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const next = {
    name: input.name !== undefined ? input.name.trim() : row.name,
    description: input.description !== undefined ? input.description.trim() : row.description,
    chunkTokens: input.chunkTokens ?? row.chunkTokens,
    chunkOverlap: input.chunkOverlap ?? row.chunkOverlap,
  };
  if (!next.name) throw fail.invalid("field_required", "name", { field: "name" });
  checkChunking(next);
  await deps.db
    .update(knowledgeBases)
    .set({ ...next, updatedAt: deps.now().toISOString() })
    .where(eq(knowledgeBases.id, row.id));
  return getKnowledgeBase(deps, auth, row.id);
}

/**
 * Deletes a knowledge base with its files and chunks (the foreign keys cascade) and unbinds it
 * from the space's apps.
 */
export async function deleteKnowledgeBase(deps: Pick<Deps, "db" | "files" | "knowledge">, auth: Auth, knowledgeBaseId: string) {
  const row = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const bound = await deps.db.select({ id: apps.id, ids: apps.knowledgeBaseIds }).from(apps).where(eq(apps.spaceId, auth.spaceId)).all();
  for (const app of bound) {
    const ids = parseJsonArray(app.ids);
    if (ids.includes(row.id)) {
      await deps.db
        .update(apps)
        .set({ knowledgeBaseIds: JSON.stringify(ids.filter((id) => id !== row.id)) })
        .where(eq(apps.id, app.id));
    }
  }
  await deps.db.delete(knowledgeBases).where(eq(knowledgeBases.id, row.id));
  await deleteIndexed(deps, row, { knowledgeBaseIds: [row.id] });
  await removeStoredFiles(deps, row.id);
  return { id: row.id, deleted: true as const };
}

async function removeStoredFiles(deps: Pick<Deps, "files">, knowledgeBaseId: string) {
  await deps.files.deletePrefix(knowledgeKeys.base(knowledgeBaseId));
}

/** Tokens held by a set of knowledge bases (every file counts, whatever its status). */
export async function tokensOf(deps: Pick<Deps, "db">, knowledgeBaseIds: string[]): Promise<number> {
  if (knowledgeBaseIds.length === 0) return 0;
  const row = await deps.db
    .select({ total: sum(knowledgeFiles.tokenCount) })
    .from(knowledgeFiles)
    .where(inArray(knowledgeFiles.knowledgeBaseId, knowledgeBaseIds))
    .get();
  return Number(row?.total ?? 0);
}

/** Refuses when an app's knowledge would hold more than {@link APP_TOKEN_LIMIT} tokens. */
export function checkTokenLimit(total: number): void {
  if (total > APP_TOKEN_LIMIT) throw new ServiceError("validation", "token_limit_exceeded", { limit: APP_TOKEN_LIMIT }, { field: "tokens" });
}

/**
 * Binds knowledge bases to an app (relation add): the ids are added to the app's bound list.
 * Every id must be a knowledge base of the caller's space, and the app's total stays within the
 * token limit.
 */
export async function bindKnowledgeBases(deps: Pick<Deps, "db" | "now">, auth: Auth, appId: string, knowledgeBaseIds: string[]) {
  const app = await loadApp(deps, auth, appId);
  const wanted = [...new Set(knowledgeBaseIds)];
  for (const id of wanted) await loadKnowledgeBase(deps, auth, id);
  const bound = [...new Set([...parseJsonArray(app.knowledgeBaseIds), ...wanted])];
  checkTokenLimit(await tokensOf(deps, bound));
  await deps.db
    .update(apps)
    .set({ knowledgeBaseIds: JSON.stringify(bound), updatedAt: deps.now().toISOString() })
    .where(eq(apps.id, app.id));
  return { appId: app.id, knowledgeBaseIds: bound };
}

/** The ids of apps of a space that bind a knowledge base. */
export async function appsBinding(deps: Pick<Deps, "db">, spaceId: string, knowledgeBaseId: string) {
  const rows = await deps.db.select({ id: apps.id, ids: apps.knowledgeBaseIds }).from(apps).where(eq(apps.spaceId, spaceId)).all();
  return rows.map((row) => ({ id: row.id, knowledgeBaseIds: parseJsonArray(row.ids) })).filter((row) => row.knowledgeBaseIds.includes(knowledgeBaseId));
}
