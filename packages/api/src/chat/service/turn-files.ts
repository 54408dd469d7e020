import type { ChatFileRow } from "../files/service";
import { chatFileBytes } from "../files/service";
import type { Deps } from "../../kernel";
import type { RetrievedChunk } from "../../knowledge/retrieval/search";
import { estimateTokens } from "../../platform/llm/tokens";
import type { ImagePart } from "../../platform/llm/types";
import type { MessageCitation } from "../../conversation/store";
import { messageText, renderMessage } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";
import { cutToTokens, type KnowledgeSource } from "./knowledge";

/** Characters of a file a citation shows. */
const CITATION_EXCERPT = 300;

/** The images of a turn's files, as the model port takes them (bytes, sent inline). */
export async function imagePartsOf(deps: Pick<Deps, "files">, files: readonly ChatFileRow[]): Promise<ImagePart[]> {
  const images = files.filter((file) => file.kind === "image");
  return Promise.all(images.map(async (file) => ({ type: "image" as const, mediaType: file.mimeType, data: await chatFileBytes(deps, file) })));
}

/** A document of the turn as one reference: numbered first, read whole, cut (with a notice) where the window ends. */
export interface FileSource extends KnowledgeSource {
  file: ChatFileRow;
  /** Part of the text left out to fit the window (0 when it was read whole). */
  cutShare: number;
}

/**
 * The turn's documents as references [1]…[n], in the order attached, sharing `budgetTokens`:
 * each takes what it needs while room is left; a document that does not fit is cut and ends with
 * a notice (in the reader's language) saying how much of it the model read.
 */
export function fileSources(files: readonly ChatFileRow[], budgetTokens: number, language: Language): FileSource[] {
  const documents = files.filter((file) => file.kind === "document" && file.textContent);
  const sources: FileSource[] = [];
  let left = Math.max(0, budgetTokens);
  for (const file of documents) {
    const text = file.textContent ?? "";
    const tokens = estimateTokens(text);
    let content = text;
    let cutShare = 0;
    if (tokens > left) {
      const kept = cutToTokens(text, Math.max(0, left - 40)).replace(/…$/, "");
      const percent = Math.max(0, Math.floor((kept.length / Math.max(1, text.length)) * 100));
      cutShare = 1 - kept.length / Math.max(1, text.length);
      content = `${kept}\n${renderMessage(language, "chat_file_truncated_notice", { percent })}`;
    }
    left = Math.max(0, left - Math.min(tokens, left));
    const chunk: RetrievedChunk = {
      chunkId: file.id,
      knowledgeBaseId: "",
      fileId: file.id,
      fileName: file.name,
      content,
      metadata: { chatFile: true },
      score: 1,
    };
    sources.push({ index: sources.length + 1, chunk, content, file, cutShare });
  }
  return sources;
}

/** Citations of the turn's documents: the person's own files are always cited, whatever the app's citation setting. */
export function fileCitations(sources: readonly FileSource[]): MessageCitation[] {
  return sources.map((source) => {
    const flat = (source.file.textContent ?? "").trim().replace(/\s+/g, " ");
    return {
      index: source.index,
      source: source.file.name,
      content: flat.length > CITATION_EXCERPT ? `${flat.slice(0, CITATION_EXCERPT).trimEnd()}…` : flat,
    };
  });
}

/** The instruction that tells the model the person attached files (before the reference block). */
export function filesInstruction(language: Language): string {
  return messageText(language, "chat_files_reference_instructions");
}
