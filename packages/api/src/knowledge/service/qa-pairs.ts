import { and, eq } from "drizzle-orm";
import { mediaMaterials } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { estimateTokens } from "../../platform/llm/tokens";
import type { KnowledgeFileRow } from "./files";
import {
  type ChunkRow,
  checkEditable,
  checkRoomFor,
  deleteChunk,
  loadChunkOf,
  loadRecordFile,
  metadataOf,
  nextOrdinal,
  pageOfChunks,
  pendingRecords,
  reloadChunk,
  storeRecords,
} from "./records";
import { chunkOfRecord } from "./prepared";
import { parseMaterial, type QaMaterial, type QaPair, qaPairOf, qaRecord, type QaSearchMethod } from "./sources/qa";

/** What a pair add or edit may send. */
export interface QaPairInput {
  question?: string;
  answer?: string;
  searchMethod?: QaSearchMethod;
  /** A media material id of the knowledge base or an http(s) URL; null or "" removes it. */
  material?: string | null;
}

function pairView(id: string | null, ordinal: number, pair: QaPair | undefined, chunk?: ChunkRow, updatedAt = "") {
  return {
    id,
    ordinal,
    question: pair?.question ?? "",
    answer: pair?.answer ?? "",
    searchMethod: pair?.searchMethod ?? ("question_answer" as const),
    material: pair?.material ?? null,
    enabled: chunk?.enabled ?? true,
    updatedAt: chunk?.updatedAt ?? updatedAt,
  };
}

async function checkMaterial(deps: Pick<Deps, "db">, file: KnowledgeFileRow, value: string | null | undefined): Promise<QaMaterial | null | undefined> {
  if (value === undefined) return undefined;
  if (value === null || value.trim() === "") return null;
  const material = parseMaterial(value);
  if (!material) throw fail.invalid("qa_material_invalid", "material");
  if (material.type === "media") {
    const row = await deps.db
      .select({ id: mediaMaterials.id })
      .from(mediaMaterials)
      .where(and(eq(mediaMaterials.id, material.id), eq(mediaMaterials.knowledgeBaseId, file.knowledgeBaseId)))
      .get();
    if (!row) throw fail.invalid("qa_material_invalid", "material");
  }
  return material;
}

function required(value: string | undefined, field: "question" | "answer"): string {
  const trimmed = (value ?? "").trim();
  if (!trimmed) throw fail.invalid(field === "question" ? "qa_question_empty" : "qa_answer_empty", field);
  if (trimmed.length > 10_000) throw fail.invalid("validation_failed", field, { field, reason: "at most 10000 characters" });
  return trimmed;
}

/** A page of a Q&A file's pairs in order; a pending file's pairs have no id yet. */
export async function listQaPairs(deps: Pick<Deps, "db" | "files">, auth: Auth, fileId: string, page: { pageNo: number; pageSize: number }) {
  const file = await loadRecordFile(deps, auth, fileId, "qa");
  const layout = { pageNo: page.pageNo, pageSize: page.pageSize };
  if (file.status === "pending") {
    const records = await pendingRecords(deps, file);
    const start = (page.pageNo - 1) * page.pageSize;
    return {
      ...layout,
      total: records.length,
      items: records
        .slice(start, start + page.pageSize)
        .map((record, index) => pairView(null, start + index, qaPairOf(record.metadata ?? {}), undefined, file.updatedAt)),
    };
  }
  const { rows, total } = await pageOfChunks(deps, file.id, page);
  return { ...layout, total, items: rows.map((row) => pairView(row.id, row.ordinal, qaPairOf(metadataOf(row)), row)) };
}

/** Adds a pair at the end of an effective Q&A file; searchable at once (by its question only, or both). */
export async function addQaPair(deps: Pick<Deps, "db" | "knowledge" | "now">, auth: Auth, fileId: string, input: QaPairInput) {
  const file = await loadRecordFile(deps, auth, fileId, "qa");
  checkEditable(file, false);
  const material = await checkMaterial(deps, file, input.material);
  const pair: QaPair = {
    question: required(input.question, "question"),
    answer: required(input.answer, "answer"),
    searchMethod: input.searchMethod ?? "question",
    ...(material ? { material } : {}),
  };
  const record = qaRecord(pair);
  await checkRoomFor(deps, file, estimateTokens(record.content));
  const [id] = await storeRecords(deps, file, [chunkOfRecord(record, await nextOrdinal(deps, file.id))]);
  const chunk = await reloadChunk(deps, id!);
  return pairView(chunk.id, chunk.ordinal, pair, chunk);
}

/** Changes a pair of an effective Q&A file; its segment text, metadata and index change together. */
export async function updateQaPair(deps: Pick<Deps, "db" | "knowledge" | "now">, auth: Auth, fileId: string, pairId: string, input: QaPairInput) {
  const file = await loadRecordFile(deps, auth, fileId, "qa");
  checkEditable(file, false);
  const chunk = await loadChunkOf(deps, file, pairId, "qa_pair");
  const current = qaPairOf(metadataOf(chunk)) ?? { question: "", answer: "", searchMethod: "question_answer" as const };
  const material = await checkMaterial(deps, file, input.material);
  const next: QaPair = {
    question: input.question === undefined ? current.question : required(input.question, "question"),
    answer: input.answer === undefined ? current.answer : required(input.answer, "answer"),
    searchMethod: input.searchMethod ?? current.searchMethod,
  };
  const kept = material === undefined ? current.material : (material ?? undefined);
  if (kept) next.material = kept;
  await storeRecords(deps, file, [chunkOfRecord(qaRecord(next), chunk.ordinal)]);
  const stored = await reloadChunk(deps, chunk.id);
  return pairView(stored.id, stored.ordinal, next, stored);
}

/** Deletes a pair of an effective Q&A file. */
export async function deleteQaPair(deps: Pick<Deps, "db" | "knowledge" | "now">, auth: Auth, fileId: string, pairId: string) {
  const file = await loadRecordFile(deps, auth, fileId, "qa");
  checkEditable(file, false);
  const chunk = await loadChunkOf(deps, file, pairId, "qa_pair");
  await deleteChunk(deps, file, chunk);
  return { id: chunk.id, deleted: true as const };
}
