import { and, eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember } from "../apps/testing";
import { sha256 } from "../crypto";
import { apiKeys, outbox, spaceInvitations, spaceMembers, spaceRoles, spaces, users } from "../db/schema/index";
import { spaceSchema, userSchema } from "../identity/schemas";
import { eventually, inboxSpace, recordRealtime, setManualService, startVisitor, visitorSays } from "../inbox/testing";
import { upgradeSpaceForTest } from "../plans/testing";
import { createTestContext, latestCode, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk, manualClock } from "../testing/flows";
import { notifyMemberSchema, resolvedInvitationSchema, teamInvitationSchema, teamMemberPageSchema, teamMemberSchema } from "./schemas";

const clock = manualClock(Date.parse("2026-11-10T09:00:00.000Z"));
let ctx: TestContext;
let owner: TestUser;
let team: z.infer<typeof spaceSchema>;

beforeAll(async () => {
  ctx = await createTestContext({}, { now: clock.now });
  owner = await registerUser(ctx, "owner@example.com");
  team = await expectOk(await ctx.request("/api/v1/spaces", { method: "POST", token: owner.token, json: { companyName: "Acme" } }), 201, spaceSchema);
});
afterAll(async () => ctx.close());

const inTeam = (spaceId = team.spaceId) => ({ "x-parley-space": spaceId });
const members = async (user: TestUser, query = "", spaceId = team.spaceId, language = "en") =>
  expectOk(
    await ctx.request(`/api/v1/team/members${query}`, { token: user.token, headers: { ...inTeam(spaceId), "accept-language": language } }),
    200,
    teamMemberPageSchema,
  );
const createLink = (user: TestUser, json: Record<string, unknown> = {}, spaceId = team.spaceId) =>
  ctx.request("/api/v1/team/invitations", { method: "POST", token: user.token, headers: inTeam(spaceId), json });
const accept = (user: TestUser, inviteParam: string) =>
  ctx.request("/api/v1/team-invitations/accept", { method: "POST", token: user.token, json: { inviteParam } });
const resolve = (inviteParam: string) => ctx.request(`/api/v1/team-invitations/resolve?inviteParam=${encodeURIComponent(inviteParam)}`);
const membership = (spaceId: string, userId: string) =>
  ctx.deps.db
    .select()
    .from(spaceMembers)
    .where(and(eq(spaceMembers.spaceId, spaceId), eq(spaceMembers.userId, userId)))
    .get();
const setRole = (user: TestUser, userId: string, roleId: string, spaceId = team.spaceId) =>
  ctx.request(`/api/v1/team/members/${userId}`, { method: "PATCH", token: user.token, headers: inTeam(spaceId), json: { roleId } });

async function newTeam(name: string, user = owner) {
  const space = await expectOk(await ctx.request("/api/v1/spaces", { method: "POST", token: user.token, json: { companyName: name } }), 201, spaceSchema);
  return space;
}

describe("invitation links", () => {
  it("are for team spaces, with a role the caller may give and bounded expiry and uses", async () => {
    await expectError(await createLink(owner, {}, owner.user.spaceId), 409, {
      message: "Invitations are for team spaces; create or switch to a team space first",
    });
    await expectError(await createLink(owner, { expiresInDays: 0 }), 400, { field: "expiresInDays" });
    await expectError(await createLink(owner, { expiresInDays: 31 }), 400, { field: "expiresInDays" });
    await expectError(await createLink(owner, { maxUses: 0 }), 400, { field: "maxUses" });
    await expectError(await createLink(owner, { maxUses: 1001 }), 400, { field: "maxUses" });
    await expectError(await createLink(owner, { roleId: "owner" }), 400, { field: "roleId" });
    await expectError(await createLink(owner, { roleId: "role_nothere" }), 400, { field: "roleId", message: "This role does not exist in the space" });
    expect(await ctx.deps.db.select().from(spaceInvitations).all()).toEqual([]);
    const link = await expectOk(await createLink(owner), 201, teamInvitationSchema);
    expect(link).toMatchObject({ roleId: "viewer", roleName: "Viewer", status: "active", maxUses: null, uses: 0, createdBy: owner.user.id });
    expect(link.inviteParam).toMatch(/^tm_/);
    expect(link.link).toBe(`http://127.0.0.1:3000/console/agents?inviteParam=${link.inviteParam}`);
    expect(Date.parse(link.expiresAt) - clock.now().getTime()).toBe(7 * 86_400_000);
    // Stored hashed and sealed, never in the clear; listed again with the link.
    const row = await ctx.deps.db.select().from(spaceInvitations).where(eq(spaceInvitations.id, link.id)).get();
    expect(row!.tokenHash).toBe(sha256(link.inviteParam));
    expect(row!.tokenSealed).not.toContain(link.inviteParam);
    const list = await expectOk(await ctx.request("/api/v1/team/invitations", { token: owner.token, headers: inTeam() }), 200, z.array(teamInvitationSchema));
    expect(list.find((item) => item.id === link.id)?.link).toBe(link.link);
    // In Chinese the role's name is translated.
    const zh = await expectOk(await resolve(link.inviteParam).then((r) => r), 200, resolvedInvitationSchema);
    expect(zh).toMatchObject({ companyName: "Acme", companyCode: team.companyCode, roleName: "Viewer", expiresAt: link.expiresAt });
    const zhResolved = await expectOk(
      await ctx.request(`/api/v1/team-invitations/resolve?inviteParam=${link.inviteParam}`, { headers: { "accept-language": "zh-CN" } }),
      200,
      resolvedInvitationSchema,
    );
    expect(zhResolved.roleName).toBe("访客");
  });

  it("a member joins with the link's role, invited by its maker, and the team becomes current", async () => {
    const bob = await registerUser(ctx, "bob@example.com");
    const link = await expectOk(await createLink(owner, { roleId: "developer", maxUses: 5 }), 201, teamInvitationSchema);
    const events = recordRealtime(ctx);
    const user = await expectOk(await accept(bob, link.inviteParam), 200, userSchema);
    expect(user).toMatchObject({ spaceId: team.spaceId, companyName: "Acme", role: "member", companyOwner: false });
    expect(await membership(team.spaceId, bob.user.id)).toMatchObject({ roleId: "developer", role: "member", invitedBy: owner.user.id });
    expect((await ctx.deps.db.select().from(users).where(eq(users.id, bob.user.id)).get())!.currentSpaceId).toBe(team.spaceId);
    expect((await ctx.deps.db.select().from(spaceInvitations).where(eq(spaceInvitations.id, link.id)).get())!.uses).toBe(1);
    expect(events.toSpace(team.spaceId, "access.changed").map((event) => event.data)).toEqual([{ reason: "member", userIds: [bob.user.id] }]);
    events.stop();
    // Again: already a member, 409, nothing used.
    await expectError(await accept(bob, link.inviteParam), 409, { message: "You are already a member of Acme" });
    expect((await ctx.deps.db.select().from(spaceInvitations).where(eq(spaceInvitations.id, link.id)).get())!.uses).toBe(1);
    // The members list shows the §3 fields.
    const page = await members(owner);
    expect(page.total).toBe(2);
    expect(page.items.map((item) => item.userId)).toEqual([owner.user.id, bob.user.id]);
    expect(page.items[1]).toMatchObject({
      name: "bob",
      email: "bob@example.com",
      phone: null,
      roleId: "developer",
      roleName: "Developer",
      owner: false,
      creditAllocation: 0,
      creditsSpent: 0,
      invitedBy: owner.user.id,
      invitedByName: "owner",
    });
    expect((await members(owner, "", team.spaceId, "zh-CN")).items.map((item) => item.roleName)).toEqual(["所有者", "开发者"]);
    expect((await members(owner, "?keyword=BOB")).items.map((item) => item.userId)).toEqual([bob.user.id]);
    expect((await members(owner, "?keyword=%25")).items).toEqual([]);
    expect(await members(owner, "?pageSize=1&pageNo=2")).toMatchObject({ total: 2, pageNo: 2, pageSize: 1, items: [{ userId: bob.user.id }] });
    await expectError(await ctx.request("/api/v1/team/members?pageSize=0", { token: owner.token, headers: inTeam() }), 400, { field: "pageSize" });
  });

  it("unknown, revoked, expired and used-up links answer a clear 404 and change nothing", async () => {
    const carol = await registerUser(ctx, "carol@example.com");
    await expectError(await resolve("tm_nothing"), 404, { message: "This invitation link is not valid" });
    await expectError(await resolve("K7M2Q9XZ"), 404, { message: "This invitation link is not valid" });
    await expectError(await accept(carol, "tm_nothing"), 404, { message: "This invitation link is not valid" });

    const revoked = await expectOk(await createLink(owner), 201, teamInvitationSchema);
    const after = await expectOk(
      await ctx.request(`/api/v1/team/invitations/${revoked.id}`, { method: "DELETE", token: owner.token, headers: inTeam() }),
      200,
      teamInvitationSchema,
    );
    expect(after.status).toBe("revoked");
    await expectError(await resolve(revoked.inviteParam), 404, { message: "This invitation link has been revoked" });
    await expectError(await accept(carol, revoked.inviteParam), 404, { message: "This invitation link has been revoked" });
    await expectError(await ctx.request("/api/v1/team/invitations/tin_missing", { method: "DELETE", token: owner.token, headers: inTeam() }), 404);

    const short = await expectOk(await createLink(owner, { expiresInDays: 1 }), 201, teamInvitationSchema);
    clock.advance(86_400_000 + 1000);
    await expectError(await resolve(short.inviteParam), 404, { message: "This invitation link has expired" });
    await expectError(
      await ctx.request(`/api/v1/team-invitations/resolve?inviteParam=${short.inviteParam}`, { headers: { "accept-language": "zh-CN" } }),
      404,
      { message: "此邀请链接已过期" },
    );
    await expectError(await accept(carol, short.inviteParam), 404, { message: "This invitation link has expired" });
    const list = await expectOk(await ctx.request("/api/v1/team/invitations", { token: owner.token, headers: inTeam() }), 200, z.array(teamInvitationSchema));
    expect(list.find((item) => item.id === short.id)?.status).toBe("expired");

    const once = await expectOk(await createLink(owner, { maxUses: 1 }), 201, teamInvitationSchema);
    await expectOk(await accept(carol, once.inviteParam), 200, userSchema);
    const dave = await registerUser(ctx, "dave@example.com");
    await expectError(await resolve(once.inviteParam), 404, { message: "This invitation link has been used the maximum number of times" });
    await expectError(await accept(dave, once.inviteParam), 404, { message: "This invitation link has been used the maximum number of times" });
    expect(await membership(team.spaceId, dave.user.id)).toBeUndefined();
    expect((await ctx.deps.db.select().from(users).where(eq(users.id, dave.user.id)).get())!.currentSpaceId).toBe(dave.user.spaceId);
    await expectError(await ctx.request("/api/v1/team-invitations/accept", { method: "POST", token: dave.token, json: {} }), 400, { field: "inviteParam" });
    await expectError(await ctx.request("/api/v1/team-invitations/accept", { method: "POST", json: { inviteParam: once.inviteParam } }), 401);
  });

  it("two people accepting a one-use link at once: exactly one joins", async () => {
    const space = await newTeam("Race");
    await upgradeSpaceForTest(ctx, space.spaceId);
    const link = await expectOk(await createLink(owner, { maxUses: 1 }, space.spaceId), 201, teamInvitationSchema);
    const racers = await Promise.all([registerUser(ctx, "race1@example.com"), registerUser(ctx, "race2@example.com"), registerUser(ctx, "race3@example.com")]);
    const answers = await Promise.all(racers.map((racer) => accept(racer, link.inviteParam)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 404, 404]);
    const joined = await ctx.deps.db.select().from(spaceMembers).where(eq(spaceMembers.spaceId, space.spaceId)).all();
    expect(joined).toHaveLength(2);
    expect((await ctx.deps.db.select().from(spaceInvitations).where(eq(spaceInvitations.id, link.id)).get())!.uses).toBe(1);
  });

  it("a full member quota refuses with 701 and changes nothing", async () => {
    const space = await newTeam("Small");
    const link = await expectOk(await createLink(owner, {}, space.spaceId), 201, teamInvitationSchema);
    // Free teams have room for 3 members besides the owner.
    for (const name of ["q1", "q2", "q3"]) await expectOk(await accept(await registerUser(ctx, `${name}@example.com`), link.inviteParam), 200, userSchema);
    const late = await registerUser(ctx, "q4@example.com");
    const refused = await expectError(await accept(late, link.inviteParam), 402, { code: 701 });
    expect(refused.data).toMatchObject({ quota: "members", limit: 3, plan: "free" });
    expect(await membership(space.spaceId, late.user.id)).toBeUndefined();
    expect((await ctx.deps.db.select().from(spaceInvitations).where(eq(spaceInvitations.id, link.id)).get())!.uses).toBe(3);
    expect((await ctx.deps.db.select().from(users).where(eq(users.id, late.user.id)).get())!.currentSpaceId).toBe(late.user.spaceId);
  });

  it("registration with a team link joins the new user; a bad link is ignored, a referral code stays a referral", async () => {
    const space = await newTeam("Signup");
    const link = await expectOk(await createLink(owner, { roleId: "operator" }, space.spaceId), 201, teamInvitationSchema);
    const registerWith = async (email: string, inviteParam: string) => {
      await ctx.request("/api/v1/auth/codes", { method: "POST", json: { channel: "email", target: email, purpose: "register" } });
      const code = await latestCode(ctx, email);
      const response = await ctx.request("/api/v1/auth/register", {
        method: "POST",
        json: { channel: "email", target: email, code, password: "passw0rd-ok", inviteParam },
      });
      return expectOk(response, 201, z.object({ token: z.string(), user: userSchema }));
    };
    const newcomer = await registerWith("newcomer@example.com", link.inviteParam);
    expect(newcomer.user).toMatchObject({ spaceId: space.spaceId, companyName: "Signup" });
    expect(await membership(space.spaceId, newcomer.user.id)).toMatchObject({ roleId: "operator", role: "member", invitedBy: owner.user.id });
    const stray = await registerWith("stray@example.com", "tm_not-a-real-link");
    expect(stray.user.companyName).toBe("stray");
    const referred = await registerWith("referred@example.com", "K7M2Q9XZ");
    expect(referred.user.companyName).toBe("referred");
  });
});

describe("roles of members", () => {
  let admin: TestUser;
  let dev: TestUser;
  let viewer: TestUser;
  let space: z.infer<typeof spaceSchema>;

  beforeAll(async () => {
    space = await newTeam("Roles");
    await upgradeSpaceForTest(ctx, space.spaceId);
    admin = await registerUser(ctx, "admin@example.com");
    dev = await registerUser(ctx, "dev@example.com");
    viewer = await registerUser(ctx, "viewer@example.com");
    await addMember(ctx, space.spaceId, admin, "admin");
    await addMember(ctx, space.spaceId, dev, "developer");
    await addMember(ctx, space.spaceId, viewer, "viewer");
  });

  it("refuses changing one's own role, the owner's, to owner, or to a role the space lacks", async () => {
    await expectError(await setRole(admin, admin.user.id, "viewer", space.spaceId), 403, { message: "You cannot change your own role" });
    await expectError(await setRole(admin, owner.user.id, "viewer", space.spaceId), 403, {
      message: "The owner's role cannot be changed; transfer ownership instead",
    });
    await expectError(await setRole(owner, dev.user.id, "owner", space.spaceId), 400, { field: "roleId" });
    await expectError(await setRole(owner, dev.user.id, "role_unknown", space.spaceId), 400, { field: "roleId" });
    await expectError(await setRole(owner, dev.user.id, "", space.spaceId), 400, { field: "roleId" });
    await expectError(await setRole(owner, "usr_nobody", "viewer", space.spaceId), 404);
    // A role of another space is not this space's.
    const other = await ctx.deps.db
      .insert(spaceRoles)
      .values({ id: "role_other", spaceId: team.spaceId, name: "Other", grants: "[]", createdBy: owner.user.id, updatedAt: clock.now().toISOString() })
      .returning();
    await expectError(await setRole(owner, dev.user.id, other[0]!.id, space.spaceId), 400, { field: "roleId" });
    // The viewer lacks team.edit: refused before anything else.
    await expectError(await setRole(viewer, dev.user.id, "viewer", space.spaceId), 403);
    expect(await membership(space.spaceId, dev.user.id)).toMatchObject({ roleId: "developer", role: "member" });
  });

  it("refuses granting what the caller lacks, and admins are the owner's to make and unmake", async () => {
    // A custom role holding team.edit but not apps.edit.
    await ctx.deps.db.insert(spaceRoles).values({
      id: "role_teamlead",
      spaceId: space.spaceId,
      name: "Team lead",
      grants: JSON.stringify(["team.edit", "team.view", "apps.view"]),
      dataRange: JSON.stringify({ scope: "all" }),
      createdBy: owner.user.id,
      updatedAt: clock.now().toISOString(),
    });
    const lead = await registerUser(ctx, "lead@example.com");
    await addMember(ctx, space.spaceId, lead, "role_teamlead");
    await expectError(await setRole(lead, viewer.user.id, "developer", space.spaceId), 403, {
      message: "You cannot give a role permissions you do not have yourself",
    });
    await expectError(await createLink(lead, { roleId: "developer" }, space.spaceId), 403, {
      message: "You cannot give a role permissions you do not have yourself",
    });
    // A custom role's name is listed; the lead can give a role within their own grants.
    const page = await members(owner, "?keyword=lead", space.spaceId);
    expect(page.items[0]).toMatchObject({ roleId: "role_teamlead", roleName: "Team lead" });
    await expectOk(await setRole(owner, viewer.user.id, "role_teamlead", space.spaceId), 200, teamMemberSchema);
    // Viewer holds every view grant, more than the lead has: refused.
    await expectError(await setRole(lead, viewer.user.id, "viewer", space.spaceId), 403, {
      message: "You cannot give a role permissions you do not have yourself",
    });
    expect((await membership(space.spaceId, viewer.user.id))!.roleId).toBe("role_teamlead");

    await expectError(await setRole(admin, dev.user.id, "admin", space.spaceId), 403, { message: "Only the owner can make or unmake an administrator" });
    const events = recordRealtime(ctx);
    const made = await expectOk(await setRole(owner, dev.user.id, "admin", space.spaceId), 200, teamMemberSchema);
    expect(made).toMatchObject({ roleId: "admin", roleName: "Administrator" });
    expect(await membership(space.spaceId, dev.user.id)).toMatchObject({ roleId: "admin", role: "admin" });
    expect(events.toSpace(space.spaceId, "access.changed").map((event) => event.data)).toEqual([{ reason: "member", userIds: [dev.user.id] }]);
    events.stop();
    await expectError(await setRole(admin, dev.user.id, "viewer", space.spaceId), 403, { message: "Only the owner can make or unmake an administrator" });
    await expectOk(await setRole(owner, dev.user.id, "operator", space.spaceId), 200, teamMemberSchema);
    expect(await membership(space.spaceId, dev.user.id)).toMatchObject({ roleId: "operator", role: "member" });
    // An admin changes other members' roles (within their grants).
    await expectOk(await setRole(admin, dev.user.id, "developer", space.spaceId), 200, teamMemberSchema);
    // The new role applies on the very next request.
    await expectError(await ctx.request("/api/v1/team/members", { token: dev.token, headers: inTeam(space.spaceId) }), 403);
    await expectOk(await setRole(owner, dev.user.id, "viewer", space.spaceId), 200, teamMemberSchema);
    expect((await members(dev, "", space.spaceId)).total).toBe(5);
  });

  it("removal: never the owner or oneself, admins only by the owner; the removed member's session and API key lose the space at once", async () => {
    await expectError(
      await ctx.request(`/api/v1/team/members/${owner.user.id}`, { method: "DELETE", token: admin.token, headers: inTeam(space.spaceId) }),
      403,
      {
        message: "The owner cannot be removed from the space",
      },
    );
    await expectError(
      await ctx.request(`/api/v1/team/members/${admin.user.id}`, { method: "DELETE", token: admin.token, headers: inTeam(space.spaceId) }),
      403,
      {
        message: "You cannot remove yourself; exit the space instead",
      },
    );
    const second = await registerUser(ctx, "admin2@example.com");
    await addMember(ctx, space.spaceId, second, "admin");
    await expectError(
      await ctx.request(`/api/v1/team/members/${second.user.id}`, { method: "DELETE", token: admin.token, headers: inTeam(space.spaceId) }),
      403,
      {
        message: "Only the owner can remove an administrator",
      },
    );
    expect(await membership(space.spaceId, second.user.id)).toBeDefined();

    // The developer works in the team: current space, and an API key made for it.
    await ctx.request(`/api/v1/spaces/${space.spaceId}/select`, { method: "POST", token: dev.token });
    await ctx.deps.db
      .update(spaceMembers)
      .set({ creditAllocation: 50 })
      .where(and(eq(spaceMembers.spaceId, space.spaceId), eq(spaceMembers.userId, dev.user.id)));
    const key = "pk_team-key-for-dev";
    await ctx.deps.db
      .insert(apiKeys)
      .values({ id: "key_team", spaceId: space.spaceId, userId: dev.user.id, name: "team", prefix: "pk_team", keyHash: sha256(key) });
    const personalKey = await ctx.request("/api/v1/me/api-keys", { method: "POST", token: dev.token, json: { name: "mine" } });
    expect(personalKey.status).toBe(201);
    expect((await ctx.request("/api/v1/apps", { token: key })).status).toBe(200);

    const events = recordRealtime(ctx);
    await expectOk(
      await ctx.request(`/api/v1/team/members/${dev.user.id}`, { method: "DELETE", token: admin.token, headers: inTeam(space.spaceId) }),
      200,
      z.object({ userId: z.string() }),
    );
    expect(await membership(space.spaceId, dev.user.id)).toBeUndefined();
    expect(events.toSpace(space.spaceId, "access.changed").map((event) => event.data)).toEqual([{ reason: "removed", userIds: [dev.user.id] }]);
    events.stop();
    expect(await ctx.deps.db.select().from(apiKeys).where(eq(apiKeys.userId, dev.user.id)).all()).toHaveLength(1);
    await expectError(await ctx.request("/api/v1/apps", { token: key }), 401);
    await expectError(await ctx.request("/api/v1/apps", { token: dev.token, headers: inTeam(space.spaceId) }), 404);
    const me = await expectOk(await ctx.request("/api/v1/me", { token: dev.token }), 200, userSchema);
    expect(me.spaceId).toBe(dev.user.spaceId);
    expect((await ctx.deps.db.select().from(users).where(eq(users.id, dev.user.id)).get())!.currentSpaceId).toBe(dev.user.spaceId);
    await expectError(await ctx.request(`/api/v1/team/members/${dev.user.id}`, { method: "DELETE", token: admin.token, headers: inTeam(space.spaceId) }), 404);
  });

  it("exit: a member leaves (back in their personal space); the owner cannot", async () => {
    const leaver = await registerUser(ctx, "leaver@example.com");
    await addMember(ctx, space.spaceId, leaver, "viewer");
    await ctx.request(`/api/v1/spaces/${space.spaceId}/select`, { method: "POST", token: leaver.token });
    const back = await expectOk(await ctx.request("/api/v1/team/exit", { method: "POST", token: leaver.token }), 200, userSchema);
    expect(back.spaceId).toBe(leaver.user.spaceId);
    expect(await membership(space.spaceId, leaver.user.id)).toBeUndefined();
    await expectError(await ctx.request("/api/v1/team/exit", { method: "POST", token: owner.token, headers: inTeam(space.spaceId) }), 409, {
      message: "The owner cannot leave their own space",
    });
    await expectError(await ctx.request("/api/v1/team/exit", { method: "POST", token: owner.token, headers: inTeam(owner.user.spaceId) }), 409);
  });

  it("ownership transfer: the owner only, to a member; the former owner becomes an administrator", async () => {
    await expectError(
      await ctx.request("/api/v1/team/owner", { method: "POST", token: admin.token, headers: inTeam(space.spaceId), json: { userId: admin.user.id } }),
      403,
      {
        message: "Only the owner of the space can transfer ownership",
      },
    );
    await expectError(
      await ctx.request("/api/v1/team/owner", { method: "POST", token: owner.token, headers: inTeam(space.spaceId), json: { userId: "usr_nobody" } }),
      404,
    );
    await expectError(
      await ctx.request("/api/v1/team/owner", { method: "POST", token: owner.token, headers: inTeam(space.spaceId), json: { userId: owner.user.id } }),
      400,
      {
        field: "userId",
      },
    );
    await expectError(await ctx.request("/api/v1/team/owner", { method: "POST", token: owner.token, headers: inTeam(space.spaceId), json: {} }), 400, {
      field: "userId",
    });
    // Credits set aside for the future owner go back to the space: the owner spends the unallocated credits.
    await ctx.deps.db
      .update(spaceMembers)
      .set({ creditAllocation: 40 })
      .where(and(eq(spaceMembers.spaceId, space.spaceId), eq(spaceMembers.userId, admin.user.id)));
    const moved = await expectOk(
      await ctx.request("/api/v1/team/owner", { method: "POST", token: owner.token, headers: inTeam(space.spaceId), json: { userId: admin.user.id } }),
      200,
      teamMemberSchema,
    );
    expect(moved).toMatchObject({ userId: admin.user.id, roleId: "owner", owner: true });
    expect((await ctx.deps.db.select().from(spaces).where(eq(spaces.id, space.spaceId)).get())!.ownerUserId).toBe(admin.user.id);
    expect(await membership(space.spaceId, admin.user.id)).toMatchObject({ role: "owner", roleId: "owner", creditAllocation: 0 });
    expect(await membership(space.spaceId, owner.user.id)).toMatchObject({ role: "admin", roleId: "admin" });
    // The former owner may now leave; the new one may not.
    await expectError(await ctx.request("/api/v1/team/exit", { method: "POST", token: admin.token, headers: inTeam(space.spaceId) }), 409);
    await expectError(
      await ctx.request("/api/v1/team/owner", { method: "POST", token: owner.token, headers: inTeam(space.spaceId), json: { userId: owner.user.id } }),
      403,
    );
  });
});

describe("members to notify", () => {
  it("lists the space's members, and a handover e-mails the chosen members", async () => {
    const space = await newTeam("Notify");
    await upgradeSpaceForTest(ctx, space.spaceId);
    const helper = await registerUser(ctx, "helper@example.com");
    const link = await expectOk(await createLink(owner, { roleId: "operator" }, space.spaceId), 201, teamInvitationSchema);
    await expectOk(await accept(helper, link.inviteParam), 200, userSchema);
    await ctx.request(`/api/v1/spaces/${space.spaceId}/select`, { method: "POST", token: owner.token });
    const list = await expectOk(
      await ctx.request("/api/v1/team/notify-members", { token: owner.token, headers: inTeam(space.spaceId) }),
      200,
      z.array(notifyMemberSchema),
    );
    expect(list).toEqual([
      { userId: owner.user.id, name: "owner", email: "owner@example.com", phone: null, roleName: "Owner" },
      { userId: helper.user.id, name: "helper", email: "helper@example.com", phone: null, roleName: "Operator" },
    ]);
    const inbox = await inboxSpace(ctx, owner);
    const stranger = await registerUser(ctx, "stranger@example.com");
    const put = await ctx.request(`/api/v1/apps/${inbox.appId}/advanced-config`, {
      method: "PUT",
      token: owner.token,
      json: {
        humanization: { splitReply: false, mergeReply: false, mergeDelaySeconds: null, delayReplySeconds: 0 },
        manualService: {
          triggers: [],
          defaultReply: null,
          replyMode: "none",
          delayMinutes: null,
          notifyMemberIds: [stranger.user.id],
          summaryTemplate: [],
          aiTagging: false,
          notify: { email: true, sms: false, wechat: false, webhook: false, webhooks: [] },
        },
        database: { enabled: false, databaseIds: [] },
      },
    });
    await expectError(put, 400, { field: "manualService.notifyMemberIds.0" });
    await setManualService(ctx, inbox, { triggers: [{ type: "keyword", content: "human" }], notify: { email: true }, notifyMemberIds: [helper.user.id] });
    const visitor = await startVisitor(ctx, inbox.clientId);
    expect((await visitorSays(ctx, visitor, "I need a human")).events.at(-1)).toBeDefined();
    const mails = await eventually(async () => {
      const rows = await ctx.deps.db.select().from(outbox).where(eq(outbox.to, "helper@example.com")).all();
      const notices = rows.filter((row) => row.subject.includes("waiting for a person"));
      return notices.length ? notices : undefined;
    });
    expect(mails[0]!.text).toContain(`/console/chatManage?session=${visitor.sessionId}`);
    // The viewer-less caller needs apps.view: a member without it is refused.
    const nobody = await registerUser(ctx, "nobody@example.com");
    await ctx.deps.db.insert(spaceRoles).values({
      id: "role_none",
      spaceId: space.spaceId,
      name: "None",
      grants: "[]",
      createdBy: owner.user.id,
      updatedAt: clock.now().toISOString(),
    });
    await addMember(ctx, space.spaceId, nobody, "role_none");
    await expectError(await ctx.request("/api/v1/team/notify-members", { token: nobody.token, headers: inTeam(space.spaceId) }), 403);
  });
});

describe("public link lookups", () => {
  it("are throttled per address (429 with Retry-After)", async () => {
    let last: Response | undefined;
    for (let attempt = 0; attempt < 40; attempt++) {
      last = await resolve("tm_guess");
      if (last.status === 429) break;
      expect(last.status).toBe(404);
    }
    expect(last!.headers.get("retry-after")).toMatch(/^\d+$/);
    await expectError(last!, 429);
  });
});
