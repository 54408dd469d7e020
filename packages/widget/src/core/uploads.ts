/**
 * Choosing and uploading files (issue 24), the pure part: checked before an upload by name and
 * size only (the server decides by the bytes), sizes for chips, and an upload's answer read.
 * Imported by the upload chunk only. No Preact, no DOM.
 */
import type { ChatFile } from "./protocol";

const MB = 1024 * 1024;

/** Why a file will not be uploaded: `type` (not JPG/PNG/TXT/MD/PDF/DOCX by its name), `size` (images over 5 MB, documents over 15 MB). */
export function fileProblem(name: string, size: number): "type" | "size" | undefined {
  const extension = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";
  const image = ["jpg", "jpeg", "png"].includes(extension);
  if (!image && !["txt", "md", "pdf", "docx"].includes(extension)) return "type";
  return size > (image ? 5 : 15) * MB ? "size" : undefined;
}

/** A size for a chip: `512 B`, `12 KB`, `3.4 MB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / MB).toFixed(1)} MB`;
}

/**
 * An upload's answer: the stored file (a 2xx envelope with `data`), or the server's refusal
 * message ("" when it gave none, e.g. a proxy's page or no network).
 */
export function readUpload(status: number, body: string): { file: ChatFile } | { message: string } {
  let parsed: { data?: ChatFile; message?: unknown } | undefined;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  if (status >= 200 && status < 300 && parsed?.data?.id) return { file: parsed.data };
  return { message: typeof parsed?.message === "string" ? parsed.message : "" };
}
