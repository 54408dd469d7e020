import { isSystemRole, type SystemRoleKey } from "../../access/roles";
import { messageText } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";

/** A system role's name in a language (Owner / 所有者, …). */
export function systemRoleName(key: SystemRoleKey, language: Language): string {
  return messageText(language, `roles.system.${key}.name`);
}

/** A system role's description in a language. */
export function systemRoleDescription(key: SystemRoleKey, language: Language): string {
  return messageText(language, `roles.system.${key}.description`);
}

/**
 * The name of a member's role: a system role's in the language, or the custom role's own. A
 * custom role that is gone reads as its id, which the editor never shows as a name.
 */
export function roleNameOf(roleId: string, customName: string | null | undefined, language: Language): string {
  if (isSystemRole(roleId)) return systemRoleName(roleId, language);
  return customName ?? roleId;
}
