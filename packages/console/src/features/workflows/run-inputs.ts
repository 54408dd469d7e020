import type { StartVariable, WorkflowElement } from "./workflow-model";
import { referencesIn } from "./workflow-rules";

/** The start variables' values as the run sends them (numbers as numbers, empty left out). */
export function variableValues(variables: readonly StartVariable[], raw: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const variable of variables) {
    const value = raw[variable.identifier];
    if (value === undefined || value === null || value === "") continue;
    values[variable.identifier] = variable.type === "number" ? Number(value) : value;
  }
  return values;
}

/** Missing required variables, by identifier. */
export function missingVariables(variables: readonly StartVariable[], raw: Record<string, unknown>): string[] {
  return variables
    .filter((variable) => variable.required && (raw[variable.identifier] === undefined || raw[variable.identifier] === "" || raw[variable.identifier] === null))
    .map((variable) => variable.identifier);
}

/** The references a node reads ({{start.city}} → "start.city"), each once. */
export function nodeReferences(element: WorkflowElement): string[] {
  return [...new Set(referencesIn(element.config))];
}
