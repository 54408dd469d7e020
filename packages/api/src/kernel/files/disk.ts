import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { type FileStat, type FileStore, keySegments } from "./port";

/** Temporary files a put leaves while it writes (`<name>.<pid>.tmp`); never listed. */
const TEMPORARY = /\.\d+\.tmp$/;

/**
 * A {@link FileStore} over a folder: the key `a/b/c.pdf` is the file `<root>/a/b/c.pdf`, the
 * layout Parley's data folders have always had. Writes go to a temporary file renamed into
 * place, so a crash never leaves half an object.
 */
export function createDiskFileStore(root: string): FileStore {
  const base = path.resolve(root);
  const pathOf = (key: string) => path.join(base, ...keySegments(key));
  const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR";

  async function statOf(key: string): Promise<FileStat | undefined> {
    try {
      const stats = await fsp.stat(pathOf(key));
      return stats.isFile() ? { key, sizeBytes: stats.size, modifiedAt: stats.mtime } : undefined;
    } catch (error) {
      if (missing(error)) return undefined;
      throw error;
    }
  }

  async function walk(directory: string, keyPrefix: string, into: string[]): Promise<void> {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(directory, { withFileTypes: true });
    } catch (error) {
      if (missing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) await walk(path.join(directory, entry.name), `${keyPrefix}${entry.name}/`, into);
      else if (entry.isFile() && !TEMPORARY.test(entry.name)) into.push(`${keyPrefix}${entry.name}`);
    }
  }

  const store: FileStore = {
    async put(key, data) {
      const target = pathOf(key);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${process.pid}.tmp`;
      await fsp.writeFile(temporary, data);
      await fsp.rename(temporary, target);
    },
    async get(key) {
      if (!(await statOf(key))) return undefined;
      return Readable.toWeb(fs.createReadStream(pathOf(key))) as ReadableStream<Uint8Array>;
    },
    async read(key) {
      try {
        return new Uint8Array(await fsp.readFile(pathOf(key)));
      } catch (error) {
        if (missing(error) || (error as NodeJS.ErrnoException).code === "EISDIR") return undefined;
        throw error;
      }
    },
    stat: statOf,
    async delete(key) {
      await fsp.rm(pathOf(key), { force: true });
    },
    async list(prefix) {
      const segments = keySegments(prefix, { prefix: true });
      // Only the folder the prefix names (or the one its last partial segment is in) is walked.
      const folderSegments = prefix.endsWith("/") || prefix === "" ? segments : segments.slice(0, -1);
      const folderKey = folderSegments.length > 0 ? `${folderSegments.join("/")}/` : "";
      const keys: string[] = [];
      await walk(path.join(base, ...folderSegments), folderKey, keys);
      return keys.filter((key) => key.startsWith(prefix)).sort();
    },
    async deletePrefix(prefix) {
      const keys = await store.list(prefix);
      for (const key of keys) await store.delete(key);
      // A whole folder goes with its emptied subfolders (and any temporary files left by a crash).
      if (prefix.endsWith("/")) await fsp.rm(path.join(base, ...keySegments(prefix, { prefix: true })), { recursive: true, force: true });
      return keys.length;
    },
    locate: pathOf,
  };
  return store;
}

/**
 * The first of `candidates` holding `marker` (a build found next to this package, from the
 * source tree or from the built server), else the first candidate.
 */
export function findBuildFolder(candidates: string[], marker: string): string {
  return candidates.find((candidate) => fs.existsSync(path.join(candidate, marker))) ?? candidates[0]!;
}
