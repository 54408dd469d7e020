import fs from "node:fs";
import path from "node:path";

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
/** Locale files are named by their BCP 47 tag (`zh-CN.json`), which has its own casing. */
const LOCALE = /^[a-z]{2,3}(-[A-Z]{2})?$/;
/** Names that are conventions of their own. */
const CONVENTIONAL = new Set(["README.md"]);

/** Whether one file or folder name is kebab-case: `chat-manage`, `reply-box.tsx`, `index.test.ts`, `en.json`. */
export function isKebabName(name: string, kind: "file" | "folder"): boolean {
  if (kind === "folder") return KEBAB.test(name);
  if (CONVENTIONAL.has(name)) return true;
  const [stem, ...suffixes] = name.split(".");
  if (!stem || suffixes.length === 0) return false;
  return (KEBAB.test(stem) || LOCALE.test(stem)) && suffixes.every((suffix) => /^[a-z0-9]+$/.test(suffix));
}

/** Every file and folder under `packages/<name>/src` whose name is not kebab-case, as paths relative to `packagesDir`. */
export function nonKebabNames(packagesDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (!isKebabName(entry.name, entry.isDirectory() ? "folder" : "file")) found.push(path.relative(packagesDir, full));
      if (entry.isDirectory()) walk(full);
    }
  };
  for (const entry of fs.readdirSync(packagesDir, { withFileTypes: true })) {
    const src = path.join(packagesDir, entry.name, "src");
    if (entry.isDirectory() && fs.existsSync(src)) walk(src);
  }
  return found;
}
