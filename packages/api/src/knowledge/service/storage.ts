import type { Deps } from "../../kernel/deps";
import { fileKey, lastSegment } from "../../kernel/files/port";

/**
 * Keys of a knowledge base's stored objects in the file store: uploaded originals and prepared
 * contents at `knowledge/<kb>/<file>.<ext>`, media at `knowledge/<kb>/media/<id>.<ext>`.
 */
export const knowledgeKeys = {
  /** Everything a knowledge base stores: removed with it. */
  base: (knowledgeBaseId: string) => `${fileKey("knowledge", knowledgeBaseId)}/`,
  original: (knowledgeBaseId: string, fileId: string, extension: string) => fileKey("knowledge", knowledgeBaseId, `${fileId}.${extension}`),
  prepared: (knowledgeBaseId: string, fileId: string) => fileKey("knowledge", knowledgeBaseId, `${fileId}.prepared.json`),
  media: (knowledgeBaseId: string, mediaId: string, extension: string) => fileKey("knowledge", knowledgeBaseId, "media", `${mediaId}.${extension}`),
};

/**
 * The key of an object recorded by its location (a row's `storagePath`): the owner's folder
 * and the location's last segment, so rows keep working whatever store or data folder holds them.
 */
export function keyOfStored(folder: string, location: string): string {
  return `${folder}${lastSegment(location)}`;
}

/** Stores an object and answers where it lives, for the row that records it. */
export async function storeObject(deps: Pick<Deps, "files">, key: string, data: Uint8Array | string): Promise<string> {
  await deps.files.put(key, data);
  return deps.files.locate(key);
}
