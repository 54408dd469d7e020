import type { MemberGrade, SpaceRole } from "../../lib/api/types";

/** i18n keys of the plan grades' names. */
export const PLAN_LABEL_KEYS: Record<MemberGrade, string> = {
  FREE: "plans.FREE",
  NORMAL: "plans.NORMAL",
  PROFESSION: "plans.PROFESSION",
  ENTERPRISE: "plans.ENTERPRISE",
  CUSTOM: "plans.CUSTOM",
};

/** i18n keys of the space roles' names. */
export const ROLE_LABEL_KEYS: Record<SpaceRole, string> = {
  owner: "roles.owner",
  admin: "roles.admin",
  member: "roles.member",
};
