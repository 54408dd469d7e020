import { allGrants, type FunctionResource, resourceRoutes } from "../../access/resources";
import { defaultPlan, type MemberGrade, memberGrades, type PlanQuotas, planOfGrade } from "../../billing/service/plans";

// Grades are defined with the plan catalogue, which gives each plan its grade.
export { type MemberGrade, memberGrades, type PlanQuotas };

/** Quotas that decide which console areas a space can use (the session's names of three plan quotas). */
export interface Quotas {
  clientManage: number;
  customerManage: number;
  memberNumber: number;
}

/**
 * Overrides the instance administrator set on a space (a Custom arrangement): the session's
 * three names and any quota of the plan catalogue by its own name.
 */
export type QuotaOverrides = Partial<Quotas> & Partial<PlanQuotas>;

/** The session's quotas read from a plan's quotas: clients, chat-management seats, members. */
export function sessionQuotas(quotas: PlanQuotas): Quotas {
  return { clientManage: quotas.clients, customerManage: quotas.customerService, memberNumber: quotas.members };
}

/**
 * Default quotas per grade, read from the plan catalogue's defaults (one source of quotas):
 * clients unlock at the Pro plan (NORMAL, the spec's "Standard" hint), chat management and team at
 * the Team plan (PROFESSION, its "Pro" hint); the console names grades by the plans that give them.
 */
export const gradeQuotas: Record<MemberGrade, Quotas> = Object.fromEntries(
  memberGrades.map((grade) => [grade, sessionQuotas(defaultPlan(planOfGrade(grade)).quotas)]),
) as Record<MemberGrade, Quotas>;

/**
 * The grade the instance administrator's spaces get. Until plans are sold, the administrator
 * has every capability (docs/decisions/0009-instance-administration.md).
 */
export const ADMINISTRATOR_GRADE: MemberGrade = "CUSTOM";

/** A team space always has room for a few members, whatever its grade. */
export const TEAM_MINIMUM_MEMBERS = 3;

/**
 * Every quota a space has: its plan's (`planQuotas`, the catalogue as edited on this instance;
 * the default catalogue's when not given), the administrator's overrides, and the team minimum.
 */
export function planQuotasFor(input: {
  grade: MemberGrade;
  kind: "personal" | "team";
  overrides?: QuotaOverrides | null;
  planQuotas?: PlanQuotas;
}): PlanQuotas {
  const base: PlanQuotas = { ...(input.planQuotas ?? defaultPlan(planOfGrade(input.grade)).quotas) };
  const overrides = input.overrides ?? {};
  for (const key of Object.keys(base) as (keyof PlanQuotas)[]) {
    const value = overrides[key];
    if (typeof value === "number") base[key] = value;
  }
  if (typeof overrides.clientManage === "number") base.clients = overrides.clientManage;
  if (typeof overrides.customerManage === "number") base.customerService = overrides.customerManage;
  if (typeof overrides.memberNumber === "number") base.members = overrides.memberNumber;
  if (input.kind === "team") base.members = Math.max(base.members, TEAM_MINIMUM_MEMBERS);
  return base;
}

/** The quotas a space actually has, by the session's names. */
export function quotasFor(input: { grade: MemberGrade; kind: "personal" | "team"; overrides?: QuotaOverrides | null; planQuotas?: PlanQuotas }): Quotas {
  return sessionQuotas(planQuotasFor(input));
}

/** True when `grade` is at least `required` on the plan ladder. */
export function gradeAtLeast(grade: MemberGrade, required: MemberGrade): boolean {
  return memberGrades.indexOf(grade) >= memberGrades.indexOf(required);
}

/** Whether a grade counts as enterprise for menu rules. */
export function isEnterprise(grade: MemberGrade): boolean {
  return grade === "ENTERPRISE" || grade === "CUSTOM";
}

/** Console menu groups of spec §2. */
export const menuGroups = ["create", "access", "manage", "discover"] as const;

/** One console menu entry. */
export interface MenuItem {
  key: string;
  group: (typeof menuGroups)[number];
  route: string;
  visible: boolean;
  /** The plan that unlocks a gated entry. */
  hint?: "standard" | "pro";
}

const menuDefinitions: ReadonlyArray<Omit<MenuItem, "visible"> & { gate?: keyof Quotas | "customerAdmin" | "instanceAdmin"; resource?: FunctionResource }> = [
  { key: "apps", group: "create", route: "/console/agents", resource: "apps" },
  { key: "knowledge", group: "create", route: "/console/knowledge", resource: "knowledge" },
  { key: "database", group: "create", route: "/console/database", resource: "database" },
  { key: "plugins", group: "create", route: "/console/plugins", resource: "plugins" },
  { key: "workflow", group: "create", route: "/console/workflows", resource: "workflow" },
  { key: "integrations", group: "access", route: "/console/Integrations", resource: "integrations" },
  { key: "clients", group: "access", route: "/console/clients", hint: "standard", gate: "clientManage", resource: "clients" },
  { key: "customers", group: "access", route: "/console/customManage", gate: "customerAdmin", resource: "customers" },
  { key: "chatManage", group: "access", route: "/console/chatManage", hint: "pro", gate: "customerManage", resource: "chatManage" },
  { key: "account", group: "manage", route: "/console/account", resource: "account" },
  { key: "analysis", group: "manage", route: "/console/analysis", hint: "standard", gate: "clientManage", resource: "analysis" },
  { key: "team", group: "manage", route: "/console/teamSpace", hint: "pro", gate: "memberNumber", resource: "team" },
  { key: "instance", group: "manage", route: "/console/instance", gate: "instanceAdmin" },
  { key: "templates", group: "discover", route: "/console/templates" },
  { key: "store", group: "discover", route: "/home" },
];

/** Routes every member may open, whatever their role holds: templates and the store. */
const alwaysOpenRoutes = menuDefinitions.filter((item) => !item.resource && item.gate !== "instanceAdmin").map((item) => item.route);

/** The privileges answer: menus and the user flags of spec §3/§6. */
export interface Privileges extends Quotas {
  memberGrade: MemberGrade;
  menus: MenuItem[];
  authorizedRoute: boolean;
  authorizedRouteList: string[];
  customerAdmin: "Y" | "N";
  /** The member's grants in the space, in canonical order: the console shows edit controls by them. */
  grants: string[];
}

/**
 * Applies spec §6 with the member's role (decision 0019): an entry is visible when its plan
 * gate allows it (gated entries open for non-enterprise spaces when their quota exceeds zero)
 * and the role holds `<resource>.view`. Templates and the store are always open; the instance
 * entry is the instance administrator's alone, in every space they open. customerAdmin is Y
 * when the role holds customers.view and the plan gives chat-management seats.
 * `authorizedRoute` says the role lacks some grant; `authorizedRouteList` is then the routes it
 * may open (its resources' menus, then templates and the store).
 */
export function computePrivileges(input: {
  grade: MemberGrade;
  kind: "personal" | "team";
  overrides?: QuotaOverrides | null;
  /** The plan's quotas as this instance's catalogue has them (defaults when absent). */
  planQuotas?: PlanQuotas;
  /** The member's grants in the space (Auth.access.grants); the owner and admins hold them all. */
  grants: ReadonlySet<string>;
  /** The caller is the instance administrator (users.isInstanceOwner). */
  instanceAdmin?: boolean;
}): Privileges {
  const quotas = quotasFor(input);
  const holds = (resource: FunctionResource) => input.grants.has(`${resource}.view`);
  const customerAdmin = holds("customers") && quotas.customerManage > 0 ? "Y" : "N";
  const menus = menuDefinitions.map(({ gate, resource, ...item }) => {
    if (gate === "instanceAdmin") return { ...item, visible: input.instanceAdmin === true };
    let visible = resource ? holds(resource) : true;
    if (gate === "customerAdmin") visible = visible && customerAdmin === "Y";
    else if (gate && !isEnterprise(input.grade)) visible = visible && quotas[gate] > 0;
    return { ...item, visible };
  });
  const restricted = allGrants.some((grant) => !input.grants.has(grant));
  const held = menuDefinitions.filter((item) => item.resource && holds(item.resource)).map((item) => resourceRoutes[item.resource!]);
  return {
    memberGrade: input.grade,
    menus,
    authorizedRoute: restricted,
    authorizedRouteList: [...held, ...alwaysOpenRoutes],
    customerAdmin,
    grants: allGrants.filter((grant) => input.grants.has(grant)),
    ...quotas,
  };
}
