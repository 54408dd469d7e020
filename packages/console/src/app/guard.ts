import { PATHS, isUnder, requiresAuth } from "../lib/paths";

/** What the route guard does with a navigation. */
export type GuardDecision = { kind: "allow" } | { kind: "login"; returnTo: string } | { kind: "redirect"; to: string } | { kind: "forbidden" };

/** The parts of the user the guard looks at. */
export interface GuardUser {
  authorizedRoute: boolean;
  authorizedRouteList: readonly string[];
}

/**
 * Console pages every signed-in member keeps, whatever their authorised list says:
 * templates and store are always shown to restricted enterprise members (spec §6), and
 * the account page is where they manage their own profile and keys and sign out.
 */
const ALWAYS_AUTHORISED: readonly string[] = [PATHS.consoleTemplates, "/console/template", PATHS.account];

/**
 * Pages that belong to a menu entry without lying below its route: creating and editing an app
 * belong to Apps, one workflow's editor to Workflows. A role that opens the menu opens them too.
 */
const PAGES_OF_MENU: Readonly<Record<string, readonly string[]>> = {
  [PATHS.agents]: [PATHS.createApp, PATHS.agent],
  [PATHS.workflows]: [PATHS.workflow],
};

/** Whether `pathname` is in the authorised list itself (an entry also covers its sub-pages and its pages elsewhere). */
export function isRouteListed(pathname: string, authorizedRouteList: readonly string[]): boolean {
  return authorizedRouteList.some(
    (route) => route.length > 0 && (isUnder(pathname, route) || (PAGES_OF_MENU[route] ?? []).some((page) => isUnder(pathname, page))),
  );
}

/** Whether a restricted member may open `pathname`: listed, or one of the pages everyone keeps. */
export function isRouteAuthorised(pathname: string, authorizedRouteList: readonly string[]): boolean {
  if (ALWAYS_AUTHORISED.some((path) => isUnder(pathname, path))) return true;
  return isRouteListed(pathname, authorizedRouteList);
}

/**
 * Decides a navigation (spec §5 'Route guard'): protected console pages need a token; for a
 * user with `authorizedRoute`, a protected page outside their list sends them to the first
 * page they are allowed.
 */
export function decideGuard(input: { pathname: string; search?: string; token: string | undefined; user: GuardUser | undefined }): GuardDecision {
  const { pathname, search = "", token, user } = input;
  if (!requiresAuth(pathname)) return { kind: "allow" };
  if (!token) return { kind: "login", returnTo: `${pathname}${search}` };
  if (!user?.authorizedRoute) return { kind: "allow" };
  if (isRouteAuthorised(pathname, user.authorizedRouteList)) return { kind: "allow" };
  const first = user.authorizedRouteList.find((route) => route.startsWith("/") && route !== pathname);
  return first ? { kind: "redirect", to: first } : { kind: "forbidden" };
}
