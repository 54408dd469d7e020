import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap";
import { sha256 } from "../crypto";
import { apiKeys } from "../db/schema/index";
import { apiKeySchema, createdApiKeySchema, spaceSchema, userSchema } from "../identity/schemas";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk, manualClock, rowCounts } from "../testing/flows";

const clock = manualClock();
let ctx: TestContext;
let yara: TestUser;
beforeAll(async () => {
  ctx = await createTestContext({}, { now: clock.now });
  yara = await registerUser(ctx, "yara@example.com");
});
afterAll(async () => ctx.close());

const create = (token: string, json: unknown) => ctx.request("/api/v1/me/api-keys", { method: "POST", token, json });
const list = async (token: string) => {
  const response = await ctx.request("/api/v1/me/api-keys", { token });
  const text = await response.clone().text();
  return { text, keys: await expectOk(response, 200, z.array(apiKeySchema)) };
};

describe("personal API keys", () => {
  it("shows the key once; only its hash is stored, and listing shows neither", async () => {
    const created = await expectOk(await create(yara.token, { name: "CI deploy" }), 201, createdApiKeySchema);
    expect(created.key).toMatch(/^pk_[A-Za-z0-9_-]{40,}$/);
    expect(created).toMatchObject({ name: "CI deploy", prefix: created.key.slice(0, 10), lastUsedAt: null });
    expect(created.id).toMatch(/^key_/);

    const row = await ctx.deps.db.select().from(apiKeys).where(eq(apiKeys.id, created.id)).get();
    expect(row).toMatchObject({ userId: yara.user.id, spaceId: yara.user.spaceId, keyHash: sha256(created.key), name: "CI deploy" });
    expect(JSON.stringify(row)).not.toContain(created.key);

    const { text, keys } = await list(yara.token);
    expect(keys).toEqual([{ id: created.id, name: "CI deploy", prefix: created.prefix, createdAt: created.createdAt, lastUsedAt: null }]);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(sha256(created.key));
    expect(text).not.toMatch(/keyHash|key_hash/);
  });

  it("authenticates as the user and records when it was last used", async () => {
    const created = await expectOk(await create(yara.token, { name: "usage" }), 201, createdApiKeySchema);
    const user = await expectOk(await ctx.request("/api/v1/me", { token: created.key }), 200, userSchema);
    expect(user.id).toBe(yara.user.id);
    const row = await ctx.deps.db.select().from(apiKeys).where(eq(apiKeys.id, created.id)).get();
    expect(row?.lastUsedAt).toBe(clock.now().toISOString());
    const listed = (await list(yara.token)).keys.find((key) => key.id === created.id);
    expect(listed?.lastUsedAt).toBe(row?.lastUsedAt);
    // Touched at most once a minute.
    clock.advance(30_000);
    await ctx.request("/api/v1/me", { token: created.key });
    expect((await ctx.deps.db.select().from(apiKeys).where(eq(apiKeys.id, created.id)).get())?.lastUsedAt).toBe(row?.lastUsedAt);
    clock.advance(60_000);
    await ctx.request("/api/v1/me", { token: created.key });
    expect((await ctx.deps.db.select().from(apiKeys).where(eq(apiKeys.id, created.id)).get())?.lastUsedAt).toBe(clock.now().toISOString());
  });

  it("acts in the owner's personal space whatever space the console last selected; X-Parley-Space picks another", async () => {
    const zed = await registerUser(ctx, "zed@example.com");
    const created = await expectOk(await create(zed.token, { name: "space test" }), 201, createdApiKeySchema);
    const team = await expectOk(await ctx.request("/api/v1/spaces", { method: "POST", token: zed.token, json: { companyName: "Zed Co" } }), 201, spaceSchema);
    expect((await expectOk(await ctx.request("/api/v1/me", { token: zed.token }), 200, userSchema)).spaceId).toBe(team.spaceId);
    expect((await expectOk(await ctx.request("/api/v1/me", { token: created.key }), 200, userSchema)).spaceId).toBe(zed.user.spaceId);
    const inTeam = await ctx.request("/api/v1/me", { token: created.key, headers: { "x-parley-space": team.spaceId } });
    expect((await expectOk(inTeam, 200, userSchema)).spaceId).toBe(team.spaceId);
  });

  it("stops working once deleted (401); a second delete is 404", async () => {
    const created = await expectOk(await create(yara.token, { name: "short-lived" }), 201, createdApiKeySchema);
    await expectOk(await ctx.request("/api/v1/me", { token: created.key }), 200, userSchema);
    const deleted = await expectOk(
      await ctx.request(`/api/v1/me/api-keys/${created.id}`, { method: "DELETE", token: yara.token }),
      200,
      z.object({ deleted: z.literal(true) }),
    );
    expect(deleted).toEqual({ deleted: true });
    expect(await ctx.deps.db.select().from(apiKeys).where(eq(apiKeys.id, created.id)).get()).toBeUndefined();
    await expectError(await ctx.request("/api/v1/me", { token: created.key }), 401, { message: /session has ended/ });
    await expectError(await ctx.request(`/api/v1/me/api-keys/${created.id}`, { method: "DELETE", token: yara.token }), 404, {
      message: "API key not found",
    });
  });

  it("validates the name and needs a signed-in caller", async () => {
    const before = await rowCounts(ctx);
    await expectError(await create(yara.token, {}), 400, { field: "name" });
    await expectError(await create(yara.token, { name: "" }), 400, { field: "name" });
    await expectError(await create(yara.token, { name: "n".repeat(61) }), 400, { field: "name" });
    await expectError(await ctx.request("/api/v1/me/api-keys", { method: "POST", json: { name: "x" } }), 401);
    await expectError(await ctx.request("/api/v1/me/api-keys"), 401);
    expect(await rowCounts(ctx)).toEqual(before);
  });
});

describe("bootstrap API key", () => {
  it("PARLEY_BOOTSTRAP_API_KEY signs in as the instance owner", async () => {
    const value = "pk_operator-chosen-bootstrap-key-0123456789";
    const other = await createTestContext({ PARLEY_BOOTSTRAP_API_KEY: value });
    try {
      const result = await bootstrap(other.deps);
      expect(result).toMatchObject({ ownerCreated: true, apiKeyCreated: true });
      const user = await expectOk(await other.request("/api/v1/me", { token: value }), 200, userSchema);
      expect(user).toMatchObject({ isInstanceOwner: true, name: "Owner" });
      const keys = await expectOk(await other.request("/api/v1/me/api-keys", { token: value }), 200, z.array(apiKeySchema));
      expect(keys).toEqual([expect.objectContaining({ name: "Bootstrap key", prefix: value.slice(0, 10) })]);
      expect(keys[0]?.lastUsedAt).not.toBeNull();
      // A restart does not create a second key.
      expect(await bootstrap(other.deps)).toMatchObject({ ownerCreated: false, apiKeyCreated: false });
      expect(await other.deps.db.select().from(apiKeys).all()).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it("cannot change the account's password", async () => {
    const created = await expectOk(await create(yara.token, { name: "automation" }), 201, createdApiKeySchema);
    const response = await ctx.request("/api/v1/me/password", {
      method: "POST",
      token: created.key,
      json: { oldPassword: yara.password, newPassword: "another-passw0rd", code: "123456" },
    });
    await expectError(response, 403, { message: /signed-in session/ });
    const login = await ctx.request("/api/v1/auth/login", { method: "POST", form: { username: yara.email, password: yara.password } });
    expect(login.status).toBe(200);
  });
});
