/**
 * Stored files as the services see them: objects under keys, never paths. The disk store keeps
 * them in a folder; an object store (S3-compatible) can stand behind the same port, because
 * nothing here assumes a file system: no directories, no renames, no partial writes.
 */

/** What is known of a stored object without reading it. */
export interface FileStat {
  key: string;
  sizeBytes: number;
  modifiedAt: Date;
}

/**
 * A store of objects under `/`-separated keys (`knowledge/kb_1/kf_2.pdf`). Keys are relative,
 * with no empty, `.` or `..` segment and no backslash; a bad key is refused, never resolved.
 */
export interface FileStore {
  /** Stores the bytes under the key, replacing any object there; readers never see half of it. */
  put(key: string, data: Uint8Array | string): Promise<void>;
  /** The object's bytes as a stream, or undefined when there is none. */
  get(key: string): Promise<ReadableStream<Uint8Array> | undefined>;
  /** The whole object, or undefined when there is none (small objects: JSON, originals to export). */
  read(key: string): Promise<Uint8Array | undefined>;
  stat(key: string): Promise<FileStat | undefined>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** Keys starting with `prefix`, sorted. */
  list(prefix: string): Promise<string[]>;
  /** Removes every object whose key starts with `prefix`; answers how many. */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * Where the object lives, for records and operators (a file path, an object URL). Nothing
   * opens it: readers go through {@link FileStore.get} with the key.
   */
  locate(key: string): string;
}

/** Thrown for a key that is not a plain relative key. */
export class FileKeyError extends Error {
  override name = "FileKeyError";
}

/** The key's segments when it is a valid key (or, with `prefix`, a valid prefix ending in `/` or empty). */
export function keySegments(key: string, options: { prefix?: boolean } = {}): string[] {
  if (options.prefix && key === "") return [];
  const body = options.prefix && key.endsWith("/") ? key.slice(0, -1) : key;
  const segments = body.split("/");
  const valid =
    body.length > 0 &&
    body.length <= 1024 &&
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a key may not hold
    segments.every((segment) => segment !== "" && segment !== "." && segment !== ".." && !/[\\\u0000-\u001f]/.test(segment));
  if (!valid) throw new FileKeyError(`not a file key: ${JSON.stringify(key)}`);
  return segments;
}

/** Joins key segments (ids, names already checked by their owners) into a key. */
export function fileKey(...segments: string[]): string {
  const key = segments.join("/");
  keySegments(key);
  return key;
}

/** The last segment of a key or of a stored location (`/data/knowledge/kb/x.pdf` → `x.pdf`). */
export function lastSegment(location: string): string {
  return location.split(/[\\/]/).pop() ?? "";
}
