import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap";
import { spaces, users } from "../db/schema/index";
import { privilegesSchema, sessionSchema, spaceSchema, userSchema } from "../identity/schemas";
import { expectError, expectOk } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { instanceSpacePageSchema, instanceSpaceSchema, instanceUserPageSchema, instanceUserSchema } from "./schemas";

const ADMIN_KEY = "pk_admin-bootstrap-key-0123456789abcdef";
const zh = { "accept-language": "zh-CN" };

let ctx: TestContext;
let admin: { token: string; userId: string; personalSpaceId: string };
let alice: TestUser;
let bob: TestUser;
let bobTeam: string;
let bobKey: string;

beforeAll(async () => {
  ctx = await createTestContext({ PARLEY_BOOTSTRAP_API_KEY: ADMIN_KEY });
  const { signInUrl } = await bootstrap(ctx.deps);
  const loginCode = new URL(signInUrl!).searchParams.get("loginCode");
  const session = await expectOk(await ctx.request("/api/v1/auth/exchange", { method: "POST", json: { loginCode } }), 200, sessionSchema);
  admin = { token: session.token, userId: session.user.id, personalSpaceId: session.user.spaceId };
  alice = await registerUser(ctx, "alice@example.com");
  bob = await registerUser(ctx, "bob@example.com");
  const team = await expectOk(await ctx.request("/api/v1/spaces", { method: "POST", token: bob.token, json: { companyName: "Bob Team" } }), 201, spaceSchema);
  bobTeam = team.spaceId;
  bobKey = (
    await expectOk(await ctx.request("/api/v1/me/api-keys", { method: "POST", token: bob.token, json: { name: "bob" } }), 201, z.object({ key: z.string() }))
  ).key;
});
afterAll(async () => ctx.close());

const privileges = async (token: string) => expectOk(await ctx.request("/api/v1/privileges", { token }), 200, privilegesSchema);
const visibleMenus = async (token: string) => (await privileges(token)).menus.filter((menu) => menu.visible).map((menu) => menu.key);
const spaceRows = () => ctx.deps.db.select().from(spaces).orderBy(spaces.id).all();
const patchUser = (userId: string, json: unknown, token = admin.token, headers: Record<string, string> = {}) =>
  ctx.request(`/api/v1/instance/users/${userId}`, { method: "PATCH", token, json, headers });
const patchSpace = (spaceId: string, json: unknown, token = admin.token, headers: Record<string, string> = {}) =>
  ctx.request(`/api/v1/instance/spaces/${spaceId}`, { method: "PATCH", token, json, headers });

describe("the instance administrator", () => {
  it("has every capability on a fresh instance: all gated menus, the instance entry and the highest quotas", async () => {
    const answer = await privileges(admin.token);
    expect(answer).toMatchObject({ memberGrade: "CUSTOM", clientManage: 200, customerManage: 100, memberNumber: 1000, customerAdmin: "Y" });
    expect(await visibleMenus(admin.token)).toEqual(expect.arrayContaining(["clients", "chatManage", "customers", "analysis", "team", "instance"]));
    const me = await expectOk(await ctx.request("/api/v1/me", { token: admin.token }), 200, userSchema);
    expect(me).toMatchObject({ isInstanceOwner: true, memberGrade: "CUSTOM" });
  });

  it("gets every capability in a team space they create too", async () => {
    const team = await expectOk(
      await ctx.request("/api/v1/spaces", { method: "POST", token: admin.token, json: { companyName: "Admin Team" } }),
      201,
      spaceSchema,
    );
    expect(team.memberGrade).toBe("CUSTOM");
    expect(await visibleMenus(admin.token)).toEqual(expect.arrayContaining(["clients", "chatManage", "customers", "analysis", "team", "instance"]));
    await expectOk(await ctx.request(`/api/v1/spaces/${admin.personalSpaceId}/select`, { method: "POST", token: admin.token }), 200, userSchema);
  });

  it("leaves everyone else on the stored grade, without the instance entry", async () => {
    const menus = await visibleMenus(alice.token);
    expect(menus).not.toContain("instance");
    expect(menus).not.toContain("clients");
    expect((await privileges(alice.token)).memberGrade).toBe("FREE");
  });
});

describe("GET /api/v1/instance/users and /spaces", () => {
  it("pages and searches users, a user's grade being their personal space's", async () => {
    const all = await expectOk(await ctx.request("/api/v1/instance/users", { token: admin.token }), 200, instanceUserPageSchema);
    expect(all).toMatchObject({ total: 3, pageNo: 1, pageSize: 20 });
    expect(all.items.map((user) => user.email)).toEqual([null, "alice@example.com", "bob@example.com"]);
    expect(all.items[0]).toMatchObject({ userId: admin.userId, isInstanceOwner: true, memberGrade: "CUSTOM", personalSpaceId: admin.personalSpaceId });
    expect(all.items[1]).toMatchObject({ userId: alice.user.id, isInstanceOwner: false, memberGrade: "FREE" });

    const page2 = await expectOk(await ctx.request("/api/v1/instance/users?pageNo=2&pageSize=2", { token: admin.token }), 200, instanceUserPageSchema);
    expect(page2).toMatchObject({ total: 3, pageNo: 2, pageSize: 2 });
    expect(page2.items.map((user) => user.userId)).toEqual([bob.user.id]);
    const found = await expectOk(await ctx.request("/api/v1/instance/users?keyword=ALICE", { token: admin.token }), 200, instanceUserPageSchema);
    expect(found.items.map((user) => user.userId)).toEqual([alice.user.id]);
    const wildcard = await expectOk(await ctx.request("/api/v1/instance/users?keyword=%25", { token: admin.token }), 200, instanceUserPageSchema);
    expect(wildcard.total).toBe(0);
    const capped = await expectOk(await ctx.request("/api/v1/instance/users?pageSize=1000", { token: admin.token }), 200, instanceUserPageSchema);
    expect(capped.pageSize).toBe(100);
  });

  it("lists spaces with owner, grade, overrides and effective quotas; the admin's API key works too", async () => {
    const found = await expectOk(await ctx.request("/api/v1/instance/spaces?keyword=bob", { token: ADMIN_KEY }), 200, instanceSpacePageSchema);
    expect(found.total).toBe(2);
    const team = found.items.find((space) => space.spaceId === bobTeam);
    expect(team).toMatchObject({
      companyName: "Bob Team",
      kind: "team",
      ownerUserId: bob.user.id,
      ownerEmail: "bob@example.com",
      memberGrade: "FREE",
      quotaOverrides: null,
      quotas: { clientManage: 0, customerManage: 0, memberNumber: 3 },
      memberCount: 1,
    });
  });
});

describe("PATCH /api/v1/instance/users/{userId}", () => {
  it("sets the grade of the user's personal space; their next privileges call follows, no new sign-in", async () => {
    const updated = await expectOk(await patchUser(alice.user.id, { memberGrade: "PROFESSION" }), 200, instanceUserSchema);
    expect(updated).toMatchObject({ userId: alice.user.id, memberGrade: "PROFESSION" });
    const row = await ctx.deps.db.select().from(spaces).where(eq(spaces.id, alice.user.spaceId)).get();
    expect(row?.memberGrade).toBe("PROFESSION");
    expect(await visibleMenus(alice.token)).toEqual(expect.arrayContaining(["clients", "chatManage", "analysis", "team", "customers"]));
    expect(await visibleMenus(alice.token)).not.toContain("instance");
    const me = await expectOk(await ctx.request("/api/v1/me", { token: alice.token }), 200, userSchema);
    expect(me).toMatchObject({ memberGrade: "PROFESSION", clientManage: 10 });
  });

  it("refuses a grade that does not exist, in the request's language, and changes nothing", async () => {
    const before = await spaceRows();
    await expectError(await patchUser(bob.user.id, { memberGrade: "GOLD" }), 400, { field: "memberGrade", message: /^Invalid memberGrade: / });
    await expectError(await patchUser(bob.user.id, { memberGrade: "GOLD" }, admin.token, zh), 400, { field: "memberGrade", message: /^memberGrade 无效：/ });
    await expectError(await patchUser(bob.user.id, {}), 400, { field: "memberGrade" });
    expect(await spaceRows()).toEqual(before);
  });

  it("answers 404 for an unknown user (en and zh)", async () => {
    const before = await spaceRows();
    await expectError(await patchUser("usr_unknown", { memberGrade: "NORMAL" }), 404, { message: "User not found" });
    await expectError(await patchUser("usr_unknown", { memberGrade: "NORMAL" }, admin.token, zh), 404, { message: "未找到用户" });
    expect(await spaceRows()).toEqual(before);
  });
});

describe("PATCH /api/v1/instance/spaces/{spaceId}", () => {
  it("sets a space's grade and quota overrides; the members' menus follow", async () => {
    const updated = await expectOk(await patchSpace(bob.user.spaceId, { memberGrade: "NORMAL", quotas: { customerManage: 2 } }), 200, instanceSpaceSchema);
    expect(updated).toMatchObject({
      memberGrade: "NORMAL",
      quotaOverrides: { customerManage: 2 },
      quotas: { clientManage: 3, customerManage: 2, memberNumber: 0 },
    });
    const row = await ctx.deps.db.select().from(spaces).where(eq(spaces.id, bob.user.spaceId)).get();
    expect(row).toMatchObject({ memberGrade: "NORMAL", quotaOverrides: JSON.stringify({ customerManage: 2 }) });
    await expectOk(await ctx.request(`/api/v1/spaces/${bob.user.spaceId}/select`, { method: "POST", token: bob.token }), 200, userSchema);
    const menus = await visibleMenus(bob.token);
    expect(menus).toEqual(expect.arrayContaining(["clients", "chatManage", "analysis", "customers"]));
    expect(menus).not.toContain("team");

    const quotasOnly = await expectOk(await patchSpace(bob.user.spaceId, { quotas: { memberNumber: 4 } }), 200, instanceSpaceSchema);
    expect(quotasOnly).toMatchObject({
      memberGrade: "NORMAL",
      quotaOverrides: { memberNumber: 4 },
      quotas: { clientManage: 3, customerManage: 0, memberNumber: 4 },
    });
    const cleared = await expectOk(await patchSpace(bob.user.spaceId, { memberGrade: "FREE", quotas: null }), 200, instanceSpaceSchema);
    expect(cleared).toMatchObject({ memberGrade: "FREE", quotaOverrides: null, quotas: { clientManage: 0, customerManage: 0, memberNumber: 0 } });
    expect(await visibleMenus(bob.token)).not.toContain("clients");
  });

  it("refuses bad grades and quotas naming the field, in en and zh, and changes nothing", async () => {
    const before = await spaceRows();
    await expectError(await patchSpace(bobTeam, { memberGrade: "PLATINUM" }), 400, { field: "memberGrade" });
    await expectError(await patchSpace(bobTeam, { quotas: { clientManage: -1 } }), 400, {
      field: "quotas.clientManage",
      message: /^Invalid quotas\.clientManage: /,
    });
    await expectError(await patchSpace(bobTeam, { quotas: { customerManage: 1.5 } }, admin.token, zh), 400, {
      field: "quotas.customerManage",
      message: /^quotas\.customerManage 无效：/,
    });
    await expectError(await patchSpace(bobTeam, { quotas: { memberNumber: "5" } }), 400, { field: "quotas.memberNumber" });
    await expectError(await patchSpace(bobTeam, { quotas: { memberNumber: 10_000_000 } }), 400, { field: "quotas.memberNumber" });
    await expectError(await patchSpace(bobTeam, { quotas: { seats: 5 } }), 400, { field: "quotas" });
    // A valid grade with one bad quota changes nothing either.
    await expectError(await patchSpace(bobTeam, { memberGrade: "ENTERPRISE", quotas: { clientManage: -5 } }), 400, { field: "quotas.clientManage" });
    await expectError(await patchSpace(bobTeam, {}), 400, { field: "memberGrade", message: "Invalid memberGrade: send memberGrade, quotas or both" });
    await expectError(await patchSpace(bobTeam, {}, admin.token, zh), 400, {
      field: "memberGrade",
      message: "memberGrade 无效：请提供 memberGrade、quotas 或两者",
    });
    await expectError(await patchSpace("spc_unknown", { memberGrade: "NORMAL" }), 404, { message: "Space not found" });
    await expectError(await patchSpace("spc_unknown", { memberGrade: "NORMAL" }, admin.token, zh), 404, { message: "未找到空间" });
    expect(await spaceRows()).toEqual(before);
  });
});

describe("anyone but the administrator", () => {
  const routes = (): Array<[string, RequestInit & { json?: unknown }]> => [
    ["/api/v1/instance/users", {}],
    ["/api/v1/instance/spaces?keyword=x", {}],
    [`/api/v1/instance/users/${bob.user.id}`, { method: "PATCH", json: { memberGrade: "CUSTOM" } }],
    [`/api/v1/instance/spaces/${bobTeam}`, { method: "PATCH", json: { memberGrade: "CUSTOM", quotas: { clientManage: 9 } } }],
    // Refused before the input is read: a bad body by a non-administrator is still 403.
    [`/api/v1/instance/spaces/${bobTeam}`, { method: "PATCH", json: { memberGrade: "GOLD" } }],
  ];

  it("gets 403 on every instance route (other users, a team space owner, their API keys), in en and zh, and nothing changes", async () => {
    const before = { spaces: await spaceRows(), users: await ctx.deps.db.select().from(users).all() };
    for (const token of [alice.token, bob.token, bobKey]) {
      for (const [path, init] of routes()) {
        await expectError(await ctx.request(path, { ...init, token }), 403, { message: "Only the instance administrator can do this" });
        await expectError(await ctx.request(path, { ...init, token, headers: zh }), 403, { message: "只有实例管理员可以执行此操作" });
      }
    }
    // Bob acting in the team space he owns is still not the administrator.
    await expectError(
      await ctx.request(`/api/v1/instance/spaces/${bobTeam}`, {
        method: "PATCH",
        token: bob.token,
        json: { memberGrade: "CUSTOM" },
        headers: { "x-parley-space": bobTeam },
      }),
      403,
    );
    for (const [path, init] of routes()) await expectError(await ctx.request(path, init), 401);
    expect({ spaces: await spaceRows(), users: await ctx.deps.db.select().from(users).all() }).toEqual(before);
  });
});
