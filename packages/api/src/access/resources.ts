/**
 * Function resources (spec §3 "function (menu) resources"): one per console menu entry that a
 * role can be given or denied, each at two levels. `view` opens the menu and reads its objects;
 * `edit` changes them and implies `view`. Templates and the store are open to every member and
 * the instance entry belongs to the instance administrator, so neither is a role's resource
 * (docs/decisions/0019-teams-and-roles.md).
 */
export const functionResources = [
  "apps",
  "knowledge",
  "database",
  "plugins",
  "workflow",
  "integrations",
  "clients",
  "customers",
  "chatManage",
  "account",
  "analysis",
  "team",
] as const;

/** One of {@link functionResources}. */
export type FunctionResource = (typeof functionResources)[number];

/** What a grant allows on its resource. */
export const accessLevels = ["view", "edit"] as const;

/** One of {@link accessLevels}. */
export type AccessLevel = (typeof accessLevels)[number];

/** A resource at a level, as roles store it: `apps.view`, `apps.edit`. */
export type Grant = `${FunctionResource}.${AccessLevel}`;

/** Every grant there is, in menu order. */
export const allGrants: readonly Grant[] = functionResources.flatMap((resource) => accessLevels.map((level) => `${resource}.${level}` as Grant));

const grantSet = new Set<string>(allGrants);

/** Whether a string names a grant. */
export function isGrant(value: string): value is Grant {
  return grantSet.has(value);
}

/** The console route of each resource's menu entry (spec §2), for `authorizedRouteList`. */
export const resourceRoutes: Record<FunctionResource, string> = {
  apps: "/console/agents",
  knowledge: "/console/knowledge",
  database: "/console/database",
  plugins: "/console/plugins",
  workflow: "/console/workflows",
  integrations: "/console/Integrations",
  clients: "/console/clients",
  customers: "/console/customManage",
  chatManage: "/console/chatManage",
  account: "/console/account",
  analysis: "/console/analysis",
  team: "/console/teamSpace",
};

/**
 * A role's grants in canonical form: known grants only, `edit` adding its `view`, each once, in
 * menu order. Roles are stored this way, so equal sets compare equal.
 */
export function normalizeGrants(values: Iterable<string>): Grant[] {
  const wanted = new Set<string>();
  for (const value of values) {
    if (!isGrant(value)) continue;
    wanted.add(value);
    if (value.endsWith(".edit")) wanted.add(value.replace(/\.edit$/, ".view"));
  }
  return allGrants.filter((grant) => wanted.has(grant));
}
