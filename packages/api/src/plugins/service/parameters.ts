import type { JsonSchema } from "../../platform/llm/types";

/** Parameter types a plugin may declare (spec §3 Plugin); `int`/`integer` and `bool`/`boolean` are synonyms. */
export const parameterTypes = ["string", "int", "integer", "float", "bool", "boolean", "object", "array"] as const;

/** One of {@link parameterTypes}. */
export type ParameterType = (typeof parameterTypes)[number];

/** Where an argument travels in the HTTP request. Absent: path when the URL names it, else query for GET/DELETE, body otherwise. */
export const parameterLocations = ["path", "query", "header", "body"] as const;

/** One of {@link parameterLocations}. */
export type ParameterLocation = (typeof parameterLocations)[number];

/** Types an array's items may have when they are not objects. */
export const itemTypes = ["string", "integer", "float", "boolean"] as const;

/** A request or response parameter of a plugin. */
export interface PluginParameter {
  name: string;
  type: ParameterType;
  description: string;
  required: boolean;
  default?: unknown;
  /** Fields of an object, or of each item of an array of objects. */
  children?: PluginParameter[];
  /** Item type of an array without children. */
  itemType?: (typeof itemTypes)[number];
  location?: ParameterLocation;
}

/** The canonical kind behind a type name. */
export type ParameterKind = "string" | "integer" | "number" | "boolean" | "object" | "array";

/** Maps a declared type (with its synonyms) to its canonical kind. */
export function kindOf(type: ParameterType | (typeof itemTypes)[number]): ParameterKind {
  switch (type) {
    case "int":
    case "integer":
      return "integer";
    case "float":
      return "number";
    case "bool":
    case "boolean":
      return "boolean";
    default:
      return type;
  }
}

/** Parameter names: English letters and underscore only (spec §5 Plugin). */
export const PARAMETER_NAME = /^[A-Za-z_]+$/;

/** The first broken naming rule in a parameter tree: where it is and why. */
export interface ParameterProblem {
  /** Path of the offending field, e.g. `requestParams.1.children.0.name`. */
  field: string;
  messageId: "plugin_param_name_required" | "plugin_param_name_invalid" | "plugin_param_name_duplicate" | "plugin_param_default_invalid";
  params: Record<string, string>;
}

/**
 * Checks the §5 rules on a parameter tree — names only letters and underscore, no duplicate
 * among siblings at any depth — and that each default fits its type. Returns the first problem.
 */
export function findParameterProblem(parameters: PluginParameter[], base: string): ParameterProblem | undefined {
  const seen = new Set<string>();
  for (const [index, parameter] of parameters.entries()) {
    const at = `${base}.${index}`;
    const name = parameter.name.trim();
    if (!name) return { field: `${at}.name`, messageId: "plugin_param_name_required", params: {} };
    if (!PARAMETER_NAME.test(name)) return { field: `${at}.name`, messageId: "plugin_param_name_invalid", params: { name } };
    if (seen.has(name)) return { field: `${at}.name`, messageId: "plugin_param_name_duplicate", params: { name } };
    seen.add(name);
    if (parameter.default !== undefined && parameter.default !== null && coerceValue(parameter, parameter.default, "").errors.length > 0) {
      return { field: `${at}.default`, messageId: "plugin_param_default_invalid", params: { name, type: parameter.type } };
    }
    if (parameter.children && parameter.children.length > 0) {
      const inner = findParameterProblem(parameter.children, `${at}.children`);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** Cleans a parameter tree for storage: trimmed names, defaults in their type, children only where they mean something. */
export function normalizeParameters(parameters: PluginParameter[]): PluginParameter[] {
  return parameters.map((parameter) => {
    const kind = kindOf(parameter.type);
    const out: PluginParameter = {
      name: parameter.name.trim(),
      type: parameter.type,
      description: parameter.description.trim(),
      required: parameter.required,
    };
    if (parameter.default !== undefined && parameter.default !== null && !(parameter.default === "" && kind !== "string")) {
      const coerced = coerceValue(parameter, parameter.default, "");
      out.default = coerced.errors.length === 0 ? coerced.value : parameter.default;
    }
    if ((kind === "object" || kind === "array") && parameter.children && parameter.children.length > 0) {
      out.children = normalizeParameters(parameter.children);
    }
    if (kind === "array" && !out.children && parameter.itemType) out.itemType = parameter.itemType;
    if (parameter.location) out.location = parameter.location;
    return out;
  });
}

/** The JSON Schema of one parameter, for a model's tool definition. */
export function parameterSchema(parameter: PluginParameter): JsonSchema {
  const kind = kindOf(parameter.type);
  const schema: JsonSchema = { type: kind };
  if (parameter.description) schema.description = parameter.description;
  if (parameter.default !== undefined) schema.default = parameter.default;
  if (kind === "object") Object.assign(schema, objectSchema(parameter.children ?? []));
  if (kind === "array") {
    schema.items = parameter.children?.length
      ? { type: "object", ...objectSchema(parameter.children) }
      : parameter.itemType
        ? { type: kindOf(parameter.itemType) }
        : {};
  }
  return schema;
}

/** The JSON Schema of an object whose fields are `parameters`. */
export function objectSchema(parameters: PluginParameter[]): { properties: Record<string, JsonSchema>; required: string[] } {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    properties[parameter.name] = parameterSchema(parameter);
    // A default fills the gap, so the model need not send it.
    if (parameter.required && parameter.default === undefined) required.push(parameter.name);
  }
  return { properties, required };
}

/** The result of checking a value against a parameter: the value in its declared type, or what is wrong. */
export interface Coerced {
  value: unknown;
  errors: string[];
}

/**
 * Checks a value against a parameter and brings it to the declared type, accepting the
 * spellings models often use (`"5"` for an integer, `"true"` for a boolean).
 */
export function coerceValue(parameter: PluginParameter, value: unknown, path: string): Coerced {
  const kind = kindOf(parameter.type);
  const where = path || parameter.name;
  const wrong = (expected: string): Coerced => ({ value, errors: [`\`${where}\` must be ${expected}`] });
  switch (kind) {
    case "string":
      if (typeof value === "string") return { value, errors: [] };
      if (typeof value === "number" || typeof value === "boolean") return { value: String(value), errors: [] };
      return wrong("a string");
    case "integer": {
      const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (typeof number === "number" && Number.isInteger(number)) return { value: number, errors: [] };
      return wrong("an integer");
    }
    case "number": {
      const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
      if (typeof number === "number" && Number.isFinite(number)) return { value: number, errors: [] };
      return wrong("a number");
    }
    case "boolean":
      if (typeof value === "boolean") return { value, errors: [] };
      if (value === "true" || value === "false") return { value: value === "true", errors: [] };
      return wrong("true or false");
    case "object": {
      const object = typeof value === "string" ? tryJson(value) : value;
      if (!isPlainObject(object)) return wrong("an object");
      if (!parameter.children?.length) return { value: object, errors: [] };
      return coerceObject(parameter.children, object, `${where}.`);
    }
    case "array": {
      const array = typeof value === "string" ? tryJson(value) : value;
      if (!Array.isArray(array)) return wrong("an array");
      const errors: string[] = [];
      const items = array.map((item, index) => {
        const itemPath = `${where}[${index}]`;
        if (parameter.children?.length) {
          if (!isPlainObject(item)) {
            errors.push(`\`${itemPath}\` must be an object`);
            return item;
          }
          const inner = coerceObject(parameter.children, item, `${itemPath}.`);
          errors.push(...inner.errors);
          return inner.value;
        }
        if (parameter.itemType) {
          const inner = coerceValue({ name: itemPath, type: itemTypeAsParameterType(parameter.itemType), description: "", required: true }, item, itemPath);
          errors.push(...inner.errors);
          return inner.value;
        }
        return item;
      });
      return { value: items, errors };
    }
  }
}

function itemTypeAsParameterType(itemType: (typeof itemTypes)[number]): ParameterType {
  return itemType;
}

/**
 * Checks an arguments object against a parameter list: required ones present (defaults filled
 * in first), each in its type. Arguments the plugin does not declare are dropped.
 */
export function coerceObject(parameters: PluginParameter[], input: Record<string, unknown>, prefix = ""): { value: Record<string, unknown>; errors: string[] } {
  const value: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const parameter of parameters) {
    let given = input[parameter.name];
    if (given === undefined || given === null) given = parameter.default;
    if (given === undefined || given === null) {
      if (parameter.required) errors.push(`\`${prefix}${parameter.name}\` is required`);
      continue;
    }
    const coerced = coerceValue(parameter, given, `${prefix}${parameter.name}`);
    errors.push(...coerced.errors);
    value[parameter.name] = coerced.value;
  }
  return { value, errors };
}

/** True for `{…}` (not arrays, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
