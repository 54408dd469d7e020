import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config";
import { BackupError, backupDataDir, type DataLocation, restoreDataDir } from "./backup";

const usage = {
  backup: "Usage: npm run backup -- --to <empty folder>   (the data directory and database come from PARLEY_DATA_DIR / PARLEY_DATABASE_URL)",
  restore: "Usage: npm run restore -- --from <backup folder>   (into the empty data directory named by PARLEY_DATA_DIR)",
};

/**
 * `parley backup --to DIR` and `parley restore --from DIR` (`npm run backup` / `npm run restore`):
 * prints what it did, or one clear line naming what is wrong; answers the exit code.
 */
export async function runBackupCommand(command: "backup" | "restore", args: string[]): Promise<number> {
  const fail = (message: string) => {
    process.stderr.write(`${message}\n`);
    return 1;
  };
  let folder: string | undefined;
  try {
    const { values } = parseArgs({ args, options: { to: { type: "string" }, from: { type: "string" } }, strict: true });
    folder = command === "backup" ? values.to : values.from;
  } catch (error) {
    return fail(`${(error as Error).message}\n${usage[command]}`);
  }
  if (!folder) return fail(usage[command]);
  let location: DataLocation;
  let notes: string[];
  try {
    const config = loadConfig();
    const url = config.database.url;
    if (config.database.driver === "libsql" && !url.startsWith("file:")) {
      return fail(
        `The database is a libsql server (${url.replace(/\/\/[^@/]*@/, "//")}): back it up with the server's own tools; this command copies SQLite files only`,
      );
    }
    location = { dataDir: config.dataDir, databaseFile: url.slice("file:".length), secretKeyConfigured: Boolean(config.channels.secretKey) };
    notes = [
      ...(config.s3 ? [`Stored files are in the bucket ${config.s3.bucket}, not in this copy: back the bucket up as docs/deploy.md says`] : []),
      ...(config.redis ? ["Redis holds queued jobs and limit counters, not in this copy: see docs/deploy.md"] : []),
    ];
  } catch (error) {
    if (error instanceof ConfigError) return fail(error.message);
    throw error;
  }
  try {
    if (command === "backup") {
      const manifest = await backupDataDir(location, folder);
      process.stdout.write(
        `Backed up ${manifest.files} files (${(manifest.bytes / 1024 / 1024).toFixed(1)} MB, ${manifest.databases.length} SQLite databases) from ${manifest.dataDir} to ${folder}\n`,
      );
      if (manifest.secretKey === "environment") notes.push("The secret key is PARLEY_SECRET_KEY: keep it with this backup, or sealed secrets cannot be opened");
      if (manifest.secretKey === "missing") notes.push("No secret.key in the data directory: nothing was sealed yet");
    } else {
      const manifest = await restoreDataDir(location, folder);
      process.stdout.write(`Restored ${manifest.files} files from the backup of ${manifest.createdAt} into ${location.dataDir}\n`);
      if (manifest.secretKey === "environment") notes.push("The backup was taken with PARLEY_SECRET_KEY: start with the same value");
    }
  } catch (error) {
    if (error instanceof BackupError) return fail(error.message);
    return fail(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  for (const note of notes) process.stdout.write(`Note: ${note}\n`);
  return 0;
}
