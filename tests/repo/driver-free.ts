import fs from "node:fs";
import path from "node:path";

/** What a test or one of the local modules it imports says when it opens the relational store. */
const OPENS_DATABASE = /\b(createTestContext|openDatabase|testDriver|PARLEY_TEST_DB_DRIVER|PARLEY_DATABASE_DRIVER)\b/;

function localImports(file: string, source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/from\s+["'](\.{1,2}\/[^"']+)["']/g)) {
    const base = path.resolve(path.dirname(file), match[1]!.replace(/\.js$/, ""));
    const resolved = [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((candidate) => fs.existsSync(candidate));
    if (resolved) found.push(resolved);
  }
  return found;
}

/**
 * Why a test file counts as opening a database: the first module (the file itself or a test
 * helper it imports, followed through helpers named `testing`, `fakes` or `*-testing`/`suite`)
 * that mentions one of the harness's database entry points; undefined when none does.
 */
export function databaseUse(file: string): string | undefined {
  const seen = new Set<string>();
  const visit = (current: string): string | undefined => {
    if (seen.has(current)) return undefined;
    seen.add(current);
    const source = fs.readFileSync(current, "utf8");
    const match = OPENS_DATABASE.exec(source);
    if (match) return `${current} mentions ${match[1]}`;
    for (const imported of localImports(current, source)) {
      const folders = path.dirname(imported).split(path.sep).slice(-2);
      const helper = /testing|suite|\.test\.ts$/.test(path.basename(imported)) || folders.some((folder) => folder === "testing" || folder === "fakes");
      if (!helper) continue;
      const reason = visit(imported);
      if (reason) return reason;
    }
    return undefined;
  };
  return visit(file);
}
