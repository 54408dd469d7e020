import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createAppVia } from "../apps/testing";
import { spaceMembers, spaceRoles } from "../db/schema/index";
import { privilegesSchema, spaceSchema, userSchema } from "../identity/schemas";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectError, expectOk } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { dataResourcesSchema, functionResourceSchema, roleSchema } from "./schemas";

let ctx: TestContext;
let base: string;
let owner: TestUser;
let lead: TestUser;
let mate: TestUser;
let outsider: TestUser;
let team: z.infer<typeof spaceSchema>;
let appId: string;
let knowledgeBaseId: string;
let clientId: string;
let foreignAppId: string;

const inTeam = () => ({ "x-parley-space": team.spaceId });
const call = (user: TestUser, path: string, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}) =>
  ctx.request(path, { token: user.token, ...init, headers: { ...inTeam(), ...init.headers } });
const roles = async (user: TestUser, headers: Record<string, string> = {}) =>
  expectOk(await call(user, "/api/v1/team/roles", { headers }), 200, z.array(roleSchema));
const storedRoles = () => ctx.deps.db.select().from(spaceRoles).all();

async function createRole(user: TestUser, name: string, description?: string) {
  return expectOk(await call(user, "/api/v1/team/roles", { method: "POST", json: { name, ...(description ? { description } : {}) } }), 201, roleSchema);
}
const setGrants = (user: TestUser, roleId: string, grants: unknown) => call(user, `/api/v1/team/roles/${roleId}/grants`, { method: "PUT", json: { grants } });
const setRange = (user: TestUser, roleId: string, json: unknown) => call(user, `/api/v1/team/roles/${roleId}/data-range`, { method: "PUT", json });
const setMemberRole = (user: TestUser, roleId: string) =>
  ctx.deps.db
    .update(spaceMembers)
    .set({ roleId })
    .where(and(eq(spaceMembers.spaceId, team.spaceId), eq(spaceMembers.userId, user.user.id)));

beforeAll(async () => {
  ctx = await createTestContext();
  base = await ctx.listen();
  owner = await registerUser(ctx, "owner-roles@example.com");
  lead = await registerUser(ctx, "lead-roles@example.com");
  mate = await registerUser(ctx, "mate-roles@example.com");
  outsider = await registerUser(ctx, "outsider-roles@example.com");
  team = await expectOk(await ctx.request("/api/v1/spaces", { method: "POST", token: owner.token, json: { companyName: "Roles Inc" } }), 201, spaceSchema);
  await upgradeSpaceForTest(ctx, team.spaceId);
  await upgradeSpaceForTest(ctx, outsider.user.spaceId);
  appId = (await createAppVia(ctx, owner, { name: "Team bot" }, inTeam())).id;
  foreignAppId = (await createAppVia(ctx, outsider, { name: "Their bot" })).id;
  const kb = await call(owner, "/api/v1/knowledge-bases", { method: "POST", json: { name: "Team docs" } });
  expect(kb.status).toBe(201);
  knowledgeBaseId = ((await kb.json()) as { data: { id: string } }).data.id;
  const client = await call(owner, "/api/v1/web-clients", { method: "POST", json: { appId, name: "Team widget" } });
  expect(client.status, await client.clone().text()).toBe(201);
  clientId = ((await client.json()) as { data: { id: string } }).data.id;
  await addMember(ctx, team.spaceId, lead, "viewer");
  await addMember(ctx, team.spaceId, mate, "developer");
});
afterAll(async () => ctx.close());

describe("system roles", () => {
  it("lists the five system roles, named in the request's language, with their members counted", async () => {
    const list = await roles(owner);
    expect(list.map((role) => [role.id, role.name, role.system, role.memberCount])).toEqual([
      ["owner", "Owner", true, 1],
      ["admin", "Administrator", true, 0],
      ["developer", "Developer", true, 1],
      ["operator", "Operator (customer service)", true, 0],
      ["viewer", "Viewer", true, 1],
    ]);
    expect(list[2]).toMatchObject({ dataRange: { scope: "all" }, grants: expect.arrayContaining(["apps.edit", "apps.view", "clients.view"]) });
    const zh = await roles(owner, { "accept-language": "zh-CN" });
    expect(zh.map((role) => role.name)).toEqual(["所有者", "管理员", "开发者", "客服", "访客"]);
  });

  it("refuses to change, grant, range or delete a system role", async () => {
    await expectError(await call(owner, "/api/v1/team/roles/developer", { method: "PATCH", json: { name: "Dev" } }), 409, {
      message: "System roles cannot be changed or deleted",
    });
    await expectError(await setGrants(owner, "viewer", ["apps.edit"]), 409);
    await expectError(await setRange(owner, "operator", { scope: "own" }), 409);
    await expectError(await call(owner, "/api/v1/team/roles/admin", { method: "DELETE" }), 409);
    await expectError(await call(owner, "/api/v1/team/roles/role_missing", { method: "DELETE" }), 404);
  });

  it("lets members without team.edit read roles but not change them", async () => {
    expect((await roles(lead)).length).toBe(5);
    await expectError(await call(lead, "/api/v1/team/roles", { method: "POST", json: { name: "Nope" } }), 403);
    // A developer has no team resource at all.
    await expectError(await call(mate, "/api/v1/team/roles"), 403);
    expect(await storedRoles()).toEqual([]);
  });
});

describe("custom roles", () => {
  let supportId: string;

  it("creates a role with no grants and no data range; names are trimmed and checked", async () => {
    const role = await createRole(owner, "  Support  ", "Answers customers");
    supportId = role.id;
    expect(role).toMatchObject({ name: "Support", description: "Answers customers", system: false, grants: [], dataRange: null, memberCount: 0 });
    expect(role.id).toMatch(/^role_/);
    await expectError(await call(owner, "/api/v1/team/roles", { method: "POST", json: { name: "   " } }), 400, { field: "name" });
    await expectError(await call(owner, "/api/v1/team/roles", { method: "POST", json: { name: "x".repeat(31) } }), 400, { field: "name" });
    await expectError(await call(owner, "/api/v1/team/roles", { method: "POST", json: { name: "ok", description: "d".repeat(201) } }), 400, {
      field: "description",
    });
    await expectError(await call(owner, "/api/v1/team/roles", { method: "POST", json: { name: "Support" } }), 409, {
      message: 'A role named "Support" already exists in this space',
    });
    await expectError(await call(owner, "/api/v1/team/roles", { method: "POST", json: { name: "administrator" } }), 409, {
      message: '"administrator" is the name of a system role',
    });
    await expectError(await call(owner, "/api/v1/team/roles", { method: "POST", json: { name: "访客" } }), 409);
    expect((await storedRoles()).map((row) => row.name)).toEqual(["Support"]);
  });

  it("refuses roles in a personal space", async () => {
    const refused = await ctx.request("/api/v1/team/roles", {
      method: "POST",
      token: owner.token,
      json: { name: "Solo" },
      headers: { "x-parley-space": owner.user.spaceId },
    });
    await expectError(refused, 409, { message: "Roles belong to team spaces; a personal space has only its owner" });
  });

  it("renames a role, refusing a taken name; another space cannot see it", async () => {
    const other = await createRole(owner, "Sales");
    await expectError(await call(owner, `/api/v1/team/roles/${other.id}`, { method: "PATCH", json: { name: "Support" } }), 409);
    const renamed = await expectOk(
      await call(owner, `/api/v1/team/roles/${other.id}`, { method: "PATCH", json: { name: "Sales team", description: "Sells" } }),
      200,
      roleSchema,
    );
    expect(renamed).toMatchObject({ name: "Sales team", description: "Sells" });
    const sameName = await expectOk(await call(owner, `/api/v1/team/roles/${other.id}`, { method: "PATCH", json: { name: "Sales team" } }), 200, roleSchema);
    expect(sameName.name).toBe("Sales team");
    await expectError(await ctx.request(`/api/v1/team/roles/${other.id}`, { method: "PATCH", token: outsider.token, json: { name: "Mine" } }), 404);
    await expectError(await call(outsider, "/api/v1/team/roles"), 404);
    const theirs = await expectOk(await ctx.request("/api/v1/team/roles", { token: outsider.token }), 200, z.array(roleSchema));
    expect(theirs.map((role) => role.id)).toEqual(["owner", "admin", "developer", "operator", "viewer"]);
    expect(await expectOk(await call(owner, `/api/v1/team/roles/${other.id}`, { method: "DELETE" }), 200, z.object({ deleted: z.literal(true) }))).toEqual({
      deleted: true,
    });
  });

  it("stores grants canonical (edit implies view) and refuses unknown grants by position", async () => {
    const role = await expectOk(await setGrants(owner, supportId, ["chatManage.edit", "apps.view", "apps.view"]), 200, roleSchema);
    expect(role.grants).toEqual(["apps.view", "chatManage.view", "chatManage.edit"]);
    await expectError(await setGrants(owner, supportId, ["apps.view", "apps.delete"]), 400, {
      field: "grants.1",
      message: '"apps.delete" is not a permission',
    });
    await expectError(await setGrants(owner, supportId, "apps.view"), 400, { field: "grants" });
    expect(JSON.parse((await storedRoles()).find((row) => row.id === supportId)!.grants)).toEqual(["apps.view", "chatManage.view", "chatManage.edit"]);
  });

  it("does not let a caller grant what their own role lacks", async () => {
    const managers = await createRole(owner, "Team managers");
    await expectOk(await setGrants(owner, managers.id, ["team.edit", "knowledge.view"]), 200, roleSchema);
    await setMemberRole(lead, managers.id);
    const refused = await expectError(await setGrants(lead, supportId, ["apps.view", "chatManage.edit", "apps.edit"]), 403, {
      field: "grants.2",
      message: "You cannot grant apps.edit: your own role does not hold it",
    });
    expect(refused.success).toBe(false);
    // Keeping what the role already has and adding what the caller holds is fine.
    const kept = await expectOk(await setGrants(lead, supportId, ["apps.view", "chatManage.edit", "knowledge.view"]), 200, roleSchema);
    expect(kept.grants).toEqual(["apps.view", "knowledge.view", "chatManage.view", "chatManage.edit"]);
    await setMemberRole(lead, "viewer");
  });

  it("lists function resources with their menus and the operations behind each level", async () => {
    const catalogue = await expectOk(await call(lead, "/api/v1/team/resources/functions"), 200, z.array(functionResourceSchema));
    expect(catalogue.map((item) => item.resource)).toEqual([
      "apps",
      "knowledge",
      "database",
      "plugins",
      "workflow",
      "integrations",
      "clients",
      "customers",
      "chatManage",
      "account",
      "analysis",
      "team",
    ]);
    const apps = catalogue[0]!;
    expect(apps).toMatchObject({ name: "Apps", route: "/console/agents" });
    expect(apps.levels.find((level) => level.level === "view")?.operations).toContain("GET /api/v1/apps");
    expect(apps.levels.find((level) => level.level === "edit")?.operations).toContain("POST /api/v1/apps");
    const team = catalogue.at(-1)!;
    expect(team.levels.find((level) => level.level === "edit")?.operations).toContain("PUT /api/v1/team/roles/{roleId}/grants");
  });

  it("lists the space's apps, knowledge bases and clients for step 2, and checks every id", async () => {
    const choices = await expectOk(await call(owner, "/api/v1/team/resources/data"), 200, dataResourcesSchema);
    expect(choices.apps).toEqual([{ id: appId, name: "Team bot", type: "LIGHT" }]);
    expect(choices.knowledgeBases).toEqual([{ id: knowledgeBaseId, name: "Team docs" }]);
    expect(choices.clients).toEqual([{ id: clientId, name: "Team widget", kind: "web" }]);

    await expectError(await setRange(owner, supportId, { scope: "chosen", appIds: [appId, appId, foreignAppId] }), 400, {
      field: "appIds.2",
      message: "This app does not belong to the space",
    });
    await expectError(await setRange(owner, supportId, { scope: "chosen", knowledgeBaseIds: ["kb_nope"] }), 400, { field: "knowledgeBaseIds.0" });
    await expectError(await setRange(owner, supportId, { scope: "chosen", clientIds: [clientId, "demo-x"] }), 400, { field: "clientIds.1" });
    await expectError(await setRange(owner, supportId, { scope: "chosen" }), 400, { field: "scope" });
    await expectError(await setRange(owner, supportId, { scope: "some" }), 400, { field: "scope" });
    expect((await storedRoles()).find((row) => row.id === supportId)!.dataRange).toBeNull();

    const chosen = await expectOk(
      await setRange(owner, supportId, { scope: "chosen", appIds: [appId], knowledgeBaseIds: [knowledgeBaseId], clientIds: [clientId] }),
      200,
      roleSchema,
    );
    expect(chosen.dataRange).toEqual({ scope: "chosen", appIds: [appId], knowledgeBaseIds: [knowledgeBaseId], clientIds: [clientId] });
    const all = await expectOk(await setRange(owner, supportId, { scope: "all", appIds: [foreignAppId] }), 200, roleSchema);
    expect(all.dataRange).toEqual({ scope: "all" });
  });

  it("refuses to delete a role while members hold it, naming how many", async () => {
    await setMemberRole(mate, supportId);
    await expectError(await call(owner, `/api/v1/team/roles/${supportId}`, { method: "DELETE" }), 409, {
      message: "1 member(s) hold this role; give them another role before deleting it",
    });
    expect((await roles(owner)).find((role) => role.id === supportId)?.memberCount).toBe(1);
    await setMemberRole(mate, "developer");
  });

  it("revokes the invitation links that would give a role when it is deleted", async () => {
    const temp = await expectOk(await call(owner, "/api/v1/team/roles", { method: "POST", json: { name: "Seasonal" } }), 201, z.object({ id: z.string() }));
    const link = await expectOk(
      await call(owner, "/api/v1/team/invitations", { method: "POST", json: { roleId: temp.id } }),
      201,
      z.object({ id: z.string(), status: z.string() }),
    );
    expect(link.status).toBe("active");
    await expectOk(await call(owner, `/api/v1/team/roles/${temp.id}`, { method: "DELETE" }), 200, z.object({ deleted: z.literal(true) }));
    const links = await expectOk(await call(owner, "/api/v1/team/invitations"), 200, z.array(z.object({ id: z.string(), status: z.string() })));
    expect(links.find((item) => item.id === link.id)?.status).toBe("revoked");
  });
});

describe("privileges from roles", () => {
  const shown = (answer: z.infer<typeof privilegesSchema>) => answer.menus.filter((menu) => menu.visible).map((menu) => menu.key);
  const privileges = async (user: TestUser) => expectOk(await call(user, "/api/v1/privileges"), 200, privilegesSchema);

  it("gives each system role its menus on a PROFESSION team", async () => {
    const expected: Record<string, string[]> = {
      owner: [
        "apps",
        "knowledge",
        "database",
        "plugins",
        "workflow",
        "integrations",
        "clients",
        "customers",
        "chatManage",
        "account",
        "analysis",
        "team",
        "templates",
        "store",
      ],
      developer: ["apps", "knowledge", "database", "plugins", "workflow", "integrations", "clients", "analysis", "templates", "store"],
      operator: ["apps", "knowledge", "clients", "customers", "chatManage", "analysis", "templates", "store"],
      viewer: [
        "apps",
        "knowledge",
        "database",
        "plugins",
        "workflow",
        "integrations",
        "clients",
        "customers",
        "chatManage",
        "account",
        "analysis",
        "team",
        "templates",
        "store",
      ],
    };
    expected.admin = expected.owner!;
    for (const [roleId, menus] of Object.entries(expected)) {
      await setMemberRole(mate, roleId);
      const answer = await privileges(mate);
      expect(shown(answer), roleId).toEqual(menus);
      expect(answer.authorizedRoute, roleId).toBe(roleId !== "admin" && roleId !== "owner");
    }
    expect((await privileges(owner)).authorizedRoute).toBe(false);
    await setMemberRole(mate, "developer");
  });

  it("follows a custom role on the member's very next request, and tells the member's console", async () => {
    const desk = await createRole(owner, "Desk");
    await expectOk(await setGrants(owner, desk.id, ["apps.view", "knowledge.view"]), 200, roleSchema);
    await setMemberRole(mate, desk.id);
    const before = await privileges(mate);
    expect(shown(before)).toEqual(["apps", "knowledge", "templates", "store"]);
    expect(before.authorizedRouteList).toEqual(["/console/agents", "/console/knowledge", "/console/templates", "/home"]);
    expect(before.customerAdmin).toBe("N");
    expect(await expectOk(await call(mate, "/api/v1/me"), 200, userSchema)).toMatchObject({ roleId: desk.id, roleName: "Desk", authorizedRoute: true });
    const spaces = await expectOk(await ctx.request("/api/v1/me/spaces", { token: mate.token }), 200, z.array(spaceSchema));
    expect(spaces.find((space) => space.spaceId === team.spaceId)).toMatchObject({ roleId: desk.id, roleName: "Desk" });
    expect((await call(mate, "/api/v1/knowledge-bases")).status).toBe(200);
    await expectError(await call(mate, "/api/v1/plugins"), 403);

    const socket: Socket = io(`${base}/console`, {
      auth: { token: mate.token, spaceId: team.spaceId },
      forceNew: true,
      reconnection: false,
      transports: ["websocket"],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once("connect", () => resolve());
        socket.once("connect_error", reject);
      });
      const heard = new Promise<unknown>((resolve) => socket.once("access.changed", resolve));
      await expectOk(await setGrants(owner, desk.id, ["apps.view"]), 200, roleSchema);
      expect(await heard).toEqual({ reason: "role", roleId: desk.id });
    } finally {
      socket.disconnect();
    }
    await expectError(await call(mate, "/api/v1/knowledge-bases"), 403, { message: "Your role in this space cannot view Knowledge" });
    expect(shown(await privileges(mate))).toEqual(["apps", "templates", "store"]);
    await setMemberRole(mate, "developer");
  });
});
