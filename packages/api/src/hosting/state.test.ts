import { describe, expect, it } from "vitest";
import { ServiceError } from "../errors";
import { translate } from "../http/translate";
import {
  type AccountAction,
  accountTransitions,
  availableAccountActions,
  type GroupAction,
  groupTransitions,
  hostedAccountStates,
  hostedGroupStates,
  nextAccountState,
  nextGroupState,
} from "./state";

function conflictOf(run: () => unknown): ServiceError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error("expected a conflict");
}

describe("hosted account state machine", () => {
  const expected: Record<AccountAction, Record<string, string>> = {
    request_qr_code: { logged_out: "qr_pending", qr_pending: "qr_pending", offline: "qr_pending", expired: "qr_pending" },
    require_verify_code: { qr_pending: "verify_code_pending" },
    submit_verify_code: { verify_code_pending: "verify_code_pending" },
    confirm_login: { qr_pending: "online", verify_code_pending: "online" },
    expire_login: { qr_pending: "expired", verify_code_pending: "expired" },
    switch_on: { paused: "online" },
    switch_off: { online: "paused" },
    lose_connection: { online: "offline", paused: "offline" },
    reconnect: { offline: "online" },
    expire_session: { online: "expired", paused: "expired", offline: "expired" },
    log_out: {
      qr_pending: "logged_out",
      verify_code_pending: "logged_out",
      online: "logged_out",
      paused: "logged_out",
      offline: "logged_out",
      expired: "logged_out",
    },
    sync_groups: { online: "online", paused: "paused" },
    send: { online: "online" },
    delete: { logged_out: "logged_out", offline: "offline", expired: "expired" },
  };

  it("covers every action", () => {
    expect(Object.keys(expected).sort()).toEqual(Object.keys(accountTransitions).sort());
  });

  for (const action of Object.keys(expected) as AccountAction[]) {
    for (const state of hostedAccountStates) {
      const to = expected[action][state];
      if (to) {
        it(`${action} from ${state} → ${to}`, () => expect(nextAccountState(state, action)).toBe(to));
      } else {
        it(`${action} from ${state} is a 409 naming both`, () => {
          const error = conflictOf(() => nextAccountState(state, action));
          expect(error.kind).toBe("conflict");
          expect(error.messageId).toBe("hosting_transition_invalid");
          const en = translate("en", error.messageId, error.params);
          const zh = translate("zh-CN", error.messageId, error.params);
          // Both languages render the action and the state in words, not as ids.
          expect(en).toMatch(/^Cannot .+: the hosted account is .+$/);
          expect(en).not.toContain("hosting.");
          expect(zh).not.toContain("hosting.");
          expect(zh).toMatch(/^无法.+：托管账号当前.+$/);
        });
      }
    }
  }

  it("offers the owner only the actions the state allows", () => {
    expect(availableAccountActions("logged_out")).toEqual(["request_qr_code", "delete"]);
    expect(availableAccountActions("online")).toEqual(["switch_off", "log_out", "sync_groups"]);
    expect(availableAccountActions("paused")).toEqual(["switch_on", "log_out", "sync_groups"]);
    expect(availableAccountActions("verify_code_pending")).toEqual(["submit_verify_code", "log_out"]);
  });
});

describe("hosted group state machine", () => {
  const expected: Record<GroupAction, Record<string, string>> = {
    open: { waiting: "open", paused: "open", cancelled: "open" },
    pause: { open: "paused" },
    cancel: { waiting: "cancelled", open: "cancelled", paused: "cancelled" },
  };

  it("covers every action", () => {
    expect(Object.keys(expected).sort()).toEqual(Object.keys(groupTransitions).sort());
  });

  for (const action of Object.keys(expected) as GroupAction[]) {
    for (const state of hostedGroupStates) {
      const to = expected[action][state];
      if (to) {
        it(`${action} from ${state} → ${to}`, () => expect(nextGroupState(state, action)).toBe(to));
      } else {
        it(`${action} from ${state} is a 409`, () => {
          const error = conflictOf(() => nextGroupState(state, action));
          expect(error.kind).toBe("conflict");
          expect(error.messageId).toBe("hosting_group_transition_invalid");
          expect(translate("en", error.messageId, error.params)).toMatch(/^Cannot .+: the group chat is [a-z ]+$/);
          expect(translate("zh-CN", error.messageId, error.params)).not.toContain("hosting.");
        });
      }
    }
  }
});
