import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { sha256 } from "../crypto";
import { sessions } from "../db/schema/index";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { codeFor, expectError, expectOk, login, rowCounts, userRow } from "../testing/flows";
import { createdApiKeySchema, sessionSchema, userSchema } from "./schemas";

const contexts: TestContext[] = [];
async function context(env: Record<string, string> = {}) {
  const created = await createTestContext(env);
  contexts.push(created);
  return created;
}
afterAll(async () => {
  for (const created of contexts) await created.close();
});

const LOGIN_FAILED = "Wrong account or password";

describe("password sign-in", () => {
  let ctx: TestContext;
  let hana: TestUser;
  beforeAll(async () => {
    ctx = await context();
    hana = await registerUser(ctx, "hana@example.com", "hana-pass-1");
  });

  it("signs in with a form-encoded body and records the session", async () => {
    const session = await expectOk(
      await ctx.request("/api/v1/auth/login", {
        method: "POST",
        form: { username: " HANA@example.com ", password: "hana-pass-1" },
        headers: { "user-agent": "parley-test/1" },
      }),
      200,
      sessionSchema,
    );
    expect(session.user.id).toBe(hana.user.id);
    expect(session.token).not.toBe(hana.token);
    const row = await ctx.deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(session.token)))
      .get();
    expect(row).toMatchObject({ userId: hana.user.id, method: "password", userAgent: "parley-test/1", revokedAt: null });
    await expectOk(await ctx.request("/api/v1/me", { token: session.token }), 200, userSchema);
  });

  it("refuses a JSON body with a clear 415 naming the form encoding, changing nothing", async () => {
    const before = await rowCounts(ctx);
    await expectError(await ctx.request("/api/v1/auth/login", { method: "POST", json: { username: "hana@example.com", password: "hana-pass-1" } }), 415, {
      message: /application\/x-www-form-urlencoded/,
    });
    expect(await rowCounts(ctx)).toEqual(before);
  });

  it("accepts multipart form data too", async () => {
    const form = new FormData();
    form.set("username", "hana@example.com");
    form.set("password", "hana-pass-1");
    await expectOk(await ctx.request("/api/v1/auth/login", { method: "POST", body: form }), 200, sessionSchema);
  });

  it("answers a wrong password and an unknown account alike: 401 login_failed", async () => {
    const before = await rowCounts(ctx);
    const wrong = await expectError(await login(ctx, "hana@example.com", "not-her-pass-1"), 401, { message: LOGIN_FAILED });
    const unknown = await expectError(await login(ctx, "nobody@example.com", "not-her-pass-1"), 401, { message: LOGIN_FAILED });
    expect(unknown).toEqual(wrong);
    expect(await rowCounts(ctx)).toEqual(before);
  });

  it("names the missing or invalid form field", async () => {
    await expectError(await ctx.request("/api/v1/auth/login", { method: "POST", form: { username: "hana@example.com" } }), 400, {
      field: "password",
    });
    await expectError(await login(ctx, "not an address", "whatever-1"), 400, { field: "username" });
  });
});

describe("sign-in throttles", () => {
  it("locks an account after N failures (429 with Retry-After), even for the right password", async () => {
    const ctx = await context({ PARLEY_THROTTLE_LOGIN_PER_ACCOUNT: "3" });
    await registerUser(ctx, "ivan@example.com", "ivan-pass-1");
    await registerUser(ctx, "jade@example.com", "jade-pass-1");
    for (let attempt = 0; attempt < 3; attempt++) await expectError(await login(ctx, "ivan@example.com", "bad-pass-1"), 401);
    const locked = await login(ctx, "ivan@example.com", "ivan-pass-1");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    await expectError(locked, 429, { message: /Too many attempts, try again in \d+ s/ });
    // Other accounts from the same place are not locked.
    await expectOk(await login(ctx, "jade@example.com", "jade-pass-1"), 200, sessionSchema);
  });

  it("resets the account counter on success", async () => {
    const ctx = await context({ PARLEY_THROTTLE_LOGIN_PER_ACCOUNT: "3" });
    await registerUser(ctx, "kim@example.com", "kim-pass-1");
    for (let round = 0; round < 3; round++) {
      await expectError(await login(ctx, "kim@example.com", "bad-pass-1"), 401);
      await expectError(await login(ctx, "kim@example.com", "bad-pass-1"), 401);
      await expectOk(await login(ctx, "kim@example.com", "kim-pass-1"), 200, sessionSchema);
    }
  });

  it("limits attempts per IP across accounts", async () => {
    const ctx = await context({ PARLEY_THROTTLE_LOGIN_PER_IP: "3" });
    await registerUser(ctx, "lea@example.com", "lea-pass-1");
    await expectError(await login(ctx, "a@example.com", "bad-pass-1"), 401);
    await expectError(await login(ctx, "b@example.com", "bad-pass-1"), 401);
    await expectOk(await login(ctx, "lea@example.com", "lea-pass-1"), 200, sessionSchema);
    const refused = await login(ctx, "lea@example.com", "lea-pass-1");
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    await expectError(refused, 429);
  });

  it("counts wrong codes per address, apart from password failures, and a code sign-in clears the address's lock", async () => {
    const ctx = await context({ PARLEY_THROTTLE_LOGIN_PER_ACCOUNT: "3", PARLEY_CODE_RESEND_SECONDS: "0" });
    await registerUser(ctx, "mia@example.com", "mia-pass-1");
    for (let attempt = 0; attempt < 3; attempt++) await expectError(await login(ctx, "mia@example.com", "bad-pass-1"), 401);
    await expectError(await login(ctx, "mia@example.com", "mia-pass-1"), 429);
    // Password failures do not hold back the code sign-in, which lifts this address's lock.
    const code = await codeFor(ctx, { target: "mia@example.com", purpose: "login" });
    await expectOk(
      await ctx.request("/api/v1/auth/login/code", { method: "POST", json: { channel: "email", target: "mia@example.com", code } }),
      200,
      sessionSchema,
    );
    await expectOk(await login(ctx, "mia@example.com", "mia-pass-1"), 200, sessionSchema);

    const next = await codeFor(ctx, { target: "mia@example.com", purpose: "login" });
    const wrong = next === "000000" ? "111111" : "000000";
    const byCode = (value: string) =>
      ctx.request("/api/v1/auth/login/code", { method: "POST", json: { channel: "email", target: "mia@example.com", code: value } });
    for (let attempt = 0; attempt < 3; attempt++) await expectError(await byCode(wrong), 400, { field: "code" });
    await expectError(await byCode(next), 429);
    // Wrong codes do not lock the password sign-in.
    await expectOk(await login(ctx, "mia@example.com", "mia-pass-1"), 200, sessionSchema);
  });
});

describe("code sign-in", () => {
  it("signs in by e-mail and by phone code, recording the method", async () => {
    const ctx = await context();
    const nora = await registerUser(ctx, "nora@example.com");
    const code = await codeFor(ctx, { target: "nora@example.com", purpose: "login" });
    const session = await expectOk(
      await ctx.request("/api/v1/auth/login/code", { method: "POST", json: { channel: "email", target: "NORA@example.com", code } }),
      200,
      sessionSchema,
    );
    expect(session.user.id).toBe(nora.user.id);
    const row = await ctx.deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(session.token)))
      .get();
    expect(row?.method).toBe("code");

    const phoneCode = await codeFor(ctx, { channel: "phone", target: "13900139000", purpose: "register" });
    await ctx.request("/api/v1/auth/register", {
      method: "POST",
      json: { channel: "phone", target: "13900139000", code: phoneCode, password: "phone-pass-1" },
    });
    const loginCode = await codeFor(ctx, { channel: "phone", target: "13900139000", purpose: "login" });
    const phoneSession = await expectOk(
      await ctx.request("/api/v1/auth/login/code", { method: "POST", json: { channel: "phone", target: "13900139000", code: loginCode } }),
      200,
      sessionSchema,
    );
    expect(phoneSession.user.phone).toBe("13900139000");
  });
});

describe("forgot password", () => {
  it("replaces the password and ends every session", async () => {
    const ctx = await context();
    const olga = await registerUser(ctx, "olga@example.com", "olga-old-1");
    const second = await expectOk(await login(ctx, "olga@example.com", "olga-old-1"), 200, sessionSchema);
    const hashBefore = (await userRow(ctx, "olga@example.com"))!.passwordHash;

    const code = await codeFor(ctx, { target: "olga@example.com", purpose: "reset-password" });
    await expectError(
      await ctx.request("/api/v1/auth/password/reset", { method: "POST", json: { channel: "email", target: "olga@example.com", code, password: "weak" } }),
      400,
      { field: "password" },
    );
    const reset = await expectOk(
      await ctx.request("/api/v1/auth/password/reset", {
        method: "POST",
        json: { channel: "email", target: "olga@example.com", code, password: "olga-new-2" },
      }),
      200,
      z.object({ reset: z.literal(true) }),
    );
    expect(reset).toEqual({ reset: true });
    expect((await userRow(ctx, "olga@example.com"))!.passwordHash).not.toBe(hashBefore);

    await expectError(await login(ctx, "olga@example.com", "olga-old-1"), 401, { message: LOGIN_FAILED });
    await expectOk(await login(ctx, "olga@example.com", "olga-new-2"), 200, sessionSchema);
    for (const token of [olga.token, second.token]) {
      await expectError(await ctx.request("/api/v1/me", { token }), 401, { message: "Your session has ended, please log in again" });
    }
    const revoked = await ctx.deps.db.select().from(sessions).where(eq(sessions.userId, olga.user.id)).all();
    expect(revoked.filter((row) => row.revokedAt !== null)).toHaveLength(2);

    // The code is used up.
    await expectError(
      await ctx.request("/api/v1/auth/password/reset", {
        method: "POST",
        json: { channel: "email", target: "olga@example.com", code, password: "olga-third-3" },
      }),
      400,
      { field: "code" },
    );
  });
});

describe("logout", () => {
  it("revokes the session: the next call is 401, other sessions live on", async () => {
    const ctx = await context();
    const pia = await registerUser(ctx, "pia@example.com");
    const other = await expectOk(await login(ctx, "pia@example.com", pia.password), 200, sessionSchema);
    const done = await expectOk(await ctx.request("/api/v1/auth/logout", { method: "POST", token: pia.token }), 200, z.object({ loggedOut: z.literal(true) }));
    expect(done).toEqual({ loggedOut: true });
    const row = await ctx.deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(pia.token)))
      .get();
    expect(row?.revokedAt).not.toBeNull();
    await expectError(await ctx.request("/api/v1/me", { token: pia.token }), 401, { message: /session has ended/ });
    await expectError(await ctx.request("/api/v1/auth/logout", { method: "POST", token: pia.token }), 401);
    await expectOk(await ctx.request("/api/v1/me", { token: other.token }), 200, userSchema);
  });

  it("needs a session: no token is 401, an API key is 403 and keeps working", async () => {
    const ctx = await context();
    const quinn = await registerUser(ctx, "quinn@example.com");
    await expectError(await ctx.request("/api/v1/auth/logout", { method: "POST" }), 401, { message: "Please log in first" });
    const key = await expectOk(
      await ctx.request("/api/v1/me/api-keys", { method: "POST", token: quinn.token, json: { name: "bot" } }),
      201,
      createdApiKeySchema,
    );
    await expectError(await ctx.request("/api/v1/auth/logout", { method: "POST", token: key.key }), 403, {
      message: "This action needs a signed-in session, not an API key",
    });
    await expectOk(await ctx.request("/api/v1/me", { token: key.key }), 200, userSchema);
  });
});
