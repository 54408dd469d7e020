import type { Access, DataRange } from "../kernel";
import { allGrants, type Grant, normalizeGrants } from "./resources";

export type { Access, DataRange };

/** The three scopes of a {@link DataRange}. */
export const dataScopes = ["all", "own", "chosen"] as const;

/** Every object of the space. */
export const ALL_DATA: DataRange = { scope: "all" };

/** Keys of the system roles every team space has; custom roles have ids (`role_…`). */
export const systemRoleKeys = ["owner", "admin", "developer", "operator", "viewer"] as const;

/** One of {@link systemRoleKeys}. */
export type SystemRoleKey = (typeof systemRoleKeys)[number];

/** A system role: fixed grants, every object of the space. */
export interface SystemRole {
  key: SystemRoleKey;
  grants: readonly Grant[];
  /** The coarse tier older checks read (`Auth.role`). */
  tier: "owner" | "admin" | "member";
}

const viewAll = allGrants.filter((grant) => grant.endsWith(".view"));

/**
 * System roles (decision 0019). The owner and administrators hold every grant; the owner alone
 * transfers ownership and cannot be removed. Developers build (apps, knowledge, databases,
 * plugins, workflows, API access) and see clients and the dashboard; operators serve customers
 * (chat management, customers) and see apps, knowledge, clients and the dashboard; viewers read
 * everything and change nothing.
 */
export const systemRoles: Record<SystemRoleKey, SystemRole> = {
  owner: { key: "owner", grants: allGrants, tier: "owner" },
  admin: { key: "admin", grants: allGrants, tier: "admin" },
  developer: {
    key: "developer",
    grants: normalizeGrants([
      "apps.edit",
      "knowledge.edit",
      "database.edit",
      "plugins.edit",
      "workflow.edit",
      "integrations.edit",
      "clients.view",
      "analysis.view",
    ]),
    tier: "member",
  },
  operator: {
    key: "operator",
    grants: normalizeGrants(["chatManage.edit", "customers.edit", "apps.view", "knowledge.view", "clients.view", "analysis.view"]),
    tier: "member",
  },
  viewer: { key: "viewer", grants: viewAll, tier: "member" },
};

/** Whether a role id is a system role's key. */
export function isSystemRole(roleId: string): roleId is SystemRoleKey {
  return (systemRoleKeys as readonly string[]).includes(roleId);
}

/** The access of a system role. */
export function systemAccess(key: SystemRoleKey): Access {
  return { roleId: key, grants: new Set(systemRoles[key].grants), range: ALL_DATA };
}

/** Reads a stored data range; anything unreadable is the narrowest range, `own`. */
export function parseDataRange(value: string | null | undefined): DataRange {
  if (!value) return { scope: "own" };
  try {
    const parsed = JSON.parse(value) as Partial<{ scope: string; appIds: unknown; knowledgeBaseIds: unknown; clientIds: unknown }>;
    if (parsed.scope === "all") return ALL_DATA;
    if (parsed.scope === "chosen") {
      const ids = (list: unknown) => (Array.isArray(list) ? list.filter((id): id is string => typeof id === "string") : []);
      return { scope: "chosen", appIds: ids(parsed.appIds), knowledgeBaseIds: ids(parsed.knowledgeBaseIds), clientIds: ids(parsed.clientIds) };
    }
    return { scope: "own" };
  } catch {
    return { scope: "own" };
  }
}

/** Reads stored grants; anything unreadable is none. */
export function parseGrants(value: string | null | undefined): Grant[] {
  if (!value) return [];
  try {
    const parsed = JSON.parse(value) as unknown;
    return Array.isArray(parsed) ? normalizeGrants(parsed.filter((item): item is string => typeof item === "string")) : [];
  } catch {
    return [];
  }
}
