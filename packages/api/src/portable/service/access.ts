import { ServiceError } from "../../errors";
import type { Auth } from "../../kernel";
import type { Grant } from "../../access/resources";

/**
 * Refuses (403) a caller whose role lacks a grant. The portable routes declare one grant for the
 * operation; a file touching several kinds of object needs each kind's grant as well.
 */
export function requireGrant(auth: Auth, grant: Grant): void {
  if (!auth.access || auth.access.grants.has(grant)) return;
  const [resource, level] = grant.split(".") as [string, "view" | "edit"];
  throw new ServiceError("forbidden", level === "edit" ? "permission_denied_edit" : "permission_denied_view", { resource: `resource.${resource}` });
}

/** Whether the caller's role holds a grant (callers without access details hold every grant). */
export function holds(auth: Auth, grant: Grant): boolean {
  return !auth.access || auth.access.grants.has(grant);
}
