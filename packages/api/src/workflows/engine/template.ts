/**
 * Reference templates: `{{node_id.output}}`, `{{start.city}}`, `{{sys.query}}`. A string that is
 * one reference alone keeps the value's type (a code block receives the object, not its JSON);
 * references inside text are written as text (objects as JSON). Unknown references are empty.
 */

const REFERENCE = /\{\{\s*([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*\}\}$/;

/** The values templates can read: `sys`, `start` and each node's outputs by node id. */
export type Scope = Record<string, unknown>;

/** References used in a value (strings, arrays and objects are searched). */
export function referencesIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === "string") {
    if (value.includes("{{")) for (const match of value.matchAll(REFERENCE)) into.push(match[1]!);
  } else if (Array.isArray(value)) {
    for (const item of value) referencesIn(item, into);
  } else if (value && typeof value === "object") {
    for (const item of Object.values(value)) referencesIn(item, into);
  }
  return into;
}

/** Reads a dotted path from the scope. */
export function lookup(scope: Scope, path: string): unknown {
  let current: unknown = scope;
  for (const part of path.split(".")) {
    if (current === null || current === undefined) return undefined;
    if (typeof current === "string" && part !== "length") {
      // A JSON text answer (an llm asked for JSON) can be read into.
      try {
        current = JSON.parse(current) as unknown;
      } catch {
        return undefined;
      }
    }
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** A value as text in a message. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

/** Fills the references of a template string. */
export function render(template: string, scope: Scope): unknown {
  if (!template.includes("{{")) return template;
  const whole = WHOLE.exec(template);
  if (whole) return lookup(scope, whole[1]!);
  return template.replace(REFERENCE, (_, path: string) => asText(lookup(scope, path)));
}

/** Fills a template and answers text. */
export function renderText(template: string | undefined, scope: Scope): string {
  return template === undefined ? "" : asText(render(template, scope));
}

/** Fills every string of a value (arrays and objects included). */
export function renderDeep(value: unknown, scope: Scope): unknown {
  if (typeof value === "string") return render(value, scope);
  if (Array.isArray(value)) return value.map((item) => renderDeep(item, scope));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderDeep(item, scope)]));
  return value;
}
