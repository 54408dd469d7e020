import { and, count, desc, eq } from "drizzle-orm";
import { newId } from "../../crypto";
import { mediaMaterials } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { followsKnowledgeBase } from "../../access/follow";
import type { UploadInput } from "./imports";
import { loadKnowledgeBase } from "./knowledge-bases";
import { keyOfStored, knowledgeKeys, storeObject } from "./storage";
import { splitFileName } from "./sources/tabular";

/** Largest media material (spec §5: 15 MB for media uploads). */
export const MEDIA_MAX_BYTES = 15 * 1024 * 1024;

/** A stored media material row. */
export type MediaRow = typeof mediaMaterials.$inferSelect;

interface MediaType {
  mimeType: string;
  kind: "image" | "document" | "video";
  extensions: readonly string[];
  /** Whether the bytes start like a file of this type. */
  matches(bytes: Uint8Array): boolean;
}

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) => signature.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0));

/** Media a knowledge base accepts, recognised by their magic bytes, not only their extension. */
export const mediaTypes: readonly MediaType[] = [
  { mimeType: "image/jpeg", kind: "image", extensions: ["jpg", "jpeg"], matches: (bytes) => startsWith(bytes, [0xff, 0xd8, 0xff]) },
  { mimeType: "image/png", kind: "image", extensions: ["png"], matches: (bytes) => startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mimeType: "image/gif", kind: "image", extensions: ["gif"], matches: (bytes) => startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a")) },
  { mimeType: "image/webp", kind: "image", extensions: ["webp"], matches: (bytes) => startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8) },
  { mimeType: "application/pdf", kind: "document", extensions: ["pdf"], matches: (bytes) => startsWith(bytes, ascii("%PDF-")) },
  // ISO base media files carry an `ftyp` box first: its size, then the type.
  { mimeType: "video/mp4", kind: "video", extensions: ["mp4"], matches: (bytes) => startsWith(bytes, ascii("ftyp"), 4) },
];

const acceptedExtensions = mediaTypes.flatMap((type) => type.extensions);

/** A material's display name: 1–100 characters, no slashes or control characters. */
export function checkMediaName(name: string): string {
  const trimmed = name.trim();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a name with a control character is refused
  if (trimmed.length === 0 || trimmed.length > 100 || /[\\/\u0000-\u001f\u007f]/.test(trimmed)) throw fail.invalid("media_name_invalid", "name");
  return trimmed;
}

/** The contract view of a material, with the address its bytes are downloaded from. */
export function mediaView(row: MediaRow) {
  const type = mediaTypes.find((candidate) => candidate.mimeType === row.mimeType);
  return {
    id: row.id,
    knowledgeBaseId: row.knowledgeBaseId ?? "",
    name: row.name,
    mimeType: row.mimeType,
    kind: type?.kind ?? "document",
    sizeBytes: row.sizeBytes,
    url: `/api/v1/knowledge-media/${row.id}/content`,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The file-store key of a material's bytes (recorded in `storagePath`). */
function mediaKey(row: Pick<MediaRow, "knowledgeBaseId" | "storagePath">): string {
  return keyOfStored(`${knowledgeKeys.base(row.knowledgeBaseId ?? "")}media/`, row.storagePath);
}

async function loadMedia(deps: Pick<Deps, "db">, auth: Auth, mediaId: string): Promise<MediaRow> {
  const row = await deps.db
    .select()
    .from(mediaMaterials)
    .where(and(eq(mediaMaterials.id, mediaId), eq(mediaMaterials.spaceId, auth.spaceId), followsKnowledgeBase(auth, mediaMaterials.knowledgeBaseId)))
    .get();
  if (!row) throw fail.notFound("media_material");
  return row;
}

/**
 * Stores a media material of a knowledge base: jpeg, png, gif or webp images, pdf or mp4, at most
 * 15 MB. The type is read from the bytes; an extension the content does not match is refused.
 */
export async function uploadMedia(deps: Pick<Deps, "db" | "files" | "now">, auth: Auth, knowledgeBaseId: string, input: UploadInput) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const { extension } = splitFileName(input.fileName);
  if (!acceptedExtensions.includes(extension)) throw fail.invalid("media_type_unsupported", "file", { types: acceptedExtensions.join(", ") });
  if (input.bytes.byteLength === 0) throw fail.invalid("file_empty", "file");
  if (input.bytes.byteLength > MEDIA_MAX_BYTES) throw fail.invalid("file_too_large", "file", { megabytes: MEDIA_MAX_BYTES / 1024 / 1024 });
  const type = mediaTypes.find((candidate) => candidate.extensions.includes(extension))!;
  if (!type.matches(input.bytes)) throw fail.invalid("media_content_mismatch", "file", { type: extension.toUpperCase() });
  const name = checkMediaName(input.name ?? input.fileName);
  const id = newId("mm");
  const storagePath = await storeObject(deps, knowledgeKeys.media(base.id, id, type.extensions[0]!), input.bytes);
  const now = deps.now().toISOString();
  const row: MediaRow = {
    id,
    spaceId: auth.spaceId,
    knowledgeBaseId: base.id,
    name,
    mimeType: type.mimeType,
    sizeBytes: input.bytes.byteLength,
    storagePath,
    createdAt: now,
    updatedAt: now,
  };
  await deps.db.insert(mediaMaterials).values(row);
  return mediaView(row);
}

/** A page of a knowledge base's media materials, newest first. */
export async function listMedia(deps: Pick<Deps, "db">, auth: Auth, knowledgeBaseId: string, page: { pageNo: number; pageSize: number }) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const rows = await deps.db
    .select()
    .from(mediaMaterials)
    .where(eq(mediaMaterials.knowledgeBaseId, base.id))
    .orderBy(desc(mediaMaterials.createdAt), desc(mediaMaterials.id))
    .limit(page.pageSize)
    .offset((page.pageNo - 1) * page.pageSize)
    .all();
  const total = await deps.db.select({ n: count() }).from(mediaMaterials).where(eq(mediaMaterials.knowledgeBaseId, base.id)).get();
  return { items: rows.map(mediaView), total: total?.n ?? 0, pageNo: page.pageNo, pageSize: page.pageSize };
}

/** Renames a media material. */
export async function renameMedia(deps: Pick<Deps, "db" | "now">, auth: Auth, mediaId: string, name: string) {
  const row = await loadMedia(deps, auth, mediaId);
  const updated = await deps.db
    .update(mediaMaterials)
    .set({ name: checkMediaName(name), updatedAt: deps.now().toISOString() })
    .where(eq(mediaMaterials.id, row.id))
    .returning();
  return mediaView(updated[0]!);
}

/** Deletes a media material and its stored bytes. */
export async function deleteMedia(deps: Pick<Deps, "db" | "files">, auth: Auth, mediaId: string) {
  const row = await loadMedia(deps, auth, mediaId);
  await deps.db.delete(mediaMaterials).where(eq(mediaMaterials.id, row.id));
  if (row.knowledgeBaseId) await deps.files.delete(mediaKey(row));
  return { id: row.id, deleted: true as const };
}

/** A media material's bytes as a stream from the file store, with its type and name, for download. */
export async function readMedia(deps: Pick<Deps, "db" | "files">, auth: Auth, mediaId: string) {
  const row = await loadMedia(deps, auth, mediaId);
  const stream = row.knowledgeBaseId ? await deps.files.get(mediaKey(row)) : undefined;
  if (!stream) throw fail.notFound("media_material");
  return { stream, mimeType: row.mimeType, name: row.name };
}
