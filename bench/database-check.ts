/**
 * Cost of the statement checker (`packages/api/src/databases/sql/check.ts`): every legitimate
 * and adversarial statement of `cases.ts`, for each dialect, checked again and again after a
 * warm-up (each dialect's grammar loaded first), one call timed at a time.
 *
 *   npx tsx bench/database-check.ts [-- --iterations 20]
 *
 * Prints sql_check_p50_ms, sql_check_p95_ms, sql_check_p99_ms (wall time per call), p95 per
 * dialect, sql_check_cpu_mean_ms (the process's CPU over all timed checks, divided by their
 * number: steadier than wall time on a shared machine) and the number of checks. `measureStatementChecks` is exported for bench:database.
 */
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ADVERSARIAL_CASES, CASE_MAX_ROWS, CASE_TABLES, LEGIT_CASES } from "../packages/api/src/databases/sql/cases";
import { checkStatement, type SqlDialect } from "../packages/api/src/databases/sql/check";

const DIALECTS: SqlDialect[] = ["sqlite", "mysql", "postgresql"];
const ALL = { query: true, add: true, edit: true, delete: true };

/** Figures of the statement checker, in milliseconds per check. */
export type CheckFigures = Record<string, number>;

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0;
}

/** Times `checkStatement` over the case sets, `iterations` times each, and returns p50/p95/p99. */
export function measureStatementChecks(iterations = 20): CheckFigures {
  const all: number[] = [];
  const figures: CheckFigures = {};
  let cpuMicros = 0;
  for (const dialect of DIALECTS) {
    const cases = [...LEGIT_CASES[dialect], ...ADVERSARIAL_CASES[dialect]];
    const check = (index: number) => {
      const testCase = cases[index % cases.length];
      if (!testCase) return;
      checkStatement({
        sql: testCase.sql,
        dialect,
        permissions: { ...ALL, ...testCase.permissions },
        tables: CASE_TABLES,
        maxRows: CASE_MAX_ROWS,
        allowUnfilteredWrites: testCase.allowUnfilteredWrites,
      });
    };
    for (let index = 0; index < cases.length * 3; index++) check(index);
    const timings: number[] = [];
    const cpuBefore = process.cpuUsage();
    for (let index = 0; index < cases.length * iterations; index++) {
      const start = performance.now();
      check(index);
      timings.push(performance.now() - start);
    }
    const cpu = process.cpuUsage(cpuBefore);
    cpuMicros += cpu.user + cpu.system;
    timings.sort((a, b) => a - b);
    figures[`sql_check_${dialect}_p95_ms`] = percentile(timings, 0.95);
    all.push(...timings);
  }
  all.sort((a, b) => a - b);
  return {
    sql_check_p50_ms: percentile(all, 0.5),
    sql_check_p95_ms: percentile(all, 0.95),
    sql_check_p99_ms: percentile(all, 0.99),
    ...figures,
    sql_check_cpu_mean_ms: cpuMicros / 1000 / all.length,
    sql_check_count: all.length,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { iterations: { type: "string", default: "20" } } });
  const figures = measureStatementChecks(Number(values.iterations));
  for (const [name, value] of Object.entries(figures)) console.log(`${name}=${Number.isInteger(value) ? value : value.toFixed(3)}`);
}
