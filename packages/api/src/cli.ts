#!/usr/bin/env node
import { main } from "./server";

main().catch((error: unknown) => {
  process.stderr.write(`Parley failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
