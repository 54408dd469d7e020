/**
 * Ticks or clears one level of a resource in the editor's grant set: `edit` brings `view` with
 * it, and clearing `view` clears `edit` (a role cannot change what it cannot see).
 */
export function toggleGrant(current: ReadonlySet<string>, resource: string, level: "view" | "edit", checked: boolean): Set<string> {
  const next = new Set(current);
  const view = `${resource}.view`;
  const edit = `${resource}.edit`;
  if (checked) {
    next.add(level === "edit" ? edit : view);
    next.add(view);
  } else if (level === "view") {
    next.delete(view);
    next.delete(edit);
  } else {
    next.delete(edit);
  }
  return next;
}
