import fs from "node:fs";
import path from "node:path";

/** Which of our packages each package may depend on (architecture.md). */
export const allowedEdges: Record<string, string[]> = {
  "@parley/api": ["@parley/channels"],
  "@parley/sdk": [],
  "@parley/channels": [],
  "@parley/widget": ["@parley/sdk"],
  "@parley/console": ["@parley/sdk"],
};

/** One forbidden dependency found in a manifest or a source file. */
export interface Violation {
  from: string;
  to: string;
  where: string;
}

const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** Lists the module specifiers a source text imports. */
export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3] ?? match[4];
    if (specifier) found.push(specifier);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name === "storybook-static") continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (/\.(m?[jt]sx?)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

/** A test file (`*.test.ts`, `*.test.tsx`): it ships in no package. */
const isTestFile = (file: string) => /\.test\.[mc]?[jt]sx?$/.test(file);

/**
 * Checks every package's manifest and every import in its files: a dependency on one of our
 * packages outside {@link allowedEdges}, or a relative import reaching into another package,
 * is a violation.
 */
export function findViolations(packagesDir: string): Violation[] {
  const violations: Violation[] = [];
  const fixturesDir = path.resolve(packagesDir, "../tests/fixtures");
  const packages = fs
    .readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(packagesDir, entry.name, "package.json")));
  // Public entries: the package name and the subpaths its manifest exports (e.g. `@parley/channels/testing`).
  const publicEntries = new Set<string>();
  for (const entry of packages) {
    const manifest = JSON.parse(fs.readFileSync(path.join(packagesDir, entry.name, "package.json"), "utf8")) as { name: string; exports?: unknown };
    publicEntries.add(manifest.name);
    if (manifest.exports && typeof manifest.exports === "object") {
      for (const key of Object.keys(manifest.exports)) if (key.startsWith("./") && key !== "./") publicEntries.add(`${manifest.name}/${key.slice(2)}`);
    }
  }
  for (const entry of packages) {
    const dir = path.join(packagesDir, entry.name);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Record<string, Record<string, string> | string>;
    const name = manifest.name as string;
    const allowed = new Set(allowedEdges[name] ?? []);
    for (const field of ["dependencies", "devDependencies", "peerDependencies", "optionalDependencies"]) {
      for (const dependency of Object.keys((manifest[field] as Record<string, string> | undefined) ?? {})) {
        if (dependency.startsWith("@parley/") && !allowed.has(dependency)) violations.push({ from: name, to: dependency, where: `package.json ${field}` });
      }
    }
    for (const file of sourceFiles(dir)) {
      for (const specifier of importsOf(fs.readFileSync(file, "utf8"))) {
        const where = path.relative(packagesDir, file);
        if (specifier.startsWith("@parley/")) {
          const target = specifier.split("/").slice(0, 2).join("/");
          if (target !== name && !allowed.has(target)) violations.push({ from: name, to: specifier, where });
          // Only a package's public entries may be imported, never its internals.
          else if (target !== name && !publicEntries.has(specifier)) violations.push({ from: name, to: specifier, where });
        } else if (specifier.startsWith(".")) {
          const resolved = path.resolve(path.dirname(file), specifier);
          // Tests may read the repository's shared fixtures (the §5 reply rules both renderers
          // are held to); shipped code may not reach outside its package.
          const sharedFixture = isTestFile(file) && resolved.startsWith(fixturesDir + path.sep);
          if (!resolved.startsWith(dir + path.sep) && resolved !== dir && !sharedFixture)
            violations.push({ from: name, to: path.relative(packagesDir, resolved), where });
        }
      }
    }
  }
  return violations;
}
