import { ServiceError } from "../errors";
import { PORTABLE_VERSION } from "./format";

type Plain = Record<string, unknown>;

const isObject = (value: unknown): value is Plain => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Version 0 was the draft format: one flat `objects` list, each with its `kind`, and a plugin's
 * request fields (`url`, `method`, `headers`, `requestParams`, `responseParams`) at its top level.
 * Version 1 groups objects by kind under `apps`, `workflows`, `plugins` and `knowledgeBases`, and
 * moves a plugin's request under `http` so that other plugin kinds can sit beside it.
 */
function fromVersion0(document: Plain): Plain {
  const objects = Array.isArray(document.objects) ? document.objects : [];
  const lists: Record<string, unknown[]> = { apps: [], workflows: [], plugins: [], knowledgeBases: [] };
  const listOf: Record<string, string> = { app: "apps", workflow: "workflows", plugin: "plugins", knowledgeBase: "knowledgeBases" };
  for (const object of objects) {
    if (!isObject(object)) continue;
    const { kind, ...rest } = object;
    const list = listOf[String(kind)];
    if (!list) throw new ServiceError("validation", "portable_v0_kind_unknown", { kind: String(kind) }, { field: "objects" });
    if (kind === "plugin") {
      const { url, method, headers, requestParams, responseParams, ...card } = rest;
      lists[list]!.push({ ...card, kind: "http", http: { url, method, headers, requestParams, responseParams } });
    } else {
      lists[list]!.push(rest);
    }
  }
  const { objects: _objects, ...others } = document;
  return { ...others, parley: 1, kind: "bundle", ...lists };
}

/** `migrations[n]` turns a document of version n into one of version n + 1. */
export const migrations: Readonly<Record<number, (document: Plain) => Plain>> = {
  0: fromVersion0,
};

/**
 * Brings a parsed document to {@link PORTABLE_VERSION}: refuses one from a newer Parley (naming
 * both versions) and one that is not a portable file; runs each migration in turn on an older one.
 * Answers the document and the version it was written in.
 */
export function migrateDocument(parsed: unknown, current = PORTABLE_VERSION): { document: Plain; fromVersion: number } {
  if (!isObject(parsed) || !("parley" in parsed)) throw new ServiceError("validation", "portable_not_a_file", {}, { field: "parley" });
  const version = parsed.parley;
  if (typeof version !== "number" || !Number.isInteger(version) || version < 0) {
    throw new ServiceError("validation", "portable_version_invalid", { version: String(version) }, { field: "parley" });
  }
  if (version > current) throw new ServiceError("validation", "portable_version_newer", { version, supported: current }, { field: "parley" });
  let document: Plain = parsed;
  for (let at = version; at < current; at++) {
    const step = migrations[at];
    if (!step) throw new ServiceError("validation", "portable_version_invalid", { version: String(version) }, { field: "parley" });
    document = { ...step(document), parley: at + 1 };
  }
  return { document, fromVersion: version };
}
