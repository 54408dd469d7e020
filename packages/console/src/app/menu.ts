import { isRouteListed } from "./guard";
import { PATHS } from "../lib/paths";
import type { MemberGrade, MenuGroup, MenuHint, Privileges, User } from "../lib/api/types";
import { MENU_GROUPS } from "../lib/api/types";

/** One entry of the console's left menu. */
export interface MenuEntry {
  key: string;
  group: MenuGroup;
  route: string;
  /** i18n key of the label. */
  labelKey: string;
  /** The plan this entry advertises, shown as a tag when the user's plan is below it. */
  hint?: MenuHint;
  /** Shown only when the privileges answer lists it as visible (the server alone decides). */
  serverOnly?: boolean;
}

/** The menu of spec §2 and its default plan hints (spec §6). */
export const MENU_CATALOGUE: readonly MenuEntry[] = [
  { key: "apps", group: "create", route: PATHS.agents, labelKey: "menu.apps" },
  { key: "knowledge", group: "create", route: PATHS.knowledge, labelKey: "menu.knowledge" },
  { key: "database", group: "create", route: PATHS.database, labelKey: "menu.database" },
  { key: "plugins", group: "create", route: PATHS.plugins, labelKey: "menu.plugins" },
  { key: "workflow", group: "create", route: PATHS.workflows, labelKey: "menu.workflow" },
  { key: "integrations", group: "access", route: PATHS.integrations, labelKey: "menu.integrations" },
  { key: "clients", group: "access", route: PATHS.clients, labelKey: "menu.clients", hint: "standard" },
  { key: "customers", group: "access", route: PATHS.customManage, labelKey: "menu.customers" },
  { key: "chatManage", group: "access", route: PATHS.chatManage, labelKey: "menu.chatManage", hint: "pro" },
  { key: "account", group: "manage", route: PATHS.account, labelKey: "menu.account" },
  { key: "dashboard", group: "manage", route: PATHS.analysis, labelKey: "menu.dashboard", hint: "standard" },
  { key: "team", group: "manage", route: PATHS.teamSpace, labelKey: "menu.team", hint: "pro" },
  { key: "instance", group: "manage", route: PATHS.instance, labelKey: "menu.instance", serverOnly: true },
  { key: "templates", group: "discover", route: PATHS.consoleTemplates, labelKey: "menu.templates" },
  { key: "store", group: "discover", route: PATHS.home, labelKey: "menu.store" },
];

/** The i18n keys of the menu groups. */
export const MENU_GROUP_LABEL_KEYS: Record<MenuGroup, string> = {
  create: "menu.groups.create",
  access: "menu.groups.access",
  manage: "menu.groups.manage",
  discover: "menu.groups.discover",
};

/** Entries restricted enterprise members always see (spec §6). */
const ALWAYS_SHOWN = new Set(["templates", "store"]);

const GRADE_RANK: Record<MemberGrade, number> = { FREE: 0, NORMAL: 1, PROFESSION: 2, ENTERPRISE: 3, CUSTOM: 3 };
const HINT_RANK: Record<MenuHint, number> = { standard: GRADE_RANK.NORMAL, pro: GRADE_RANK.PROFESSION };

/** Whether a grade belongs to an enterprise space. */
export function isEnterpriseGrade(grade: MemberGrade): boolean {
  return grade === "ENTERPRISE" || grade === "CUSTOM";
}

/** The facts the menu rules read; the privileges answer wins over the stored user. */
export type MenuFacts = Pick<
  Privileges,
  "memberGrade" | "authorizedRoute" | "authorizedRouteList" | "clientManage" | "customerManage" | "memberNumber" | "customerAdmin"
> & { menus?: Privileges["menus"] };

/** Combines the stored user and the privileges answer into the facts the menu needs. */
export function menuFacts(user: User | undefined, privileges: Privileges | undefined): MenuFacts | undefined {
  if (privileges) return privileges;
  if (!user) return undefined;
  return {
    memberGrade: user.memberGrade,
    authorizedRoute: user.authorizedRoute,
    authorizedRouteList: user.authorizedRouteList,
    clientManage: user.clientManage,
    customerManage: user.customerManage,
    memberNumber: user.memberNumber,
    customerAdmin: user.customerAdmin,
  };
}

/**
 * Builds the visible left menu, grouped, from the catalogue and spec §6:
 * - the server's `visible: false` hides an entry and its `hint` replaces ours;
 * - members with `authorizedRoute` (their role lacks some grant) see only their authorised list plus templates and store;
 * - otherwise clients, chat management and team need clientManage, customerManage and
 *   memberNumber above zero for non-enterprise users;
 * - customers show only when customerAdmin is 'Y';
 * - a hint is kept only when the user's plan is below the plan it names;
 * - server-only entries (instance administration) show only when the server lists them visible.
 */
export function buildMenu(facts: MenuFacts | undefined): Array<{ group: MenuGroup; entries: MenuEntry[] }> {
  const grade = facts?.memberGrade ?? "FREE";
  const enterprise = isEnterpriseGrade(grade);
  // A role without every grant (decision 0019) sees its list, whatever the plan.
  const restricted = facts?.authorizedRoute === true;

  const visible = MENU_CATALOGUE.flatMap((entry): MenuEntry[] => {
    const server = facts?.menus?.find((menu) => menu.route === entry.route || menu.key === entry.key);
    if (server && !server.visible) return [];
    if (entry.serverOnly) {
      if (!server) return [];
      const { serverOnly: _server, ...shown } = entry;
      return [shown];
    }
    const hint = server?.hint ?? entry.hint;

    if (restricted && !ALWAYS_SHOWN.has(entry.key) && !isRouteListed(entry.route, facts?.authorizedRouteList ?? [])) return [];
    if (!enterprise) {
      if (entry.key === "clients" && !((facts?.clientManage ?? 0) > 0)) return [];
      if (entry.key === "chatManage" && !((facts?.customerManage ?? 0) > 0)) return [];
      if (entry.key === "team" && !((facts?.memberNumber ?? 0) > 0)) return [];
    }
    if (entry.key === "customers" && facts?.customerAdmin !== "Y") return [];

    const showHint = hint !== undefined && GRADE_RANK[grade] < HINT_RANK[hint];
    const { hint: _ignored, serverOnly: _none, ...rest } = entry;
    return [showHint ? { ...rest, hint } : rest];
  });

  return MENU_GROUPS.map((group) => ({ group, entries: visible.filter((entry) => entry.group === group) })).filter((section) => section.entries.length > 0);
}

/** The menu entry whose page contains `pathname` (the longest matching route wins). */
export function activeMenuKey(pathname: string, entries: readonly MenuEntry[]): string | undefined {
  let best: MenuEntry | undefined;
  for (const entry of entries) {
    const matches = pathname === entry.route || pathname.startsWith(`${entry.route}/`);
    if (matches && (!best || entry.route.length > best.route.length)) best = entry;
  }
  return best?.key;
}
