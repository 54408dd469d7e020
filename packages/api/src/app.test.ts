import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, registerUser, type TestContext, testDriver } from "./testing/harness";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe(`app on ${testDriver()}`, () => {
  it("answers health in the envelope on the configured driver", async () => {
    const response = await ctx.request("/api/v1/health");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/.+/);
    expect(await response.json()).toEqual({
      success: true,
      code: 200,
      message: "OK",
      data: { status: "ok", version: "3.4.0", database: testDriver() },
    });
  });

  it("registers through the outbox code and reads the user back", async () => {
    const alice = await registerUser(ctx, "alice@example.com");
    const response = await ctx.request("/api/v1/me", { token: alice.token });
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.data).toMatchObject({ email: "alice@example.com", companyOwner: true, memberGrade: "FREE", role: "owner" });
    expect(JSON.stringify(body)).not.toMatch(/scrypt|password_hash|passwordHash/);
  });

  it("answers unknown API paths with 404 in the envelope, signed in or not", async () => {
    for (const token of [undefined, (await registerUser(ctx, "bob@example.com")).token]) {
      const response = await ctx.request("/api/v1/does-not-exist", { method: "POST", ...(token ? { token } : {}) });
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ success: false, code: 404 });
    }
  });
});
