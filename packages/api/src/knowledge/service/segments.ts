import { and, asc, count, eq, max } from "drizzle-orm";
import { knowledgeChunks } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { followsKnowledgeBase } from "../../access/follow";
import { type KnowledgeFileRow, loadFile } from "./files";
import { refreshFileTotals } from "./indexing";
import { estimateTokens } from "../../platform/llm/tokens";
import { type ChunkInput, storeChunks } from "../retrieval/indexing";
import { loadKnowledgeBase } from "./knowledge-bases";
import { metadataOf } from "./records";
import { deleteIndexed, embedderOf, vectorTableOf } from "./vectors";

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

async function loadSegment(deps: Pick<Deps, "db">, auth: Auth, segmentId: string): Promise<ChunkRow> {
  const row = await deps.db
    .select()
    .from(knowledgeChunks)
    .where(and(eq(knowledgeChunks.id, segmentId), eq(knowledgeChunks.spaceId, auth.spaceId), followsKnowledgeBase(auth, knowledgeChunks.knowledgeBaseId)))
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
export async function listSegments(deps: Pick<Deps, "db">, auth: Auth, fileId: string, page: { pageNo: number; pageSize: number }) {
  const file = await loadFile(deps, auth, fileId);
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

async function indexingDepsOf(deps: Pick<Deps, "db" | "knowledge" | "now">, file: KnowledgeFileRow) {
  const base = await loadKnowledgeBase(deps, file.spaceId, file.knowledgeBaseId);
  const embedder = embedderOf(deps, base);
  const vectors = vectorTableOf(deps, base);
  if (!embedder || !vectors) throw new ServiceError("conflict", "embedding_model_unavailable");
  return { db: deps.db, embedder, vectors, text: deps.knowledge.text, now: deps.now };
}

function targetOf(file: KnowledgeFileRow) {
  return { spaceId: file.spaceId, knowledgeBaseId: file.knowledgeBaseId, fileId: file.id };
}

function chunkOf(row: Pick<ChunkRow, "ordinal" | "content" | "metadata">, content: string): ChunkInput {
  const metadata = metadataOf(row);
  const headings = Array.isArray(metadata.headings) ? (metadata.headings as string[]) : [];
  return { ordinal: row.ordinal, content, tokens: estimateTokens(content), headings, metadata };
}

/** Adds a segment at the end of an effective file; it is searchable (full text and vectors) at once. */
export async function addSegment(deps: Pick<Deps, "db" | "knowledge" | "now">, auth: Auth, fileId: string, input: { content: string }) {
  const file = await loadFile(deps, auth, fileId);
  editable(file);
  const content = checkContent(input.content);
  const last = await deps.db
    .select({ ordinal: max(knowledgeChunks.ordinal) })
    .from(knowledgeChunks)
    .where(eq(knowledgeChunks.fileId, file.id))
    .get();
  const ordinal = (last?.ordinal ?? -1) + 1;
  const [id] = await storeChunks(await indexingDepsOf(deps, file), targetOf(file), [chunkOf({ ordinal, content, metadata: "{}" }, content)]);
  await refreshFileTotals(deps, file.id);
  return segmentView((await deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.id, id!)).get())!);
}

/** Edits a segment's content (re-indexed, vector included) and/or switches it on or off. */
export async function updateSegment(
  deps: Pick<Deps, "db" | "knowledge" | "now">,
  auth: Auth,
  segmentId: string,
  input: { content?: string; enabled?: boolean },
) {
  const segment = await loadSegment(deps, auth, segmentId);
  const file = await loadFile(deps, auth, segment.fileId);
  editable(file);
  if (input.content !== undefined) {
    const content = checkContent(input.content);
    await storeChunks(await indexingDepsOf(deps, file), targetOf(file), [chunkOf(segment, content)]);
  }
  if (input.enabled !== undefined) {
    await deps.db.update(knowledgeChunks).set({ enabled: input.enabled, updatedAt: deps.now().toISOString() }).where(eq(knowledgeChunks.id, segment.id));
  }
  await refreshFileTotals(deps, segment.fileId);
  return segmentView((await deps.db.select().from(knowledgeChunks).where(eq(knowledgeChunks.id, segment.id)).get())!);
}

/** Deletes a segment. */
export async function deleteSegment(deps: Pick<Deps, "db" | "knowledge" | "now">, auth: Auth, segmentId: string) {
  const segment = await loadSegment(deps, auth, segmentId);
  editable(await loadFile(deps, auth, segment.fileId));
  const file = await loadFile(deps, auth, segment.fileId);
  await deps.db.delete(knowledgeChunks).where(eq(knowledgeChunks.id, segment.id));
  const base = await loadKnowledgeBase(deps, file.spaceId, file.knowledgeBaseId);
  await deleteIndexed(deps, base, { chunkIds: [segment.id] });
  await refreshFileTotals(deps, segment.fileId);
  return { id: segment.id, deleted: true as const };
}
