import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outbox, users, verificationCodes } from "../db/schema/index";
import { createTestContext, latestCode, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { codeFor, expectError, expectOk, manualClock, rowCounts, sendCode } from "../testing/flows";
import { sendCodeResult, sessionSchema } from "./schemas";

const contexts: TestContext[] = [];
async function context(env: Record<string, string> = {}, overrides: Parameters<typeof createTestContext>[1] = {}) {
  const created = await createTestContext(env, overrides);
  contexts.push(created);
  return created;
}
afterAll(async () => {
  for (const created of contexts) await created.close();
});

function codesFor(ctx: TestContext, target: string) {
  return ctx.deps.db.select().from(verificationCodes).where(eq(verificationCodes.target, target)).all();
}

function loginWithCode(ctx: TestContext, target: string, code: string) {
  return ctx.request("/api/v1/auth/login/code", { method: "POST", json: { channel: "email", target, code } });
}

describe("sending codes: purpose rules", () => {
  let ctx: TestContext;
  let ben: TestUser;
  beforeAll(async () => {
    ctx = await context();
    await registerUser(ctx, "ann@example.com");
    ben = await registerUser(ctx, "ben@example.com");
  });

  it("sends a register code to a new address, stores only its hash and masks the address", async () => {
    const result = await expectOk(await sendCode(ctx, { target: "New.Person@Example.com", purpose: "register" }), 200, sendCodeResult);
    expect(result).toEqual({ sentTo: "n***@example.com", expiresInSeconds: 600, resendAfterSeconds: 60 });
    const code = await latestCode(ctx, "new.person@example.com");
    const rows = await codesFor(ctx, "new.person@example.com");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ channel: "email", purpose: "register", attempts: 0, consumedAt: null });
    expect(rows[0]!.codeHash).not.toContain(code);
    expect(Date.parse(rows[0]!.expiresAt) - Date.parse(rows[0]!.createdAt)).toBe(600_000);
    const mail = await ctx.deps.db.select().from(outbox).where(eq(outbox.to, "new.person@example.com")).all();
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ channel: "email" });
    expect(mail[0]!.subject).toContain(code);
  });

  it("refuses a register code for a taken address with 409 and stores nothing", async () => {
    const before = await rowCounts(ctx);
    await expectError(await sendCode(ctx, { target: "ANN@example.com", purpose: "register" }), 409, {
      message: "This e-mail address is already registered",
    });
    expect(await rowCounts(ctx)).toEqual(before);
  });

  it("needs an existing account for login and reset-password codes (404 naming target)", async () => {
    for (const purpose of ["login", "reset-password"]) {
      const before = await rowCounts(ctx);
      await expectError(await sendCode(ctx, { target: "nobody@example.com", purpose }), 404, {
        field: "target",
        message: "No account uses this e-mail",
      });
      expect(await rowCounts(ctx)).toEqual(before);
    }
    await expectOk(await sendCode(ctx, { target: "ann@example.com", purpose: "login" }), 200, sendCodeResult);
    await expectOk(await sendCode(ctx, { target: "ann@example.com", purpose: "reset-password" }), 200, sendCodeResult);
  });

  it("sends change-password codes only when signed in, and only to the caller's own address", async () => {
    await expectError(await sendCode(ctx, { target: "ben@example.com", purpose: "change-password" }), 401);
    await expectError(await sendCode(ctx, { target: "ben@example.com", purpose: "change-password" }, { token: "pst_garbage" }), 401);
    await expectError(await sendCode(ctx, { target: "ann@example.com", purpose: "change-password" }, { token: ben.token }), 400, {
      field: "target",
    });
    expect((await codesFor(ctx, "ann@example.com")).filter((row) => row.purpose === "change-password")).toHaveLength(0);
    await expectOk(await sendCode(ctx, { target: "ben@example.com", purpose: "change-password" }, { token: ben.token }), 200, sendCodeResult);
  });

  it("refuses a signed-in bind code for another account's address, but allows a new one", async () => {
    await expectError(await sendCode(ctx, { target: "ann@example.com", purpose: "bind" }, { token: ben.token }), 409);
    await expectOk(await sendCode(ctx, { target: "ben-new@example.com", purpose: "bind" }, { token: ben.token }), 200, sendCodeResult);
  });

  it("validates channel, purpose and address", async () => {
    await expectError(await sendCode(ctx, { target: "not-an-address", purpose: "register" }), 400, { field: "target" });
    await expectError(await sendCode(ctx, { channel: "phone", target: "12ab", purpose: "register" }), 400, { field: "target" });
    await expectError(await sendCode(ctx, { target: "x@example.com", purpose: "steal" }), 400, { field: "purpose" });
    await expectError(
      await ctx.request("/api/v1/auth/codes", { method: "POST", json: { channel: "fax", target: "x@example.com", purpose: "register" } }),
      400,
      { field: "channel" },
    );
  });

  it("answers a resend inside the window with 429 and Retry-After, keeping the first code", async () => {
    await sendCode(ctx, { target: "again@example.com", purpose: "register" });
    const first = await latestCode(ctx, "again@example.com");
    const response = await sendCode(ctx, { target: "again@example.com", purpose: "register" });
    const retryAfter = Number(response.headers.get("retry-after"));
    const body = await expectError(response, 429, { message: /wait \d+ s to resend/ });
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(body.message).toContain(String(retryAfter));
    expect(await codesFor(ctx, "again@example.com")).toHaveLength(1);
    expect(await latestCode(ctx, "again@example.com")).toBe(first);
    // A different purpose to the same address has its own window.
    await expectOk(await sendCode(ctx, { target: "ann@example.com", purpose: "bind" }), 200, sendCodeResult);
  });
});

describe("sending codes: throttles", () => {
  it("limits codes per target (429 with Retry-After) across purposes", async () => {
    const ctx = await context({ PARLEY_THROTTLE_CODES_PER_TARGET: "3", PARLEY_CODE_RESEND_SECONDS: "0" });
    for (let index = 0; index < 3; index++) {
      await expectOk(await sendCode(ctx, { target: "busy@example.com", purpose: index === 1 ? "bind" : "register" }), 200, sendCodeResult);
    }
    const refused = await sendCode(ctx, { target: "busy@example.com", purpose: "register" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await expectError(refused, 429, { message: /Too many attempts/ });
    expect(await codesFor(ctx, "busy@example.com")).toHaveLength(3);
    // Another address is not affected.
    await expectOk(await sendCode(ctx, { target: "calm@example.com", purpose: "register" }), 200, sendCodeResult);
  });

  it("limits codes per IP whatever the target", async () => {
    const ctx = await context({ PARLEY_THROTTLE_CODES_PER_IP: "3" });
    for (let index = 0; index < 3; index++) {
      await expectOk(await sendCode(ctx, { target: `ip${index}@example.com`, purpose: "register" }), 200, sendCodeResult);
    }
    const refused = await sendCode(ctx, { target: "ip9@example.com", purpose: "register" });
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    await expectError(refused, 429);
    expect(await codesFor(ctx, "ip9@example.com")).toHaveLength(0);
  });
});

describe("using codes", () => {
  let ctx: TestContext;
  const clock = manualClock();
  beforeAll(async () => {
    ctx = await context({ PARLEY_CODE_RESEND_SECONDS: "0" }, { now: clock.now });
    await registerUser(ctx, "carl@example.com");
    await registerUser(ctx, "dora@example.com");
    await registerUser(ctx, "emil@example.com");
    await registerUser(ctx, "fay@example.com");
  });

  it("expires a code after 10 minutes", async () => {
    const code = await codeFor(ctx, { target: "late@example.com", purpose: "register" });
    clock.advance(10 * 60_000 + 1_000);
    const before = await rowCounts(ctx);
    await expectError(
      await ctx.request("/api/v1/auth/register", { method: "POST", json: { channel: "email", target: "late@example.com", code, password: "passw0rd-ok" } }),
      400,
      { field: "code", message: "The verification code is wrong or has expired" },
    );
    expect(await rowCounts(ctx)).toEqual(before);
    expect(await ctx.deps.db.select().from(users).where(eq(users.email, "late@example.com")).get()).toBeUndefined();
  });

  it("still accepts a code just before it expires", async () => {
    const code = await codeFor(ctx, { target: "carl@example.com", purpose: "login" });
    clock.advance(9 * 60_000);
    await expectOk(await loginWithCode(ctx, "carl@example.com", code), 200, sessionSchema);
  });

  it("kills a code after 5 wrong attempts, even for the right code afterwards", async () => {
    const code = await codeFor(ctx, { target: "dora@example.com", purpose: "login" });
    const wrong = code === "000000" ? "111111" : "000000";
    for (let attempt = 1; attempt <= 5; attempt++) {
      await expectError(await loginWithCode(ctx, "dora@example.com", wrong), 400, { field: "code" });
    }
    const [row] = await ctx.deps.db
      .select()
      .from(verificationCodes)
      .where(and(eq(verificationCodes.target, "dora@example.com"), eq(verificationCodes.purpose, "login")))
      .all();
    expect(row!.attempts).toBe(5);
    await expectError(await loginWithCode(ctx, "dora@example.com", code), 400, { field: "code" });
    // A fresh code works again.
    const fresh = await codeFor(ctx, { target: "dora@example.com", purpose: "login" });
    await expectOk(await loginWithCode(ctx, "dora@example.com", fresh), 200, sessionSchema);
  });

  it("accepts a code once", async () => {
    const code = await codeFor(ctx, { target: "emil@example.com", purpose: "login" });
    await expectOk(await loginWithCode(ctx, "emil@example.com", code), 200, sessionSchema);
    await expectError(await loginWithCode(ctx, "emil@example.com", code), 400, { field: "code" });
    const rows = await codesFor(ctx, "emil@example.com");
    expect(rows.filter((row) => row.purpose === "login").every((row) => row.consumedAt !== null)).toBe(true);
  });

  it("invalidates an older code when a newer one is sent", async () => {
    const older = await codeFor(ctx, { target: "fay@example.com", purpose: "login" });
    let newer = await codeFor(ctx, { target: "fay@example.com", purpose: "login" });
    while (newer === older) newer = await codeFor(ctx, { target: "fay@example.com", purpose: "login" });
    await expectError(await loginWithCode(ctx, "fay@example.com", older), 400, { field: "code" });
    await expectOk(await loginWithCode(ctx, "fay@example.com", newer), 200, sessionSchema);
  });

  it("does not accept a code sent for another purpose", async () => {
    const code = await codeFor(ctx, { target: "carl@example.com", purpose: "reset-password" });
    await expectError(await loginWithCode(ctx, "carl@example.com", code), 400, { field: "code" });
  });
});
