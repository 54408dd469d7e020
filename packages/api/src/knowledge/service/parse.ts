import { ServiceError } from "../../errors";

/** Document extensions a knowledge document upload accepts (spec §5 Files). */
export const documentExtensions = ["txt", "md", "pdf", "docx"] as const;

/** One of {@link documentExtensions}. */
export type DocumentExtension = (typeof documentExtensions)[number];

/** Largest uncompressed size a docx may unpack to; bigger is treated as a zip bomb. */
export const DOCX_MAX_UNCOMPRESSED_BYTES = 200 * 1024 * 1024;

/** Why a document could not be read: a message id for the file's failure reason. */
export class DocumentParseError extends Error {
  override name = "DocumentParseError";
  constructor(readonly messageId: string) {
    super(messageId);
  }
}

/**
 * Extracts the text of a document. An encoding problem in a text file is the caller's to fix
 * and is thrown as a validation error on `file`; a PDF or docx that cannot be read throws a
 * {@link DocumentParseError}, which becomes the file's failure reason.
 */
export async function extractDocumentText(extension: DocumentExtension, bytes: Uint8Array): Promise<string> {
  switch (extension) {
    case "txt":
    case "md":
      return decodeUtf8(bytes);
    case "pdf":
      return extractPdfText(bytes);
    case "docx":
      return extractDocxText(bytes);
  }
}

/** Decodes strict UTF-8 (a BOM is dropped); anything else is the spec's encoding error. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new ServiceError("validation", "file_encoding_error", {}, { field: "file" });
  }
}

async function extractPdfText(bytes: Uint8Array): Promise<string> {
  const { extractText, getDocumentProxy } = await import("unpdf");
  let text: string;
  try {
    // pdf.js takes ownership of the buffer it is given: pass a copy.
    const document = await getDocumentProxy(new Uint8Array(bytes));
    try {
      text = (await extractText(document, { mergePages: true })).text;
    } finally {
      await document.destroy();
    }
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    throw new DocumentParseError(name === "PasswordException" ? "pdf_encrypted" : "pdf_unreadable");
  }
  if (text.trim() === "") throw new DocumentParseError("document_empty");
  return text;
}

async function extractDocxText(bytes: Uint8Array): Promise<string> {
  checkZipSize(bytes, DOCX_MAX_UNCOMPRESSED_BYTES);
  const mammoth = await import("mammoth");
  let text: string;
  try {
    text = (await mammoth.extractRawText({ buffer: Buffer.from(bytes) })).value;
  } catch {
    throw new DocumentParseError("docx_unreadable");
  }
  if (text.trim() === "") throw new DocumentParseError("document_empty");
  return text;
}

/**
 * Sums the uncompressed sizes a zip archive's central directory declares, before anything is
 * inflated, and refuses archives that would unpack past `limit` (or that are not zips at all).
 */
export function checkZipSize(bytes: Uint8Array, limit: number): void {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record sits in the last 22 bytes plus an optional comment.
  let end = -1;
  for (let at = view.length - 22; at >= Math.max(0, view.length - 22 - 65_535); at -= 1) {
    if (view.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new DocumentParseError("docx_unreadable");
  const entries = view.readUInt16LE(end + 10);
  let at = view.readUInt32LE(end + 16);
  let total = 0;
  for (let index = 0; index < entries; index += 1) {
    if (at + 46 > view.length || view.readUInt32LE(at) !== 0x02014b50) throw new DocumentParseError("docx_unreadable");
    const size = view.readUInt32LE(at + 24);
    // 0xFFFFFFFF means the real size is in a ZIP64 field: no docx needs that.
    if (size === 0xffffffff) throw new DocumentParseError("docx_too_large");
    total += size;
    if (total > limit) throw new DocumentParseError("docx_too_large");
    at += 46 + view.readUInt16LE(at + 28) + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32);
  }
}
