import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { useSpaceQuery } from "../../lib/api/query";
import { ROLES, rolesEndpoints } from "../../lib/api/roles";

/** The system roles a member can be given (the owner's comes only by a transfer). */
export const ASSIGNABLE_SYSTEM_ROLES = ["admin", "developer", "operator", "viewer"] as const;

/** A role as the pickers offer it. */
export interface RoleOption {
  value: string;
  label: string;
}

/**
 * The roles to offer: the system roles, then the custom roles given (by id, with their names),
 * each once.
 */
export function roleOptions(t: TFunction, custom: readonly { roleId: string; roleName: string }[] = []): RoleOption[] {
  const system: RoleOption[] = ASSIGNABLE_SYSTEM_ROLES.map((key) => ({ value: key, label: t(`teamMembers.roles.${key}`) }));
  const seen = new Set<string>(["owner", ...ASSIGNABLE_SYSTEM_ROLES]);
  const extra: RoleOption[] = [];
  for (const role of custom) {
    if (seen.has(role.roleId)) continue;
    seen.add(role.roleId);
    extra.push({ value: role.roleId, label: role.roleName });
  }
  return [...system, ...extra];
}

/** Every role a member can be given in the current space: the system roles, then the space's custom roles. */
export function useRoleOptions(): RoleOption[] {
  const { t } = useTranslation();
  const roles = useSpaceQuery({ key: ROLES, fetch: (signal) => rolesEndpoints.list({ signal }) });
  return roleOptions(
    t,
    (roles.data ?? []).filter((role) => !role.system).map((role) => ({ roleId: role.id, roleName: role.name })),
  );
}
