/** A value shown as text: strings as they are, anything else as indented JSON. */
export function showValue(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/** The answer of a run: the end node's `output` when it is the only thing, else the whole value. */
export function runAnswer(output: unknown): string {
  if (output && typeof output === "object" && !Array.isArray(output)) {
    const keys = Object.keys(output);
    if (keys.length === 1 && keys[0] === "output") return showValue((output as { output: unknown }).output);
  }
  return showValue(output);
}
