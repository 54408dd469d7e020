/**
 * Built-in databases at scale, through the real service path:
 *
 *   npm run bench:database [-- --rows 1000000 --samples 300 --keep]
 *
 * makes a built-in database and table (text, text, decimal, integer, datetime fields) in a fresh
 * data directory made by the real migrations, builds a CSV of N rows in memory and imports it with
 * the fast import (`fastImportRows`: streamed CSV parse, values checked per field type, batched
 * prepared inserts in one transaction on the database's own file), then times the paged preview
 * (`listRows`, as GET /api/v1/database-tables/{id}/rows calls it: the table loaded from Parley's
 * tables, then one keyset page of 20 rows) at random pages, a third unfiltered, a third with an
 * equality filter on a text field, a third with a range filter on an integer field.
 *
 * prints import_rows_per_s, import_s, preview_p50_ms, preview_p95_ms, preview_cpu_p95_ms, then the
 * statement checker's sql_check_* figures (bench/database-check.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../packages/api/src/config";
import { createDatabase } from "../packages/api/src/databases/service/databases";
import { fastImportRows } from "../packages/api/src/databases/service/files";
import { listRows, type RowFilter } from "../packages/api/src/databases/service/rows";
import { createBuiltinTable } from "../packages/api/src/databases/service/tables";
import { openDatabase } from "../packages/api/src/db/client";
import { createMemoryThrottle } from "../packages/api/src/http/throttle";
import { createUser } from "../packages/api/src/identity/service/accounts";
import { setSpaceCapabilities } from "../packages/api/src/instance/service/instance";
import type { Auth, Deps } from "../packages/api/src/kernel";
import { createLogger } from "../packages/api/src/logger";
import { measureStatementChecks } from "./database-check";
import { createProviders } from "../packages/api/src/platform/providers";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    samples: { type: "string", default: "300" },
    keep: { type: "boolean", default: false },
  },
});
const ROWS = Number(values.rows);
const SAMPLES = Number(values.samples);
const CATEGORIES = ["tea", "coffee", "juice", "water", "milk", "soda", "beer", "wine"];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "parley-bench-database-"));
const config = loadConfig({ PARLEY_DATA_DIR: dataDir, PARLEY_DATABASE_DRIVER: "better-sqlite3", PARLEY_LOG_LEVEL: "silent" });
const database = await openDatabase(config.database);
const logger = createLogger("silent");
const deps: Deps = {
  config,
  db: database.db,
  logger,
  ...createProviders(config, database.db, logger),
  throttle: createMemoryThrottle(),
  now: () => new Date(),
};

const owner = await createUser(deps, { name: "bench", email: "bench-database@example.com" });
// Enterprise grade: room for the rows (the databaseRows quota; Team holds 500,000).
await setSpaceCapabilities(deps, owner.personalSpaceId, { memberGrade: "ENTERPRISE" });
const auth: Auth = { userId: owner.id, spaceId: owner.personalSpaceId, role: "owner", via: "session" };
const created = await createDatabase(deps, auth, { type: "builtin", name: "Bench" });
const table = await createBuiltinTable(deps, auth, created.id, {
  name: "products",
  fields: [
    { name: "name", type: "text" },
    { name: "category", type: "text" },
    { name: "price", type: "decimal" },
    { name: "stock", type: "integer" },
    { name: "added", type: "datetime" },
  ],
});

const lines = ["name,category,price,stock,added"];
for (let index = 0; index < ROWS; index += 1) {
  const day = String(1 + (index % 28)).padStart(2, "0");
  lines.push(
    `Product ${index},${CATEGORIES[index % CATEGORIES.length]},${(index % 10_000) / 100},${index % 1000},2024-05-${day} 10:${String(index % 60).padStart(2, "0")}:00`,
  );
}
const bytes = new TextEncoder().encode(lines.join("\n"));
lines.length = 0;
const mapping = { name: "name", category: "category", price: "price", stock: "stock", added: "added" };

const started = performance.now();
const result = await fastImportRows(deps, auth, table.id, { fileName: "products.csv", bytes }, mapping);
const importSeconds = (performance.now() - started) / 1000;
if (result.importedRows !== ROWS) throw new Error(`imported ${result.importedRows} of ${ROWS}`);

const timings: number[] = [];
const cpuTimings: number[] = [];
for (let sample = 0; sample < SAMPLES + 20; sample += 1) {
  const after = Math.floor(Math.random() * ROWS * 0.98);
  const kind = sample % 3;
  const filters: RowFilter[] =
    kind === 0
      ? []
      : kind === 1
        ? [{ field: "category", op: "eq", value: CATEGORIES[sample % CATEGORIES.length]! }]
        : [{ field: "stock", op: "gte", value: 500 }];
  const begin = performance.now();
  const cpu = process.cpuUsage();
  const page = await listRows(deps, auth, table.id, { limit: 20, after, filters });
  const elapsed = performance.now() - begin;
  const used = process.cpuUsage(cpu);
  if (page.items.length !== 20) throw new Error(`a page of ${page.items.length} rows`);
  // The first 20 are warm-up (statement cache, page cache).
  if (sample >= 20) {
    timings.push(elapsed);
    cpuTimings.push((used.user + used.system) / 1000);
  }
}
timings.sort((a, b) => a - b);
cpuTimings.sort((a, b) => a - b);
const at = (q: number, list = timings) => list[Math.min(list.length - 1, Math.floor(q * list.length))]!;

console.log(`rows=${ROWS}`);
console.log(`import_s=${importSeconds.toFixed(2)}`);
console.log(`import_rows_per_s=${Math.round(ROWS / importSeconds)}`);
console.log(`preview_p50_ms=${at(0.5).toFixed(2)}`);
console.log(`preview_p95_ms=${at(0.95).toFixed(2)}`);
// CPU time of the process per preview: steadier than wall time when other jobs share the cores.
console.log(`preview_cpu_p95_ms=${at(0.95, cpuTimings).toFixed(2)}`);
// The statement checker every free statement (chat tool, workflow node) passes through.
for (const [name, value] of Object.entries(measureStatementChecks())) console.log(`${name}=${Number.isInteger(value) ? value : value.toFixed(3)}`);

await database.close();
if (values.keep) console.log(`data_dir=${dataDir}`);
else fs.rmSync(dataDir, { recursive: true, force: true });
