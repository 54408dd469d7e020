/** URL parameters read at start-up (spec §7). */
export const STARTUP_PARAMS = ["code", "loginCode", "inviteParam", "ref", "share"] as const;

/** What the address carried at start-up. */
export interface StartupParams {
  code?: string;
  loginCode?: string;
  inviteParam?: string;
  source?: string;
  share?: string;
}

/** Reads the start-up parameters from a query string (`ref` is the visit source). */
export function readStartupParams(search: string): StartupParams {
  const query = new URLSearchParams(search);
  const value = (name: string) => query.get(name)?.trim() || undefined;
  const result: StartupParams = {};
  const code = value("code");
  const loginCode = value("loginCode");
  const inviteParam = value("inviteParam");
  const source = value("ref");
  const share = value("share");
  if (code) result.code = code;
  if (loginCode) result.loginCode = loginCode;
  if (inviteParam) result.inviteParam = inviteParam;
  if (source) result.source = source;
  if (share) result.share = share;
  return result;
}

/** The query string left once the start-up parameters are consumed. */
export function stripStartupParams(search: string): string {
  const query = new URLSearchParams(search);
  for (const name of STARTUP_PARAMS) query.delete(name);
  const rest = query.toString();
  return rest ? `?${rest}` : "";
}

/** Whether an `inviteParam` is a team invitation link's (`tm_…`) rather than a referral code. */
export function isTeamInvite(inviteParam: string | undefined): boolean {
  return inviteParam?.startsWith("tm_") === true;
}
