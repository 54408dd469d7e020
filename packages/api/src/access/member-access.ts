import type { Access } from "../kernel";
import { isSystemRole, parseDataRange, parseGrants, systemAccess } from "./roles";

const systemCache = new Map<string, Access>();

/**
 * A member's access from their role: a system role's fixed grants, or a custom role's stored
 * grants and data range. A role id that names neither (its custom role was deleted under a
 * member) gives no grant and only the member's own data.
 */
export function accessOf(roleId: string, custom: { grants: string; dataRange: string | null } | null): Access {
  if (isSystemRole(roleId)) {
    let access = systemCache.get(roleId);
    if (!access) {
      access = systemAccess(roleId);
      systemCache.set(roleId, access);
    }
    return access;
  }
  if (!custom) return { roleId, grants: new Set(), range: { scope: "own" } };
  return { roleId, grants: new Set(parseGrants(custom.grants)), range: parseDataRange(custom.dataRange) };
}
