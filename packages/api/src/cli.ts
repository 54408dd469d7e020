#!/usr/bin/env node
import { runBackupCommand } from "./platform/backup-command";
import { main } from "./server";

const [command, ...rest] = process.argv.slice(2);
if (command === "backup" || command === "restore") {
  process.exit(await runBackupCommand(command, rest));
}
main().catch((error: unknown) => {
  process.stderr.write(`Parley failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
