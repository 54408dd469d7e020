import type { components } from "@parley/sdk";

type Schemas = components["schemas"];
/** A plugin parameter as the API carries it. */
export type ApiParameter = Schemas["PluginParameter"];
/** A custom plugin as the API answers it. */
export type Plugin = Schemas["Plugin"];
/** A built-in plugin as listed. */
export type BuiltinPlugin = Schemas["BuiltinPlugin"];
/** What parse answers and the form starts from. */
export type PluginDraft = Schemas["PluginDraft"];
/** The answer of a test run. */
export type DebugResult = Schemas["PluginDebugResult"];
/** An HTTP method a plugin may use. */
export type RequestMethod = PluginDraft["requestMethod"];

export const REQUEST_METHODS: readonly RequestMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];
/** The types the editor offers (the API also accepts the synonyms int and bool). */
export const PARAMETER_TYPES = ["string", "integer", "float", "boolean", "object", "array"] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];
export const PARAMETER_LOCATIONS = ["path", "query", "header", "body"] as const;
export type ParameterLocation = (typeof PARAMETER_LOCATIONS)[number];

/** One row of the parameter editor: the API's fields, with the default as typed and a stable key. */
export interface EditableParameter {
  key: string;
  name: string;
  type: ParameterType;
  description: string;
  required: boolean;
  /** The default as the person typed it; '' means none. */
  defaultText: string;
  /** Empty: the server decides (path when the URL names it, else query or body). */
  location: ParameterLocation | "";
  children: EditableParameter[];
}

let counter = 0;
/** A key unique within this page's life, for React rows. */
export function newKey(): string {
  counter += 1;
  return `p${counter}`;
}

/** An empty row. */
export function blankParameter(): EditableParameter {
  return { key: newKey(), name: "", type: "string", description: "", required: false, defaultText: "", location: "", children: [] };
}

/** Maps the API's type synonyms onto the editor's names. */
export function editorType(type: ApiParameter["type"]): ParameterType {
  if (type === "int") return "integer";
  if (type === "bool") return "boolean";
  return type;
}

/** Whether a type may hold sub-parameters. */
export const hasChildren = (type: ParameterType): boolean => type === "object" || type === "array";

function defaultToText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** The editor rows for parameters from the API. */
export function fromApi(parameters: readonly ApiParameter[] | undefined): EditableParameter[] {
  return (parameters ?? []).map((parameter) => ({
    key: newKey(),
    name: parameter.name,
    type: editorType(parameter.type),
    description: parameter.description ?? "",
    required: parameter.required ?? false,
    defaultText: defaultToText(parameter.default),
    location: parameter.location ?? "",
    children: fromApi(parameter.children),
  }));
}

/**
 * A typed default from its text: numbers and booleans in their type, objects and arrays as
 * JSON. Text that does not fit is sent as typed so the server names the field.
 */
export function parseDefault(type: ParameterType, text: string): unknown {
  const trimmed = text.trim();
  if (type === "string") return text;
  if (trimmed === "") return undefined;
  if (type === "integer" || type === "float") {
    const value = Number(trimmed);
    return Number.isFinite(value) ? value : trimmed;
  }
  if (type === "boolean") {
    if (trimmed === "true") return true;
    if (trimmed === "false") return false;
    return trimmed;
  }
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return trimmed;
  }
}

/** The API's parameters from the editor rows; every row is kept so error paths match row indices. */
export function toApi(rows: readonly EditableParameter[]): ApiParameter[] {
  return rows.map((row) => {
    const out: ApiParameter = { name: row.name.trim(), type: row.type, description: row.description.trim(), required: row.required };
    const value = row.type === "string" && row.defaultText === "" ? undefined : parseDefault(row.type, row.defaultText);
    if (value !== undefined) out.default = value;
    if (row.location) out.location = row.location;
    if (hasChildren(row.type) && row.children.length > 0) out.children = toApi(row.children);
    return out;
  });
}

/** Spec §5 Plugin: parameter names are English letters and underscore only. */
export const PARAMETER_NAME = /^[A-Za-z_]+$/;

/** Why a parameter's name is refused. */
export type NameProblem = "required" | "invalid" | "duplicate";

/** One client-side problem: the row it belongs to, the field and why. */
export interface ParameterProblem {
  /** The API path of the field, e.g. `requestParams.0.children.1.name`. */
  path: string;
  rowKey: string;
  problem: NameProblem;
  name: string;
}

/**
 * Every §5 naming problem in a parameter tree: a name that is empty, uses anything but
 * English letters and underscore, or repeats a sibling's name (each level on its own).
 */
export function findNameProblems(rows: readonly EditableParameter[], base: string): ParameterProblem[] {
  const problems: ParameterProblem[] = [];
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const at = `${base}.${index}`;
    const name = row.name.trim();
    if (!name) problems.push({ path: `${at}.name`, rowKey: row.key, problem: "required", name });
    else if (!PARAMETER_NAME.test(name)) problems.push({ path: `${at}.name`, rowKey: row.key, problem: "invalid", name });
    else if (seen.has(name)) problems.push({ path: `${at}.name`, rowKey: row.key, problem: "duplicate", name });
    if (name) seen.add(name);
    if (hasChildren(row.type)) problems.push(...findNameProblems(row.children, `${at}.children`));
  });
  return problems;
}

/** Where a server error lands in the editor: the row and which of its fields. */
export interface RowTarget {
  rowKey: string;
  /** The row's field named by the path (`name`, `default`, `type` …), or 'row' for the row itself. */
  field: string;
}

/**
 * Maps a server error field such as `requestParams.0.children.1.name` onto the editor row it
 * names. `base` is the tree's top key (`requestParams` or `responseParams`). Answers undefined
 * when the path is not about this tree or names a row that does not exist.
 */
export function rowForErrorPath(rows: readonly EditableParameter[], base: string, path: string): RowTarget | undefined {
  const parts = path.split(".");
  if (parts[0] !== base) return undefined;
  let level: readonly EditableParameter[] = rows;
  let row: EditableParameter | undefined;
  let at = 1;
  while (at < parts.length) {
    const index = Number(parts[at]);
    if (!Number.isInteger(index) || index < 0) return undefined;
    row = level[index];
    if (!row) return undefined;
    const next = parts[at + 1];
    if (next === "children") {
      level = row.children;
      at += 2;
      continue;
    }
    return { rowKey: row.key, field: next ?? "row" };
  }
  return undefined;
}

/** Updates the row with `key` anywhere in the tree. */
export function updateRow(rows: readonly EditableParameter[], key: string, change: (row: EditableParameter) => EditableParameter): EditableParameter[] {
  return rows.map((row) => (row.key === key ? change(row) : { ...row, children: updateRow(row.children, key, change) }));
}

/** Removes the row with `key` anywhere in the tree. */
export function removeRow(rows: readonly EditableParameter[], key: string): EditableParameter[] {
  return rows.filter((row) => row.key !== key).map((row) => ({ ...row, children: removeRow(row.children, key) }));
}

/** One header row of the form; values the server masked come back as `****` and the last 4 characters. */
export interface HeaderRow {
  key: string;
  name: string;
  value: string;
}

export const headersFromApi = (headers: Record<string, string> | undefined): HeaderRow[] =>
  Object.entries(headers ?? {}).map(([name, value]) => ({ key: newKey(), name, value }));

export function headersToApi(rows: readonly HeaderRow[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of rows) if (row.name.trim()) out[row.name.trim()] = row.value;
  return out;
}

/** Whether a header value is the server's mask of a stored secret. */
export const isMaskedValue = (value: string): boolean => /^\*{4}/.test(value);

/** What a test-run input holds per top-level parameter: text for most, a boolean for switches. */
export type ArgumentValues = Record<string, string | boolean | undefined>;

/** The initial test-run inputs: each parameter's default. */
export function initialArguments(rows: readonly EditableParameter[]): ArgumentValues {
  const values: ArgumentValues = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (!name) continue;
    values[name] = row.type === "boolean" ? row.defaultText.trim() === "true" : row.defaultText;
  }
  return values;
}

/** Why a test-run input was refused. */
export interface ArgumentProblem {
  name: string;
  problem: "required" | "number" | "integer" | "json";
}

/**
 * The arguments object a test run sends, as a model would: numbers as numbers, booleans as
 * booleans, objects and arrays parsed from JSON; empty optional inputs left out.
 */
export function buildArguments(rows: readonly EditableParameter[], values: ArgumentValues): { args: Record<string, unknown>; problems: ArgumentProblem[] } {
  const args: Record<string, unknown> = {};
  const problems: ArgumentProblem[] = [];
  for (const row of rows) {
    const name = row.name.trim();
    if (!name) continue;
    const raw = values[name];
    if (row.type === "boolean") {
      if (typeof raw === "boolean") args[name] = raw;
      continue;
    }
    const text = typeof raw === "string" ? raw : "";
    if (text.trim() === "") {
      if (row.required) problems.push({ name, problem: "required" });
      continue;
    }
    if (row.type === "string") args[name] = text;
    else if (row.type === "integer" || row.type === "float") {
      const value = Number(text.trim());
      if (!Number.isFinite(value)) problems.push({ name, problem: "number" });
      else if (row.type === "integer" && !Number.isInteger(value)) problems.push({ name, problem: "integer" });
      else args[name] = value;
    } else {
      try {
        args[name] = JSON.parse(text) as unknown;
      } catch {
        problems.push({ name, problem: "json" });
      }
    }
  }
  return { args, problems };
}

/** One operation of an OpenAPI document a person may pick. */
export interface OperationChoice {
  /** What parse takes as `operation`: `METHOD /path`. */
  value: string;
  label: string;
}

/**
 * The operations named in the server's 'choose one' message, which lists them as
 * `id (METHOD /path)` or `METHOD /path` (the list is the same in every language).
 */
export function operationsFromMessage(message: string): OperationChoice[] {
  const found: OperationChoice[] = [];
  const pattern = /(?:([A-Za-z0-9_.-]+) \()?\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS|TRACE) (\/[^\s,)]*)\)?/g;
  for (const match of message.matchAll(pattern)) {
    const value = `${match[2]} ${match[3]}`;
    if (found.some((choice) => choice.value === value)) continue;
    found.push({ value, label: match[1] ? `${match[1]} (${value})` : value });
  }
  return found;
}
