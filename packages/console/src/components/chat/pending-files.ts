/** Files per message (spec §5). */
export const MAX_FILES_PER_MESSAGE = 10;

/** What the chat file input takes (the server decides by the bytes; this only narrows the picker). */
export const CHAT_FILE_ACCEPT = ".jpg,.jpeg,.png,.txt,.md,.pdf,.docx";

/** What the inbox's attach-image button takes. */
export const IMAGE_ACCEPT = ".jpg,.jpeg,.png";

/** A stored chat file as the upload answered it (the fields the composer and messages show). */
export interface AttachedFile {
  id: string;
  name: string;
  kind: "image" | "document";
  mimeType: string;
  sizeBytes: number;
  url: string;
}

/** A file being attached to the next message: uploading, uploaded, or refused by the server. */
export interface PendingFile {
  key: string;
  name: string;
  sizeBytes: number;
  status: "uploading" | "done" | "error";
  /** The upload's answer, once done. */
  file?: AttachedFile;
  /** The server's refusal, when refused. */
  error?: string;
}

/**
 * Adds picked files as uploading chips, at most {@link MAX_FILES_PER_MESSAGE} in all; answers the
 * new list, the chips added (to upload) and how many were left out.
 */
export function addPending(
  list: readonly PendingFile[],
  picked: ReadonlyArray<{ key: string; name: string; size: number }>,
): { list: PendingFile[]; added: PendingFile[]; leftOut: number } {
  const room = Math.max(0, MAX_FILES_PER_MESSAGE - list.length);
  const added: PendingFile[] = picked.slice(0, room).map((file) => ({ key: file.key, name: file.name, sizeBytes: file.size, status: "uploading" }));
  return { list: [...list, ...added], added, leftOut: picked.length - added.length };
}

/** The upload of `key` answered its stored file. */
export function markUploaded(list: readonly PendingFile[], key: string, file: AttachedFile): PendingFile[] {
  return list.map((item) => (item.key === key ? { key, name: item.name, sizeBytes: file.sizeBytes, status: "done", file } : item));
}

/** The server refused the upload of `key` with `message`. */
export function markFailed(list: readonly PendingFile[], key: string, message: string): PendingFile[] {
  return list.map((item) => (item.key === key ? { key, name: item.name, sizeBytes: item.sizeBytes, status: "error", error: message } : item));
}

/** Takes a chip away (an upload still running is forgotten: its answer finds no chip). */
export function removePending(list: readonly PendingFile[], key: string): PendingFile[] {
  return list.filter((item) => item.key !== key);
}

/** The uploaded files, in the order they were picked: what the message sends. */
export function uploadedFiles(list: readonly PendingFile[]): AttachedFile[] {
  return list.flatMap((item) => (item.status === "done" && item.file ? [item.file] : []));
}

/**
 * Whether the message can go: nothing still uploading, and some text or at least one uploaded
 * file (refused chips are not sent; they stay until removed).
 */
export function canSend(text: string, list: readonly PendingFile[]): boolean {
  if (list.some((item) => item.status === "uploading")) return false;
  return text.trim() !== "" || uploadedFiles(list).length > 0;
}

/** A size as people read it: 812 B, 14.2 KB, 3.1 MB. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
