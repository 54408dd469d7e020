import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap";
import { sha256 } from "../crypto";
import { sessions, signInGrants } from "../db/schema/index";
import { createTestContext, registerUser, type TestContext } from "../testing/harness";
import { expectError, expectOk, manualClock, rowCounts } from "../testing/flows";
import { sessionSchema } from "./schemas";
import { issueGrant } from "./service/sessions";

const clock = manualClock();
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({}, { now: clock.now });
});
afterAll(async () => ctx.close());

function exchange(body: Record<string, unknown>) {
  return ctx.request("/api/v1/auth/exchange", { method: "POST", json: body });
}

function loginCodeOf(signInUrl: string | undefined): string {
  const value = new URL(signInUrl ?? "http://x/").searchParams.get("loginCode");
  expect(value).toMatch(/^lc_/);
  return value!;
}

describe("exchange a loginCode", () => {
  it("signs the owner in once with the bootstrap link, then refuses the same code", async () => {
    const result = await bootstrap(ctx.deps);
    expect(result.ownerCreated).toBe(true);
    const loginCode = loginCodeOf(result.signInUrl);
    const grant = await ctx.deps.db
      .select()
      .from(signInGrants)
      .where(eq(signInGrants.grantHash, sha256(loginCode)))
      .get();
    expect(grant).toMatchObject({ kind: "login-code", method: "login-link", consumedAt: null });

    const session = await expectOk(await exchange({ loginCode, source: "banner" }), 200, sessionSchema);
    expect(session.user).toMatchObject({ name: "Owner", isInstanceOwner: true, hasPassword: false, companyOwner: true });
    const row = await ctx.deps.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(session.token)))
      .get();
    expect(row).toMatchObject({ userId: session.user.id, method: "login-link" });
    const used = await ctx.deps.db.select().from(signInGrants).where(eq(signInGrants.id, grant!.id)).get();
    expect(used?.consumedAt).not.toBeNull();

    const before = await rowCounts(ctx);
    await expectError(await exchange({ loginCode }), 400, { field: "loginCode", message: "This sign-in link is invalid, used or expired" });
    expect(await rowCounts(ctx)).toEqual(before);
  });

  it("refuses an expired loginCode", async () => {
    // The owner has no password or address yet, so every start prints a fresh link.
    const result = await bootstrap(ctx.deps);
    expect(result.ownerCreated).toBe(false);
    const loginCode = loginCodeOf(result.signInUrl);
    clock.advance(61 * 60_000);
    await expectError(await exchange({ loginCode }), 400, { field: "loginCode" });
  });

  it("refuses garbage and a code passed as the wrong kind", async () => {
    await expectError(await exchange({ loginCode: "lc_not-a-real-one" }), 400, { field: "loginCode" });
    const user = await registerUser(ctx, "rita@example.com");
    const { grant } = await issueGrant(ctx.deps, { userId: user.user.id, kind: "code", method: "oidc" });
    await expectError(await exchange({ loginCode: grant }), 400, { field: "loginCode" });
    // The mistake did not use the grant up.
    const session = await expectOk(await exchange({ code: grant }), 200, sessionSchema);
    expect(session.user.id).toBe(user.user.id);
  });
});

describe("exchange a code", () => {
  it("works once, within its lifetime", async () => {
    const user = await registerUser(ctx, "sam@example.com");
    const { grant } = await issueGrant(ctx.deps, { userId: user.user.id, kind: "code", method: "oidc" });
    expect(grant).toMatch(/^gc_/);
    const session = await expectOk(await exchange({ code: grant }), 200, sessionSchema);
    expect(session.user).toMatchObject({ id: user.user.id, email: "sam@example.com" });
    await expectError(await exchange({ code: grant }), 400, { field: "code" });

    const late = await issueGrant(ctx.deps, { userId: user.user.id, kind: "code", method: "oidc" });
    clock.advance(5 * 60_000 + 1_000);
    await expectError(await exchange({ code: late.grant }), 400, { field: "code" });
  });

  it("needs code or loginCode (400 naming loginCode)", async () => {
    const before = await rowCounts(ctx);
    await expectError(await exchange({}), 400, { field: "loginCode", message: "Send either code or loginCode" });
    await expectError(await exchange({ code: "" }), 400, { field: "loginCode" });
    await expectError(await exchange({ share: "x" }), 400, { field: "loginCode" });
    expect(await rowCounts(ctx)).toEqual(before);
  });
});
