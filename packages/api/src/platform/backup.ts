import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";

/** The file a backup folder is recognised by, written last (a folder without it is incomplete). */
export const BACKUP_MANIFEST = "parley-backup.json";

/** Name of the main database inside a backup when it lives outside the data directory. */
const MAIN_DATABASE = "parley.db";

/** What a backup holds, written to {@link BACKUP_MANIFEST}. */
export interface BackupManifest {
  format: 1;
  createdAt: string;
  /** The data directory it was taken from (for the operator's information only). */
  dataDir: string;
  /** SQLite databases copied consistently (`VACUUM INTO`), relative to the backup folder. */
  databases: string[];
  files: number;
  bytes: number;
  /** Where the instance key that seals stored secrets was: the `secret.key` file (copied) or PARLEY_SECRET_KEY (not copied). */
  secretKey: "file" | "environment" | "missing";
  /** The main database was outside the data directory and is stored as `parley.db` in the backup. */
  externalDatabase: boolean;
}

/** What a backup or restore should know about the instance. */
export interface DataLocation {
  dataDir: string;
  /** The main SQLite file (from PARLEY_DATABASE_URL or `<dataDir>/parley.db`); undefined for a libsql server. */
  databaseFile: string | undefined;
  /** PARLEY_SECRET_KEY is set: the key is not a file and must be kept by the operator. */
  secretKeyConfigured: boolean;
}

/** Thrown for a backup or restore the operator asked for wrongly (a non-empty target, no backup there). */
export class BackupError extends Error {
  override name = "BackupError";
}

const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");
/** Files a running SQLite or an interrupted write leaves beside the real ones: never copied. */
const TRANSIENT = /(-wal|-shm|-journal|\.\d+\.tmp)$/;

/** A live SQLite database by name and header (an uploaded file is copied byte for byte). */
async function isSqlite(file: string): Promise<boolean> {
  const handle = await fsp.open(file, "r");
  try {
    const header = Buffer.alloc(16);
    const { bytesRead } = await handle.read(header, 0, 16, 0);
    return bytesRead === 16 && header.equals(SQLITE_HEADER);
  } finally {
    await handle.close();
  }
}

/**
 * A consistent copy of a live SQLite database: `VACUUM INTO` reads one snapshot (WAL readers do
 * not block the writers of running processes) and writes a compact file without a WAL.
 */
function copySqlite(source: string, target: string): void {
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 10000");
    db.prepare("VACUUM INTO ?").run(target);
  } finally {
    db.close();
  }
}

function empty(directory: string): boolean {
  return !fs.existsSync(directory) || fs.readdirSync(directory).length === 0;
}

/**
 * Entries of a folder in copy order: LanceDB's version manifests (`_versions`, `*.manifest`)
 * before the data they point to, so every version copied finds its data files copied after it
 * (files a later write adds are copied too and do no harm; compaction removes only superseded ones).
 */
function copyOrder(entries: fs.Dirent[]): fs.Dirent[] {
  const first = (entry: fs.Dirent) => entry.name === "_versions" || entry.name.endsWith(".manifest");
  return [...entries.filter(first), ...entries.filter((entry) => !first(entry))];
}

/**
 * Copies a running instance's data directory to `to` (which must be empty or absent): every
 * SQLite database (the main one, the built-in user databases) through `VACUUM INTO`, the LanceDB
 * vectors manifests first, the stored files and the `secret.key` that unseals stored secrets.
 * The main database is copied first, the vectors after it: a restore may hold vectors of a file
 * indexed during the backup that the database does not list yet (re-indexing drops them), never
 * the reverse.
 */
export async function backupDataDir(location: DataLocation, to: string): Promise<BackupManifest> {
  const source = path.resolve(location.dataDir);
  const target = path.resolve(to);
  if (!fs.existsSync(source)) throw new BackupError(`The data directory ${source} does not exist`);
  if (!empty(target)) throw new BackupError(`The backup folder ${target} is not empty: name a new folder`);
  if (target === source || target.startsWith(`${source}${path.sep}`)) throw new BackupError("The backup folder cannot be inside the data directory");
  await fsp.mkdir(target, { recursive: true });
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    dataDir: source,
    databases: [],
    files: 0,
    bytes: 0,
    secretKey: location.secretKeyConfigured ? "environment" : fs.existsSync(path.join(source, "secret.key")) ? "file" : "missing",
    externalDatabase: false,
  };
  const count = async (file: string, relative: string, database: boolean) => {
    manifest.files += 1;
    manifest.bytes += (await fsp.stat(file)).size;
    if (database) manifest.databases.push(relative);
  };
  const mainFile = location.databaseFile ? path.resolve(location.databaseFile) : undefined;
  if (mainFile) {
    const inside = mainFile.startsWith(`${source}${path.sep}`);
    const relative = inside ? path.relative(source, mainFile) : MAIN_DATABASE;
    manifest.externalDatabase = !inside;
    const destination = path.join(target, relative);
    await fsp.mkdir(path.dirname(destination), { recursive: true });
    copySqlite(mainFile, destination);
    await count(destination, relative.split(path.sep).join("/"), true);
  }

  const walk = async (directory: string, relative: string): Promise<void> => {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(directory, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    await fsp.mkdir(path.join(target, relative), { recursive: true });
    for (const entry of copyOrder(entries)) {
      const from = path.join(directory, entry.name);
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      const destination = path.join(target, name);
      if (entry.isDirectory()) {
        await walk(from, name);
        continue;
      }
      if (!entry.isFile() || TRANSIENT.test(entry.name) || from === mainFile) continue;
      try {
        if (/\.(db|sqlite3?)$/.test(entry.name) && (await isSqlite(from))) {
          copySqlite(from, destination);
          await count(destination, name, true);
        } else {
          await fsp.copyFile(from, destination);
          await count(destination, name, false);
        }
      } catch (error) {
        // Removed while the copy ran (a superseded LanceDB file, a deleted upload): not part of the copy.
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw error;
      }
    }
  };
  await walk(source, "");
  await fsp.writeFile(path.join(target, BACKUP_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Restores a backup into an empty (or absent) data directory, and the main database to its own
 * place when it lives outside the data directory. Refuses a folder that is not a complete backup
 * and a data directory that already holds anything, so it never overwrites an instance.
 */
export async function restoreDataDir(location: DataLocation, from: string): Promise<BackupManifest> {
  const source = path.resolve(from);
  const target = path.resolve(location.dataDir);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await fsp.readFile(path.join(source, BACKUP_MANIFEST), "utf8")) as BackupManifest;
  } catch {
    throw new BackupError(`${source} is not a complete Parley backup (${BACKUP_MANIFEST} is missing)`);
  }
  if (manifest.format !== 1) throw new BackupError(`Unknown backup format ${String(manifest.format)}`);
  if (!empty(target)) throw new BackupError(`The data directory ${target} is not empty: restore into an empty one (move the old one away first)`);
  const mainFile = location.databaseFile ? path.resolve(location.databaseFile) : undefined;
  if (manifest.externalDatabase) {
    if (!mainFile) throw new BackupError("The backup holds a SQLite database but PARLEY_DATABASE_URL names a libsql server");
    if (fs.existsSync(mainFile)) throw new BackupError(`The database ${mainFile} already exists: move it away first`);
  }
  await fsp.mkdir(target, { recursive: true });
  await fsp.cp(source, target, {
    recursive: true,
    filter: (file) => {
      const relative = path.relative(source, file);
      return relative !== BACKUP_MANIFEST && !(manifest.externalDatabase && relative === MAIN_DATABASE);
    },
  });
  if (manifest.externalDatabase && mainFile) {
    await fsp.mkdir(path.dirname(mainFile), { recursive: true });
    await fsp.copyFile(path.join(source, MAIN_DATABASE), mainFile);
  }
  // The instance key is readable by its owner only, as Parley creates it.
  if (fs.existsSync(path.join(target, "secret.key"))) await fsp.chmod(path.join(target, "secret.key"), 0o600);
  return manifest;
}
