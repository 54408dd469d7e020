import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, or } from "drizzle-orm";
import { newId, safeEqual } from "../../crypto";
import { chatFiles, publicAssets } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Deps } from "../../kernel";
import type { DocumentExtension } from "../../knowledge/service/parse";
import { mediaTypes } from "../../knowledge/service/media";
import { readDocument } from "./read-document";

/** Images a chat takes (spec §5: JPEG and PNG under 5 MB). */
export const CHAT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** Documents a chat takes (spec §5: txt, md, pdf, docx; 15 MB for chat uploads). */
export const CHAT_DOCUMENT_MAX_BYTES = 15 * 1024 * 1024;

/** Files one message may carry. */
export const MAX_FILES_PER_MESSAGE = 10;

/** How long a signed file address stays valid. */
export const SIGNED_URL_SECONDS = 24 * 60 * 60;

/** Uploads never sent with a message are removed after this long. */
export const UNSENT_FILE_HOURS = 24;

/** A stored chat file. */
export type ChatFileRow = typeof chatFiles.$inferSelect;

/** What a file is, by its first bytes (never by its name). */
export interface DetectedFile {
  kind: "image" | "document";
  mimeType: string;
  /** The document parser that reads it (documents only). */
  extension?: DocumentExtension;
}

const ZIP = [0x50, 0x4b, 0x03, 0x04];

/** Whether the bytes read as text: no NUL byte in the first 8 KB (binaries have them) and strict UTF-8 is left to the parser. */
function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 8192);
  return !head.includes(0);
}

/**
 * Recognises a chat file by its bytes: PNG and JPEG images, PDF, docx (a zip; the parser then
 * checks it is a Word document), and text (txt, or md when the name says so). An executable
 * named `.png` is none of these and is refused.
 */
export function detectChatFile(bytes: Uint8Array, name: string): DetectedFile | undefined {
  // The knowledge media table knows the signatures; chat takes its JPEG, PNG and PDF.
  const known = mediaTypes.find((type) => type.matches(bytes))?.mimeType;
  if (known === "image/png" || known === "image/jpeg") return { kind: "image", mimeType: known };
  if (known === "application/pdf") return { kind: "document", mimeType: known, extension: "pdf" };
  if (ZIP.every((byte, index) => bytes[index] === byte))
    return { kind: "document", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", extension: "docx" };
  if (looksLikeText(bytes)) {
    const markdown = /\.(md|markdown)$/i.test(name);
    return { kind: "document", mimeType: markdown ? "text/markdown" : "text/plain", extension: markdown ? "md" : "txt" };
  }
  return undefined;
}

/** A file name as stored and shown: no path, no control characters, at most 200 characters. */
function cleanName(name: string, detected: DetectedFile): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are dropped from names
  const base = (name.split(/[\\/]/).pop() ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim();
  if (base) return base.slice(0, 200);
  const extension = detected.kind === "image" ? (detected.mimeType === "image/png" ? "png" : "jpg") : (detected.extension ?? "txt");
  return `${detected.kind === "image" ? "image" : "document"}.${extension}`;
}

/** The checks every chat file passes: not empty, a known type by its bytes, within its kind's limit. */
export function checkChatFile(bytes: Uint8Array, name: string, options: { imagesOnly?: boolean } = {}): DetectedFile {
  if (bytes.byteLength === 0) throw new ServiceError("validation", "chat_file_empty", {}, { field: "file" });
  const detected = detectChatFile(bytes, name);
  if (!detected || (options.imagesOnly && detected.kind !== "image")) {
    throw new ServiceError(
      "unsupported_media_type",
      options.imagesOnly ? "public_asset_type_unsupported" : "chat_file_type_unsupported",
      {
        megabytes: CHAT_IMAGE_MAX_BYTES / 1024 / 1024,
      },
      { field: "file" },
    );
  }
  if (detected.kind === "image" && bytes.byteLength > CHAT_IMAGE_MAX_BYTES) {
    throw new ServiceError("payload_too_large", "chat_image_too_large", { megabytes: CHAT_IMAGE_MAX_BYTES / 1024 / 1024 }, { field: "file" });
  }
  if (bytes.byteLength > CHAT_DOCUMENT_MAX_BYTES) {
    throw new ServiceError("payload_too_large", "chat_document_too_large", { megabytes: CHAT_DOCUMENT_MAX_BYTES / 1024 / 1024 }, { field: "file" });
  }
  return detected;
}

/** Where a chat file's bytes live in the file store. */
const chatFileKey = (spaceId: string, id: string) => `chat-files/${spaceId}/${id}`;

/** Who stores a chat file, for which conversation. */
export interface ChatFileInput {
  spaceId: string;
  appId: string;
  /** The conversation's end user, or `operator:<userId>` for an image an operator sends. */
  endUserId: string;
  channel: string;
  /** The conversation it belongs to, when known at upload (a widget session, an inbox reply, a channel message). */
  conversationId?: string;
  name: string;
  bytes: Uint8Array;
}

/**
 * Checks and stores a chat file: its type by its bytes and the §5 limits; a document is read
 * now (so a file that cannot be read is refused at upload, not mid-answer). Nothing is stored
 * when a check fails.
 */
export async function storeChatFile(deps: Pick<Deps, "db" | "files" | "now">, input: ChatFileInput): Promise<ChatFileRow> {
  const detected = checkChatFile(input.bytes, input.name);
  const textContent = detected.extension ? await readDocument(detected.extension, input.bytes) : null;
  const id = newId("cf");
  const storageKey = chatFileKey(input.spaceId, id);
  await deps.files.put(storageKey, input.bytes);
  const row: ChatFileRow = {
    id,
    spaceId: input.spaceId,
    appId: input.appId,
    conversationId: input.conversationId ?? null,
    messageId: null,
    endUserId: input.endUserId,
    channel: input.channel,
    kind: detected.kind,
    mimeType: detected.mimeType,
    name: cleanName(input.name, detected),
    sizeBytes: input.bytes.byteLength,
    storageKey,
    textContent,
    createdAt: deps.now().toISOString(),
  };
  try {
    await deps.db.insert(chatFiles).values(row);
  } catch (error) {
    await deps.files.delete(storageKey).catch(() => undefined);
    throw error;
  }
  return row;
}

/** The signature of a file address: the file and the second it expires, under the instance key. */
function signatureOf(deps: Pick<Deps, "secrets">, id: string, expires: number): string {
  return deps.secrets.sign("chat-file", `${id}.${expires}`);
}

/**
 * The contract view of a chat file. Its `url` is signed (valid {@link SIGNED_URL_SECONDS}), so an
 * `<img>` in the console, the widget or an operator's inbox opens it without a header, and
 * nobody can guess another file's address.
 */
export function chatFileView(deps: Pick<Deps, "secrets" | "now">, row: Pick<ChatFileRow, "id" | "name" | "kind" | "mimeType" | "sizeBytes" | "createdAt">) {
  // Addresses change once an hour, so pages and caches can reuse them within that hour.
  const hour = Math.floor(deps.now().getTime() / 3_600_000) * 3600;
  const expires = hour + SIGNED_URL_SECONDS;
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    mimeType: row.mimeType,
    sizeBytes: row.sizeBytes,
    url: `/api/v1/chat-files/${row.id}/content?expires=${expires}&signature=${signatureOf(deps, row.id, expires)}`,
    createdAt: row.createdAt,
  };
}

/** A chat file as the contract shows it. */
export type ChatFileView = ReturnType<typeof chatFileView>;

/** The file a signed address names, when the signature holds and has not expired. */
export async function fileOfSignedUrl(
  deps: Pick<Deps, "db" | "secrets" | "now">,
  id: string,
  query: { expires?: string | undefined; signature?: string | undefined },
): Promise<ChatFileRow> {
  const expires = Number(query.expires);
  const valid =
    Number.isInteger(expires) &&
    expires * 1000 > deps.now().getTime() &&
    typeof query.signature === "string" &&
    safeEqual(query.signature, signatureOf(deps, id, expires));
  if (!valid) throw new ServiceError("forbidden", "chat_file_link_expired");
  const row = await deps.db.select().from(chatFiles).where(eq(chatFiles.id, id)).get();
  if (!row) throw fail.notFound("chat_file");
  return row;
}

/** Who sends files with a turn: the app and the end user they were uploaded for, and the conversation. */
export interface TurnFileOwner {
  spaceId: string;
  appId: string;
  endUserId: string;
  /** The conversation the turn continues (files uploaded for it, or for none yet, may be sent). */
  conversationId: string | undefined;
  /** The person's message when it was stored on arrival (a channel delivery): its files were bound to it then. */
  storedMessageId?: string | undefined;
}

/**
 * The files a turn sends, in the order named. A file of another space, app, person or
 * conversation, or one already sent with a message, is not found (404): nobody can send (or
 * read) another conversation's file by naming its id.
 */
export async function filesForTurn(deps: Pick<Deps, "db">, owner: TurnFileOwner, fileIds: readonly string[]): Promise<ChatFileRow[]> {
  if (fileIds.length === 0) return [];
  const unique = [...new Set(fileIds)];
  if (unique.length > MAX_FILES_PER_MESSAGE) throw new ServiceError("validation", "chat_files_too_many", { max: MAX_FILES_PER_MESSAGE }, { field: "fileIds" });
  const rows = await deps.db
    .select()
    .from(chatFiles)
    .where(
      and(
        inArray(chatFiles.id, unique),
        eq(chatFiles.spaceId, owner.spaceId),
        eq(chatFiles.appId, owner.appId),
        eq(chatFiles.endUserId, owner.endUserId),
        owner.storedMessageId ? or(isNull(chatFiles.messageId), eq(chatFiles.messageId, owner.storedMessageId)) : isNull(chatFiles.messageId),
        owner.conversationId ? or(isNull(chatFiles.conversationId), eq(chatFiles.conversationId, owner.conversationId)) : isNull(chatFiles.conversationId),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return unique.map((id) => {
    const row = byId.get(id);
    if (!row) throw new ServiceError("not_found", "not_found", { what: "chat_file" }, { field: "fileIds" });
    return row;
  });
}

/** Documents people have not resent but the model still remembers: the conversation's latest, sent since `since`. */
export const REMEMBERED_DOCUMENTS = 5;

/** The documents sent earlier in a conversation (newest first, at most {@link REMEMBERED_DOCUMENTS}), sent since `since`. */
export async function rememberedDocuments(deps: Pick<Deps, "db">, conversationId: string, since: string, except: readonly string[]): Promise<ChatFileRow[]> {
  const rows = await deps.db
    .select()
    .from(chatFiles)
    .where(and(eq(chatFiles.conversationId, conversationId), eq(chatFiles.kind, "document"), isNotNull(chatFiles.messageId), gt(chatFiles.createdAt, since)))
    .orderBy(desc(chatFiles.createdAt))
    .limit(REMEMBERED_DOCUMENTS + except.length);
  return rows.filter((row) => !except.includes(row.id)).slice(0, REMEMBERED_DOCUMENTS);
}

/** Binds sent files to their conversation and message. */
export async function bindFilesToMessage(deps: Pick<Deps, "db">, fileIds: readonly string[], conversationId: string, messageId: string): Promise<void> {
  if (fileIds.length === 0) return;
  await deps.db
    .update(chatFiles)
    .set({ conversationId, messageId })
    .where(inArray(chatFiles.id, [...fileIds]));
}

/** The files of messages, by message id, in the order they were attached. */
export async function filesOfMessages(deps: Pick<Deps, "db">, messageIds: readonly string[]): Promise<Map<string, ChatFileRow[]>> {
  const byMessage = new Map<string, ChatFileRow[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = await deps.db
    .select()
    .from(chatFiles)
    .where(inArray(chatFiles.messageId, [...messageIds]))
    .orderBy(chatFiles.createdAt, chatFiles.id);
  for (const row of rows) {
    const list = byMessage.get(row.messageId ?? "") ?? [];
    list.push(row);
    byMessage.set(row.messageId ?? "", list);
  }
  return byMessage;
}

/** Adds `attachments` (views with signed addresses) to message views; `[]` for messages without files. */
export async function withAttachments<T extends { id: string }>(
  deps: Pick<Deps, "db" | "secrets" | "now">,
  items: readonly T[],
): Promise<Array<T & { attachments: ChatFileView[] }>> {
  const files = await filesOfMessages(
    deps,
    items.map((item) => item.id),
  );
  return items.map((item) => ({ ...item, attachments: (files.get(item.id) ?? []).map((row) => chatFileView(deps, row)) }));
}

/** A stored file's bytes (images for the model, channel deliveries). */
export async function chatFileBytes(deps: Pick<Deps, "files">, row: Pick<ChatFileRow, "storageKey">): Promise<Uint8Array> {
  const bytes = await deps.files.read(row.storageKey);
  if (!bytes) throw fail.notFound("chat_file");
  return bytes;
}

/**
 * Removes uploads never sent with a message after {@link UNSENT_FILE_HOURS}, and the bytes of
 * files whose conversation was deleted (their rows went with it). Answers how many were removed.
 */
export async function sweepChatFiles(deps: Pick<Deps, "db" | "files" | "now">): Promise<number> {
  const before = new Date(deps.now().getTime() - UNSENT_FILE_HOURS * 3_600_000).toISOString();
  const stale = await deps.db
    .select({ id: chatFiles.id, storageKey: chatFiles.storageKey })
    .from(chatFiles)
    .where(and(isNull(chatFiles.messageId), lt(chatFiles.createdAt, before)));
  for (const row of stale) {
    await deps.files.delete(row.storageKey);
    await deps.db.delete(chatFiles).where(eq(chatFiles.id, row.id));
  }
  const staleIds = new Set(stale.map((row) => row.id));
  let orphans = 0;
  const keys = await deps.files.list("chat-files/");
  for (let start = 0; start < keys.length; start += 500) {
    const batch = keys.slice(start, start + 500);
    const ids = batch.map((key) => key.split("/").pop() ?? "");
    const known = new Set((await deps.db.select({ id: chatFiles.id }).from(chatFiles).where(inArray(chatFiles.id, ids))).map((row) => row.id));
    for (const key of batch) {
      const id = key.split("/").pop() ?? "";
      // A file stored this very moment has its bytes before its row: leave young keys alone.
      if (!known.has(id) && !staleIds.has(id)) {
        const stat = await deps.files.stat(key);
        if (stat && stat.modifiedAt.getTime() > deps.now().getTime() - 3_600_000) continue;
        await deps.files.delete(key);
        orphans += 1;
      }
    }
  }
  return stale.length + orphans;
}

/** Where a public asset's bytes live. */
const assetKey = (spaceId: string, id: string) => `assets/${spaceId}/${id}`;

/** Stores an image the console shows publicly (an avatar, a store picture): JPEG or PNG under 5 MB. */
export async function storePublicAsset(deps: Pick<Deps, "db" | "files" | "now">, input: { spaceId: string; userId: string; bytes: Uint8Array; name: string }) {
  const detected = checkChatFile(input.bytes, input.name, { imagesOnly: true });
  const id = newId("as");
  const storageKey = assetKey(input.spaceId, id);
  await deps.files.put(storageKey, input.bytes);
  await deps.db.insert(publicAssets).values({
    id,
    spaceId: input.spaceId,
    mimeType: detected.mimeType,
    sizeBytes: input.bytes.byteLength,
    storageKey,
    createdBy: input.userId,
    createdAt: deps.now().toISOString(),
  });
  return { id, url: `/api/v1/assets/${id}`, mimeType: detected.mimeType, sizeBytes: input.bytes.byteLength };
}

/** A public asset's type and bytes. */
export async function publicAsset(deps: Pick<Deps, "db" | "files">, id: string) {
  const row = await deps.db.select().from(publicAssets).where(eq(publicAssets.id, id)).get();
  const body = row ? await deps.files.get(row.storageKey) : undefined;
  if (!row || !body) throw fail.notFound("public_asset");
  return { row, body };
}

/** How often unsent uploads and orphaned bytes are removed. */
export const CHAT_FILE_SWEEP_MS = 60 * 60_000;

/** Sweeps chat files now and then every hour (on the scheduler role); answers a stop function. */
export function startChatFileSweeper(deps: Pick<Deps, "db" | "files" | "logger" | "now">, everyMs = CHAT_FILE_SWEEP_MS): () => void {
  const sweep = () =>
    void sweepChatFiles(deps)
      .then((removed) => {
        if (removed > 0) deps.logger.debug("swept chat files", { removed });
      })
      .catch((error: unknown) => deps.logger.warn("chat file sweep failed", { error: String(error) }));
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
