import { hostedAccountStates, hostedGroupStates } from "../db/schema/hosting";
import { ServiceError } from "../errors";

export { hostedAccountStates, hostedGroupStates };

/** One of {@link hostedAccountStates}. */
export type HostedAccountState = (typeof hostedAccountStates)[number];

/** One of {@link hostedGroupStates}. */
export type HostedGroupState = (typeof hostedGroupStates)[number];

/**
 * What can happen to a hosted account. `to: null` marks an action that needs the account in
 * one of the `from` states but leaves the state as it is.
 *
 * ```
 * logged_out ─request_qr_code→ qr_pending ─require_verify_code→ verify_code_pending
 *                              qr_pending | verify_code_pending ─confirm_login→ online
 *                              qr_pending | verify_code_pending ─expire_login→ expired
 * online ─switch_off→ paused ─switch_on→ online
 * online | paused ─lose_connection→ offline ─reconnect→ online
 * online | paused | offline ─expire_session→ expired
 * offline | expired ─request_qr_code→ qr_pending (log in again)
 * any but logged_out ─log_out→ logged_out
 * ```
 */
export const accountTransitions = {
  request_qr_code: { from: ["logged_out", "qr_pending", "offline", "expired"], to: "qr_pending" },
  require_verify_code: { from: ["qr_pending"], to: "verify_code_pending" },
  submit_verify_code: { from: ["verify_code_pending"], to: null },
  confirm_login: { from: ["qr_pending", "verify_code_pending"], to: "online" },
  expire_login: { from: ["qr_pending", "verify_code_pending"], to: "expired" },
  switch_on: { from: ["paused"], to: "online" },
  switch_off: { from: ["online"], to: "paused" },
  lose_connection: { from: ["online", "paused"], to: "offline" },
  reconnect: { from: ["offline"], to: "online" },
  expire_session: { from: ["online", "paused", "offline"], to: "expired" },
  log_out: { from: ["qr_pending", "verify_code_pending", "online", "paused", "offline", "expired"], to: "logged_out" },
  sync_groups: { from: ["online", "paused"], to: null },
  send: { from: ["online"], to: null },
  delete: { from: ["logged_out", "offline", "expired"], to: null },
} as const satisfies Record<string, { from: readonly HostedAccountState[]; to: HostedAccountState | null }>;

/** A key of {@link accountTransitions}. */
export type AccountAction = keyof typeof accountTransitions;

/** The actions an owner starts from the console (the others come from the bridge). */
export const ownerAccountActions = [
  "request_qr_code",
  "submit_verify_code",
  "switch_on",
  "switch_off",
  "log_out",
  "sync_groups",
  "delete",
] as const satisfies readonly AccountAction[];

/**
 * What can happen to a group chat: `open` lets the bot answer in it, `pause` stops it for a
 * while, `cancel` takes the group out of hosting (it stays listed and may be opened again).
 * A synced group starts `waiting`.
 */
export const groupTransitions = {
  open: { from: ["waiting", "paused", "cancelled"], to: "open" },
  pause: { from: ["open"], to: "paused" },
  cancel: { from: ["waiting", "open", "paused"], to: "cancelled" },
} as const satisfies Record<string, { from: readonly HostedGroupState[]; to: HostedGroupState }>;

/** A key of {@link groupTransitions}. */
export type GroupAction = keyof typeof groupTransitions;

/** Whether `action` may happen to an account in `state`. */
export function canAccount(state: HostedAccountState, action: AccountAction): boolean {
  return (accountTransitions[action].from as readonly HostedAccountState[]).includes(state);
}

/**
 * The state an account in `state` moves to on `action` (the same state for actions that only
 * need it); a 409 `hosting_transition_invalid` naming both when the action is not allowed.
 */
export function nextAccountState(state: HostedAccountState, action: AccountAction): HostedAccountState {
  if (!canAccount(state, action)) {
    throw new ServiceError("conflict", "hosting_transition_invalid", { action: `hosting.action.${action}`, state: `hosting.state.${state}` });
  }
  return accountTransitions[action].to ?? state;
}

/** The owner actions open to an account in `state`, for the console's buttons. */
export function availableAccountActions(state: HostedAccountState): AccountAction[] {
  return ownerAccountActions.filter((action) => canAccount(state, action));
}

/** The state a group in `state` moves to on `action`; a 409 `hosting_group_transition_invalid` when not allowed. */
export function nextGroupState(state: HostedGroupState, action: GroupAction): HostedGroupState {
  if (!(groupTransitions[action].from as readonly HostedGroupState[]).includes(state)) {
    throw new ServiceError("conflict", "hosting_group_transition_invalid", { action: `hosting.group_action.${action}`, state: `hosting.group_state.${state}` });
  }
  return groupTransitions[action].to;
}
