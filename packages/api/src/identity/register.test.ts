import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../crypto";
import { outbox, sessions, spaceMembers, spaces, users, verificationCodes } from "../db/schema/index";
import { createTestContext, latestCode, registerUser, type TestContext } from "../testing/harness";
import { codeFor, expectError, expectOk, rowCounts } from "../testing/flows";
import { sessionSchema, userSchema } from "./schemas";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

function register(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return ctx.request("/api/v1/auth/register", { method: "POST", json: body, headers });
}

describe("register by e-mail", () => {
  it("creates the user, a personal space and a session, and signs in", async () => {
    const code = await codeFor(ctx, { target: "Gina@Example.com", purpose: "register" });
    const session = await expectOk(
      await register({
        channel: "email",
        target: "Gina@Example.com",
        code,
        password: "long-enough-1",
        name: "  Gina  ",
        share: "shr_1",
        source: "newsletter",
        sourceDetail: "spring",
      }),
      201,
      sessionSchema,
    );
    expect(session.token).toMatch(/^pst_/);
    expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.now() + 13 * 24 * 3_600_000);
    expect(session.user).toMatchObject({
      name: "Gina",
      email: "gina@example.com",
      phone: null,
      companyName: "Gina",
      companyOwner: true,
      memberGrade: "FREE",
      role: "owner",
      hasPassword: true,
      isInstanceOwner: false,
    });

    const row = await ctx.deps.db.select().from(users).where(eq(users.email, "gina@example.com")).get();
    expect(row).toMatchObject({ id: session.user.id, share: "shr_1", source: "newsletter", sourceDetail: "spring", language: "en" });
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
    expect(row!.passwordHash).not.toContain("long-enough-1");
    expect(row!.currentSpaceId).toBe(row!.personalSpaceId);
    expect(session.user.spaceId).toBe(row!.personalSpaceId);

    const space = await ctx.deps.db.select().from(spaces).where(eq(spaces.id, row!.personalSpaceId)).get();
    expect(space).toMatchObject({ kind: "personal", ownerUserId: row!.id, memberGrade: "FREE", code: session.user.companyCode });
    const members = await ctx.deps.db.select().from(spaceMembers).where(eq(spaceMembers.spaceId, space!.id)).all();
    expect(members).toEqual([expect.objectContaining({ userId: row!.id, role: "owner" })]);

    const stored = await ctx.deps.db.select().from(sessions).where(eq(sessions.userId, row!.id)).all();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ tokenHash: sha256(session.token), method: "register", revokedAt: null });

    const me = await expectOk(await ctx.request("/api/v1/me", { token: session.token }), 200, userSchema);
    expect(me.id).toBe(row!.id);
  });

  it("answers in Chinese and remembers the language when registering with Accept-Language zh-CN", async () => {
    const code = await codeFor(ctx, { target: "li@example.com", purpose: "register" });
    const session = await expectOk(
      await register({ channel: "email", target: "li@example.com", code, password: "passw0rd-ok" }, { "accept-language": "zh-CN,zh;q=0.9" }),
      201,
      sessionSchema,
    );
    expect(session.user).toMatchObject({ language: "zh-CN", name: "li" });
  });

  it("refuses a weak password with 400 naming the field, stores nothing and keeps the code usable", async () => {
    const code = await codeFor(ctx, { target: "weak@example.com", purpose: "register" });
    for (const password of ["short1", "onlyletters", "1234567890"]) {
      const before = await rowCounts(ctx);
      await expectError(await register({ channel: "email", target: "weak@example.com", code, password }), 400, {
        field: "password",
        message: "The password needs at least 8 characters with letters and digits",
      });
      expect(await rowCounts(ctx)).toEqual(before);
    }
    await expectOk(await register({ channel: "email", target: "weak@example.com", code, password: "better-pass-9" }), 201, sessionSchema);
  });

  it("refuses a duplicate address with 409 and stores nothing", async () => {
    const first = await registerUser(ctx, "dup@example.com");
    const before = await rowCounts(ctx);
    await expectError(await register({ channel: "email", target: "DUP@example.com", code: "123456", password: "passw0rd-ok" }), 409, {
      message: "This e-mail address is already registered",
    });
    expect(await rowCounts(ctx)).toEqual(before);
    const rows = await ctx.deps.db.select().from(users).where(eq(users.email, "dup@example.com")).all();
    expect(rows.map((row) => row.id)).toEqual([first.user.id]);
  });

  it("refuses a wrong code with 400 naming code, and stores nothing", async () => {
    const code = await codeFor(ctx, { target: "wrong@example.com", purpose: "register" });
    const before = await rowCounts(ctx);
    await expectError(
      await register({ channel: "email", target: "wrong@example.com", code: code === "999999" ? "888888" : "999999", password: "passw0rd-ok" }),
      400,
      { field: "code" },
    );
    const after = await rowCounts(ctx);
    expect({ ...after, verificationCodes: 0 }).toEqual({ ...before, verificationCodes: 0 });
    expect(await ctx.deps.db.select().from(users).where(eq(users.email, "wrong@example.com")).get()).toBeUndefined();
  });

  it("does not register with a code sent for another address", async () => {
    const code = await codeFor(ctx, { target: "owner-of-code@example.com", purpose: "register" });
    await expectError(await register({ channel: "email", target: "thief@example.com", code, password: "passw0rd-ok" }), 400, { field: "code" });
  });

  it("names missing fields", async () => {
    await expectError(await register({ channel: "email", target: "x@example.com", password: "passw0rd-ok" }), 400, { field: "code" });
    await expectError(await register({ channel: "email", target: "x@example.com", code: "123456" }), 400, { field: "password" });
    await expectError(await register({ target: "x@example.com", code: "123456", password: "passw0rd-ok" }), 400, { field: "channel" });
  });
});

describe("register by phone", () => {
  it("sends the code by SMS (outbox channel sms) and creates a phone account", async () => {
    const response = await ctx.request("/api/v1/auth/codes", {
      method: "POST",
      json: { channel: "phone", target: "138 0013 8000", purpose: "register" },
    });
    expect(response.status).toBe(200);
    expect((await response.json()).data.sentTo).toBe("138****8000");
    const messages = await ctx.deps.db.select().from(outbox).where(eq(outbox.to, "13800138000")).all();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ channel: "sms", subject: "verification-code" });
    const code = await latestCode(ctx, "13800138000");
    const stored = await ctx.deps.db.select().from(verificationCodes).where(eq(verificationCodes.target, "13800138000")).get();
    expect(stored).toMatchObject({ channel: "phone", purpose: "register" });

    const session = await expectOk(await register({ channel: "phone", target: "13800138000", code, password: "passw0rd-ok" }), 201, sessionSchema);
    expect(session.user).toMatchObject({ phone: "13800138000", email: null, name: "user8000" });
    const row = await ctx.deps.db.select().from(users).where(eq(users.phone, "13800138000")).get();
    expect(row?.id).toBe(session.user.id);

    // The phone can now sign in with its password, and cannot register twice.
    const login = await ctx.request("/api/v1/auth/login", { method: "POST", form: { username: "13800138000", password: "passw0rd-ok" } });
    expect(login.status).toBe(200);
    await expectError(
      await ctx.request("/api/v1/auth/codes", { method: "POST", json: { channel: "phone", target: "13800138000", purpose: "register" } }),
      409,
      { message: "This phone number is already registered" },
    );
  });
});
