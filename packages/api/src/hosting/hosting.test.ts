import { z } from "@hono/zod-openapi";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { newId } from "../crypto";
import { hostedAccounts, hostedGroups } from "../db/schema/index";
import { ServiceError } from "../errors";
import { expectError, expectOk, manualClock } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import {
  type HostingBridge,
  type HostingGroupInfo,
  type HostingLoginProgress,
  type HostingRecipient,
  type HostingVerifyOutcome,
  noHostingBridge,
  useHostingBridge,
} from "./bridge";
import { hostedAccountSchema, hostedGroupSchema, hostingBridgeSchema, hostingConfigSchema, loginStatusSchema } from "./schemas";
import { reportHostingEvent, sendToHostedGroup } from "./service";
import { type HostedAccountState, type HostedGroupState, accountTransitions, groupTransitions, hostedAccountStates, hostedGroupStates } from "./state";

/**
 * An in-memory bridge: it hands out QR codes and logs in when the test tells it to, as if a
 * person had scanned the code (and typed the verification code) on their phone.
 */
class MemoryBridge implements HostingBridge {
  readonly name = "memory";
  readonly configured = true;
  private counter = 0;
  readonly logins = new Map<string, { accountId: string; progress: HostingLoginProgress; code?: string }>();
  /** Group chats per session. */
  readonly groups = new Map<string, HostingGroupInfo[]>();
  readonly sent: { accountId: string; session: string; to: HostingRecipient; text: string }[] = [];
  readonly loggedOut: { accountId: string; session: string | null }[] = [];
  /** The next call of this name throws (a bridge outage). */
  failing: string | null = null;

  constructor(private readonly now: () => number) {}

  private check(call: string) {
    if (this.failing === call) {
      this.failing = null;
      throw new Error(`${call} timed out`);
    }
  }

  async requestQrCode({ accountId }: { accountId: string }) {
    this.check("requestQrCode");
    const loginId = `login-${++this.counter}`;
    this.logins.set(loginId, { accountId, progress: { status: "waiting" } });
    return { loginId, qrCode: `https://bridge.test/qr/${loginId}`, expiresAt: this.now() + 120_000 };
  }

  async pollLogin({ loginId }: { loginId: string }) {
    this.check("pollLogin");
    return this.logins.get(loginId)?.progress ?? { status: "waiting" as const };
  }

  async submitVerifyCode({ loginId, code }: { loginId: string; code: string }): Promise<HostingVerifyOutcome> {
    const login = this.logins.get(loginId);
    if (!login || login.code !== code) return { status: "wrong_code" };
    return { status: "confirmed", profile: { externalId: `wxid_${login.accountId}`, nickname: "Front desk" }, session: `session-of-${loginId}` };
  }

  async logout({ accountId, session }: { accountId: string; session: string | null }) {
    this.check("logout");
    this.loggedOut.push({ accountId, session });
  }

  async listGroups({ session }: { session: string }) {
    return this.groups.get(session) ?? [];
  }

  async sendText(input: { accountId: string; session: string; to: HostingRecipient; text: string }) {
    this.sent.push(input);
    return { ids: [`sent-${this.sent.length}`] };
  }

  // What the person does on the phone.
  scan(loginId: string) {
    this.logins.get(loginId)!.progress = { status: "scanned" };
  }
  askForCode(loginId: string, code: string) {
    const login = this.logins.get(loginId)!;
    login.code = code;
    login.progress = { status: "verify_code_required", hint: "SMS to +86 138****0000" };
  }
  confirm(loginId: string, nickname = "Front desk") {
    const login = this.logins.get(loginId)!;
    login.progress = { status: "confirmed", profile: { externalId: `wxid_${login.accountId}`, nickname }, session: `session-of-${loginId}` };
  }
  expire(loginId: string) {
    this.logins.get(loginId)!.progress = { status: "expired" };
  }
  /** The login id the bridge gave an account last. */
  loginOf(accountId: string): string {
    return [...this.logins].reverse().find(([, login]) => login.accountId === accountId)![0];
  }
}

type Account = z.infer<typeof hostedAccountSchema>;
type Group = z.infer<typeof hostedGroupSchema>;

const clock = manualClock();
let ctx: TestContext;
let bridge: MemoryBridge;
let owner: TestUser;
let stranger: TestUser;
let appId: string;

beforeAll(async () => {
  ctx = await createTestContext({}, { now: clock.now });
  bridge = new MemoryBridge(() => clock.now().getTime());
  useHostingBridge(ctx.deps, bridge);
  owner = await registerUser(ctx, "owner-hosting@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  stranger = await registerUser(ctx, "stranger-hosting@example.com");
  appId = (await createAppVia(ctx, owner, { name: "Front desk bot" })).id;
});

afterAll(async () => {
  await ctx?.close();
});

function call(path: string, init: { method?: string; json?: unknown; user?: TestUser; language?: string } = {}) {
  const { user = owner, language, ...rest } = init;
  return ctx.request(path, {
    method: rest.method ?? (rest.json !== undefined ? "POST" : "GET"),
    ...(rest.json !== undefined ? { json: rest.json } : {}),
    token: user.token,
    headers: language ? { "accept-language": language } : {},
  });
}

const post = (path: string, json: unknown = {}, user?: TestUser) => call(path, { method: "POST", json, ...(user ? { user } : {}) });

async function startLogin(body: Record<string, unknown> = { appId, name: "Front desk" }): Promise<Account> {
  return expectOk(await post("/api/v1/hosting/login/qr-code", body), 201, hostedAccountSchema);
}

async function status(accountId: string) {
  return expectOk(await call(`/api/v1/hosting/login/status?accountId=${accountId}`), 200, loginStatusSchema);
}

async function storedAccount(id: string) {
  return ctx.deps.db.select().from(hostedAccounts).where(eq(hostedAccounts.id, id)).get();
}

/** An account logged in straight through the QR code (no verification code). */
async function onlineAccount(): Promise<Account> {
  const account = await startLogin();
  bridge.confirm(bridge.loginOf(account.id));
  return (await status(account.id)).account;
}

/** A stored account in any state, as the bridge would have left it. */
async function accountIn(state: HostedAccountState, bridgeName = "memory") {
  const id = newId("hacc");
  const now = clock.now().toISOString();
  await ctx.deps.db.insert(hostedAccounts).values({
    id,
    spaceId: owner.user.spaceId,
    name: `In ${state}`,
    state,
    bridge: bridgeName,
    loginId: state === "qr_pending" || state === "verify_code_pending" ? `stored-${id}` : null,
    loginExpiresAt: state === "qr_pending" || state === "verify_code_pending" ? new Date(clock.now().getTime() + 60_000).toISOString() : null,
    session: ["online", "paused", "offline"].includes(state) ? ctx.deps.secrets.seal(`session-${id}`) : "",
    stateChangedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

async function groupIn(accountId: string, state: HostedGroupState) {
  const id = newId("hgrp");
  const now = clock.now().toISOString();
  await ctx.deps.db.insert(hostedGroups).values({
    id,
    spaceId: owner.user.spaceId,
    accountId,
    externalId: `${id}@chatroom`,
    name: `Group ${state}`,
    state,
    syncedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

describe("hosting with a bridge", () => {
  it("says which bridge is installed", async () => {
    const overview = await expectOk(await call("/api/v1/hosting/bridge"), 200, hostingBridgeSchema);
    expect(overview).toMatchObject({ name: "memory", configured: true });
  });

  it("logs in by QR code with a verification code, then switches on and off", async () => {
    const account = await startLogin();
    expect(account).toMatchObject({ state: "qr_pending", appId, name: "Front desk", bridge: "memory", profile: null, actions: ["request_qr_code", "log_out"] });
    const loginId = bridge.loginOf(account.id);
    expect(account.qrCode).toBe(`https://bridge.test/qr/${loginId}`);
    expect(account.loginExpiresAt).toBe(new Date(clock.now().getTime() + 120_000).toISOString());
    expect((await storedAccount(account.id))?.state).toBe("qr_pending");

    expect(await status(account.id)).toMatchObject({ progress: "waiting", account: { state: "qr_pending" } });
    bridge.scan(loginId);
    expect(await status(account.id)).toMatchObject({ progress: "scanned", account: { state: "qr_pending" } });

    bridge.askForCode(loginId, "482913");
    const pending = await status(account.id);
    expect(pending).toMatchObject({
      progress: "verify_code_required",
      account: { state: "verify_code_pending", verifyHint: "SMS to +86 138****0000", qrCode: null },
    });

    await expectError(await post("/api/v1/hosting/login/verify-code", { accountId: account.id, code: "000000" }), 400, {
      field: "code",
      message: "The verification code is wrong",
    });
    expect((await storedAccount(account.id))?.state).toBe("verify_code_pending");

    const online = await expectOk(await post("/api/v1/hosting/login/verify-code", { accountId: account.id, code: "482913" }), 200, hostedAccountSchema);
    expect(online).toMatchObject({
      state: "online",
      qrCode: null,
      loginExpiresAt: null,
      profile: { externalId: `wxid_${account.id}`, nickname: "Front desk" },
    });
    expect(online.actions).toEqual(["switch_off", "log_out", "sync_groups"]);
    // The bridge's session is sealed at rest and never answered.
    const row = await storedAccount(account.id);
    expect(row?.session).not.toContain(`session-of-${loginId}`);
    expect(ctx.deps.secrets.open(row!.session)).toBe(`session-of-${loginId}`);
    expect(await (await call(`/api/v1/hosting/accounts/${account.id}`)).text()).not.toContain("session-of");

    const paused = await expectOk(await post(`/api/v1/hosting/accounts/${account.id}/off`), 200, hostedAccountSchema);
    expect(paused.state).toBe("paused");
    await expectError(await post(`/api/v1/hosting/accounts/${account.id}/off`), 409, {
      message: "Cannot switch hosting off: the hosted account is switched off",
    });
    const zh = await call(`/api/v1/hosting/accounts/${account.id}/off`, { method: "POST", json: {}, language: "zh-CN" });
    await expectError(zh, 409, { message: "无法关闭托管：托管账号当前已关闭托管" });
    expect((await expectOk(await post(`/api/v1/hosting/accounts/${account.id}/on`), 200, hostedAccountSchema)).state).toBe("online");
    await expectError(await post(`/api/v1/hosting/accounts/${account.id}/on`), 409, { message: "Cannot switch hosting on: the hosted account is online" });

    const list = await expectOk(await call("/api/v1/hosting/accounts"), 200, z.array(hostedAccountSchema));
    expect(list.map((item) => item.id)).toContain(account.id);
  });

  it("logs in without a verification code when the platform asks none", async () => {
    const account = await startLogin({});
    expect(account).toMatchObject({ name: "WeChat", appId: null });
    bridge.scan(bridge.loginOf(account.id));
    bridge.confirm(bridge.loginOf(account.id), "Shop");
    const done = await status(account.id);
    expect(done).toMatchObject({ progress: "confirmed", account: { state: "online", profile: { nickname: "Shop" } } });
    // Polling a finished login asks the bridge nothing and changes nothing.
    expect(await status(account.id)).toMatchObject({ progress: "none", account: { state: "online" } });
  });

  it("expires a QR code past its time without asking the bridge, and when the bridge says so", async () => {
    const late = await startLogin();
    clock.advance(120_001);
    expect(await status(late.id)).toMatchObject({
      progress: "expired",
      account: { state: "expired", qrCode: null, actions: ["request_qr_code", "log_out", "delete"] },
    });
    await expectError(await post("/api/v1/hosting/login/verify-code", { accountId: late.id, code: "1" }), 409, {
      message: "Cannot submit a verification code: the hosted account is expired (log in again)",
    });

    const refused = await startLogin();
    bridge.expire(bridge.loginOf(refused.id));
    expect(await status(refused.id)).toMatchObject({ progress: "expired", account: { state: "expired" } });

    // An expired account logs in again with a new code, keeping its id.
    const again = await startLogin({ accountId: refused.id });
    expect(again).toMatchObject({ id: refused.id, state: "qr_pending" });
    expect(again.qrCode).toBe(`https://bridge.test/qr/${bridge.loginOf(refused.id)}`);
  });

  it("expires a verification step past its time", async () => {
    const account = await startLogin();
    bridge.askForCode(bridge.loginOf(account.id), "111111");
    await status(account.id);
    clock.advance(120_001);
    const expired = await expectOk(await post("/api/v1/hosting/login/verify-code", { accountId: account.id, code: "111111" }), 200, hostedAccountSchema);
    expect(expired.state).toBe("expired");
  });

  it("syncs group chats, opens, switches off and cancels them, and answers only in open groups of an online account", async () => {
    const account = await onlineAccount();
    const session = `session-of-${bridge.loginOf(account.id)}`;
    bridge.groups.set(session, [
      { externalId: "100@chatroom", name: "Customers A", memberCount: 120 },
      { externalId: "200@chatroom", name: "Customers B", memberCount: 40 },
      { externalId: "200@chatroom", name: "Customers B (again)", memberCount: 40 },
    ]);
    const synced = await expectOk(await post(`/api/v1/hosting/accounts/${account.id}/groups/sync`), 200, z.array(hostedGroupSchema));
    expect(synced.map((group) => [group.name, group.state, group.memberCount, group.present])).toEqual([
      ["Customers A", "waiting", 120, true],
      ["Customers B", "waiting", 40, true],
    ]);
    const [a, b] = synced as [Group, Group];
    expect(a.actions).toEqual(["open", "cancel"]);

    const opened = await expectOk(await post(`/api/v1/hosting/groups/${a.id}/on`), 200, hostedGroupSchema);
    expect(opened.state).toBe("open");
    await expectError(await post(`/api/v1/hosting/groups/${a.id}/on`), 409, { message: "Cannot open the group: the group chat is open" });

    expect(await sendToHostedGroup(ctx.deps, a.id, "Hello group")).toEqual({ ids: [`sent-${bridge.sent.length}`] });
    expect(bridge.sent.at(-1)).toEqual({ accountId: account.id, session, to: { kind: "group", externalId: "100@chatroom" }, text: "Hello group" });
    await expect(sendToHostedGroup(ctx.deps, b.id, "Not open")).rejects.toMatchObject({ kind: "conflict", messageId: "hosting_group_transition_invalid" });

    await post(`/api/v1/hosting/accounts/${account.id}/off`);
    await expect(sendToHostedGroup(ctx.deps, a.id, "Paused account")).rejects.toMatchObject({ kind: "conflict", messageId: "hosting_transition_invalid" });
    await post(`/api/v1/hosting/accounts/${account.id}/on`);

    expect((await expectOk(await post(`/api/v1/hosting/groups/${a.id}/off`), 200, hostedGroupSchema)).state).toBe("paused");
    await expectError(await post(`/api/v1/hosting/groups/${a.id}/off`), 409);
    expect((await expectOk(await post(`/api/v1/hosting/groups/${a.id}/cancel`), 200, hostedGroupSchema)).state).toBe("cancelled");
    await expectError(await post(`/api/v1/hosting/groups/${a.id}/cancel`), 409, { message: "Cannot cancel hosting of the group: the group chat is cancelled" });
    expect((await expectOk(await post(`/api/v1/hosting/groups/${a.id}/on`), 200, hostedGroupSchema)).state).toBe("open");

    // A second sync keeps states, renames, and marks a group the account left as not present.
    bridge.groups.set(session, [{ externalId: "100@chatroom", name: "Customers A (VIP)", memberCount: 121 }]);
    const resynced = await expectOk(await post(`/api/v1/hosting/accounts/${account.id}/groups/sync`), 200, z.array(hostedGroupSchema));
    expect(resynced.map((group) => [group.externalId, group.name, group.state, group.present])).toEqual([
      ["100@chatroom", "Customers A (VIP)", "open", true],
      ["200@chatroom", "Customers B", "waiting", false],
    ]);
    const onlyOpen = await expectOk(await call(`/api/v1/hosting/accounts/${account.id}/groups?state=open`), 200, z.array(hostedGroupSchema));
    expect(onlyOpen.map((group) => group.id)).toEqual([a.id]);
    expect((await expectOk(await call(`/api/v1/hosting/accounts/${account.id}`), 200, hostedAccountSchema)).groups).toEqual({ total: 2, open: 1 });
  });

  it("lets only one of two concurrent moves land", async () => {
    const account = await onlineAccount();
    const answers = await Promise.all([post(`/api/v1/hosting/accounts/${account.id}/off`), post(`/api/v1/hosting/accounts/${account.id}/off`)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect((await storedAccount(account.id))?.state).toBe("paused");
  });

  it("follows what the bridge reports: offline, back online, session expired", async () => {
    const account = await onlineAccount();
    expect((await reportHostingEvent(ctx.deps, account.id, { type: "connection_lost" })).state).toBe("offline");
    await expectError(await post(`/api/v1/hosting/accounts/${account.id}/groups/sync`), 409, {
      message: "Cannot sync group chats: the hosted account is offline",
    });
    await expectError(await post(`/api/v1/hosting/accounts/${account.id}/on`), 409);
    await expect(reportHostingEvent(ctx.deps, account.id, { type: "connection_lost" })).rejects.toMatchObject({ kind: "conflict" });
    expect((await reportHostingEvent(ctx.deps, account.id, { type: "reconnected" })).state).toBe("online");
    const expired = await reportHostingEvent(ctx.deps, account.id, { type: "session_expired" });
    expect(expired.state).toBe("expired");
    expect((await storedAccount(account.id))?.session).toBe("");
    await expect(reportHostingEvent(ctx.deps, account.id, { type: "reconnected" })).rejects.toMatchObject({ messageId: "hosting_transition_invalid" });
    await expect(reportHostingEvent(ctx.deps, "hacc_missing", { type: "reconnected" })).rejects.toMatchObject({ kind: "not_found" });
  });

  it("logs out through the bridge, then deletes the account and its groups", async () => {
    const account = await onlineAccount();
    const session = `session-of-${bridge.loginOf(account.id)}`;
    bridge.groups.set(session, [{ externalId: "300@chatroom", name: "Team" }]);
    await post(`/api/v1/hosting/accounts/${account.id}/groups/sync`);
    await expectError(await call(`/api/v1/hosting/accounts/${account.id}`, { method: "DELETE" }), 409, {
      message: "Cannot delete the account (log out first): the hosted account is online",
    });

    const out = await expectOk(await post(`/api/v1/hosting/accounts/${account.id}/logout`), 200, hostedAccountSchema);
    expect(out).toMatchObject({ state: "logged_out", lastError: null, profile: { externalId: `wxid_${account.id}` } });
    expect(bridge.loggedOut.at(-1)).toEqual({ accountId: account.id, session });
    expect((await storedAccount(account.id))?.session).toBe("");
    await expectError(await post(`/api/v1/hosting/accounts/${account.id}/logout`), 409, { message: "Cannot log out: the hosted account is logged out" });

    expect(await expectOk(await call(`/api/v1/hosting/accounts/${account.id}`, { method: "DELETE" }), 200, z.object({ deleted: z.literal(true) }))).toEqual({
      deleted: true,
    });
    expect(await storedAccount(account.id)).toBeUndefined();
    const left = await ctx.deps.db.select({ n: count() }).from(hostedGroups).where(eq(hostedGroups.accountId, account.id)).get();
    expect(left?.n).toBe(0);
    await expectError(await call(`/api/v1/hosting/accounts/${account.id}`), 404, { message: "Hosted account not found" });
  });

  it("logs out here even when the bridge fails, keeping the failure", async () => {
    const account = await onlineAccount();
    bridge.failing = "logout";
    const out = await expectOk(await post(`/api/v1/hosting/accounts/${account.id}/logout`), 200, hostedAccountSchema);
    expect(out).toMatchObject({ state: "logged_out", lastError: "logout: logout timed out" });
    expect((await storedAccount(account.id))?.session).toBe("");
  });

  it("answers 502 when the bridge fails to hand out a QR code, storing nothing", async () => {
    const before = await ctx.deps.db.select({ n: count() }).from(hostedAccounts).get();
    bridge.failing = "requestQrCode";
    await expectError(await post("/api/v1/hosting/login/qr-code", { appId }), 502, { message: "The hosting bridge failed: requestQrCode timed out" });
    const after = await ctx.deps.db.select({ n: count() }).from(hostedAccounts).get();
    expect(after?.n).toBe(before?.n);

    const account = await startLogin();
    bridge.failing = "pollLogin";
    await expectError(await call(`/api/v1/hosting/login/status?accountId=${account.id}`), 502);
    expect((await storedAccount(account.id))?.state).toBe("qr_pending");
  });

  it("will not continue a login held by another bridge", async () => {
    const id = await accountIn("qr_pending", "elsewhere");
    await expectError(await call(`/api/v1/hosting/login/status?accountId=${id}`), 409, {
      message: "This login was made through the hosting bridge elsewhere, which is not the one configured now; log out and log in again",
    });
    // Logging out still works: the owner can always stop it.
    expect((await expectOk(await post(`/api/v1/hosting/accounts/${id}/logout`), 200, hostedAccountSchema)).state).toBe("logged_out");
  });

  it("binds an app of the same space and saves the config", async () => {
    const account = await onlineAccount();
    const unbound = await expectOk(
      await call(`/api/v1/hosting/accounts/${account.id}/app`, { method: "PUT", json: { appId: null } }),
      200,
      hostedAccountSchema,
    );
    expect(unbound.appId).toBeNull();
    const bound = await expectOk(await call(`/api/v1/hosting/accounts/${account.id}/app`, { method: "PUT", json: { appId } }), 200, hostedAccountSchema);
    expect(bound.appId).toBe(appId);
    await expectError(await call(`/api/v1/hosting/accounts/${account.id}/app`, { method: "PUT", json: { appId: "app_missing" } }), 400, { field: "appId" });
    const strangersApp = await createAppVia(ctx, stranger, { name: "Not yours" });
    await expectError(await call(`/api/v1/hosting/accounts/${account.id}/app`, { method: "PUT", json: { appId: strangersApp.id } }), 400, { field: "appId" });
    await expectError(await post("/api/v1/hosting/login/qr-code", { appId: strangersApp.id }), 400, { field: "appId" });

    expect(await expectOk(await call(`/api/v1/hosting/accounts/${account.id}/config`), 200, hostingConfigSchema)).toEqual({
      answerPrivateChats: false,
      groupTrigger: "mention",
      replyDelaySeconds: 2,
    });
    const saved = await expectOk(
      await call(`/api/v1/hosting/accounts/${account.id}/config`, { method: "PUT", json: { groupTrigger: "all", replyDelaySeconds: 5 } }),
      200,
      hostingConfigSchema,
    );
    expect(saved).toEqual({ answerPrivateChats: false, groupTrigger: "all", replyDelaySeconds: 5 });
    expect((await expectOk(await call(`/api/v1/hosting/accounts/${account.id}`), 200, hostedAccountSchema)).config).toEqual(saved);
    await expectError(await call(`/api/v1/hosting/accounts/${account.id}/config`, { method: "PUT", json: { replyDelaySeconds: 61 } }), 400, {
      field: "replyDelaySeconds",
    });
  });

  describe("every owner action from every account state", () => {
    const routes: { action: keyof typeof accountTransitions; run: (id: string) => Promise<Response> }[] = [
      { action: "request_qr_code", run: (id) => post("/api/v1/hosting/login/qr-code", { accountId: id }) },
      { action: "submit_verify_code", run: (id) => post("/api/v1/hosting/login/verify-code", { accountId: id, code: "123456" }) },
      { action: "switch_on", run: (id) => post(`/api/v1/hosting/accounts/${id}/on`) },
      { action: "switch_off", run: (id) => post(`/api/v1/hosting/accounts/${id}/off`) },
      { action: "log_out", run: (id) => post(`/api/v1/hosting/accounts/${id}/logout`) },
      { action: "sync_groups", run: (id) => post(`/api/v1/hosting/accounts/${id}/groups/sync`) },
      { action: "delete", run: (id) => call(`/api/v1/hosting/accounts/${id}`, { method: "DELETE" }) },
    ];
    for (const state of hostedAccountStates) {
      for (const { action, run } of routes) {
        const allowed = (accountTransitions[action].from as readonly string[]).includes(state);
        it(`${action} from ${state}: ${allowed ? "accepted" : "409, state unchanged"}`, async () => {
          const id = await accountIn(state);
          const response = await run(id);
          if (allowed) {
            // Allowed: never a conflict (the memory bridge knows no stored login, so a code is "wrong": 400).
            expect(response.status, await response.clone().text()).toBe(action === "submit_verify_code" ? 400 : 200 + (action === "request_qr_code" ? 1 : 0));
          } else {
            const body = await expectError(response, 409);
            expect(body.message).toMatch(/^Cannot .+: the hosted account is .+$/);
            expect((await storedAccount(id))?.state).toBe(state);
          }
        });
      }
    }
  });

  describe("every group action from every group state", () => {
    for (const state of hostedGroupStates) {
      for (const [segment, action] of [
        ["on", "open"],
        ["off", "pause"],
        ["cancel", "cancel"],
      ] as const) {
        const allowed = (groupTransitions[action].from as readonly string[]).includes(state);
        it(`${action} from ${state}: ${allowed ? "accepted" : "409"}`, async () => {
          const groupId = await groupIn(await accountIn("online"), state);
          const response = await post(`/api/v1/hosting/groups/${groupId}/${segment}`);
          if (allowed) expect((await expectOk(response, 200, hostedGroupSchema)).state).toBe(groupTransitions[action].to);
          else {
            await expectError(response, 409, { message: /^Cannot .+: the group chat is .+$/ });
            expect((await ctx.deps.db.select().from(hostedGroups).where(eq(hostedGroups.id, groupId)).get())?.state).toBe(state);
          }
        });
      }
    }
  });

  it("answers 404 for another space's accounts and groups, and lists none of them", async () => {
    const account = await onlineAccount();
    const groupId = await groupIn(account.id, "waiting");
    const attempts: [string, string, unknown?][] = [
      ["GET", `/api/v1/hosting/accounts/${account.id}`],
      ["DELETE", `/api/v1/hosting/accounts/${account.id}`],
      ["POST", `/api/v1/hosting/accounts/${account.id}/on`, {}],
      ["POST", `/api/v1/hosting/accounts/${account.id}/off`, {}],
      ["POST", `/api/v1/hosting/accounts/${account.id}/logout`, {}],
      ["PUT", `/api/v1/hosting/accounts/${account.id}/app`, { appId: null }],
      ["GET", `/api/v1/hosting/accounts/${account.id}/config`],
      ["PUT", `/api/v1/hosting/accounts/${account.id}/config`, { groupTrigger: "all" }],
      ["GET", `/api/v1/hosting/accounts/${account.id}/groups`],
      ["POST", `/api/v1/hosting/accounts/${account.id}/groups/sync`, {}],
      ["POST", `/api/v1/hosting/groups/${groupId}/on`, {}],
      ["POST", `/api/v1/hosting/groups/${groupId}/off`, {}],
      ["POST", `/api/v1/hosting/groups/${groupId}/cancel`, {}],
      ["GET", `/api/v1/hosting/login/status?accountId=${account.id}`],
      ["POST", "/api/v1/hosting/login/verify-code", { accountId: account.id, code: "123456" }],
      ["POST", "/api/v1/hosting/login/qr-code", { accountId: account.id }],
    ];
    for (const [method, path, json] of attempts) {
      const response = await call(path, { method, ...(json !== undefined ? { json } : {}), user: stranger });
      await expectError(response, 404);
    }
    expect(await expectOk(await call("/api/v1/hosting/accounts", { user: stranger }), 200, z.array(hostedAccountSchema))).toEqual([]);
    const row = await storedAccount(account.id);
    expect(row).toMatchObject({ state: "online", appId });
    expect((await ctx.deps.db.select().from(hostedGroups).where(eq(hostedGroups.id, groupId)).get())?.state).toBe("waiting");
  });

  it("needs a signed-in caller", async () => {
    await expectError(await ctx.request("/api/v1/hosting/accounts"), 401);
    await expectError(await ctx.request("/api/v1/hosting/login/qr-code", { method: "POST", json: {} }), 401);
  });
});

describe("hosting without a bridge (the default)", () => {
  let plain: TestContext;
  let user: TestUser;

  beforeAll(async () => {
    plain = await createTestContext();
    user = await registerUser(plain, "owner-nobridge@example.com");
    // What this test creates needs a plan above Free (issue 15).
    await upgradeSpaceForTest(plain, user.user.spaceId);
  });

  afterAll(async () => {
    await plain?.close();
  });

  const request = (path: string, init: { method?: string; json?: unknown; language?: string } = {}) =>
    plain.request(path, {
      method: init.method ?? (init.json !== undefined ? "POST" : "GET"),
      ...(init.json !== undefined ? { json: init.json } : {}),
      token: user.token,
      headers: init.language ? { "accept-language": init.language } : {},
    });

  it("says no bridge is installed and lists the official routes", async () => {
    const overview = await expectOk(await request("/api/v1/hosting/bridge"), 200, hostingBridgeSchema);
    expect(overview.name).toBe("none");
    expect(overview.configured).toBe(false);
    expect(overview.officialRoutes.map((route) => route.kind)).toEqual(["wechat-customer-service", "wechat-official-account", "wechat-work"]);
  });

  it("answers every login call with the no-bridge error naming the official routes, in both languages, storing nothing", async () => {
    const calls = [
      () => request("/api/v1/hosting/login/qr-code", { json: { name: "Mine" } }),
      () => request("/api/v1/hosting/login/status?accountId=hacc_unknown"),
      () => request("/api/v1/hosting/login/verify-code", { json: { accountId: "hacc_unknown", code: "123456" } }),
    ];
    for (const run of calls) {
      const body = await expectError(await run(), 403);
      expect(body.message).toContain("no hosting bridge is configured");
      expect(body.message).toContain("Parley ships no unofficial WeChat protocol");
      for (const route of ["WeChat Customer Service", "WeChat Official Account", "WeChat Work"]) expect(body.message).toContain(route);
    }
    const zh = await expectError(await request("/api/v1/hosting/login/qr-code", { json: {}, language: "zh-CN" }), 403);
    expect(zh.message).toContain("未配置托管桥接");
    for (const route of ["微信客服", "微信公众号", "企业微信"]) expect(zh.message).toContain(route);
    const stored = await plain.deps.db.select({ n: count() }).from(hostedAccounts).get();
    expect(stored?.n).toBe(0);
    expect(await expectOk(await request("/api/v1/hosting/accounts"), 200, z.array(hostedAccountSchema))).toEqual([]);
  });

  it("refuses to sync an account left from an earlier bridge, but still logs it out", async () => {
    const id = newId("hacc");
    const now = new Date().toISOString();
    await plain.deps.db.insert(hostedAccounts).values({
      id,
      spaceId: user.user.spaceId,
      name: "Left over",
      state: "online",
      bridge: "removed",
      session: plain.deps.secrets.seal("s"),
      stateChangedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    await expectError(await request(`/api/v1/hosting/accounts/${id}/groups/sync`, { json: {} }), 403, { message: /no hosting bridge is configured/ });
    await expectError(await request(`/api/v1/hosting/login/status?accountId=${id}`), 403);
    const out = await expectOk(await request(`/api/v1/hosting/accounts/${id}/logout`, { json: {} }), 200, hostedAccountSchema);
    expect(out.state).toBe("logged_out");
  });

  it("has a default bridge whose every call fails with that error", async () => {
    const attempts = [
      noHostingBridge.requestQrCode({ accountId: "a" }),
      noHostingBridge.pollLogin({ accountId: "a", loginId: "l" }),
      noHostingBridge.submitVerifyCode({ accountId: "a", loginId: "l", code: "1" }),
      noHostingBridge.logout({ accountId: "a", loginId: null, session: null }),
      noHostingBridge.listGroups({ accountId: "a", session: "s" }),
      noHostingBridge.sendText({ accountId: "a", session: "s", to: { kind: "group", externalId: "g" }, text: "hi" }),
    ];
    for (const attempt of attempts) {
      const error = await attempt.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ kind: "forbidden", messageId: "hosting_bridge_not_configured" });
    }
  });
});
