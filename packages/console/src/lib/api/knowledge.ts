import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";
import { fileNameOfDisposition } from "../save-blob";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A knowledge base with its totals. */
export type KnowledgeBase = Schemas["KnowledgeBase"];
/** A file of a knowledge base and its import state. */
export type KnowledgeFile = Schemas["KnowledgeFile"];
/** The first 50 segments (or rows) of a pending file. */
export type KnowledgeFilePreview = Schemas["KnowledgeFilePreview"];
/** A segment of an indexed file. */
export type KnowledgeSegment = Schemas["KnowledgeSegment"];
/** What a retrieval test answers. */
export type RetrievalTestResult = Schemas["RetrievalTestResult"];
/** One hit of a retrieval test. */
export type RetrievedChunk = Schemas["RetrievedChunk"];
/** Body of knowledge base create. */
export type CreateKnowledgeBase = Schemas["CreateKnowledgeBase"];
/** Body of knowledge base update. */
export type UpdateKnowledgeBase = Schemas["UpdateKnowledgeBase"];
/** How an import of records (Q&A pairs, table rows) went. */
export type KnowledgeImportReport = Schemas["KnowledgeImportReport"];
/** A pending file with its import report. */
export type KnowledgeImportResult = Schemas["KnowledgeImportResult"];
/** A table file's fields, index column and row count. */
export type KnowledgeTable = Schemas["KnowledgeTable"];
/** A row of a table file. */
export type KnowledgeTableRow = Schemas["KnowledgeTableRow"];
/** The space's Feishu app authorization (the secret is never answered). */
export type FeishuAuthorization = Schemas["FeishuAuthorization"];
/** A media material of a knowledge base. */
export type KnowledgeMedia = Schemas["KnowledgeMedia"];

/** A multipart body for openapi-fetch: FormData goes to fetch untouched, which sets the boundary. */
function multipart<Body>(fields: Record<string, string | { blob: Blob; fileName: string } | undefined>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (typeof value === "string") form.append(key, value);
    else form.append(key, value.blob, value.fileName);
  }
  return { body: form as unknown as Body, bodySerializer: (body: unknown) => body as FormData };
}

const kb = (knowledgeBaseId: string) => ({ params: { path: { knowledgeBaseId } } });
const file = (fileId: string) => ({ params: { path: { fileId } } });
const row = (fileId: string, rowId: string) => ({ params: { path: { fileId, rowId } } });
const media = (mediaId: string) => ({ params: { path: { mediaId } } });
const segment = (segmentId: string) => ({ params: { path: { segmentId } } });

/** The space's knowledge bases; one base and its files are below it (cache keys, see query.ts). */
export const KNOWLEDGE_BASES = ["knowledge-bases"];

/**
 * The knowledge calls the console makes, through the SDK and the request layer (spec §7
 * Knowledge). Forms that show a refusal on a field call with `silent`.
 */
export const knowledgeEndpoints = {
  list: (extra: Extra = {}) => call({ dedupeKey: "knowledge-bases", ...extra }, (init) => client.GET("/api/v1/knowledge-bases", init)),
  get: (id: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/knowledge-bases/{knowledgeBaseId}", { ...init, ...kb(id) })),
  create: (body: CreateKnowledgeBase, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/knowledge-bases", { ...init, body })),
  update: (id: string, body: UpdateKnowledgeBase, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/knowledge-bases/{knowledgeBaseId}", { ...init, ...kb(id), body })),
  remove: (id: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/knowledge-bases/{knowledgeBaseId}", { ...init, ...kb(id) })),
  files: (id: string, extra: Extra = {}) =>
    call({ dedupeKey: `knowledge-files-${id}`, ...extra }, (init) => client.GET("/api/v1/knowledge-bases/{knowledgeBaseId}/files", { ...init, ...kb(id) })),
  /** Multipart upload of one document; `name` is the file name without extension. */
  uploadDocument: (id: string, upload: Blob, fileName: string, name: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/files", {
        ...init,
        ...kb(id),
        ...multipart<Schemas["UploadDocument"]>({ file: { blob: upload, fileName }, name }),
      }),
    ),
  /** Q&A pairs from a UTF-8 CSV made from the template; answers the pending file and the import report. */
  importQa: (id: string, upload: Blob, fileName: string, name: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/imports/qa", {
        ...init,
        ...kb(id),
        ...multipart<Schemas["QaImportUpload"]>({ file: { blob: upload, fileName }, name }),
      }),
    ),
  /** The Q&A template (CSV) with column titles in `language`. */
  qaTemplate: (id: string, language: "en" | "zh-CN", extra: Extra = {}) =>
    call(extra, (init) =>
      client.GET("/api/v1/knowledge-bases/{knowledgeBaseId}/qa-template", {
        ...init,
        params: { path: { knowledgeBaseId: id }, query: { language } },
        parseAs: "blob",
      }),
    ),
  /** A table from a CSV (UTF-8) or xlsx; the index column defaults to the first field and is fixed once set. */
  importTable: (id: string, upload: Blob, fileName: string, name: string, indexColumn: string | undefined, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/imports/table", {
        ...init,
        ...kb(id),
        ...multipart<Schemas["TableImportUpload"]>({ file: { blob: upload, fileName }, name, indexColumn }),
      }),
    ),
  /** More rows for a table file from a sheet whose columns are exactly its fields. */
  appendTable: (fileId: string, upload: Blob, fileName: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.POST("/api/v1/knowledge-files/{fileId}/table/imports", {
        ...init,
        ...file(fileId),
        ...multipart<Schemas["TableAppendUpload"]>({ file: { blob: upload, fileName } }),
      }),
    ),
  table: (fileId: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/knowledge-files/{fileId}/table", { ...init, ...file(fileId) })),
  /** Renames every field (in order); the index column stays the same column. */
  editColumns: (fileId: string, fields: string[], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/knowledge-files/{fileId}/table/columns", { ...init, ...file(fileId), body: { fields } })),
  tableRows: (fileId: string, pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: `knowledge-table-rows-${fileId}`, ...extra }, (init) =>
      client.GET("/api/v1/knowledge-files/{fileId}/table/rows", { ...init, params: { path: { fileId }, query: { pageNo, pageSize } } }),
    ),
  addTableRow: (fileId: string, values: Record<string, string>, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/knowledge-files/{fileId}/table/rows", { ...init, ...file(fileId), body: { values } })),
  updateTableRow: (fileId: string, rowId: string, values: Record<string, string>, extra: Extra = {}) =>
    call(extra, (init) => client.PATCH("/api/v1/knowledge-files/{fileId}/table/rows/{rowId}", { ...init, ...row(fileId, rowId), body: { values } })),
  removeTableRow: (fileId: string, rowId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/knowledge-files/{fileId}/table/rows/{rowId}", { ...init, ...row(fileId, rowId) })),
  /** A web page's readable text; a page that cannot be imported comes back as a failed file. */
  importWebsite: (id: string, body: { url: string; name?: string }, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/imports/website", { ...init, ...kb(id), body })),
  feishuAuthorization: (extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/knowledge-feishu/authorization", init)),
  /** The server tries the credentials against Feishu before saving; its refusal comes back as the message. */
  saveFeishuAuthorization: (body: Schemas["SaveFeishuAuthorization"], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PUT("/api/v1/knowledge-feishu/authorization", { ...init, body })),
  /** A Feishu docx document; when Feishu refuses, the file comes back failed with Feishu's message. */
  importFeishu: (id: string, body: Schemas["FeishuImport"], extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/imports/feishu", { ...init, ...kb(id), body })),
  media: (id: string, pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: `knowledge-media-${id}`, ...extra }, (init) =>
      client.GET("/api/v1/knowledge-bases/{knowledgeBaseId}/media", { ...init, params: { path: { knowledgeBaseId: id }, query: { pageNo, pageSize } } }),
    ),
  uploadMedia: (id: string, upload: Blob, fileName: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/media", {
        ...init,
        ...kb(id),
        ...multipart<Schemas["MediaUpload"]>({ file: { blob: upload, fileName } }),
      }),
    ),
  renameMedia: (mediaId: string, name: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/knowledge-media/{mediaId}", { ...init, ...media(mediaId), body: { name } })),
  removeMedia: (mediaId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/knowledge-media/{mediaId}", { ...init, ...media(mediaId) })),
  /** A material's bytes (the address needs the session, so images are shown from these). */
  mediaContent: (mediaId: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/knowledge-media/{mediaId}/content", { ...init, ...media(mediaId), parseAs: "blob" })),
  /**
   * A file's download (document bytes, Q&A or table as CSV, web page as Markdown) with the name
   * the server gives it in Content-Disposition.
   */
  exportFile: async (fileId: string, extra: Extra = {}) => {
    let disposition: string | null = null;
    const result = await call(extra, async (init) => {
      const answer = await client.GET("/api/v1/knowledge-files/{fileId}/export", { ...init, ...file(fileId), parseAs: "blob" });
      disposition = answer.response?.headers.get("content-disposition") ?? null;
      return answer;
    });
    return result.ok ? { ok: true as const, data: { blob: result.data as Blob, fileName: fileNameOfDisposition(disposition) } } : result;
  },
  preview: (fileId: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/knowledge-files/{fileId}/preview", { ...init, ...file(fileId) })),
  confirm: (fileId: string, extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/knowledge-files/{fileId}/confirm", { ...init, ...file(fileId) })),
  renameFile: (fileId: string, name: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.PATCH("/api/v1/knowledge-files/{fileId}", { ...init, ...file(fileId), body: { name } })),
  removeFile: (fileId: string, extra: Extra = {}) => call(extra, (init) => client.DELETE("/api/v1/knowledge-files/{fileId}", { ...init, ...file(fileId) })),
  segments: (fileId: string, pageNo: number, pageSize: number, extra: Extra = {}) =>
    call({ dedupeKey: `knowledge-segments-${fileId}`, ...extra }, (init) =>
      client.GET("/api/v1/knowledge-files/{fileId}/segments", { ...init, params: { path: { fileId }, query: { pageNo, pageSize } } }),
    ),
  addSegment: (fileId: string, content: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/knowledge-files/{fileId}/segments", { ...init, ...file(fileId), body: { content } })),
  updateSegment: (segmentId: string, body: { content?: string; enabled?: boolean }, extra: Extra = {}) =>
    call(extra, (init) => client.PATCH("/api/v1/knowledge-segments/{segmentId}", { ...init, ...segment(segmentId), body })),
  removeSegment: (segmentId: string, extra: Extra = {}) =>
    call(extra, (init) => client.DELETE("/api/v1/knowledge-segments/{segmentId}", { ...init, ...segment(segmentId) })),
  retrievalTest: (id: string, body: { query: string; similarityThreshold?: number }, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/knowledge-bases/{knowledgeBaseId}/retrieval-test", { ...init, ...kb(id), body })),
};
