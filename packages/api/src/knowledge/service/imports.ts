import { and, eq, inArray } from "drizzle-orm";
import { mediaMaterials } from "../../db/schema/index";
import { fail } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { outboundPolicy } from "../../plugins/service/network";
import { createImportedFile, DOCUMENT_MAX_BYTES, FILE_NAME_PATTERN } from "./files";
import { loadKnowledgeBase } from "./knowledge-bases";
import { parseQaCsv, qaRecord, type RecordFailure } from "./sources/qa";
import { splitFileName } from "./sources/tabular";
import { checkWebsiteUrl, extractReadable, fetchWebPage, fileNameFromTitle, hostOf, WebsiteImportError } from "./sources/website";

/** At most this many failed rows are listed in an import report (all are counted). */
export const REPORT_FAILURES_LISTED = 100;

/** How an import of records went: rows read, kept and failed, with why (message ids). */
export interface ImportReport {
  totalRecords: number;
  importedRecords: number;
  failedRecords: number;
  failures: RecordFailure[];
}

/** An uploaded file as the routes hand it over. */
export interface UploadInput {
  fileName: string;
  bytes: Uint8Array;
  mimeType?: string;
  /** Display name without extension; defaults to the uploaded name's stem. */
  name?: string;
}

/** Builds an import report from what was kept and what failed. */
export function reportOf(imported: number, failures: RecordFailure[]): ImportReport {
  return {
    totalRecords: imported + failures.length,
    importedRecords: imported,
    failedRecords: failures.length,
    failures: failures.slice(0, REPORT_FAILURES_LISTED),
  };
}

/** Checks an upload's extension, size and display name; answers the name and extension. */
export function checkUpload<E extends string>(input: UploadInput, extensions: readonly E[], maxBytes = DOCUMENT_MAX_BYTES): { name: string; extension: E } {
  const { stem, extension } = splitFileName(input.fileName);
  if (!(extensions as readonly string[]).includes(extension)) throw fail.invalid("file_type_unsupported", "file", { types: extensions.join(", ") });
  const name = input.name ?? stem;
  if (!FILE_NAME_PATTERN.test(name)) throw fail.invalid("file_name_invalid", "name");
  if (input.bytes.byteLength === 0) throw fail.invalid("file_empty", "file");
  if (input.bytes.byteLength > maxBytes) throw fail.invalid("file_too_large", "file", { megabytes: maxBytes / 1024 / 1024 });
  return { name, extension: extension as E };
}

/** Refuses an import in which no record survived: with none at all, or with the count that failed. */
export function checkSomeImported(imported: number, failures: RecordFailure[]): void {
  if (imported > 0) return;
  if (failures.length === 0) throw fail.invalid("import_no_records", "file");
  throw fail.invalid("import_all_records_failed", "file", { count: failures.length });
}

/**
 * Imports a Q&A CSV made from the template (spec §3, §5): each good row becomes one record, found
 * by its question only or by question and answer; rows with an empty question or answer (or an
 * unknown search method or material) are counted as failed and listed in the report. A CSV that
 * is not UTF-8 or does not match the template is refused with nothing stored.
 */
export async function importQa(deps: Pick<Deps, "db" | "files" | "now">, auth: Auth, knowledgeBaseId: string, input: UploadInput) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const { name } = checkUpload(input, ["csv"] as const);
  const parsed = parseQaCsv(input.bytes);
  const failures = [...parsed.failures];

  // A media material named in a row must be one of this knowledge base's.
  const mediaIds = [...new Set(parsed.pairs.flatMap((pair) => (pair.material?.type === "media" ? [pair.material.id] : [])))];
  const known = new Set(
    mediaIds.length === 0
      ? []
      : (
          await deps.db
            .select({ id: mediaMaterials.id })
            .from(mediaMaterials)
            .where(and(inArray(mediaMaterials.id, mediaIds), eq(mediaMaterials.knowledgeBaseId, base.id)))
            .all()
        ).map((row) => row.id),
  );
  const pairs = parsed.pairs.filter((pair, index) => {
    if (pair.material?.type !== "media" || known.has(pair.material.id)) return true;
    failures.push({ row: parsed.lines[index]!, reason: "qa_material_invalid" });
    return false;
  });
  failures.sort((a, b) => a.row - b.row);
  checkSomeImported(pairs.length, failures);

  const report = reportOf(pairs.length, failures);
  const file = await createImportedFile(deps, auth, base.id, {
    type: "qa",
    name,
    source: input.fileName,
    sizeBytes: input.bytes.byteLength,
    mimeType: "text/csv",
    original: { bytes: input.bytes, extension: "csv" },
    prepared: { kind: "records", records: pairs.map(qaRecord) },
    options: { extension: "csv", report },
  });
  return { file, report };
}

/** Checks a display name given with an import, when one is. */
export function checkGivenName(name: string | undefined): string | undefined {
  const trimmed = name?.trim();
  if (!trimmed) return undefined;
  if (!FILE_NAME_PATTERN.test(trimmed)) throw fail.invalid("file_name_invalid", "name");
  return trimmed;
}

/**
 * Imports a web page (spec §4: it ends parsed, as a pending file, or parse failed). The URL must
 * start with http:// or https:// (else 400). The page is fetched under the plugins' address
 * rules, every redirect hop included, with the configured deadline and size cap; its readable
 * text becomes Markdown named after its title (or the given name). A page that cannot be fetched,
 * is not HTML, or has nothing readable is kept as a failed file: "this website does not support
 * import".
 */
export async function importWebsite(
  deps: Pick<Deps, "config" | "db" | "files" | "logger" | "now">,
  auth: Auth,
  knowledgeBaseId: string,
  input: { url: string; name?: string },
) {
  const base = await loadKnowledgeBase(deps, auth, knowledgeBaseId);
  const url = checkWebsiteUrl(input.url);
  const givenName = checkGivenName(input.name);
  const source = url.toString();
  const limits = deps.config.knowledge.website;
  const policy = outboundPolicy(deps.config);
  try {
    const page = await fetchWebPage(url, { policy, timeoutMs: limits.timeoutMs, maxBytes: limits.maxBytes });
    const readable = extractReadable(page.html, page.url);
    if (!readable) throw new WebsiteImportError("no readable text on the page");
    const markdown = new TextEncoder().encode(readable.markdown);
    return await createImportedFile(deps, auth, base.id, {
      type: "website",
      name: givenName ?? fileNameFromTitle(readable.title, hostOf(page.url)),
      source,
      sizeBytes: page.bytes,
      mimeType: "text/html",
      original: { bytes: markdown, extension: "md" },
      prepared: { kind: "text", text: readable.markdown },
      options: { url: source, finalUrl: page.url, title: readable.title },
    });
  } catch (error) {
    if (!(error instanceof WebsiteImportError)) throw error;
    deps.logger.info("website import failed", { url: source, reason: error.message });
    return createImportedFile(deps, auth, base.id, {
      type: "website",
      name: givenName ?? fileNameFromTitle("", hostOf(source)),
      source,
      sizeBytes: 0,
      failureReason: "website_not_supported",
      options: { url: source, error: error.message },
    });
  }
}
