import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { fail } from "../errors";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { translateStored } from "../http/translate";
import type { Language } from "../i18n/language";
import { defineRoute, idParam, jsonBody } from "../http/openapi";
import {
  addSegmentBody,
  bindKnowledgeBasesBody,
  boundKnowledgeBasesSchema,
  createKnowledgeBaseBody,
  deletedSchema,
  knowledgeBaseSchema,
  knowledgeFileSchema,
  previewSchema,
  renameFileBody,
  retrievalTestBody,
  retrievalTestSchema,
  segmentListQuery,
  segmentPageSchema,
  segmentSchema,
  updateKnowledgeBaseBody,
  updateSegmentBody,
  uploadDocumentBody,
} from "./schemas";
import { confirmFile, deleteFile, type fileView, listFiles, previewFile, renameFile, uploadDocument } from "./service/files";
import {
  bindKnowledgeBases,
  createKnowledgeBase,
  deleteKnowledgeBase,
  getKnowledgeBase,
  listKnowledgeBases,
  updateKnowledgeBase,
} from "./service/knowledge-bases";
import { testRetrieval } from "./service/retrieval";
import { addSegment, deleteSegment, listSegments, updateSegment } from "./service/segments";

/** Path parameters shared by the knowledge routes and the import routes. */
export const kbParam = idParam("knowledgeBaseId", "kb_01jd7w3k5q9x2m4n6p8r");
export const fileParam = idParam("fileId", "kf_01jd7w3k5q9x2m4n6p8r");
export const appParam = idParam("appId", "app_01jd7w3k5q9x2m4n6p8r");
const segmentParam = idParam("segmentId", "kc_01jd7w3k5q9x2m4n6p8r");

/**
 * Paths whose bodies are uploads and may exceed the general body limit: document upload, Q&A and
 * table imports, appending to a table, media materials, and the create-app document upload.
 */
export const KNOWLEDGE_UPLOAD_PATH =
  /^\/api\/v1\/(?:knowledge-bases\/[^/]+\/(?:files|media|imports\/(?:qa|table))|knowledge-files\/[^/]+\/table\/imports|apps\/[^/]+\/knowledge-files)$/;

/** Largest upload body those paths accept: 15 MB (media, create-app) plus multipart framing; each route checks its own file limit. */
export const KNOWLEDGE_UPLOAD_MAX_BYTES = 15 * 1024 * 1024 + 64 * 1024;

/** A file view with its failure reason in the request's language. */
export function localizedFile(language: Language, file: ReturnType<typeof fileView>) {
  return { ...file, failureReason: file.failureReason ? translateStored(language, file.failureReason) : null };
}

/**
 * Knowledge bases, their files and segments, and binding them to apps. Everything is scoped to
 * the caller's space; another space's knowledge base, file or segment answers 404.
 */
export function registerKnowledgeRoutes(app: OpenAPIHono<AppEnv>) {
  const tags = ["Knowledge"];

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/knowledge-bases",
      tags,
      summary: "Knowledge bases of the current space, newest first",
      data: z.array(knowledgeBaseSchema),
    }),
    async (c) => ok(c, await listKnowledgeBases(c.var.deps, c.var.auth)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-bases",
      tags,
      status: 201,
      summary: "Create a knowledge base",
      request: { body: jsonBody(createKnowledgeBaseBody) },
      data: knowledgeBaseSchema,
    }),
    async (c) => ok(c, await createKnowledgeBase(c.var.deps, c.var.auth, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}",
      tags,
      summary: "Knowledge base detail",
      request: { params: kbParam },
      data: knowledgeBaseSchema,
    }),
    async (c) => ok(c, await getKnowledgeBase(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId)),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}",
      tags,
      summary: "Change a knowledge base's name, description or chunking",
      request: { params: kbParam, body: jsonBody(updateKnowledgeBaseBody) },
      data: knowledgeBaseSchema,
    }),
    async (c) => ok(c, await updateKnowledgeBase(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}",
      tags,
      summary: "Delete a knowledge base with its files and segments; apps binding it are unbound",
      request: { params: kbParam },
      data: deletedSchema,
    }),
    async (c) => ok(c, await deleteKnowledgeBase(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/apps/{appId}/knowledge-bases",
      tags,
      summary: "Bind knowledge bases of the same space to an app (relation add); one app holds at most 1,000,000 tokens",
      request: { params: appParam, body: jsonBody(bindKnowledgeBasesBody) },
      data: boundKnowledgeBasesSchema,
    }),
    async (c) => ok(c, await bindKnowledgeBases(c.var.deps, c.var.auth, c.req.valid("param").appId, c.req.valid("json").knowledgeBaseIds)),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}/retrieval-test",
      tags,
      summary: "Retrieval test: the query searched semantically, by full text and both fused, 10 results of each with scores and sources",
      request: { params: kbParam, body: jsonBody(retrievalTestBody) },
      data: retrievalTestSchema,
      extraErrors: { 409: "The knowledge base's embedding model is not configured" },
    }),
    async (c) => ok(c, await testRetrieval(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}/files",
      tags,
      summary: "Files of a knowledge base with status, progress, segment and token counts and failure reason",
      request: { params: kbParam },
      data: z.array(knowledgeFileSchema),
    }),
    async (c) =>
      ok(
        c,
        (await listFiles(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId)).map((file) => localizedFile(c.var.language, file)),
      ),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-bases/{knowledgeBaseId}/files",
      tags,
      status: 201,
      summary:
        "Upload a document (txt, md, pdf, docx; at most 10 MB). It stays pending until confirmed; an unreadable PDF or docx is kept as failed with its reason",
      request: { params: kbParam, body: { required: true, content: { "multipart/form-data": { schema: uploadDocumentBody } } } },
      data: knowledgeFileSchema,
    }),
    async (c) => {
      const form = c.req.valid("form") as { file?: unknown; name?: string };
      const file = form.file;
      if (!(file instanceof File)) throw fail.invalid("field_required", "file", { field: "file" });
      const name = typeof form.name === "string" && form.name.trim() !== "" ? form.name.trim() : undefined;
      const uploaded = await uploadDocument(c.var.deps, c.var.auth, c.req.valid("param").knowledgeBaseId, {
        fileName: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
        ...(file.type ? { mimeType: file.type } : {}),
        ...(name ? { name } : {}),
      });
      return ok(c, localizedFile(c.var.language, uploaded), 201);
    },
  );
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/knowledge-files/{fileId}/preview",
      tags,
      summary: "The first 50 segments of an uploaded file, before it is confirmed",
      request: { params: fileParam },
      data: previewSchema,
      extraErrors: { 409: "The file is not pending" },
    }),
    async (c) => ok(c, await previewFile(c.var.deps, c.var.auth, c.req.valid("param").fileId)),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-files/{fileId}/confirm",
      tags,
      summary: "Confirm an uploaded file: it becomes processing and is indexed in the background",
      request: { params: fileParam },
      data: knowledgeFileSchema,
      extraErrors: { 409: "The file is not pending" },
    }),
    async (c) => ok(c, localizedFile(c.var.language, await confirmFile(c.var.deps, c.var.auth, c.req.valid("param").fileId))),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/knowledge-files/{fileId}",
      tags,
      summary: "Rename a file",
      request: { params: fileParam, body: jsonBody(renameFileBody) },
      data: knowledgeFileSchema,
    }),
    async (c) => ok(c, localizedFile(c.var.language, await renameFile(c.var.deps, c.var.auth, c.req.valid("param").fileId, c.req.valid("json").name))),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/knowledge-files/{fileId}",
      tags,
      summary: "Delete a file with its segments",
      request: { params: fileParam },
      data: deletedSchema,
    }),
    async (c) => ok(c, await deleteFile(c.var.deps, c.var.auth, c.req.valid("param").fileId)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/knowledge-files/{fileId}/segments",
      tags,
      summary: "Segments of a file, in order",
      request: { params: fileParam, query: segmentListQuery },
      data: segmentPageSchema,
    }),
    async (c) => ok(c, await listSegments(c.var.deps, c.var.auth, c.req.valid("param").fileId, c.req.valid("query"))),
  );
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/knowledge-files/{fileId}/segments",
      tags,
      status: 201,
      summary: "Add a segment at the end of an effective file",
      request: { params: fileParam, body: jsonBody(addSegmentBody) },
      data: segmentSchema,
      extraErrors: { 409: "The file is being indexed or is not effective" },
    }),
    async (c) => ok(c, await addSegment(c.var.deps, c.var.auth, c.req.valid("param").fileId, c.req.valid("json")), 201),
  );
  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/knowledge-segments/{segmentId}",
      tags,
      summary: "Edit a segment's content, or enable or disable it",
      request: { params: segmentParam, body: jsonBody(updateSegmentBody) },
      data: segmentSchema,
      extraErrors: { 409: "The file is being indexed or is not effective" },
    }),
    async (c) => ok(c, await updateSegment(c.var.deps, c.var.auth, c.req.valid("param").segmentId, c.req.valid("json"))),
  );
  app.openapi(
    defineRoute({
      method: "delete",
      path: "/api/v1/knowledge-segments/{segmentId}",
      tags,
      summary: "Delete a segment",
      request: { params: segmentParam },
      data: deletedSchema,
      extraErrors: { 409: "The file is being indexed or is not effective" },
    }),
    async (c) => ok(c, await deleteSegment(c.var.deps, c.var.auth, c.req.valid("param").segmentId)),
  );
}
