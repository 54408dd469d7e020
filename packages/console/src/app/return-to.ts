import { PATHS } from "../lib/paths";

const AUTH_PAGES: readonly string[] = [PATHS.login, PATHS.register, PATHS.forgotPassword];

/**
 * Where to go after signing in: the `returnTo` parameter when it is a same-site path that
 * is not itself a sign-in page, otherwise the apps list.
 */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value?.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return PATHS.agents;
  const pathname = value.split(/[?#]/)[0] ?? value;
  if (AUTH_PAGES.includes(pathname)) return PATHS.agents;
  return value;
}
