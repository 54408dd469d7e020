import { and, eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spaceMembers, spaceRoles, spaces, userKeys, users } from "../db/schema/index";
import { createdUserKeySchema, privilegesSchema, spaceSchema, userSchema } from "../identity/schemas";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk, rowCounts } from "../testing/flows";

let ctx: TestContext;
let owner: TestUser;
let mate: TestUser;
let team: z.infer<typeof spaceSchema>;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await registerUser(ctx, "olive@example.com");
  mate = await registerUser(ctx, "mateo@example.com");
});
afterAll(async () => ctx.close());

const listSpaces = async (token: string) => expectOk(await ctx.request("/api/v1/me/spaces", { token }), 200, z.array(spaceSchema));
const me = async (token: string, space?: string) =>
  expectOk(await ctx.request("/api/v1/me", { token, ...(space ? { headers: { "x-parley-space": space } } : {}) }), 200, userSchema);

async function setGrade(spaceId: string, grade: "FREE" | "NORMAL" | "PROFESSION" | "ENTERPRISE" | "CUSTOM") {
  await ctx.deps.db.update(spaces).set({ memberGrade: grade }).where(eq(spaces.id, spaceId));
}

describe("personal space", () => {
  it("comes with registration and is current", async () => {
    const list = await listSpaces(owner.token);
    expect(list).toEqual([
      expect.objectContaining({ spaceId: owner.user.spaceId, kind: "personal", role: "owner", current: true, companyName: "olive", memberGrade: "FREE" }),
    ]);
    const row = await ctx.deps.db.select().from(spaces).where(eq(spaces.id, owner.user.spaceId)).get();
    expect(row).toMatchObject({ kind: "personal", ownerUserId: owner.user.id, code: list[0]!.companyCode });
  });
});

describe("team spaces", () => {
  it("requires a company name (400 naming companyName), blank included, storing nothing", async () => {
    const before = await rowCounts(ctx);
    const create = (json: unknown) => ctx.request("/api/v1/spaces", { method: "POST", token: owner.token, json });
    await expectError(await create({}), 400, { field: "companyName" });
    await expectError(await create({ companyName: "   " }), 400, { field: "companyName", message: "Company name is required" });
    await expectError(await create({ companyName: "x".repeat(101) }), 400, { field: "companyName" });
    await expectError(await create({ companyName: 42 }), 400, { field: "companyName" });
    expect(await rowCounts(ctx)).toEqual(before);
    await expectError(await ctx.request("/api/v1/spaces", { method: "POST", json: { companyName: "Anon" } }), 401);
  });

  it("creates a team that becomes the current space, reflected by /me", async () => {
    team = await expectOk(
      await ctx.request("/api/v1/spaces", { method: "POST", token: owner.token, json: { companyName: "  Acme Support  " } }),
      201,
      spaceSchema,
    );
    expect(team).toMatchObject({ companyName: "Acme Support", kind: "team", role: "owner", current: true, memberGrade: "FREE" });
    expect(team.spaceId).toMatch(/^spc_/);
    expect(team.companyCode).toMatch(/^[A-Z2-9]{8}$/);
    const row = await ctx.deps.db.select().from(spaces).where(eq(spaces.id, team.spaceId)).get();
    expect(row).toMatchObject({ name: "Acme Support", kind: "team", ownerUserId: owner.user.id });
    const members = await ctx.deps.db.select().from(spaceMembers).where(eq(spaceMembers.spaceId, team.spaceId)).all();
    expect(members).toEqual([expect.objectContaining({ userId: owner.user.id, role: "owner" })]);
    expect((await ctx.deps.db.select().from(users).where(eq(users.id, owner.user.id)).get())?.currentSpaceId).toBe(team.spaceId);

    const user = await me(owner.token);
    expect(user).toMatchObject({ spaceId: team.spaceId, companyName: "Acme Support", companyOwner: true, companyCode: team.companyCode, memberNumber: 3 });
  });

  it("lists both spaces with `current` on the team", async () => {
    const list = await listSpaces(owner.token);
    expect(list.map((space) => [space.kind, space.current])).toEqual([
      ["personal", false],
      ["team", true],
    ]);
    // Others' spaces never show up.
    expect((await listSpaces(mate.token)).map((space) => space.spaceId)).toEqual([mate.user.spaceId]);
  });

  it("selects a space, and refuses one the user is not in", async () => {
    const user = await expectOk(await ctx.request(`/api/v1/spaces/${owner.user.spaceId}/select`, { method: "POST", token: owner.token }), 200, userSchema);
    expect(user).toMatchObject({ spaceId: owner.user.spaceId, companyName: "olive" });
    expect((await me(owner.token)).spaceId).toBe(owner.user.spaceId);
    expect((await listSpaces(owner.token)).find((space) => space.current)?.spaceId).toBe(owner.user.spaceId);
    await expectError(await ctx.request("/api/v1/spaces/spc_nope/select", { method: "POST", token: owner.token }), 404, { message: "Space not found" });
    await expectOk(await ctx.request(`/api/v1/spaces/${team.spaceId}/select`, { method: "POST", token: owner.token }), 200, userSchema);
  });

  it("reads one space", async () => {
    const space = await expectOk(await ctx.request(`/api/v1/spaces/${team.spaceId}`, { token: owner.token }), 200, spaceSchema);
    expect(space).toEqual(team);
  });

  it("lets the owner rename and re-brand the space", async () => {
    const updated = await expectOk(
      await ctx.request(`/api/v1/spaces/${team.spaceId}`, {
        method: "PATCH",
        token: owner.token,
        json: {
          companyName: "Acme Care",
          companyTabTitle: "Acme",
          companyTabIconUrl: "https://cdn.example.com/tab.png",
          companyIconWordUrl: "https://cdn.example.com/word.png",
        },
      }),
      200,
      spaceSchema,
    );
    expect(updated).toMatchObject({ companyName: "Acme Care", companyTabTitle: "Acme", companyTabIconUrl: "https://cdn.example.com/tab.png" });
    const row = await ctx.deps.db.select().from(spaces).where(eq(spaces.id, team.spaceId)).get();
    expect(row).toMatchObject({
      name: "Acme Care",
      tabTitle: "Acme",
      tabIconUrl: "https://cdn.example.com/tab.png",
      iconWordUrl: "https://cdn.example.com/word.png",
    });
    expect(await me(owner.token)).toMatchObject({ companyName: "Acme Care", companyTabTitle: "Acme", companyIconWordUrl: "https://cdn.example.com/word.png" });

    const cleared = await expectOk(
      await ctx.request(`/api/v1/spaces/${team.spaceId}`, { method: "PATCH", token: owner.token, json: { companyTabTitle: null } }),
      200,
      spaceSchema,
    );
    expect(cleared).toMatchObject({ companyName: "Acme Care", companyTabTitle: null });

    await expectError(await ctx.request(`/api/v1/spaces/${team.spaceId}`, { method: "PATCH", token: owner.token, json: { companyName: " " } }), 400, {
      field: "companyName",
    });
    await expectError(
      await ctx.request(`/api/v1/spaces/${team.spaceId}`, { method: "PATCH", token: owner.token, json: { companyTabIconUrl: "javascript" } }),
      400,
      { field: "companyTabIconUrl" },
    );
    expect((await ctx.deps.db.select().from(spaces).where(eq(spaces.id, team.spaceId)).get())?.name).toBe("Acme Care");
  });
});

describe("members and X-Parley-Space", () => {
  beforeAll(async () => {
    await ctx.deps.db.insert(spaceMembers).values({ spaceId: team.spaceId, userId: mate.user.id, role: "member", roleId: "developer" });
  });

  it("acts in the space named by the header, leaving the current space alone", async () => {
    const inTeam = await me(mate.token, team.spaceId);
    expect(inTeam).toMatchObject({ spaceId: team.spaceId, companyName: "Acme Care", companyOwner: false, role: "member" });
    expect((await me(mate.token)).spaceId).toBe(mate.user.spaceId);

    const key = await expectOk(
      await ctx.request("/api/v1/user-keys", { method: "POST", token: mate.token, headers: { "x-parley-space": team.spaceId }, json: { name: "team key" } }),
      201,
      createdUserKeySchema,
    );
    const row = await ctx.deps.db.select().from(userKeys).where(eq(userKeys.id, key.id)).get();
    expect(row).toMatchObject({ spaceId: team.spaceId, createdBy: mate.user.id });
    // The owner sees it in the team, not in their personal space.
    const teamKeys = await ctx.request("/api/v1/user-keys", { token: owner.token });
    expect(((await teamKeys.json()) as { data: { id: string }[] }).data.map((entry) => entry.id)).toEqual([key.id]);
    const personalKeys = await ctx.request("/api/v1/user-keys", { token: owner.token, headers: { "x-parley-space": owner.user.spaceId } });
    expect(((await personalKeys.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it("lets a member read but not change the space; an admin may", async () => {
    const space = await expectOk(await ctx.request(`/api/v1/spaces/${team.spaceId}`, { token: mate.token }), 200, spaceSchema);
    expect(space).toMatchObject({ role: "member", current: false });
    const before = await ctx.deps.db.select().from(spaces).where(eq(spaces.id, team.spaceId)).get();
    await expectError(await ctx.request(`/api/v1/spaces/${team.spaceId}`, { method: "PATCH", token: mate.token, json: { companyName: "Mine now" } }), 403, {
      message: "Only the space owner or an admin can do this",
    });
    expect(await ctx.deps.db.select().from(spaces).where(eq(spaces.id, team.spaceId)).get()).toEqual(before);

    await ctx.deps.db
      .update(spaceMembers)
      .set({ role: "admin" })
      .where(and(eq(spaceMembers.spaceId, team.spaceId), eq(spaceMembers.userId, mate.user.id)));
    const renamed = await expectOk(
      await ctx.request(`/api/v1/spaces/${team.spaceId}`, { method: "PATCH", token: mate.token, json: { companyName: "Acme Helpdesk" } }),
      200,
      spaceSchema,
    );
    expect(renamed).toMatchObject({ companyName: "Acme Helpdesk", role: "admin" });
    await ctx.deps.db
      .update(spaceMembers)
      .set({ role: "member" })
      .where(and(eq(spaceMembers.spaceId, team.spaceId), eq(spaceMembers.userId, mate.user.id)));
  });

  it("falls back to the personal space when the current space is left", async () => {
    await expectOk(await ctx.request(`/api/v1/spaces/${team.spaceId}/select`, { method: "POST", token: mate.token }), 200, userSchema);
    await ctx.deps.db.delete(spaceMembers).where(and(eq(spaceMembers.spaceId, team.spaceId), eq(spaceMembers.userId, mate.user.id)));
    expect((await me(mate.token)).spaceId).toBe(mate.user.spaceId);
    expect((await ctx.deps.db.select().from(users).where(eq(users.id, mate.user.id)).get())?.currentSpaceId).toBe(mate.user.spaceId);
    await expectError(await ctx.request("/api/v1/me", { token: mate.token, headers: { "x-parley-space": team.spaceId } }), 404);
    await ctx.deps.db.insert(spaceMembers).values({ spaceId: team.spaceId, userId: mate.user.id, role: "member", roleId: "developer" });
  });
});

describe("privileges per grade", () => {
  const privileges = async (token: string, query = "") => expectOk(await ctx.request(`/api/v1/privileges${query}`, { token }), 200, privilegesSchema);
  const shown = (answer: z.infer<typeof privilegesSchema>) => answer.menus.filter((menu) => menu.visible).map((menu) => menu.key);

  it("follows the grade the server holds, whatever the client sends", async () => {
    await setGrade(owner.user.spaceId, "FREE");
    const asks = await privileges(owner.token, "?memberGrade=ENTERPRISE");
    expect(asks.memberGrade).toBe("FREE");
    await expectError(await ctx.request("/api/v1/privileges?memberGrade=GOLD", { token: owner.token }), 400, { field: "memberGrade" });
    await expectError(await ctx.request("/api/v1/privileges"), 401);
  });

  it("NORMAL opens clients and dashboard; PROFESSION adds chat management, team and customers", async () => {
    const personal = { headers: { "x-parley-space": owner.user.spaceId } };
    const free = await expectOk(await ctx.request("/api/v1/privileges", { token: owner.token, ...personal }), 200, privilegesSchema);
    expect(shown(free)).not.toEqual(expect.arrayContaining(["clients"]));

    await setGrade(owner.user.spaceId, "NORMAL");
    const normal = await expectOk(await ctx.request("/api/v1/privileges", { token: owner.token, ...personal }), 200, privilegesSchema);
    expect(normal).toMatchObject({ memberGrade: "NORMAL", clientManage: 3, customerManage: 0, memberNumber: 0, customerAdmin: "N" });
    expect(shown(normal)).toEqual(expect.arrayContaining(["clients", "analysis"]));
    expect(shown(normal)).not.toContain("chatManage");
    expect(shown(normal)).not.toContain("team");

    await setGrade(owner.user.spaceId, "PROFESSION");
    const pro = await expectOk(await ctx.request("/api/v1/privileges", { token: owner.token, ...personal }), 200, privilegesSchema);
    expect(pro).toMatchObject({ memberGrade: "PROFESSION", customerAdmin: "Y" });
    expect(shown(pro)).toEqual(expect.arrayContaining(["clients", "analysis", "chatManage", "team", "customers"]));
    expect(await me(owner.token, owner.user.spaceId)).toMatchObject({
      memberGrade: "PROFESSION",
      clientManage: 10,
      customerManage: 3,
      memberNumber: 5,
      customerAdmin: "Y",
    });
  });

  it("restricts a member to their role's menus, plus templates and store; /me and the space list name the role", async () => {
    await setGrade(team.spaceId, "ENTERPRISE");
    const now = new Date().toISOString();
    await ctx.deps.db.insert(spaceRoles).values({
      id: "role_chat_desk",
      spaceId: team.spaceId,
      name: "Chat desk",
      grants: JSON.stringify(["apps.view", "chatManage.view", "chatManage.edit"]),
      createdBy: owner.user.id,
      createdAt: now,
      updatedAt: now,
    });
    await ctx.deps.db
      .update(spaceMembers)
      .set({ roleId: "role_chat_desk" })
      .where(and(eq(spaceMembers.spaceId, team.spaceId), eq(spaceMembers.userId, mate.user.id)));
    const headers = { "x-parley-space": team.spaceId };
    const member = await expectOk(await ctx.request("/api/v1/privileges", { token: mate.token, headers }), 200, privilegesSchema);
    const routes = ["/console/agents", "/console/chatManage", "/console/templates", "/home"];
    expect(member).toMatchObject({ memberGrade: "ENTERPRISE", authorizedRoute: true, authorizedRouteList: routes, customerAdmin: "N" });
    expect(shown(member)).toEqual(["apps", "chatManage", "templates", "store"]);
    expect(await me(mate.token, team.spaceId)).toMatchObject({
      authorizedRoute: true,
      authorizedRouteList: routes,
      roleId: "role_chat_desk",
      roleName: "Chat desk",
    });
    expect((await listSpaces(mate.token)).find((space) => space.spaceId === team.spaceId)).toMatchObject({ roleId: "role_chat_desk", roleName: "Chat desk" });

    // The owner of the same space is not restricted, and the system role is named in the user's language.
    const boss = await expectOk(await ctx.request("/api/v1/privileges", { token: owner.token, headers }), 200, privilegesSchema);
    expect(boss.authorizedRoute).toBe(false);
    expect(shown(boss)).toEqual(expect.arrayContaining(["apps", "knowledge", "clients", "team", "analysis", "customers"]));
    expect(await me(owner.token, team.spaceId)).toMatchObject({ roleId: "owner", roleName: "Owner" });
  });
});
