/**
 * Throughput of the credit ledger on a real SQLite file with the real migrations: a mix of the
 * movements a busy instance makes on its spaces, run with some concurrency, as the server runs
 * them (one process, one connection).
 *
 *   npm run bench:ledger [-- --ops 20000 --concurrency 32 --spaces 4 --driver better-sqlite3|libsql]
 *
 * Each operation is one of: an append (a purchase-like grant, `appendLedger`), a hold
 * (`takeHold`, as before a chat turn's model call), or a settle of that hold (`settleHold`, as
 * after it). Check-ins and other once-only movements (`moveCredits` with `once`) are left out:
 * each user makes one a day, so they do not shape throughput. Prints
 * ledger_ops_per_s, then p50 and p99 in milliseconds per kind of operation, and checks that
 * every space's balance equals the sum of its entries and never went below zero.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { asc, eq } from "drizzle-orm";
import { settleHold, takeHold } from "../packages/api/src/billing/service/holds";
import { appendLedger, balanceOf } from "../packages/api/src/billing/service/ledger";
import { loadConfig } from "../packages/api/src/config";
import { openDatabase } from "../packages/api/src/db/client";
import { creditLedger } from "../packages/api/src/db/schema/index";
import type { Deps } from "../packages/api/src/http/context";
import { createMemoryThrottle } from "../packages/api/src/http/throttle";
import { createUser } from "../packages/api/src/identity/service/accounts";
import { createLogger } from "../packages/api/src/logger";
import { createProviders } from "../packages/api/src/platform/providers";

const { values } = parseArgs({
  options: {
    ops: { type: "string", default: "20000" },
    concurrency: { type: "string", default: "32" },
    spaces: { type: "string", default: "4" },
    driver: { type: "string", default: "better-sqlite3" },
  },
});
const totalOps = Number(values.ops);
const concurrency = Number(values.concurrency);
const spaceCount = Number(values.spaces);
const driver = values.driver === "libsql" ? "libsql" : "better-sqlite3";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-ledger-"));
const config = loadConfig({ PARLEY_DATA_DIR: dataDir, PARLEY_DATABASE_DRIVER: driver, PARLEY_LOG_LEVEL: "silent" });
const database = await openDatabase(config.database);
const { db } = database;
const logger = createLogger("silent");
const deps: Deps = { config, db, logger, ...createProviders(config, db, logger), throttle: createMemoryThrottle(), now: () => new Date() };

const spaceIds: string[] = [];
for (let index = 0; index < spaceCount; index++) {
  const user = await createUser(deps, { name: `bench${index}`, email: `bench${index}@example.com` });
  spaceIds.push(user.personalSpaceId);
  await balanceOf(deps, user.personalSpaceId);
}

type Kind = "append" | "hold" | "settle";
const timings: Record<Kind, number[]> = { append: [], hold: [], settle: [] };
let ops = 0;
let refused = 0;

async function timed<T>(kind: Kind, run: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await run();
  } finally {
    timings[kind].push(performance.now() - start);
    ops++;
  }
}

// One step of a worker: a grant (1 in 3) or a chat-like hold then settle (2 in 3, counted as two
// operations): a chat-heavy instance with purchases and plan credits coming in.
async function step(index: number) {
  const spaceId = spaceIds[index % spaceIds.length]!;
  if (index % 3 === 0) {
    await timed("append", () => appendLedger(deps, { spaceId, delta: 10, reason: "purchase", reference: `ord_${index}` }));
  } else {
    const hold = await timed("hold", () => takeHold(deps, { spaceId, amount: 20, minimum: 1, reference: "app_bench" })).catch(() => undefined);
    if (!hold) {
      refused++;
      return;
    }
    await timed("settle", () => settleHold(deps, hold, { credits: 4, reference: `msg_${index}` }));
  }
}

let next = 0;
// Grants outpace charges (10 per grant against 4 per settle, 2 settles per grant): no hold is refused for want of credits.
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < totalOps) await step(next++);
  }),
);
const seconds = (performance.now() - started) / 1000;

for (const spaceId of spaceIds) {
  const rows = await db.select().from(creditLedger).where(eq(creditLedger.spaceId, spaceId)).orderBy(asc(creditLedger.seq));
  let running = 0;
  for (const row of rows) {
    running += row.delta;
    if (row.balanceAfter !== running || row.balanceAfter < 0) throw new Error(`ledger of ${spaceId} is inconsistent at ${row.id}`);
  }
  if ((await balanceOf(deps, spaceId)) !== running) throw new Error(`balance of ${spaceId} differs from the sum of its entries`);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
console.log(`driver=${driver} ops=${ops} concurrency=${concurrency} spaces=${spaceCount} refused_holds=${refused}`);
console.log(`ledger_ops_per_s=${(ops / seconds).toFixed(0)}`);
for (const [kind, list] of Object.entries(timings)) {
  const sorted = [...list].sort((a, b) => a - b);
  console.log(`${kind}_p50_ms=${percentile(sorted, 50).toFixed(3)} ${kind}_p99_ms=${percentile(sorted, 99).toFixed(3)} ${kind}_count=${sorted.length}`);
}
console.log("ledger_consistent=true");
await database.close?.();
fs.rmSync(dataDir, { recursive: true, force: true });
