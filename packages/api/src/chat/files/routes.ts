import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { clientForVisitor, sessionForVisitor, WEB_EMBED_CHANNEL } from "../../clients/service";
import { ServiceError } from "../../errors";
import type { AppEnv } from "../../http/context";
import { errorEnvelope } from "../../http/envelope";
import { ok } from "../../http/envelope";
import { defineRoute, idParam, standardErrors } from "../../http/openapi";
import { download } from "../../knowledge/import-routes";
import { findOwnConversation } from "../../conversation/store";
import { chatAppForMember } from "../service/access";
import { chatFileSchema } from "./schemas";
import { CHAT_DOCUMENT_MAX_BYTES, chatFileView, fileOfSignedUrl, publicAsset, storeChatFile, storePublicAsset } from "./service";

/** Paths that take a chat file or a public asset: they get the upload body limit (see app.ts). */
export const CHAT_FILE_UPLOAD_PATH = /^\/api\/v1\/(?:chat\/files|assets|widget\/[^/]+\/sessions\/[^/]+\/files|inbox\/sessions\/[^/]+\/files)$/;

/** Largest upload body: a 15 MB document plus the multipart framing. */
export const CHAT_FILE_UPLOAD_MAX_BYTES = CHAT_DOCUMENT_MAX_BYTES + 64 * 1024;

/** Uploads one visitor session may make in {@link VISITOR_UPLOAD_WINDOW_SECONDS}. */
export const VISITOR_UPLOADS_PER_WINDOW = 60;
const VISITOR_UPLOAD_WINDOW_SECONDS = 10 * 60;

const fileField = z.any().openapi({
  type: "string",
  format: "binary",
  description: "JPEG or PNG image under 5 MB, or a txt, md, pdf or docx document under 15 MB (recognised by its bytes, not its name)",
});

const memberUploadBody = z
  .object({
    appCode: z.string().min(1).max(64).openapi({ example: "a7K2pQ9x" }),
    conversationId: z.string().max(64).optional().openapi({ description: "The conversation the file is for; omit before the first message" }),
    file: fileField,
  })
  .openapi("ChatFileUpload");

const visitorUploadBody = z.object({ file: fileField }).openapi("WidgetFileUpload");
const assetBody = z.object({ file: fileField.openapi({ description: "A JPEG or PNG image under 5 MB" }) }).openapi("AssetUpload");

const uploadErrors = {
  413: "The file is over its kind's limit (images 5 MB, documents 15 MB)",
  415: "The file is not a JPEG or PNG image or a txt, md, pdf or docx document, by its bytes",
};

/** The uploaded file of a multipart form, with its bytes. */
export async function formFile(form: Record<string, unknown>): Promise<{ name: string; bytes: Uint8Array }> {
  const file = form.file;
  if (!(file instanceof File)) throw new ServiceError("validation", "field_required", { field: "file" }, { field: "file" });
  return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
}

const sessionParams = idParam("clientId", "demo").extend({
  sessionId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "sessionId", in: "path" }, example: "wcs_01jd7w3k5q9x2m4n6p8r" }),
});

/** Chat uploads (members and widget visitors), the signed file addresses, and public assets. */
export function registerChatFileRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/chat/files",
      tags: ["Chat"],
      status: 201,
      summary: "Attach a file to the next chat message",
      description:
        "Multipart `appCode`, `file`, optional `conversationId`. Answers the file; send its id in `fileIds` of POST /api/v1/chat/stream. Images go to the model (when it reads images); a document's text is read now and put into the turn, cited as a reference. Uploads not sent within 24 hours are removed.",
      request: { body: { required: true, content: { "multipart/form-data": { schema: memberUploadBody } } } },
      data: chatFileSchema,
      extraErrors: uploadErrors,
    }),
    async (c) => {
      const { deps, auth } = c.var;
      const form = c.req.valid("form") as Record<string, unknown>;
      const appCode = typeof form.appCode === "string" ? form.appCode : "";
      if (!appCode) throw new ServiceError("validation", "field_required", { field: "appCode" }, { field: "appCode" });
      const chatApp = await chatAppForMember(deps, auth, appCode);
      const endUserId = `user:${auth.userId}`;
      const conversationId = typeof form.conversationId === "string" && form.conversationId ? form.conversationId : undefined;
      if (conversationId && !(await findOwnConversation(deps, { id: conversationId, app: chatApp, endUserId }))) {
        throw new ServiceError("validation", "chat_conversation_unknown", { id: conversationId }, { field: "conversationId" });
      }
      const file = await formFile(form);
      const row = await storeChatFile(deps, {
        spaceId: chatApp.spaceId,
        appId: chatApp.id,
        endUserId,
        channel: "web",
        ...(conversationId ? { conversationId } : {}),
        ...file,
      });
      return ok(c, chatFileView(deps, row), 201);
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/widget/{clientId}/sessions/{sessionId}/files",
      tags: ["Widget"],
      public: true,
      status: 201,
      summary: "Attach a file to the visitor's next message (Authorization: Bearer <visitorToken>)",
      description:
        "As POST /api/v1/chat/files, for the widget: send the answered id in `fileIds` of the session's next message. At most 60 uploads per session in 10 minutes.",
      request: { params: sessionParams, body: { required: true, content: { "multipart/form-data": { schema: visitorUploadBody } } } },
      data: chatFileSchema,
      extraErrors: { ...uploadErrors, 403: "The client is disabled or the site's origin is not allowed" },
    }),
    async (c) => {
      const { deps } = c.var;
      const params = c.req.valid("param");
      const row = await clientForVisitor(deps, params.clientId, c.req.header("origin"));
      const { conversation } = await sessionForVisitor(deps, row, params.sessionId, c.req.header("authorization"));
      const wait = await deps.throttle.hit(`widget-uploads:${params.sessionId}`, VISITOR_UPLOADS_PER_WINDOW, VISITOR_UPLOAD_WINDOW_SECONDS);
      if (wait > 0) throw new ServiceError("rate_limited", "rate_limited", { seconds: wait }, { retryAfterSeconds: wait });
      const file = await formFile(c.req.valid("form") as Record<string, unknown>);
      const stored = await storeChatFile(deps, {
        spaceId: row.spaceId,
        appId: conversation.appId,
        endUserId: conversation.endUserId,
        channel: WEB_EMBED_CHANNEL,
        conversationId: conversation.id,
        ...file,
      });
      return ok(c, chatFileView(deps, stored), 201);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/api/v1/chat-files/{fileId}/content",
      tags: ["Chat"],
      summary: "A chat file's bytes, by its signed address (no Authorization header)",
      description:
        "The address comes from a ChatFile's `url`; it is valid for 24 hours. Images answer inline, documents as downloads. An altered or expired address answers 403.",
      security: [],
      request: {
        params: idParam("fileId", "cf_01jd7w3k5q9x2m4n6p8r"),
        query: z.object({ expires: z.string().max(20).optional(), signature: z.string().max(128).optional() }),
      },
      responses: {
        200: {
          description: "The file",
          content: Object.fromEntries(
            ["image/png", "image/jpeg", "application/pdf", "text/plain", "text/markdown"].map((type) => [
              type,
              { schema: z.string().openapi({ type: "string", format: "binary" }) },
            ]),
          ),
        },
        403: { description: "The address is altered or expired", content: { "application/json": { schema: errorEnvelope } } },
        ...standardErrors,
      },
    }),
    async (c) => {
      const { deps } = c.var;
      const row = await fileOfSignedUrl(deps, c.req.valid("param").fileId, c.req.valid("query"));
      const body = await deps.files.get(row.storageKey);
      if (!body) throw new ServiceError("not_found", "not_found", { what: "chat_file" });
      const type = row.kind === "document" && row.mimeType.startsWith("text/") ? `${row.mimeType}; charset=utf-8` : row.mimeType;
      const response = download(body, type, row.name, row.kind === "image" ? "inline" : "attachment");
      // The signed address is the permission: browsers may keep the bytes for the link's life.
      response.headers.set("Cache-Control", "private, max-age=3600");
      response.headers.set("Content-Security-Policy", "default-src 'none'; sandbox");
      return response;
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/assets",
      tags: ["Assets"],
      status: 201,
      summary: "Upload an image the console shows publicly (an avatar, a store picture)",
      description: "Multipart `file`: a JPEG or PNG under 5 MB (by its bytes). Answers its public address, usable as any `avatarUrl`.",
      request: { body: { required: true, content: { "multipart/form-data": { schema: assetBody } } } },
      data: z
        .object({
          id: z.string(),
          url: z.string().openapi({ example: "/api/v1/assets/as_01jd7w3k5q9x2m4n6p8r" }),
          mimeType: z.string(),
          sizeBytes: z.number().int(),
        })
        .openapi("PublicAsset"),
      extraErrors: { 413: "The image is 5 MB or more", 415: "The file is not a JPEG or PNG image" },
    }),
    async (c) => {
      const { deps, auth } = c.var;
      const file = await formFile(c.req.valid("form") as Record<string, unknown>);
      return ok(c, await storePublicAsset(deps, { spaceId: auth.spaceId, userId: auth.userId, ...file }), 201);
    },
  );

  app.openapi(
    createRoute({
      method: "get",
      path: "/api/v1/assets/{assetId}",
      tags: ["Assets"],
      summary: "A public image (no Authorization header; cached for a year: an asset never changes)",
      security: [],
      request: { params: idParam("assetId", "as_01jd7w3k5q9x2m4n6p8r") },
      responses: {
        200: {
          description: "The image",
          content: Object.fromEntries(["image/png", "image/jpeg"].map((type) => [type, { schema: z.string().openapi({ type: "string", format: "binary" }) }])),
        },
        ...standardErrors,
      },
    }),
    async (c) => {
      const { row, body } = await publicAsset(c.var.deps, c.req.valid("param").assetId);
      return new Response(body, {
        status: 200,
        headers: {
          "Content-Type": row.mimeType,
          "Cache-Control": "public, max-age=31536000, immutable",
          "X-Content-Type-Options": "nosniff",
          "Content-Security-Policy": "default-src 'none'; sandbox",
        },
      });
    },
  );
}
