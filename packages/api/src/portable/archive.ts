import { Unzip, UnzipInflate, zipSync } from "fflate";
import { ServiceError } from "../errors";
import { PORTABLE_LIMITS } from "./format";

/** The name of the portable file inside a zip bundle. */
export const BUNDLE_DOCUMENT = "parley.yaml";
const CONTENTS_ENTRY = /^knowledge\/[a-z0-9][a-z0-9_-]{0,62}\.json$/;
// Compressed bytes handed to the inflater at a time: deflate expands at most about 1032 times,
// so one step can never produce more than ~16 MB before the running total is checked again.
const SLICE = 16 * 1024;

/** What an uploaded portable file holds: the YAML text and, from a zip bundle, the contents entries by path. */
export interface ReadBundle {
  yaml: string;
  entries: Map<string, Uint8Array>;
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function utf8(bytes: Uint8Array, field: string): string {
  try {
    return decoder.decode(bytes);
  } catch {
    throw new ServiceError("validation", "portable_not_utf8", {}, { field });
  }
}

/** Whether bytes start like a zip archive. */
export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

class Refusal extends Error {
  constructor(readonly error: ServiceError) {
    super(error.messageId);
  }
}

/**
 * Reads an uploaded portable file: YAML text, or a zip bundle holding `parley.yaml` and
 * `knowledge/<slug>.json` entries. The compressed size, the entry count and the total inflated
 * size are limited, the last counted while inflating, so a zip bomb is refused long before it
 * has been inflated whole.
 */
export function readBundle(bytes: Uint8Array, limits: { uncompressedBytes: number; zipEntries: number } = PORTABLE_LIMITS): ReadBundle {
  if (bytes.length > PORTABLE_LIMITS.fileBytes) {
    throw new ServiceError("payload_too_large", "portable_file_too_large", { limit: PORTABLE_LIMITS.fileBytes }, { field: "file" });
  }
  if (!isZip(bytes)) return { yaml: utf8(bytes, "file"), entries: new Map() };
  const entries = new Map<string, Uint8Array>();
  let count = 0;
  let inflated = 0;
  const unzip = new Unzip((file) => {
    count += 1;
    if (count > limits.zipEntries) throw new Refusal(new ServiceError("validation", "portable_zip_entries", { limit: limits.zipEntries }, { field: "file" }));
    if (file.name.endsWith("/")) return;
    if (file.name !== BUNDLE_DOCUMENT && !CONTENTS_ENTRY.test(file.name)) {
      throw new Refusal(new ServiceError("validation", "portable_zip_entry_unknown", { name: file.name.slice(0, 100) }, { field: "file" }));
    }
    const chunks: Uint8Array[] = [];
    file.ondata = (error, data, final) => {
      // The inflater hands our own refusal (thrown from here on an earlier chunk) back as its error.
      if (error) throw error instanceof Refusal ? error : new Refusal(new ServiceError("validation", "portable_zip_invalid", {}, { field: "file" }));
      inflated += data.length;
      if (inflated > limits.uncompressedBytes) {
        throw new Refusal(new ServiceError("validation", "portable_zip_too_large", { limit: limits.uncompressedBytes }, { field: "file" }));
      }
      chunks.push(data);
      if (final) entries.set(file.name, concat(chunks));
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < bytes.length; at += SLICE) unzip.push(bytes.subarray(at, at + SLICE), at + SLICE >= bytes.length);
  } catch (error) {
    if (error instanceof Refusal) throw error.error;
    throw new ServiceError("validation", "portable_zip_invalid", {}, { field: "file" });
  }
  const document = entries.get(BUNDLE_DOCUMENT);
  if (!document) throw new ServiceError("validation", "portable_zip_no_document", { name: BUNDLE_DOCUMENT }, { field: "file" });
  return { yaml: utf8(document, "file"), entries };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/** A zip bundle of the YAML document and the contents entries. */
export function writeBundle(yaml: string, entries: Map<string, string>): Uint8Array {
  const encoder = new TextEncoder();
  const files: Record<string, Uint8Array> = { [BUNDLE_DOCUMENT]: encoder.encode(yaml) };
  for (const [name, value] of entries) files[name] = encoder.encode(value);
  return zipSync(files, { level: 6 });
}
