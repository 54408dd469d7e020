import { and, asc, count, desc, eq, isNull, or, type SQL, sql } from "drizzle-orm";
import { followsApp, reachesAll } from "../access/follow";
import { inRange } from "../access/range";
import { getAppForChat } from "../apps/service/index";
import { newId } from "../crypto";
import { hostedAccounts, hostedGroups } from "../db/schema/index";
import { ServiceError } from "../errors";
import type { Auth, Deps } from "../kernel";
import { type HostingBridge, type HostingBridgeEvent, type HostingProfile, hostingBridgeOf, officialRoutes } from "./bridge";
import {
  type AccountAction,
  availableAccountActions,
  groupTransitions,
  type GroupAction,
  type HostedGroupState,
  nextAccountState,
  nextGroupState,
} from "./state";
import { checkFeature } from "../plans/service/quotas";

export type HostedAccountRow = typeof hostedAccounts.$inferSelect;
export type HostedGroupRow = typeof hostedGroups.$inferSelect;

/** How a hosted account answers. */
export interface HostingConfig {
  answerPrivateChats: boolean;
  groupTrigger: "mention" | "all";
  replyDelaySeconds: number;
}

const defaultConfig: HostingConfig = { answerPrivateChats: false, groupTrigger: "mention", replyDelaySeconds: 2 };

function configOf(row: HostedAccountRow): HostingConfig {
  try {
    const stored = JSON.parse(row.config) as Partial<HostingConfig>;
    return { ...defaultConfig, ...(stored && typeof stored === "object" ? stored : {}) };
  } catch {
    return defaultConfig;
  }
}

/** Which bridge is installed, and the official routes that cover the need without one. */
export function hostingOverview(deps: Deps) {
  const bridge = hostingBridgeOf(deps);
  return { name: bridge.name, configured: bridge.configured, officialRoutes: officialRoutes.map((route) => ({ ...route })) };
}

/** The installed bridge, or the `hosting_bridge_not_configured` error: the first step of every login call. */
function requireBridge(deps: Deps): HostingBridge {
  const bridge = hostingBridgeOf(deps);
  if (!bridge.configured) throw new ServiceError("forbidden", "hosting_bridge_not_configured");
  return bridge;
}

/** A login in progress or a session held by another bridge cannot be continued by this one. */
function requireSameBridge(bridge: HostingBridge, row: HostedAccountRow) {
  if (!bridge.configured) throw new ServiceError("forbidden", "hosting_bridge_not_configured");
  if (row.bridge !== bridge.name) throw new ServiceError("conflict", "hosting_bridge_mismatch", { bridge: row.bridge });
}

/** Runs a bridge call; anything but our own errors becomes a 502 naming the bridge's reason. */
async function callBridge<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw new ServiceError("external", "hosting_bridge_failed", { reason: (error instanceof Error ? error.message : String(error)).slice(0, 200) });
  }
}

function openSession(deps: Pick<Deps, "logger" | "secrets">, row: HostedAccountRow): string | null {
  if (!row.session) return null;
  try {
    return deps.secrets.open(row.session);
  } catch {
    deps.logger.warn("hosted account session cannot be opened with this instance key", { accountId: row.id });
    return null;
  }
}

async function groupCounts(deps: Pick<Deps, "db">, accountId: string) {
  const rows = await deps.db
    .select({ state: hostedGroups.state, n: count() })
    .from(hostedGroups)
    .where(eq(hostedGroups.accountId, accountId))
    .groupBy(hostedGroups.state);
  return { total: rows.reduce((sum, row) => sum + row.n, 0), open: rows.find((row) => row.state === "open")?.n ?? 0 };
}

/** The owner's view: never the bridge's session. */
export async function hostedAccountView(deps: Pick<Deps, "db">, row: HostedAccountRow) {
  return {
    id: row.id,
    name: row.name,
    appId: row.appId,
    state: row.state,
    actions: availableAccountActions(row.state),
    bridge: row.bridge,
    qrCode: row.qrCode,
    loginExpiresAt: row.loginExpiresAt,
    verifyHint: row.verifyHint,
    profile: row.externalId ? { externalId: row.externalId, nickname: row.nickname, avatarUrl: row.avatarUrl } : null,
    config: configOf(row),
    groups: await groupCounts(deps, row.id),
    stateChangedAt: row.stateChangedAt,
    lastError: row.lastError,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function groupView(row: HostedGroupRow) {
  return {
    id: row.id,
    accountId: row.accountId,
    externalId: row.externalId,
    name: row.name,
    memberCount: row.memberCount,
    state: row.state,
    actions: (Object.keys(groupTransitions) as GroupAction[]).filter((action) =>
      (groupTransitions[action].from as readonly HostedGroupState[]).includes(row.state),
    ),
    present: row.present,
    syncedAt: row.syncedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/**
 * The hosted accounts the caller reaches: those answering with an app in their data range, and
 * those not bound to an app yet (nothing of anyone's is behind them).
 */
function accountRange(auth: Auth): SQL | undefined {
  const range = followsApp(auth, hostedAccounts.appId);
  return range ? or(isNull(hostedAccounts.appId), range) : undefined;
}

async function loadAccount(deps: Pick<Deps, "db">, auth: Auth, id: string): Promise<HostedAccountRow> {
  const row = await deps.db
    .select()
    .from(hostedAccounts)
    .where(and(eq(hostedAccounts.id, id), eq(hostedAccounts.spaceId, auth.spaceId), accountRange(auth)))
    .get();
  if (!row) throw new ServiceError("not_found", "hosting_account_not_found");
  return row;
}

async function loadGroup(deps: Pick<Deps, "db">, auth: Auth, id: string): Promise<HostedGroupRow> {
  const row = await deps.db
    .select()
    .from(hostedGroups)
    .where(
      and(
        eq(hostedGroups.id, id),
        eq(hostedGroups.spaceId, auth.spaceId),
        reachesAll(auth)
          ? undefined
          : sql`${hostedGroups.accountId} in (select ${hostedAccounts.id} from ${hostedAccounts} where ${and(eq(hostedAccounts.spaceId, auth.spaceId), accountRange(auth))})`,
      ),
    )
    .get();
  if (!row) throw new ServiceError("not_found", "hosting_group_not_found");
  return row;
}

/** The app an account answers with: an app of the caller's space in their data range (400 naming `appId` otherwise). */
async function checkApp(deps: Pick<Deps, "db" | "secrets">, auth: Auth, appId: string) {
  const app = await getAppForChat(deps, { appId, spaceId: auth.spaceId }).catch(() => undefined);
  if (!app || !inRange(auth, "app", app)) throw new ServiceError("validation", "not_found", { what: "app" }, { field: "appId" });
}

/**
 * Moves an account by `action` (409 when the state does not allow it). The update only lands if
 * nobody moved the account meanwhile; otherwise the answer is the 409 for the state it is in now.
 */
async function transition(
  deps: Pick<Deps, "db" | "now">,
  row: HostedAccountRow,
  action: AccountAction,
  patch: Partial<HostedAccountRow> = {},
): Promise<HostedAccountRow> {
  const to = nextAccountState(row.state, action);
  const now = deps.now().toISOString();
  const [updated] = await deps.db
    .update(hostedAccounts)
    .set({ ...patch, state: to, ...(to !== row.state ? { stateChangedAt: now } : {}), updatedAt: now })
    .where(and(eq(hostedAccounts.id, row.id), eq(hostedAccounts.state, row.state)))
    .returning();
  if (updated) return updated;
  const fresh = await deps.db.select().from(hostedAccounts).where(eq(hostedAccounts.id, row.id)).get();
  if (!fresh) throw new ServiceError("not_found", "hosting_account_not_found");
  nextAccountState(fresh.state, action);
  // Allowed from the new state too, but the bridge answered for the old one: let the caller retry.
  throw new ServiceError("conflict", "hosting_transition_invalid", { action: `hosting.action.${action}`, state: `hosting.state.${fresh.state}` });
}

const clearedLogin = { loginId: null, qrCode: null, loginExpiresAt: null, verifyHint: null } as const;

function loggedIn(deps: Pick<Deps, "secrets">, profile: HostingProfile, session: string): Partial<HostedAccountRow> {
  return {
    ...clearedLogin,
    externalId: profile.externalId,
    nickname: profile.nickname,
    avatarUrl: profile.avatarUrl ?? "",
    session: deps.secrets.seal(session),
    lastError: null,
  };
}

export async function listHostedAccounts(deps: Pick<Deps, "db">, auth: Auth) {
  const rows = await deps.db
    .select()
    .from(hostedAccounts)
    .where(and(eq(hostedAccounts.spaceId, auth.spaceId), accountRange(auth)))
    .orderBy(desc(hostedAccounts.createdAt), desc(hostedAccounts.id));
  return Promise.all(rows.map((row) => hostedAccountView(deps, row)));
}

export async function getHostedAccount(deps: Pick<Deps, "db">, auth: Auth, id: string) {
  return hostedAccountView(deps, await loadAccount(deps, auth, id));
}

/**
 * Starts a QR login: for a new account (nothing is stored unless the bridge hands out a code),
 * or to log an existing one in again (from logged_out, offline, expired, or for a fresh code).
 */
export async function requestQrCode(deps: Deps, auth: Auth, input: { accountId?: string | undefined; appId?: string | undefined; name?: string | undefined }) {
  const bridge = requireBridge(deps);
  // Another space's account answers 404 before the plan is looked at.
  const existing = input.accountId ? await loadAccount(deps, auth, input.accountId) : undefined;
  await checkFeature(deps, auth.spaceId, "hosting");
  const now = deps.now();
  if (input.accountId) {
    const row = existing!;
    nextAccountState(row.state, "request_qr_code");
    if (input.appId !== undefined) await checkApp(deps, auth, input.appId);
    const code = await callBridge(() => bridge.requestQrCode({ accountId: row.id }));
    const updated = await transition(deps, row, "request_qr_code", {
      bridge: bridge.name,
      loginId: code.loginId,
      qrCode: code.qrCode,
      loginExpiresAt: new Date(code.expiresAt).toISOString(),
      verifyHint: null,
      session: "",
      lastError: null,
      ...(input.appId !== undefined ? { appId: input.appId } : {}),
      ...(input.name !== undefined ? { name: input.name } : {}),
    });
    return hostedAccountView(deps, updated);
  }
  if (input.appId !== undefined) await checkApp(deps, auth, input.appId);
  const id = newId("hacc");
  const state = nextAccountState("logged_out", "request_qr_code");
  const code = await callBridge(() => bridge.requestQrCode({ accountId: id }));
  const [row] = await deps.db
    .insert(hostedAccounts)
    .values({
      id,
      spaceId: auth.spaceId,
      appId: input.appId ?? null,
      name: input.name ?? "WeChat",
      state,
      bridge: bridge.name,
      loginId: code.loginId,
      qrCode: code.qrCode,
      loginExpiresAt: new Date(code.expiresAt).toISOString(),
      stateChangedAt: now.toISOString(),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .returning();
  return hostedAccountView(deps, row!);
}

type Progress = "none" | "waiting" | "scanned" | "verify_code_required" | "confirmed" | "expired";

function loginRanOut(deps: Pick<Deps, "now">, row: HostedAccountRow): boolean {
  return row.loginExpiresAt !== null && deps.now().toISOString() >= row.loginExpiresAt;
}

/**
 * Where a login stands: asks the bridge while one is pending and applies what it reports
 * (verification code wanted, logged in, expired). A code past its expiry expires without asking.
 */
export async function loginStatus(deps: Deps, auth: Auth, accountId: string) {
  const bridge = requireBridge(deps);
  const row = await loadAccount(deps, auth, accountId);
  if (row.state !== "qr_pending" && row.state !== "verify_code_pending") return { account: await hostedAccountView(deps, row), progress: "none" as Progress };
  requireSameBridge(bridge, row);
  if (loginRanOut(deps, row)) {
    return { account: await hostedAccountView(deps, await transition(deps, row, "expire_login", clearedLogin)), progress: "expired" as Progress };
  }
  const progress = await callBridge(() => bridge.pollLogin({ accountId: row.id, loginId: row.loginId ?? "" }));
  let updated = row;
  if (progress.status === "verify_code_required" && row.state === "qr_pending") {
    updated = await transition(deps, row, "require_verify_code", {
      qrCode: null,
      verifyHint: progress.hint ?? null,
      ...(progress.expiresAt !== undefined ? { loginExpiresAt: new Date(progress.expiresAt).toISOString() } : {}),
    });
  } else if (progress.status === "confirmed") {
    updated = await transition(deps, row, "confirm_login", loggedIn(deps, progress.profile, progress.session));
  } else if (progress.status === "expired") {
    updated = await transition(deps, row, "expire_login", clearedLogin);
  }
  return { account: await hostedAccountView(deps, updated), progress: progress.status as Progress };
}

/** Hands the platform's verification code to the bridge (only while `verify_code_pending`). */
export async function submitVerifyCode(deps: Deps, auth: Auth, input: { accountId: string; code: string }) {
  const bridge = requireBridge(deps);
  const row = await loadAccount(deps, auth, input.accountId);
  nextAccountState(row.state, "submit_verify_code");
  requireSameBridge(bridge, row);
  if (loginRanOut(deps, row)) return hostedAccountView(deps, await transition(deps, row, "expire_login", clearedLogin));
  const outcome = await callBridge(() => bridge.submitVerifyCode({ accountId: row.id, loginId: row.loginId ?? "", code: input.code }));
  if (outcome.status === "wrong_code") throw new ServiceError("validation", "hosting_verify_code_wrong", {}, { field: "code" });
  if (outcome.status === "expired") return hostedAccountView(deps, await transition(deps, row, "expire_login", clearedLogin));
  return hostedAccountView(deps, await transition(deps, row, "confirm_login", loggedIn(deps, outcome.profile, outcome.session)));
}

/** Switches hosting on (the bot answers again) or off (the account stays logged in, the bot is quiet). */
export async function switchHostedAccount(deps: Pick<Deps, "db" | "now">, auth: Auth, id: string, on: boolean) {
  const row = await loadAccount(deps, auth, id);
  // Switching off stays possible after a downgrade: the owner can always stop the bot.
  if (on) await checkFeature(deps, auth.spaceId, "hosting");
  return hostedAccountView(deps, await transition(deps, row, on ? "switch_on" : "switch_off"));
}

/**
 * Logs the account out. The bridge is told when it holds the login; if it fails, the account is
 * logged out here all the same (the owner must always be able to stop Parley acting as it) and
 * the failure is kept in `lastError`.
 */
export async function logOutHostedAccount(deps: Deps, auth: Auth, id: string) {
  const row = await loadAccount(deps, auth, id);
  nextAccountState(row.state, "log_out");
  const bridge = hostingBridgeOf(deps);
  let lastError: string | null = null;
  if (bridge.configured && bridge.name === row.bridge) {
    try {
      await bridge.logout({ accountId: row.id, loginId: row.loginId, session: openSession(deps, row) });
    } catch (error) {
      lastError = `logout: ${(error instanceof Error ? error.message : String(error)).slice(0, 200)}`;
      deps.logger.warn("hosting bridge logout failed", { accountId: row.id, error: lastError });
    }
  }
  return hostedAccountView(deps, await transition(deps, row, "log_out", { ...clearedLogin, session: "", lastError }));
}

/** Deletes an account that is not logged in (its groups go with it). */
export async function deleteHostedAccount(deps: Pick<Deps, "db">, auth: Auth, id: string) {
  const row = await loadAccount(deps, auth, id);
  nextAccountState(row.state, "delete");
  await deps.db.delete(hostedAccounts).where(and(eq(hostedAccounts.id, row.id), eq(hostedAccounts.state, row.state)));
  return { deleted: true as const };
}

/** Binds the app that answers for the account (null: none). */
export async function bindHostedApp(deps: Pick<Deps, "db" | "now" | "secrets">, auth: Auth, id: string, appId: string | null) {
  const row = await loadAccount(deps, auth, id);
  if (appId !== null) await checkApp(deps, auth, appId);
  const [updated] = await deps.db.update(hostedAccounts).set({ appId, updatedAt: deps.now().toISOString() }).where(eq(hostedAccounts.id, row.id)).returning();
  return hostedAccountView(deps, updated!);
}

export async function getHostingConfig(deps: Pick<Deps, "db">, auth: Auth, id: string) {
  return configOf(await loadAccount(deps, auth, id));
}

export async function saveHostingConfig(deps: Pick<Deps, "db" | "now">, auth: Auth, id: string, input: Partial<HostingConfig>) {
  const row = await loadAccount(deps, auth, id);
  const config = { ...configOf(row), ...Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) };
  await deps.db
    .update(hostedAccounts)
    .set({ config: JSON.stringify(config), updatedAt: deps.now().toISOString() })
    .where(eq(hostedAccounts.id, row.id));
  return config;
}

export async function listHostedGroups(deps: Pick<Deps, "db">, auth: Auth, accountId: string, state?: HostedGroupState) {
  const account = await loadAccount(deps, auth, accountId);
  const rows = await deps.db
    .select()
    .from(hostedGroups)
    .where(and(eq(hostedGroups.accountId, account.id), ...(state ? [eq(hostedGroups.state, state)] : [])))
    .orderBy(asc(hostedGroups.name), asc(hostedGroups.id));
  return rows.map(groupView);
}

/**
 * Syncs the group chats from the bridge: new ones arrive `waiting` to be opened, known ones keep
 * their state and take the new name, ones no longer listed are marked not present.
 */
export async function syncHostedGroups(deps: Deps, auth: Auth, accountId: string) {
  const row = await loadAccount(deps, auth, accountId);
  nextAccountState(row.state, "sync_groups");
  const bridge = hostingBridgeOf(deps);
  requireSameBridge(bridge, row);
  const session = openSession(deps, row) ?? "";
  const listed = await callBridge(() => bridge.listGroups({ accountId: row.id, session }));
  const now = deps.now().toISOString();
  const known = new Map((await deps.db.select().from(hostedGroups).where(eq(hostedGroups.accountId, row.id))).map((group) => [group.externalId, group]));
  const seen = new Set<string>();
  for (const group of listed) {
    if (seen.has(group.externalId)) continue;
    seen.add(group.externalId);
    const existing = known.get(group.externalId);
    const fields = { name: group.name.slice(0, 200), memberCount: group.memberCount ?? 0, present: true, syncedAt: now, updatedAt: now };
    if (existing) await deps.db.update(hostedGroups).set(fields).where(eq(hostedGroups.id, existing.id));
    else
      await deps.db
        .insert(hostedGroups)
        .values({ id: newId("hgrp"), spaceId: row.spaceId, accountId: row.id, externalId: group.externalId, state: "waiting", createdAt: now, ...fields });
  }
  for (const group of known.values()) {
    if (!seen.has(group.externalId) && group.present)
      await deps.db.update(hostedGroups).set({ present: false, updatedAt: now }).where(eq(hostedGroups.id, group.id));
  }
  return listHostedGroups(deps, auth, row.id);
}

/** Opens a group (the bot answers in it), switches it off, or cancels its hosting. */
export async function moveHostedGroup(deps: Pick<Deps, "db" | "now">, auth: Auth, groupId: string, action: GroupAction) {
  const row = await loadGroup(deps, auth, groupId);
  const to = nextGroupState(row.state, action);
  const [updated] = await deps.db
    .update(hostedGroups)
    .set({ state: to, updatedAt: deps.now().toISOString() })
    .where(and(eq(hostedGroups.id, row.id), eq(hostedGroups.state, row.state)))
    .returning();
  if (!updated) {
    const fresh = await loadGroup(deps, auth, groupId);
    nextGroupState(fresh.state, action);
    throw new ServiceError("conflict", "hosting_group_transition_invalid", {
      action: `hosting.group_action.${action}`,
      state: `hosting.group_state.${fresh.state}`,
    });
  }
  return groupView(updated);
}

const eventActions: Record<HostingBridgeEvent["type"], AccountAction> = {
  connection_lost: "lose_connection",
  reconnected: "reconnect",
  session_expired: "expire_session",
};

/**
 * What a bridge calls when it notices something on its own (the phone went offline, the
 * platform ended the session). Not scoped to a space: the bridge is part of the server.
 */
export async function reportHostingEvent(deps: Pick<Deps, "db" | "now">, accountId: string, event: HostingBridgeEvent) {
  const row = await deps.db.select().from(hostedAccounts).where(eq(hostedAccounts.id, accountId)).get();
  if (!row) throw new ServiceError("not_found", "hosting_account_not_found");
  const action = eventActions[event.type];
  const updated = await transition(deps, row, action, action === "expire_session" ? { session: "" } : {});
  return hostedAccountView(deps, updated);
}

/**
 * Sends the bot's answer into a group chat through the bridge: only when the account is online
 * (not switched off, offline or logged out) and the group is open.
 */
export async function sendToHostedGroup(deps: Deps, groupId: string, text: string) {
  const group = await deps.db.select().from(hostedGroups).where(eq(hostedGroups.id, groupId)).get();
  if (!group) throw new ServiceError("not_found", "hosting_group_not_found");
  const account = await deps.db.select().from(hostedAccounts).where(eq(hostedAccounts.id, group.accountId)).get();
  if (!account) throw new ServiceError("not_found", "hosting_account_not_found");
  nextAccountState(account.state, "send");
  if (group.state !== "open") {
    throw new ServiceError("conflict", "hosting_group_transition_invalid", {
      action: "hosting.group_action.answer",
      state: `hosting.group_state.${group.state}`,
    });
  }
  const bridge = hostingBridgeOf(deps);
  requireSameBridge(bridge, account);
  const session = openSession(deps, account) ?? "";
  return callBridge(() => bridge.sendText({ accountId: account.id, session, to: { kind: "group", externalId: group.externalId }, text }));
}
