import { ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import type { Language } from "../../i18n/language";
import { lastSegment } from "../../kernel/files/port";
import { type KnowledgeFileRow, loadFile, originalKey } from "./files";
import { loadPrepared } from "./prepared";
import { chunksOfFileRows, metadataOf, optionsOf, pendingRecords } from "./records";
import { type QaPair, qaCsvOf, qaPairOf } from "./sources/qa";
import { tableCsvOf } from "./sources/table";
import { currentTableRows, tableOptionsOf } from "./tables";

/** A file ready to download. */
export interface ExportedFile {
  /** A document's original is streamed from the file store; generated exports are whole. */
  body: Uint8Array | string | ReadableStream<Uint8Array>;
  contentType: string;
  fileName: string;
}

const documentTypes: Record<string, string> = {
  txt: "text/plain; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

/** The extension of a stored location's last segment (`kf_1.pdf` → `pdf`), or "" without one. */
function extensionOf(location: string): string {
  const name = lastSegment(location);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1) : "";
}

function nothingToExport(): never {
  throw new ServiceError("conflict", "file_not_exportable");
}

async function readOriginal(deps: Pick<Deps, "files">, file: KnowledgeFileRow): Promise<Uint8Array> {
  if (!file.storagePath) nothingToExport();
  return (await deps.files.read(originalKey(file))) ?? nothingToExport();
}

/**
 * A pair as it reads now: a segment edited by hand keeps its "Q: … / A: …" shape, so the text
 * wins over the metadata it was imported with.
 */
function currentPair(content: string, metadata: Record<string, unknown>): QaPair | undefined {
  const imported = qaPairOf(metadata);
  const shown = /^Q: ([\s\S]*?)\nA: ([\s\S]*)$/.exec(content);
  if (!shown) return imported;
  return { searchMethod: "question_answer", ...imported, question: shown[1]!.trim(), answer: shown[2]!.trim() };
}

async function currentPairs(deps: Pick<Deps, "db" | "files">, file: KnowledgeFileRow): Promise<QaPair[]> {
  const chunks = file.status === "pending" ? [] : await chunksOfFileRows(deps, file.id);
  const sources = chunks.length > 0 ? chunks.map((chunk) => ({ content: chunk.content, metadata: metadataOf(chunk) })) : await pendingRecords(deps, file);
  return sources.flatMap((source) => {
    const pair = currentPair(source.content, source.metadata ?? {});
    return pair ? [pair] : [];
  });
}

/**
 * A file's export: a document's original bytes; a Q&A file's current pairs as a UTF-8 CSV in the
 * template's layout (titles in the request's language); a table's current rows as CSV; a web
 * page's extracted text as Markdown. A file with nothing kept (a failed fetch) is a 409.
 */
export async function exportFile(deps: Pick<Deps, "db" | "files">, auth: Auth, fileId: string, language: Language): Promise<ExportedFile> {
  const file = await loadFile(deps, auth, fileId);
  switch (file.type) {
    case "document": {
      const options = optionsOf(file);
      const extension = typeof options.extension === "string" ? options.extension : extensionOf(file.storagePath ?? "") || "txt";
      if (!file.storagePath) nothingToExport();
      return {
        body: (await deps.files.get(originalKey(file))) ?? nothingToExport(),
        contentType: documentTypes[extension] ?? "application/octet-stream",
        fileName: `${file.name}.${extension}`,
      };
    }
    case "qa": {
      const pairs = await currentPairs(deps, file);
      if (pairs.length === 0 && file.status === "failed") nothingToExport();
      return { body: qaCsvOf(pairs, language), contentType: "text/csv; charset=utf-8", fileName: `${file.name}.csv` };
    }
    case "table": {
      const options = tableOptionsOf(file);
      if (options.fields.length === 0) nothingToExport();
      return { body: tableCsvOf(options.fields, await currentTableRows(deps, file)), contentType: "text/csv; charset=utf-8", fileName: `${file.name}.csv` };
    }
    case "website": {
      const prepared = await loadPrepared(deps, file.knowledgeBaseId, file.id);
      const markdown = prepared?.kind === "text" ? prepared.text : new TextDecoder().decode(await readOriginal(deps, file));
      return { body: markdown, contentType: "text/markdown; charset=utf-8", fileName: `${file.name}.md` };
    }
  }
}
