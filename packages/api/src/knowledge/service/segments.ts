import { and, asc, count, eq, max } from "drizzle-orm";
import { newId } from "../../crypto";
import { knowledgeChunks } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../http/context";
import { type KnowledgeFileRow, loadFile } from "./files";
import { refreshFileTotals } from "./indexing";
import { estimateTokens } from "../../platform/llm/tokens";
import { segmentForSearch } from "../retrieval/text";

/** A stored chunk row. */
export type ChunkRow = typeof knowledgeChunks.$inferSelect;

/** Longest segment content accepted by add and edit. */
export const SEGMENT_MAX_CHARACTERS = 20_000;

/** The contract view of a segment. */
export function segmentView(row: ChunkRow) {
  return { id: row.id, fileId: row.fileId, ordinal: row.ordinal, content: row.content, tokens: row.tokens, enabled: row.enabled, updatedAt: row.updatedAt };
}

function editable(file: KnowledgeFileRow) {
  // Segments of a file being indexed would race with the indexer.
  if (file.status === "processing") throw new ServiceError("conflict", "knowledge_base_updating");
  if (file.status !== "effective") throw new ServiceError("conflict", "file_not_confirmable", { status: file.status });
}

async function loadSegment(deps: Deps, auth: Auth, segmentId: string): Promise<ChunkRow> {
  const row = await deps.db
    .select()
    .from(knowledgeChunks)
    .where(and(eq(knowledgeChunks.id, segmentId), eq(knowledgeChunks.spaceId, auth.spaceId)))
    .get();
  if (!row) throw fail.notFound("segment");
  return row;
}

function checkContent(content: string): string {
  const trimmed = content.trim();
  if (!trimmed) throw fail.invalid("field_required", "content", { field: "content" });
  return trimmed;
}

/** A page of a file's segments in order. */
export async function listSegments(deps: Deps, auth: Auth, fileId: string, page: { pageNo: number; pageSize: number }) {
  const file = await loadFile(deps, auth.spaceId, fileId);
  const rows = await deps.db
    .select()
    .from(knowledgeChunks)
    .where(eq(knowledgeChunks.fileId, file.id))
    .orderBy(asc(knowledgeChunks.ordinal))
    .limit(page.pageSize)
    .offset((page.pageNo - 1) * page.pageSize)
    .all();
  const total = await deps.db.select({ n: count() }).from(knowledgeChunks).where(eq(knowledgeChunks.fileId, file.id)).get();
  return { items: rows.map(segmentView), total: total?.n ?? 0, pageNo: page.pageNo, pageSize: page.pageSize };
}

/** Adds a segment at the end of an effective file. */
export async function addSegment(deps: Deps, auth: Auth, fileId: string, input: { content: string }) {
  const file = await loadFile(deps, auth.spaceId, fileId);
  editable(file);
  const content = checkContent(input.content);
  const last = await deps.db.select({ ordinal: max(knowledgeChunks.ordinal) }).from(knowledgeChunks).where(eq(knowledgeChunks.fileId, file.id)).get();
  const now = deps.now().toISOString();
  const row: ChunkRow = {
    id: newId("kc"),
    spaceId: file.spaceId,
    knowledgeBaseId: file.knowledgeBaseId,
    fileId: file.id,
    ordinal: (last?.ordinal ?? -1) + 1,
    content,
    searchText: segmentForSearch(content),
    tokens: estimateTokens(content),
    metadata: "{}",
    enabled: true,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(knowledgeChunks).values(row);
  await refreshFileTotals(deps, file.id);
  return segmentView(row);
}

/** Edits a segment's content and/or switches it on or off. */
export async function updateSegment(deps: Deps, auth: Auth, segmentId: string, input: { content?: string; enabled?: boolean }) {
  const segment = await loadSegment(deps, auth, segmentId);
  editable(await loadFile(deps, auth.spaceId, segment.fileId));
  const content = input.content !== undefined ? checkContent(input.content) : segment.content;
  const updated = await deps.db
    .update(knowledgeChunks)
    .set({
      content,
      searchText: segmentForSearch(content),
      tokens: estimateTokens(content),
      enabled: input.enabled ?? segment.enabled,
      updatedAt: deps.now().toISOString(),
    })
    .where(eq(knowledgeChunks.id, segment.id))
    .returning();
  await refreshFileTotals(deps, segment.fileId);
  return segmentView(updated[0]!);
}

/** Deletes a segment. */
export async function deleteSegment(deps: Deps, auth: Auth, segmentId: string) {
  const segment = await loadSegment(deps, auth, segmentId);
  editable(await loadFile(deps, auth.spaceId, segment.fileId));
  await deps.db.delete(knowledgeChunks).where(eq(knowledgeChunks.id, segment.id));
  await refreshFileTotals(deps, segment.fileId);
  return { id: segment.id, deleted: true as const };
}
