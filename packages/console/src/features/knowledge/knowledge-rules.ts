/**
 * Spec §5 Knowledge and §9 limits as pure checks, mirroring what the server refuses so the
 * console can say so before uploading. Each check answers an i18n key, or undefined when fine.
 */

/** An i18n key naming the broken rule, or undefined. */
export type RuleResult = string | undefined;

/** Limits the knowledge screens enforce (spec §5, §9). */
export const KNOWLEDGE_LIMITS = {
  /** Largest document upload. */
  documentMaxBytes: 10 * 1024 * 1024,
  /** Largest media material (spec §5: 15 MB for media). */
  mediaMaxBytes: 15 * 1024 * 1024,
  mediaNameMax: 100,
  fileNameMax: 50,
  baseNameMax: 100,
  descriptionMax: 1000,
  chunkTokensMin: 50,
  chunkTokensMax: 4000,
  chunkOverlapMax: 1000,
  segmentMaxCharacters: 20_000,
  /** Rows or segments a preview shows. */
  previewRows: 50,
  /** Hits of each kind a retrieval test answers. */
  retrievalHits: 10,
} as const;

/** Document types a knowledge upload accepts. */
export const DOCUMENT_EXTENSIONS = ["txt", "md", "pdf", "docx"] as const;

/** Default chunking of a new knowledge base (the server's defaults). */
export const DEFAULT_CHUNKING = { chunkTokens: 500, chunkOverlap: 50 } as const;

/** Spec §9 similarity hints: 0.8 or more is strict, 0.7 or less is loose. */
export const SIMILARITY_HINTS = { strict: 0.8, loose: 0.7 } as const;

/**
 * What a new app retrieves with (the server's app defaults; thresholds are calibrated per
 * embedder, decision 0010): the retrieval test starts from them, so it shows what chat uses.
 */
export const APP_RETRIEVAL_DEFAULTS = { mode: "hybrid", similarityThreshold: 0.75, semanticCount: 6, fullTextCount: 4 } as const;

const FILE_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** The lower-cased extension of `report.PDF` (`pdf`), or '' when there is none. */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : "";
}

/** `report.pdf` without its extension. */
export function stemOf(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  return dot > 0 ? fileName.slice(0, dot) : fileName;
}

/** A knowledge file name: required, at most 50 characters, letters, digits, _ and - only. */
export function checkFileName(name: string | undefined): RuleResult {
  const value = (name ?? "").trim();
  if (!value) return "knowledge.rules.fileNameRequired";
  if (value.length > KNOWLEDGE_LIMITS.fileNameMax) return "knowledge.rules.fileNameTooLong";
  if (!FILE_NAME_PATTERN.test(value)) return "knowledge.rules.fileNameCharacters";
  return undefined;
}

/**
 * A name the file rule accepts, made from an uploaded file's stem: other characters become
 * `_`, runs collapse, and it is cut to 50. Answers '' when nothing usable remains.
 */
export function suggestFileName(fileName: string): string {
  const cleaned = stemOf(fileName)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9_-]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_+|_+$/g, "");
  return cleaned.slice(0, KNOWLEDGE_LIMITS.fileNameMax).replace(/_+$/, "");
}

/** File types each upload-based import accepts (spec §5: documents; Q&A is a UTF-8 CSV; tables csv or xlsx). */
export const UPLOAD_EXTENSIONS = {
  document: DOCUMENT_EXTENSIONS,
  qa: ["csv"],
  table: ["csv", "xlsx"],
} as const satisfies Record<string, readonly string[]>;

/** An uploaded file: one of `extensions`, not empty, at most 10 MB (what the server checks too). */
export function checkUpload(file: { name: string; size: number }, extensions: readonly string[]): RuleResult {
  if (!extensions.includes(extensionOf(file.name))) return "knowledge.rules.documentType";
  if (file.size === 0) return "knowledge.rules.fileEmpty";
  if (file.size > KNOWLEDGE_LIMITS.documentMaxBytes) return "knowledge.rules.fileTooLarge";
  return undefined;
}

/** An uploaded document: txt, md, pdf or docx, not empty, at most 10 MB. */
export function checkDocument(file: { name: string; size: number }): RuleResult {
  return checkUpload(file, DOCUMENT_EXTENSIONS);
}

/** Target segment size: a whole number from 50 to 4000. */
export function checkChunkTokens(value: number | null | undefined): RuleResult {
  if (value === null || value === undefined) return "knowledge.rules.chunkTokensRequired";
  if (!Number.isInteger(value) || value < KNOWLEDGE_LIMITS.chunkTokensMin || value > KNOWLEDGE_LIMITS.chunkTokensMax) return "knowledge.rules.chunkTokensRange";
  return undefined;
}

/** Overlap: a whole number from 0 to 1000, below the segment size. */
export function checkChunkOverlap(value: number | null | undefined, chunkTokens: number | null | undefined): RuleResult {
  if (value === null || value === undefined) return "knowledge.rules.chunkOverlapRequired";
  if (!Number.isInteger(value) || value < 0 || value > KNOWLEDGE_LIMITS.chunkOverlapMax) return "knowledge.rules.chunkOverlapRange";
  if (typeof chunkTokens === "number" && value >= chunkTokens) return "knowledge.rules.chunkOverlapBelowSize";
  return undefined;
}

/** What the threshold slider says about a value (spec §9 hints). */
export function similarityHint(threshold: number): "strict" | "loose" | "balanced" {
  if (threshold >= SIMILARITY_HINTS.strict) return "strict";
  if (threshold <= SIMILARITY_HINTS.loose) return "loose";
  return "balanced";
}

/** Whether any file is still moving (worth polling for). */
export function hasActiveFiles(files: readonly { status: string }[]): boolean {
  return files.some((file) => file.status === "processing");
}

/** Knowledge bases whose name contains the search text, ignoring case and outer spaces. */
export function filterByName<Item extends { name: string }>(items: readonly Item[], search: string): Item[] {
  const needle = search.trim().toLocaleLowerCase();
  if (!needle) return [...items];
  return items.filter((item) => item.name.toLocaleLowerCase().includes(needle));
}

/** A token count for people: 950, 12.4K, 1.2M. */
export function formatTokens(count: number, language: string): string {
  return new Intl.NumberFormat(language, { notation: "compact", maximumFractionDigits: 1 }).format(count);
}

/**
 * The field names of a CSV's first row (the table import's header), for choosing the index
 * column before uploading: a leading BOM is dropped, quoted cells may hold commas, doubled
 * quotes and line breaks, and names are trimmed. An empty text gives no fields.
 */
export function csvHeader(text: string): string[] {
  const source = text.replace(/^\uFEFF/, "");
  const fields: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (quoted) {
      if (char === '"' && source[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      fields.push(cell.trim());
      cell = "";
    } else if (char === "\n" || char === "\r") break;
    else cell += char;
  }
  if (cell.trim() !== "" || fields.length > 0) fields.push(cell.trim());
  return fields;
}

/** Field names that occur more than once (spec §5: field names in knowledge tables must be unique). */
export function duplicateFields(fields: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const field of fields) {
    if (seen.has(field)) repeated.add(field);
    seen.add(field);
  }
  return [...repeated];
}

/** A website to import: an absolute http:// or https:// address (spec §5). */
export function checkWebsiteUrl(value: string | undefined): RuleResult {
  const url = (value ?? "").trim();
  if (!url) return "knowledge.rules.urlRequired";
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return "knowledge.rules.websiteUrl";
  return undefined;
}

/** A Feishu document address: https:// only (spec §5). */
export function checkFeishuUrl(value: string | undefined): RuleResult {
  const url = (value ?? "").trim();
  if (!url) return "knowledge.rules.urlRequired";
  if (!/^https:\/\//i.test(url) || !URL.canParse(url)) return "knowledge.rules.feishuUrl";
  return undefined;
}

/** Media materials a knowledge base accepts (images, PDFs, videos), as the server does. */
export const MEDIA_EXTENSIONS = ["jpg", "jpeg", "png", "gif", "webp", "pdf", "mp4"] as const;

/** A media material to upload: an accepted type, not empty, at most 15 MB. */
export function checkMedia(file: { name: string; size: number }): RuleResult {
  if (!(MEDIA_EXTENSIONS as readonly string[]).includes(extensionOf(file.name))) return "knowledge.rules.mediaType";
  if (file.size === 0) return "knowledge.rules.fileEmpty";
  if (file.size > KNOWLEDGE_LIMITS.mediaMaxBytes) return "knowledge.rules.fileTooLarge";
  return undefined;
}

/** A media material's name: 1–100 characters, no slashes. */
export function checkMediaName(value: string | undefined): RuleResult {
  const name = (value ?? "").trim();
  if (!name) return "knowledge.rules.mediaNameRequired";
  if (name.length > KNOWLEDGE_LIMITS.mediaNameMax) return "knowledge.rules.mediaNameTooLong";
  if (/[\\/]/.test(name)) return "knowledge.rules.mediaNameSlash";
  return undefined;
}
