import { ServiceError } from "../../../errors";
import type { MessageId } from "../../../i18n/catalogue";
import { isPlainObject, PARAMETER_NAME, type ParameterLocation, type PluginParameter } from "../parameters";
import type { PluginRequestParts } from "../plugins";

/** A plugin draft made by parsing: the request parts plus a suggested name and description. */
export interface PluginDraft extends PluginRequestParts {
  name: string;
  description: string;
  avatar: string;
}

/** What parsing answers. */
export interface ParseResult {
  draft: PluginDraft;
  operations: Array<{ operationId: string | null; method: string; path: string; summary: string | null }>;
  warnings: string[];
}

/** A 400 naming what could not be parsed (the field is always `content` unless given). */
export function parseFailure(messageId: MessageId, params: Record<string, string> = {}, field = "content"): ServiceError {
  return new ServiceError("validation", messageId, params, { field });
}

/** Parameters guessed from an example value: types from the JSON types, the example as default. */
export function parametersFromExample(example: Record<string, unknown>, location?: ParameterLocation): PluginParameter[] {
  return Object.entries(example).map(([name, value]) => parameterFromExample(name, value, location));
}

function parameterFromExample(name: string, value: unknown, location?: ParameterLocation): PluginParameter {
  const base = { name, description: "", required: value !== null, ...(location ? { location } : {}) };
  if (typeof value === "string") return { ...base, type: "string", default: value };
  if (typeof value === "number") return { ...base, type: Number.isInteger(value) ? "integer" : "float", default: value };
  if (typeof value === "boolean") return { ...base, type: "boolean", default: value };
  if (isPlainObject(value)) return { ...base, type: "object", children: parametersFromExample(value) };
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    if (isPlainObject(first)) {
      const merged = Object.assign({}, ...value.filter(isPlainObject)) as Record<string, unknown>;
      return { ...base, type: "array", children: parametersFromExample(merged) };
    }
    const itemType =
      typeof first === "number" ? (value.every((item) => Number.isInteger(item)) ? "integer" : "float") : typeof first === "boolean" ? "boolean" : "string";
    return { ...base, type: "array", itemType, default: value };
  }
  return { ...base, type: "string", required: false };
}

/** A scalar from a query string: numbers and booleans read as such. */
export function exampleFromText(text: string): string | number | boolean {
  if (/^-?(0|[1-9]\d{0,14})$/.test(text)) return Number(text);
  if (/^-?(0|[1-9]\d*)\.\d+$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return text;
}

/** Warnings for parameter names the §5 rule will refuse when the draft is saved. */
export function nameWarnings(parameters: PluginParameter[], prefix = ""): string[] {
  const warnings: string[] = [];
  for (const parameter of parameters) {
    const path = `${prefix}${parameter.name}`;
    if (!PARAMETER_NAME.test(parameter.name)) {
      warnings.push(`The parameter "${path}" has characters other than English letters and underscore; rename it before saving.`);
    }
    if (parameter.children) warnings.push(...nameWarnings(parameter.children, `${path}.`));
  }
  return warnings;
}

/** A short name for a draft: the last meaningful path segment, else the host. */
export function nameFromUrl(url: URL): string {
  const segments = url.pathname.split("/").filter((segment) => segment && !/^v\d+$/i.test(segment) && !segment.startsWith("{"));
  const last = segments.at(-1);
  return (
    decodeURIComponent(last ?? url.hostname)
      .replace(/[-_.]+/g, " ")
      .trim() || url.hostname
  );
}
