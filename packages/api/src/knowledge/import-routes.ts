import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { fail } from "../errors";
import { requireAuth } from "../http/auth";
import type { AppEnv } from "../http/context";
import { errorEnvelope, ok } from "../http/envelope";
import { translate } from "../http/translate";
import type { Language } from "../i18n/language";
import { defineRoute, idParam, jsonBody, standardErrors } from "../http/openapi";
import {
  addQaPairBody,
  appDocumentBody,
  editColumnsBody,
  feishuAuthorizationSchema,
  feishuImportBody,
  importResultSchema,
  mediaPageSchema,
  mediaSchema,
  mediaUploadBody,
  pageQuery,
  qaImportBody,
  qaPairPageSchema,
  qaPairSchema,
  renameMediaBody,
  saveFeishuAuthorizationBody,
  tableAppendBody,
  tableImportBody,
  tableRowBody,
  tableRowPageSchema,
  tableRowSchema,
  tableSchema,
  templateQuery,
  updateQaPairBody,
  websiteImportBody,
} from "./import-schemas";
import { appParam, fileParam, kbParam, localizedFile } from "./routes";
import { deletedSchema, knowledgeFileSchema } from "./schemas";
import { loadKnowledgeBase } from "./service/knowledge-bases";
import { uploadAppDocument } from "./service/app-uploads";
import { exportFile } from "./service/export";
import { addQaPair, deleteQaPair, listQaPairs, updateQaPair } from "./service/qa-pairs";
import { deleteMedia, listMedia, readMedia, renameMedia, uploadMedia } from "./service/media";
import { getFeishuAuthorization, importFeishuDocument, saveFeishuAuthorization } from "./service/feishu";
import { type ImportReport, importQa, importWebsite, type UploadInput } from "./service/imports";
import { qaTemplate } from "./service/sources/qa";
import { addTableRow, appendTableImport, deleteTableRow, editTableColumns, getTable, importTable, listTableRows, updateTableRow } from "./service/tables";

const pairParams = fileParam.extend(idParam("pairId", "kc_01jd7w3k5q9x2m4n6p8r").shape);
const mediaParam = idParam("mediaId", "mm_01jd7w3k5q9x2m4n6p8r");
const rowParams = fileParam.extend(idParam("rowId", "kc_01jd7w3k5q9x2m4n6p8r").shape);

/** An import report with its messages in the request's language. */
export function localizedReport(language: Language, report: ImportReport) {
  return {
    totalRecords: report.totalRecords,
    importedRecords: report.importedRecords,
    failedRecords: report.failedRecords,
    message: report.failedRecords > 0 ? translate(language, "import_failed_records", { count: report.failedRecords }) : null,
    failures: report.failures.map((failure) => ({ row: failure.row, reason: translate(language, failure.reason, failure.params ?? {}) })),
  };
}

/** The uploaded file (and optional display name) of a multipart form. */
export async function uploadOf(c: Context<AppEnv>): Promise<UploadInput> {
  const form = (await c.req.parseBody()) as { file?: unknown; name?: unknown };
  const file = form.file;
  if (!(file instanceof File)) throw fail.invalid("field_required", "file", { field: "file" });
  const name = typeof form.name === "string" && form.name.trim() !== "" ? form.name.trim() : undefined;
  return {
    fileName: file.name,
    bytes: new Uint8Array(await file.arrayBuffer()),
    ...(file.type ? { mimeType: file.type } : {}),
    ...(name ? { name } : {}),
  };
}

/** A multipart request body. */
function multipart<T extends z.ZodType>(schema: T) {
  return { required: true, content: { "multipart/form-data": { schema } } } as const;
}

/**
 * Defines a signed-in route whose 200 answer is a file, not an envelope: the bytes with the given
 * content types. Errors still answer as envelopes.
 */
function defineDownloadRoute<const R extends { method: "get"; path: string; request?: Record<string, unknown> }>(
  config: R & { tags: string[]; summary: string; description?: string; contentTypes: string[]; extraErrors?: Record<number, string> },
) {
  const { contentTypes, extraErrors = {}, ...rest } = config;
  const errors = Object.fromEntries(
    Object.entries(extraErrors).map(([code, description]) => [code, { description, content: { "application/json": { schema: errorEnvelope } } }]),
  );
  const content = Object.fromEntries(contentTypes.map((type) => [type, { schema: z.string().openapi({ type: "string", format: "binary" }) }]));
  return createRoute({
    ...rest,
    security: [{ bearer: [] }],
    middleware: [requireAuth({ operation: `GET ${config.path}` })],
    responses: { 200: { description: config.summary, content }, ...standardErrors, ...errors },
  });
}

/** A download answer: the bytes (or a stream of them), their type, and a Content-Disposition naming the file. */
export function download(
  body: Uint8Array | string | ReadableStream<Uint8Array>,
  contentType: string,
  fileName: string,
  disposition: "attachment" | "inline" = "attachment",
): Response {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return new Response(typeof body === "string" || body instanceof ReadableStream ? body : (body as Uint8Array<ArrayBuffer>), {
    status: 200,
    headers: {
      "Content-Type": contentType,
      "Content-Disposition": `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}

/**
 * Imports of knowledge from other sources than documents: Q&A CSVs, tables (CSV, xlsx), web
 * pages and Feishu documents; media materials; file export; and the create-app upload. Each
 * import ends as a pending file (previewed and confirmed like a document) or a failed file with
 * its reason. Everything is scoped to the caller's space: another space's ids answer 404.
 */
export function registerKnowledgeImportRoutes(app: OpenAPIHono<AppEnv>) {
  const tags = ["Knowledge imports"];

  app.openapi(
    defineDownloadRoute({
      method: "get",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}/qa-template",
      tags,
      summary: "The Q&A import template: a UTF-8 CSV (with BOM) whose column titles and examples are in the request's language",
      request: { params: kbParam, query: templateQuery },
      contentTypes: ["text/csv"],
    }),
    async (c) => {
      await loadKnowledgeBase(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId);
      const language = c.req.valid("query").language ?? c.var.language;
      return download(qaTemplate(language), "text/csv; charset=utf-8", language === "zh-CN" ? "qa-template-zh-CN.csv" : "qa-template.csv");
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}/imports/qa",
      tags,
      status: 201,
      summary:
        "Import Q&A pairs from a UTF-8 CSV made from the template. Each good row becomes one pending record (searched by its question only, or by question and answer); rows with an empty question or answer are counted as failed in the report. A non-UTF-8 CSV (file_encoding_error) or one with missing or unknown columns is refused with nothing stored",
      request: { params: kbParam, body: multipart(qaImportBody) },
      data: importResultSchema,
    }),
    async (c) => {
      const result = await importQa(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId, await uploadOf(c));
      return ok(c, { file: localizedFile(c.var.language, result.file), report: localizedReport(c.var.language, result.report) }, 201);
    },
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/knowledge-files/{fileId}/qa/pairs",
      tags,
      summary: "Q&A pairs of a Q&A file in order",
      request: { params: fileParam, query: pageQuery },
      data: qaPairPageSchema,
      extraErrors: { 409: "Not a Q&A file" },
    }),
    async (c) => ok(c, await listQaPairs(c.var.deps, c.var.auth, c.req.valid("param").fileId, c.req.valid("query"))),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-files/{fileId}/qa/pairs",
      tags,
      status: 201,
      summary: "Add a Q&A pair at the end of an effective Q&A file; it is searchable at once (by its question only, or by question and answer)",
      request: { params: fileParam, body: jsonBody(addQaPairBody) },
      data: qaPairSchema,
      extraErrors: { 409: "Not a Q&A file, or not effective" },
    }),
    async (c) => ok(c, await addQaPair(c.var.deps, c.var.auth, c.req.valid("param").fileId, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/knowledge-files/{fileId}/qa/pairs/{pairId}",
      tags,
      summary: "Change a Q&A pair: its segment, metadata and search index change together",
      request: { params: pairParams, body: jsonBody(updateQaPairBody) },
      data: qaPairSchema,
      extraErrors: { 409: "Not a Q&A file, or not effective" },
    }),
    async (c) => {
      const { fileId, pairId } = c.req.valid("param");
      return ok(c, await updateQaPair(c.var.deps, c.var.auth, fileId, pairId, c.req.valid("json")));
    },
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/knowledge-files/{fileId}/qa/pairs/{pairId}",
      tags,
      summary: "Delete a Q&A pair",
      request: { params: pairParams },
      data: deletedSchema,
      extraErrors: { 409: "Not a Q&A file, or not effective" },
    }),
    async (c) => {
      const { fileId, pairId } = c.req.valid("param");
      return ok(c, await deleteQaPair(c.var.deps, c.var.auth, fileId, pairId));
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}/imports/table",
      tags,
      status: 201,
      summary:
        "Import a table from a CSV (UTF-8) or xlsx: the first row names the fields (unique, else 400); each other row becomes one pending record shown as `field: value` lines. The index column (default the first field) is fixed once set. Rows with an empty index cell are counted as failed in the report",
      request: { params: kbParam, body: multipart(tableImportBody) },
      data: importResultSchema,
    }),
    async (c) => {
      const upload = await uploadOf(c);
      const form = (await c.req.parseBody()) as { indexColumn?: unknown };
      const indexColumn = typeof form.indexColumn === "string" && form.indexColumn.trim() !== "" ? form.indexColumn : undefined;
      const result = await importTable(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId, { ...upload, ...(indexColumn ? { indexColumn } : {}) });
      return ok(c, { file: localizedFile(c.var.language, result.file), report: localizedReport(c.var.language, result.report) }, 201);
    },
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-files/{fileId}/table/imports",
      tags,
      summary:
        "Append the rows of another CSV or xlsx to a table file. Its column names must be exactly the table's fields (400 naming the missing and unexpected ones). A pending table grows before confirmation; an effective one indexes the new rows at once",
      request: { params: fileParam, body: multipart(tableAppendBody) },
      data: importResultSchema,
      extraErrors: { 409: "Not a table file, or the file is being indexed or failed" },
    }),
    async (c) => {
      const result = await appendTableImport(c.var.deps, c.var.auth, c.req.valid("param").fileId, await uploadOf(c));
      return ok(c, { file: localizedFile(c.var.language, result.file), report: localizedReport(c.var.language, result.report) });
    },
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/knowledge-files/{fileId}/table",
      tags,
      summary: "A table file's fields, index column and row count",
      request: { params: fileParam },
      data: tableSchema,
      extraErrors: { 409: "Not a table file" },
    }),
    async (c) => ok(c, await getTable(c.var.deps, c.var.auth, c.req.valid("param").fileId)),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/knowledge-files/{fileId}/table/columns",
      tags,
      summary:
        "Rename a table's fields (all names, in order, unique). The index column stays the same column; naming another one answers 409 (the index column cannot be changed once set). Every row is rewritten and re-indexed",
      request: { params: fileParam, body: jsonBody(editColumnsBody) },
      data: tableSchema,
      extraErrors: { 409: "Not a table file, the index column would change, or the file is being indexed" },
    }),
    async (c) => ok(c, await editTableColumns(c.var.deps, c.var.auth, c.req.valid("param").fileId, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/knowledge-files/{fileId}/table/rows",
      tags,
      summary: "Rows of a table file in order, with its fields",
      request: { params: fileParam, query: pageQuery },
      data: tableRowPageSchema,
      extraErrors: { 409: "Not a table file" },
    }),
    async (c) => ok(c, await listTableRows(c.var.deps, c.var.auth, c.req.valid("param").fileId, c.req.valid("query"))),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-files/{fileId}/table/rows",
      tags,
      status: 201,
      summary: "Add a row at the end of an effective table; it is searchable at once",
      request: { params: fileParam, body: jsonBody(tableRowBody) },
      data: tableRowSchema,
      extraErrors: { 409: "Not a table file, or not effective" },
    }),
    async (c) => ok(c, await addTableRow(c.var.deps, c.var.auth, c.req.valid("param").fileId, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/knowledge-files/{fileId}/table/rows/{rowId}",
      tags,
      summary: "Change values of a row of an effective table; it is re-indexed at once",
      request: { params: rowParams, body: jsonBody(tableRowBody) },
      data: tableRowSchema,
      extraErrors: { 409: "Not a table file, or not effective" },
    }),
    async (c) => {
      const { fileId, rowId } = c.req.valid("param");
      return ok(c, await updateTableRow(c.var.deps, c.var.auth, fileId, rowId, c.req.valid("json")));
    },
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/knowledge-files/{fileId}/table/rows/{rowId}",
      tags,
      summary: "Delete a row of an effective table",
      request: { params: rowParams },
      data: deletedSchema,
      extraErrors: { 409: "Not a table file, or not effective" },
    }),
    async (c) => {
      const { fileId, rowId } = c.req.valid("param");
      return ok(c, await deleteTableRow(c.var.deps, c.var.auth, fileId, rowId));
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}/imports/website",
      tags,
      status: 201,
      summary:
        'Import a web page: it is fetched (redirects followed, each hop checked against loopback, private and metadata addresses; configured timeout and size cap), its readable text is converted to Markdown and the file is created pending (parsed) under the page title. A page that cannot be fetched, is not HTML or has no readable text is kept as a failed file: "This website does not support import". An address not starting with http:// or https:// is a 400',
      request: { params: kbParam, body: jsonBody(websiteImportBody) },
      data: knowledgeFileSchema,
    }),
    async (c) => {
      const file = await importWebsite(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId, c.req.valid("json"));
      return ok(c, localizedFile(c.var.language, file), 201);
    },
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/knowledge-feishu/authorization",
      tags,
      summary: "The current space's Feishu authorization for document import: the App ID and whether a secret is saved (never the secret)",
      data: feishuAuthorizationSchema,
    }),
    async (c) => ok(c, await getFeishuAuthorization(c.var.deps, c.var.auth)),
  );
  app.openapi(
    defineRoute({
      method: "put",
      path: "/api/v1/knowledge-feishu/authorization",
      tags,
      summary:
        "Save the space's Feishu app credentials (owner or admin). They are tried against Feishu first: a refusal answers 400 with Feishu's message and nothing is saved. Omitting appSecret keeps the saved one",
      request: { body: jsonBody(saveFeishuAuthorizationBody) },
      data: feishuAuthorizationSchema,
      extraErrors: { 403: "Only the space owner or an admin can do this", 502: "Feishu could not be reached" },
    }),
    async (c) => ok(c, await saveFeishuAuthorization(c.var.deps, c.var.auth, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}/imports/feishu",
      tags,
      status: 201,
      summary:
        "Import a Feishu docx document (https://<tenant>.feishu.cn/docx/<document_id>; https only, else 400) with the space's saved authorization. It becomes a pending document named after its title. When Feishu refuses (credentials, permission, not found) the file is kept as failed with Feishu's message",
      request: { params: kbParam, body: jsonBody(feishuImportBody) },
      data: knowledgeFileSchema,
      extraErrors: { 409: "The space has no Feishu authorization yet" },
    }),
    async (c) => {
      const file = await importFeishuDocument(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId, c.req.valid("json"));
      return ok(c, localizedFile(c.var.language, file), 201);
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}/media",
      tags,
      status: 201,
      summary: "Upload a media material: a jpeg, png, gif or webp image, a pdf or an mp4, at most 15 MB; the bytes must match the extension",
      request: { params: kbParam, body: multipart(mediaUploadBody) },
      data: mediaSchema,
    }),
    async (c) => ok(c, await uploadMedia(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId, await uploadOf(c)), 201),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}/media",
      tags,
      summary: "Media materials of a knowledge base, newest first",
      request: { params: kbParam, query: pageQuery },
      data: mediaPageSchema,
    }),
    async (c) => ok(c, await listMedia(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId, c.req.valid("query"))),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/knowledge-media/{mediaId}",
      tags,
      summary: "Rename a media material",
      request: { params: mediaParam, body: jsonBody(renameMediaBody) },
      data: mediaSchema,
    }),
    async (c) => ok(c, await renameMedia(c.var.deps, c.var.auth, c.req.valid("param").mediaId, c.req.valid("json").name)),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/knowledge-media/{mediaId}",
      tags,
      summary: "Delete a media material",
      request: { params: mediaParam },
      data: deletedSchema,
    }),
    async (c) => ok(c, await deleteMedia(c.var.deps, c.var.auth, c.req.valid("param").mediaId)),
  );
  app.openapi(
    defineDownloadRoute({
      method: "get",
      path: "/api/v1/knowledge-media/{mediaId}/content",
      tags,
      summary: "A media material's bytes, with its content type (signed in; another space's material is 404)",
      request: { params: mediaParam },
      contentTypes: ["image/jpeg", "image/png", "image/gif", "image/webp", "application/pdf", "video/mp4"],
    }),
    async (c) => {
      const media = await readMedia(c.var.deps, c.var.auth, c.req.valid("param").mediaId);
      return download(media.stream, media.mimeType, media.name, "inline");
    },
  );

  app.openapi(
    defineDownloadRoute({
      method: "get",
      path: "/api/v1/knowledge-files/{fileId}/export",
      tags,
      summary:
        "Download a file: a document's original bytes; a Q&A file's current pairs as a UTF-8 CSV (with BOM) in the template's layout, titles in the request's language; a table's current rows as CSV; a web page's extracted text as Markdown",
      request: { params: fileParam },
      contentTypes: ["text/csv", "text/markdown", "text/plain", "application/pdf", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
      extraErrors: { 409: "The file has nothing to export (its import failed before anything was kept)" },
    }),
    async (c) => {
      const exported = await exportFile(c.var.deps, c.var.auth, c.req.valid("param").fileId, c.var.language);
      return download(exported.body, exported.contentType, exported.fileName);
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/apps/{appId}/knowledge-files",
      tags,
      status: 201,
      summary:
        "Create-app flow: upload a document (txt, md, pdf, docx; at most 15 MB) into the app's own knowledge base, which is made on first use (named after the app) and bound to the app (at most 1,000,000 tokens per app). Answers the pending file; preview and confirm it like any other",
      request: { params: appParam, body: multipart(appDocumentBody) },
      data: knowledgeFileSchema,
    }),
    async (c) => ok(c, localizedFile(c.var.language, await uploadAppDocument(c.var.deps, c.var.auth, c.req.valid("param").appId, await uploadOf(c))), 201),
  );
}
