import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import chatManageEn from "../features/chat-manage/i18n/en.json";
import chatManageZhCN from "../features/chat-manage/i18n/zh-CN.json";
import clientsEn from "../features/clients/i18n/en.json";
import clientsZhCN from "../features/clients/i18n/zh-CN.json";
import knowledgeEn from "../features/knowledge/i18n/en.json";
import knowledgeZhCN from "../features/knowledge/i18n/zh-CN.json";
import paymentsEn from "../features/payments/i18n/en.json";
import paymentsZhCN from "../features/payments/i18n/zh-CN.json";
import workflowsEn from "../features/workflows/i18n/en.json";
import workflowsZhCN from "../features/workflows/i18n/zh-CN.json";
import en from "./en.json";
import zhCN from "./zh-CN.json";

type Tree = { [key: string]: string | Tree };

/** Every leaf of a locale file as a dotted key. */
function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const result = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") result.set(path, value);
    else for (const [inner, text] of flatten(value, path)) result.set(inner, text);
  }
  return result;
}

/** The {{placeholders}} a message uses, sorted. */
function placeholders(message: string): string[] {
  return [...message.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((match) => match[1] ?? "").sort();
}

const source = join(dirname(fileURLToPath(import.meta.url)), "..");

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.(test|stories)\.tsx?$/.test(name) ? [path] : [];
  });
}

// Feature locale files are merged under their own top-level key, as i18n/index.ts does.
const english = flatten({ ...en, knowledge: knowledgeEn, clients: clientsEn, chatManage: chatManageEn } as Tree);
const chinese = flatten({ ...zhCN, knowledge: knowledgeZhCN, clients: clientsZhCN, chatManage: chatManageZhCN } as Tree);
const namespaces = new Set([...Object.keys(en), "knowledge", "clients", "chatManage"]);
for (const [key, text] of flatten({ workflows: workflowsEn } as Tree)) english.set(key, text);
for (const [key, text] of flatten({ workflows: workflowsZhCN } as Tree)) chinese.set(key, text);
namespaces.add("workflows");
for (const [key, text] of flatten(paymentsEn as Tree)) english.set(key, text);
for (const [key, text] of flatten(paymentsZhCN as Tree)) chinese.set(key, text);
for (const namespace of Object.keys(paymentsEn)) namespaces.add(namespace);

/**
 * Keys the code refers to: arguments of t('…') and i18n.t('…'), `…Key: '…'` fields, and
 * any string literal that starts with one of the locale's namespaces ('menu.apps') but a grant
 * given to useGrant.
 */
function usedKeys(): Map<string, string> {
  const used = new Map<string, string>();
  const patterns = [
    /\bt\(\s*['"`]([^'"`$]+)['"`]/g,
    /\b(?:labelKey|titleKey|descriptionKey|i18nKey)\s*[:=]\s*\{?\s*['"]([^'"]+)['"]/g,
    /['"]([a-zA-Z]+(?:\.[\w-]+)+)['"]/g,
  ];
  for (const file of sourceFiles(source)) {
    const text = readFileSync(file, "utf8");
    patterns.forEach((pattern, index) => {
      for (const match of text.matchAll(pattern)) {
        const key = match[1] ?? "";
        // The last pattern is a heuristic: only literals in a known namespace count.
        if (index === patterns.length - 1 && !namespaces.has(key.split(".")[0] ?? "")) continue;
        // A grant ("database.edit") is not a message, though its resource may share a namespace's name.
        if (index === patterns.length - 1 && /useGrant\(\s*$/.test(text.slice(Math.max(0, (match.index ?? 0) - 20), match.index))) continue;
        used.set(key, file.slice(source.length + 1));
      }
    });
  }
  return used;
}

describe("locale files", () => {
  it("zh-CN has every key of en.json", () => {
    const missing = [...english.keys()].filter((key) => !chinese.has(key));
    expect(missing, `missing in zh-CN.json: ${missing.join(", ")}`).toEqual([]);
  });

  it("zh-CN has no key that en.json lacks", () => {
    const extra = [...chinese.keys()].filter((key) => !english.has(key));
    expect(extra, `extra in zh-CN.json: ${extra.join(", ")}`).toEqual([]);
  });

  it("both languages use the same placeholders in each message", () => {
    const different = [...english].filter(([key, text]) => chinese.has(key) && placeholders(text).join() !== placeholders(chinese.get(key) ?? "").join());
    expect(different.map(([key]) => key)).toEqual([]);
  });

  it("no message is empty", () => {
    const empty = [...english, ...chinese].filter(([, text]) => text.trim() === "").map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it("every key used in src/ exists in en.json", () => {
    const used = usedKeys();
    expect(used.size).toBeGreaterThan(50);
    const absent = [...used].filter(([key]) => !english.has(key)).map(([key, file]) => `${key} (${file})`);
    expect(absent, `keys used but absent from en.json: ${absent.join(", ")}`).toEqual([]);
  });
});
