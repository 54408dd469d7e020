/** Member grades, lowest first. */
export const memberGrades = ["FREE", "NORMAL", "PROFESSION", "ENTERPRISE", "CUSTOM"] as const;
/** One of {@link memberGrades}. */
export type MemberGrade = (typeof memberGrades)[number];

/** Quotas that decide which console areas a space can use. */
export interface Quotas {
  clientManage: number;
  customerManage: number;
  memberNumber: number;
}

/**
 * Default quotas per grade. Clients unlock at the Standard plan (NORMAL), chat management and
 * team at Pro (PROFESSION), as the spec's menu hints say.
 */
export const gradeQuotas: Record<MemberGrade, Quotas> = {
  FREE: { clientManage: 0, customerManage: 0, memberNumber: 0 },
  NORMAL: { clientManage: 3, customerManage: 0, memberNumber: 0 },
  PROFESSION: { clientManage: 10, customerManage: 3, memberNumber: 5 },
  ENTERPRISE: { clientManage: 50, customerManage: 20, memberNumber: 100 },
  CUSTOM: { clientManage: 200, customerManage: 100, memberNumber: 1000 },
};

/**
 * The grade the instance administrator's spaces get. Until plans are sold, the administrator
 * has every capability (docs/decisions/0009-instance-administration.md).
 */
export const ADMINISTRATOR_GRADE: MemberGrade = "CUSTOM";

/** A team space always has room for a few members, whatever its grade. */
const TEAM_MINIMUM_MEMBERS = 3;

/** The quotas a space actually has. */
export function quotasFor(input: { grade: MemberGrade; kind: "personal" | "team"; overrides?: Partial<Quotas> | null }): Quotas {
  const base = { ...gradeQuotas[input.grade], ...(input.overrides ?? {}) };
  if (input.kind === "team") base.memberNumber = Math.max(base.memberNumber, TEAM_MINIMUM_MEMBERS);
  return base;
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

const menuDefinitions: ReadonlyArray<Omit<MenuItem, "visible"> & { gate?: keyof Quotas | "customerAdmin" | "instanceAdmin" }> = [
  { key: "apps", group: "create", route: "/console/agents" },
  { key: "knowledge", group: "create", route: "/console/knowledge" },
  { key: "database", group: "create", route: "/console/database" },
  { key: "plugins", group: "create", route: "/console/plugins" },
  { key: "workflow", group: "create", route: "/console/workflows" },
  { key: "integrations", group: "access", route: "/console/Integrations" },
  { key: "clients", group: "access", route: "/console/clients", hint: "standard", gate: "clientManage" },
  { key: "customers", group: "access", route: "/console/customManage", gate: "customerAdmin" },
  { key: "chatManage", group: "access", route: "/console/chatManage", hint: "pro", gate: "customerManage" },
  { key: "account", group: "manage", route: "/console/account" },
  { key: "analysis", group: "manage", route: "/console/analysis", hint: "standard", gate: "clientManage" },
  { key: "team", group: "manage", route: "/console/teamSpace", hint: "pro", gate: "memberNumber" },
  { key: "instance", group: "manage", route: "/console/instance", gate: "instanceAdmin" },
  { key: "templates", group: "discover", route: "/console/templates" },
  { key: "store", group: "discover", route: "/home" },
];

/** Routes every member may open, whatever their authorised list says. */
const alwaysAllowed = new Set(["templates", "store"]);

/** The privileges answer: menus and the user flags of spec §3/§6. */
export interface Privileges extends Quotas {
  memberGrade: MemberGrade;
  menus: MenuItem[];
  authorizedRoute: boolean;
  authorizedRouteList: string[];
  customerAdmin: "Y" | "N";
}

/**
 * Applies spec §6: gated entries for non-enterprise users open when their quota exceeds zero;
 * the customer entry needs customerAdmin Y and customer permissions; enterprise members with
 * an authorised route list see only that list plus templates and store. The instance entry is
 * the administrator's alone, in every space they open.
 */
export function computePrivileges(input: {
  grade: MemberGrade;
  kind: "personal" | "team";
  overrides?: Partial<Quotas> | null;
  role: "owner" | "admin" | "member";
  customerAdminFlag: boolean;
  authorizedRoutes: string[] | null;
  /** The caller is the instance administrator (users.isInstanceOwner). */
  instanceAdmin?: boolean;
}): Privileges {
  const quotas = quotasFor(input);
  const customerAdmin = (input.role !== "member" || input.customerAdminFlag) && quotas.customerManage > 0 ? "Y" : "N";
  const restricted = isEnterprise(input.grade) && input.role === "member" && input.authorizedRoutes !== null;
  const allowedRoutes = restricted ? new Set(input.authorizedRoutes) : null;
  const menus = menuDefinitions.map(({ gate, ...item }) => {
    if (gate === "instanceAdmin") return { ...item, visible: input.instanceAdmin === true };
    let visible = true;
    if (gate === "customerAdmin") visible = customerAdmin === "Y";
    else if (gate && !isEnterprise(input.grade)) visible = quotas[gate] > 0;
    if (allowedRoutes && !alwaysAllowed.has(item.key)) visible = visible && allowedRoutes.has(item.route);
    return { ...item, visible };
  });
  return {
    memberGrade: input.grade,
    menus,
    authorizedRoute: restricted,
    authorizedRouteList: restricted ? [...(input.authorizedRoutes ?? [])] : [],
    customerAdmin,
    ...quotas,
  };
}
