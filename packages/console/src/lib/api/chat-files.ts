import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal">;

/** A file or image of a chat message: its name, kind, size and signed address (relative to the API origin). */
export type ChatFile = Schemas["ChatFile"];
/** A public image the console shows (avatars): its id and public address. */
export type PublicAsset = Schemas["PublicAsset"];

/** A multipart body for openapi-fetch: FormData goes to fetch untouched, which sets the boundary. */
function multipart<Body>(fields: Record<string, string | File | undefined>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    if (typeof value === "string") form.append(key, value);
    else form.append(key, value, value.name);
  }
  return { body: form as unknown as Body, bodySerializer: (body: unknown) => body as FormData };
}

/**
 * Uploads of chat files (spec §5: JPEG/PNG ≤ 5 MB, txt/md/pdf/docx ≤ 15 MB, recognised by their
 * bytes) and public images. All are silent: the caller shows the server's refusal where the file is.
 */
export const chatFileEndpoints = {
  /** A file for the next message of a chat with `appCode` (bound to `conversationId` when there is one). */
  upload: (appCode: string, conversationId: string | undefined, file: File, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.POST("/api/v1/chat/files", { ...init, ...multipart<Schemas["ChatFileUpload"]>({ appCode, file, conversationId }) }),
    ),
  /** An image an operator attaches to a reply in the inbox. */
  uploadForInbox: (sessionId: string, file: File, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) =>
      client.POST("/api/v1/inbox/sessions/{sessionId}/files", {
        ...init,
        params: { path: { sessionId } },
        ...multipart<Schemas["OperatorImageUpload"]>({ file }),
      }),
    ),
  /** A public image (JPEG/PNG ≤ 5 MB); its answered `url` is usable as any avatar address. */
  uploadAsset: (file: File, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/assets", { ...init, ...multipart<Schemas["AssetUpload"]>({ file }) })),
};
