import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap";
import { sessions, users } from "../db/schema/index";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { codeFor, expectError, expectOk, login, rowCounts, sendCode, userRow } from "../testing/flows";
import { sessionSchema, userSchema } from "./schemas";

let ctx: TestContext;
let tess: TestUser;
beforeAll(async () => {
  ctx = await createTestContext({ PARLEY_CODE_RESEND_SECONDS: "0" });
  tess = await registerUser(ctx, "tess@example.com", "tess-pass-1");
});
afterAll(async () => ctx.close());

const me = (token: string) => ctx.request("/api/v1/me", { token });
const patchMe = (token: string, json: unknown) => ctx.request("/api/v1/me", { method: "PATCH", token, json });
const changed = z.object({ changed: z.literal(true) });

describe("GET /me", () => {
  it("carries every field of the spec's User with the right types", async () => {
    const response = await me(tess.token);
    expect(response.status).toBe(200);
    const raw = (await response.clone().json()) as { data: Record<string, unknown> };
    const user = await expectOk(response, 200, userSchema);
    // Spec §3, User (session): each named field is present.
    const specFields = {
      companyCode: "string",
      companyName: "string",
      companyOwner: "boolean",
      memberGrade: "string",
      authorizedRoute: "boolean",
      authorizedRouteList: "object",
      customerAdmin: "string",
      clientManage: "number",
      customerManage: "number",
      memberNumber: "number",
      companyTabIconUrl: "object",
      companyTabTitle: "object",
      companyIconWordUrl: "object",
    };
    for (const [field, type] of Object.entries(specFields)) {
      expect(raw.data, field).toHaveProperty(field);
      expect(typeof raw.data[field], field).toBe(type);
    }
    expect(Object.keys(raw.data).sort()).toEqual(Object.keys(userSchema.shape).sort());
    const row = await userRow(ctx, "tess@example.com");
    expect(user).toEqual({
      id: row!.id,
      name: "tess",
      email: "tess@example.com",
      phone: null,
      avatarUrl: null,
      language: "en",
      spaceId: row!.personalSpaceId,
      companyCode: expect.stringMatching(/^[A-Z2-9]{8}$/),
      companyName: "tess",
      companyOwner: true,
      memberGrade: "FREE",
      authorizedRoute: false,
      // The owner holds every resource: each menu's route, then templates and the store.
      authorizedRouteList: expect.arrayContaining(["/console/agents", "/console/teamSpace", "/console/templates", "/home"]),
      customerAdmin: "N",
      clientManage: 0,
      customerManage: 0,
      memberNumber: 0,
      companyTabIconUrl: null,
      companyTabTitle: null,
      companyIconWordUrl: null,
      role: "owner",
      roleId: "owner",
      roleName: "Owner",
      hasPassword: true,
      isInstanceOwner: false,
      createdAt: row!.createdAt,
    });
    expect(new Date(user.createdAt).toISOString()).toBe(user.createdAt);
  });

  it("needs a token", async () => {
    await expectError(await ctx.request("/api/v1/me"), 401, { message: "Please log in first" });
    await expectError(await ctx.request("/api/v1/me", { headers: { authorization: "Basic abc" } }), 401);
  });
});

describe("PATCH /me", () => {
  it("updates name, avatar and language, and stores them", async () => {
    const user = await expectOk(
      await patchMe(tess.token, { name: "  Tess T.  ", avatarUrl: "https://img.example.com/t.png", language: "zh-CN" }),
      200,
      userSchema,
    );
    expect(user).toMatchObject({ name: "Tess T.", avatarUrl: "https://img.example.com/t.png", language: "zh-CN" });
    const row = await userRow(ctx, "tess@example.com");
    expect(row).toMatchObject({ name: "Tess T.", avatarUrl: "https://img.example.com/t.png", language: "zh-CN" });
    // Omitted fields stay; null clears the avatar.
    const cleared = await expectOk(await patchMe(tess.token, { avatarUrl: null }), 200, userSchema);
    expect(cleared).toMatchObject({ name: "Tess T.", avatarUrl: null, language: "zh-CN" });
    await expectOk(await me(tess.token), 200, userSchema).then((again) => expect(again.avatarUrl).toBeNull());
  });

  it("refuses bad values naming the field, changing nothing", async () => {
    const before = await userRow(ctx, "tess@example.com");
    await expectError(await patchMe(tess.token, { name: "   " }), 400, { field: "name" });
    await expectError(await patchMe(tess.token, { name: "" }), 400, { field: "name" });
    await expectError(await patchMe(tess.token, { avatarUrl: "not a url" }), 400, { field: "avatarUrl" });
    await expectError(await patchMe(tess.token, { language: "fr" }), 400, { field: "language" });
    await expectError(await patchMe(tess.token, { name: "x".repeat(61) }), 400, { field: "name" });
    expect(await userRow(ctx, "tess@example.com")).toEqual(before);
    await expectError(await ctx.request("/api/v1/me", { method: "PATCH", json: { name: "Anon" } }), 401);
  });
});

describe("bind a contact", () => {
  it("adds a phone proven by a code", async () => {
    const code = await codeFor(ctx, { channel: "phone", target: "13700137000", purpose: "bind" }, tess.token);
    const user = await expectOk(
      await ctx.request("/api/v1/me/contact", { method: "POST", token: tess.token, json: { channel: "phone", target: "137-0013-7000", code } }),
      200,
      userSchema,
    );
    expect(user).toMatchObject({ phone: "13700137000", email: "tess@example.com" });
    expect((await userRow(ctx, "tess@example.com"))?.phone).toBe("13700137000");
    // The phone now signs in too.
    await expectOk(await login(ctx, "13700137000", "tess-pass-1"), 200, sessionSchema);
  });

  it("changes the e-mail with a code sent to the new address", async () => {
    const ursula = await registerUser(ctx, "ursula@example.com");
    const code = await codeFor(ctx, { target: "ursula.new@example.com", purpose: "bind" }, ursula.token);
    await expectError(
      await ctx.request("/api/v1/me/contact", {
        method: "POST",
        token: ursula.token,
        json: { channel: "email", target: "ursula.new@example.com", code: "000000" === code ? "111111" : "000000" },
      }),
      400,
      { field: "code" },
    );
    const user = await expectOk(
      await ctx.request("/api/v1/me/contact", { method: "POST", token: ursula.token, json: { channel: "email", target: "ursula.new@example.com", code } }),
      200,
      userSchema,
    );
    expect(user.email).toBe("ursula.new@example.com");
    expect(await userRow(ctx, "ursula@example.com")).toBeUndefined();
  });

  it("refuses another account's address with 409, changing nothing", async () => {
    const victor = await registerUser(ctx, "victor@example.com");
    const before = await rowCounts(ctx);
    await expectError(
      await ctx.request("/api/v1/me/contact", { method: "POST", token: victor.token, json: { channel: "email", target: "tess@example.com", code: "123456" } }),
      409,
    );
    expect(await rowCounts(ctx)).toEqual(before);
    expect((await userRow(ctx, "victor@example.com"))?.id).toBe(victor.user.id);
  });
});

describe("change password", () => {
  it("needs the old password and a code; other sessions end, the current one stays", async () => {
    const wendy = await registerUser(ctx, "wendy@example.com", "wendy-old-1");
    const other = await expectOk(await login(ctx, "wendy@example.com", "wendy-old-1"), 200, sessionSchema);
    const change = (json: Record<string, unknown>) => ctx.request("/api/v1/me/password", { method: "POST", token: wendy.token, json });

    await expectError(await sendCode(ctx, { target: "wendy@example.com", purpose: "change-password" }), 401);
    const code = await codeFor(ctx, { target: "wendy@example.com", purpose: "change-password" }, wendy.token);
    const hashBefore = (await userRow(ctx, "wendy@example.com"))!.passwordHash;

    await expectError(await change({ oldPassword: "wrong-old-1", newPassword: "wendy-new-2", code }), 400, {
      field: "oldPassword",
      message: "The current password is wrong",
    });
    await expectError(await change({ newPassword: "wendy-new-2", code }), 400, { field: "oldPassword" });
    await expectError(await change({ oldPassword: "wendy-old-1", newPassword: "weak", code }), 400, { field: "newPassword" });
    await expectError(await change({ oldPassword: "wendy-old-1", newPassword: "wendy-new-2" }), 400, { field: "code" });
    await expectError(await change({ oldPassword: "wendy-old-1", newPassword: "wendy-new-2", code: code === "000000" ? "111111" : "000000" }), 400, {
      field: "code",
    });
    expect((await userRow(ctx, "wendy@example.com"))!.passwordHash).toBe(hashBefore);

    expect(await expectOk(await change({ oldPassword: "wendy-old-1", newPassword: "wendy-new-2", code }), 200, changed)).toEqual({ changed: true });
    expect((await userRow(ctx, "wendy@example.com"))!.passwordHash).not.toBe(hashBefore);
    await expectOk(await me(wendy.token), 200, userSchema);
    await expectError(await me(other.token), 401, { message: /session has ended/ });
    await expectError(await login(ctx, "wendy@example.com", "wendy-old-1"), 401);
    await expectOk(await login(ctx, "wendy@example.com", "wendy-new-2"), 200, sessionSchema);
    // The code is spent.
    await expectError(await change({ oldPassword: "wendy-new-2", newPassword: "wendy-third-3", code }), 400, { field: "code" });
  });

  it("needs a token", async () => {
    await expectError(await ctx.request("/api/v1/me/password", { method: "POST", json: { newPassword: "abcdefg-1", code: "123456" } }), 401);
  });

  it("lets an account without a password set one with just a code", async () => {
    const other = await createTestContext({ PARLEY_OWNER_EMAIL: "owner@example.com" });
    try {
      const result = await bootstrap(other.deps);
      const loginCode = new URL(result.signInUrl!).searchParams.get("loginCode")!;
      const session = await expectOk(await other.request("/api/v1/auth/exchange", { method: "POST", json: { loginCode } }), 200, sessionSchema);
      expect(session.user).toMatchObject({ email: "owner@example.com", hasPassword: false, isInstanceOwner: true });
      const code = await codeFor(other, { target: "owner@example.com", purpose: "change-password" }, session.token);
      await expectOk(
        await other.request("/api/v1/me/password", { method: "POST", token: session.token, json: { newPassword: "owner-pass-1", code } }),
        200,
        changed,
      );
      const row = await other.deps.db.select().from(users).where(eq(users.email, "owner@example.com")).get();
      expect(row?.passwordHash).toMatch(/^scrypt\$/);
      await expectOk(await login(other, "owner@example.com", "owner-pass-1"), 200, sessionSchema);
      const live = await other.deps.db.select().from(sessions).where(eq(sessions.userId, row!.id)).all();
      expect(live.filter((entry) => entry.revokedAt === null)).toHaveLength(2);
    } finally {
      await other.close();
    }
  });
});
