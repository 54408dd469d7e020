import { changeLanguage, normaliseLanguage, currentLanguage } from "../i18n";
import { endpoints } from "../lib/api/endpoints";
import { sessionStore } from "../lib/api/session";
import { readString, writeString } from "../lib/api/storage";
import { isTeamInvite, readStartupParams, STARTUP_PARAMS, stripStartupParams } from "./startup-params";

/** The attribution to send with a registration or exchange, from what start-up stored. */
export function storedAttribution(): { share?: string; source?: string; sourceDetail?: string } {
  const result: { share?: string; source?: string; sourceDetail?: string } = {};
  const share = readString("shareId");
  const source = readString("source");
  const sourceDetail = readString("sourceDetail");
  if (share) result.share = share;
  if (source) result.source = source;
  if (sourceDetail) result.sourceDetail = sourceDetail;
  return result;
}

/**
 * Start-up, part one, awaited before the first render so the route guard sees the result:
 * store invite, share and source; exchange a `code` or `loginCode` for a session; take those
 * parameters out of the address. Failures are ignored (spec §8).
 */
export async function exchangeFromAddress(): Promise<void> {
  const params = readStartupParams(window.location.search);
  // A team invitation (tm_…) waits for the join dialog; anything else is a referral code for registration.
  if (params.inviteParam) writeString(isTeamInvite(params.inviteParam) ? "teamInviteParam" : "inviteParam", params.inviteParam);
  if (params.share) writeString("shareId", params.share);
  if (params.source) {
    writeString("source", params.source);
    const referrer = document.referrer;
    if (referrer && !referrer.startsWith(window.location.origin)) writeString("sourceDetail", referrer);
  }
  if (params.code || params.loginCode) {
    const body = params.code ? { code: params.code } : { loginCode: params.loginCode };
    const result = await endpoints.auth.exchange({ ...body, ...storedAttribution() }, { startup: true });
    if (result.ok) sessionStore.signIn(result.data);
  }
  if (STARTUP_PARAMS.some((name) => new URLSearchParams(window.location.search).has(name))) {
    const { pathname, hash } = window.location;
    window.history.replaceState(window.history.state, "", `${pathname}${stripStartupParams(window.location.search)}${hash}`);
  }
}

/** Loads the current user's privileges (menus) for their plan grade. */
export async function refreshPrivileges(): Promise<void> {
  const grade = sessionStore.get().user?.memberGrade ?? "FREE";
  const result = await endpoints.privileges(grade, { startup: true });
  if (result.ok) sessionStore.setPrivileges(result.data);
}

/** Reloads the space list (userList / nowSelect). */
export async function refreshSpaces(): Promise<void> {
  const result = await endpoints.me.spaces({ startup: true });
  if (result.ok) sessionStore.setSpaces(result.data);
}

/**
 * Start-up, part two, in the background: refresh the user, their spaces and their menus.
 * A stored language choice wins over the account's; without one, the account's applies.
 */
export async function refreshSession(): Promise<void> {
  if (!sessionStore.get().token) return;
  const me = await endpoints.me.get({ startup: true });
  if (me.ok) {
    sessionStore.setUser(me.data);
    if (readString("language") === undefined && normaliseLanguage(me.data.language) !== currentLanguage()) {
      await changeLanguage(normaliseLanguage(me.data.language));
    }
  }
  await Promise.all([refreshSpaces(), refreshPrivileges()]);
}
