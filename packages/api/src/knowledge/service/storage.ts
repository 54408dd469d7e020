import fs from "node:fs/promises";
import path from "node:path";
import type { Deps } from "../../http/context";

/** Where a knowledge base's uploaded originals and extracted texts are kept. */
export function knowledgeDirectory(deps: Pick<Deps, "config">, knowledgeBaseId: string): string {
  return path.join(deps.config.dataDir, "knowledge", knowledgeBaseId);
}

/** Writes a file atomically (temporary file, then rename) so a crash never leaves half of it. */
export async function writeAtomically(target: string, data: Uint8Array | string): Promise<void> {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  await fs.writeFile(temporary, data);
  await fs.rename(temporary, target);
}
