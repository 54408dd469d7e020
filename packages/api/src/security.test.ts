import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, spaces, userKeys } from "./db/schema/index";
import { apiKeySchema, createdApiKeySchema, createdUserKeySchema, spaceSchema, userKeySchema, userSchema } from "./identity/schemas";
import { createTestContext, registerUser, type TestContext, type TestUser } from "./testing/harness";
import { expectError, expectOk } from "./testing/flows";

// Acceptance: a user of space A gets 404 for every identity/space/key object of space B.
let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let bobTeam: z.infer<typeof spaceSchema>;
let bobApiKey: z.infer<typeof createdApiKeySchema>;
let bobUserKey: z.infer<typeof createdUserKeySchema>;
let bobTeamKey: z.infer<typeof createdUserKeySchema>;

beforeAll(async () => {
  ctx = await createTestContext();
  alice = await registerUser(ctx, "alice@example.com");
  bob = await registerUser(ctx, "bob@example.com");
  bobApiKey = await expectOk(await ctx.request("/api/v1/me/api-keys", { method: "POST", token: bob.token, json: { name: "bob's" } }), 201, createdApiKeySchema);
  bobUserKey = await expectOk(
    await ctx.request("/api/v1/user-keys", { method: "POST", token: bob.token, json: { name: "bob personal" } }),
    201,
    createdUserKeySchema,
  );
  bobTeam = await expectOk(await ctx.request("/api/v1/spaces", { method: "POST", token: bob.token, json: { companyName: "Bob Ltd" } }), 201, spaceSchema);
  bobTeamKey = await expectOk(
    await ctx.request("/api/v1/user-keys", { method: "POST", token: bob.token, json: { name: "bob team" } }),
    201,
    createdUserKeySchema,
  );
  // Alice has rows of her own, so empty lists prove nothing by accident.
  await ctx.request("/api/v1/me/api-keys", { method: "POST", token: alice.token, json: { name: "alice's" } });
  await ctx.request("/api/v1/user-keys", { method: "POST", token: alice.token, json: { name: "alice key" } });
});
afterAll(async () => ctx.close());

const bobSpaces = () => [bob.user.spaceId, bobTeam.spaceId];

describe("cross-space isolation", () => {
  it("B's spaces are 404 to A: read, change, select", async () => {
    for (const spaceId of bobSpaces()) {
      const before = await ctx.deps.db.select().from(spaces).where(eq(spaces.id, spaceId)).get();
      await expectError(await ctx.request(`/api/v1/spaces/${spaceId}`, { token: alice.token }), 404, { message: "Space not found" });
      await expectError(await ctx.request(`/api/v1/spaces/${spaceId}`, { method: "PATCH", token: alice.token, json: { companyName: "Taken over" } }), 404);
      await expectError(await ctx.request(`/api/v1/spaces/${spaceId}/select`, { method: "POST", token: alice.token }), 404);
      expect(await ctx.deps.db.select().from(spaces).where(eq(spaces.id, spaceId)).get()).toEqual(before);
    }
    expect((await expectOk(await ctx.request("/api/v1/me", { token: alice.token }), 200, userSchema)).spaceId).toBe(alice.user.spaceId);
  });

  it("X-Parley-Space naming B's space is 404 on every authenticated route", async () => {
    for (const spaceId of bobSpaces()) {
      const headers = { "x-parley-space": spaceId };
      for (const [method, path] of [
        ["GET", "/api/v1/me"],
        ["GET", "/api/v1/me/spaces"],
        ["GET", "/api/v1/privileges"],
        ["GET", "/api/v1/user-keys"],
        ["GET", "/api/v1/me/api-keys"],
        ["POST", "/api/v1/user-keys"],
        ["PATCH", `/api/v1/user-keys/${bobUserKey.id}`],
        ["DELETE", `/api/v1/user-keys/${bobTeamKey.id}`],
      ] as const) {
        const response = await ctx.request(path, {
          method,
          token: alice.token,
          headers,
          ...(method === "GET" || method === "DELETE" ? {} : { json: { name: "x" } }),
        });
        await expectError(response, 404, { message: "Space not found" });
      }
    }
    // With an API key too.
    const aliceKey = await expectOk(
      await ctx.request("/api/v1/me/api-keys", { method: "POST", token: alice.token, json: { name: "probe" } }),
      201,
      createdApiKeySchema,
    );
    await expectError(await ctx.request("/api/v1/user-keys", { token: aliceKey.key, headers: { "x-parley-space": bobTeam.spaceId } }), 404);
    expect(await ctx.deps.db.select().from(userKeys).where(eq(userKeys.spaceId, bobTeam.spaceId)).all()).toHaveLength(1);
  });

  it("B's API key cannot be deleted by A (404) and still works for B", async () => {
    await expectError(await ctx.request(`/api/v1/me/api-keys/${bobApiKey.id}`, { method: "DELETE", token: alice.token }), 404, {
      message: "API key not found",
    });
    expect(await ctx.deps.db.select().from(apiKeys).where(eq(apiKeys.id, bobApiKey.id)).get()).toBeDefined();
    const user = await expectOk(await ctx.request("/api/v1/me", { token: bobApiKey.key }), 200, userSchema);
    expect(user.id).toBe(bob.user.id);
  });

  it("B's user keys cannot be changed or deleted by A (404) and stay as they were", async () => {
    for (const key of [bobUserKey, bobTeamKey]) {
      const before = await ctx.deps.db.select().from(userKeys).where(eq(userKeys.id, key.id)).get();
      await expectError(
        await ctx.request(`/api/v1/user-keys/${key.id}`, { method: "PATCH", token: alice.token, json: { name: "mine", enabled: false } }),
        404,
        {
          message: "User key not found",
        },
      );
      await expectError(await ctx.request(`/api/v1/user-keys/${key.id}`, { method: "DELETE", token: alice.token }), 404);
      expect(await ctx.deps.db.select().from(userKeys).where(eq(userKeys.id, key.id)).get()).toEqual(before);
    }
  });

  it("a key of one of B's spaces is 404 from B's other space too", async () => {
    // Bob's current space is the team; his personal user key lives elsewhere.
    await expectError(await ctx.request(`/api/v1/user-keys/${bobUserKey.id}`, { method: "PATCH", token: bob.token, json: { name: "moved" } }), 404);
    await expectOk(
      await ctx.request(`/api/v1/user-keys/${bobUserKey.id}`, {
        method: "PATCH",
        token: bob.token,
        headers: { "x-parley-space": bob.user.spaceId },
        json: { name: "renamed" },
      }),
      200,
      userKeySchema,
    );
  });

  it("A's lists never include B's rows", async () => {
    const spacesOfAlice = await expectOk(await ctx.request("/api/v1/me/spaces", { token: alice.token }), 200, z.array(spaceSchema));
    expect(spacesOfAlice.map((space) => space.spaceId)).toEqual([alice.user.spaceId]);
    const apiKeysOfAlice = await expectOk(await ctx.request("/api/v1/me/api-keys", { token: alice.token }), 200, z.array(apiKeySchema));
    expect(apiKeysOfAlice.length).toBeGreaterThan(0);
    expect(apiKeysOfAlice.map((key) => key.id)).not.toContain(bobApiKey.id);
    const userKeysOfAlice = await expectOk(await ctx.request("/api/v1/user-keys", { token: alice.token }), 200, z.array(userKeySchema));
    expect(userKeysOfAlice.length).toBeGreaterThan(0);
    expect(userKeysOfAlice.map((key) => key.id)).not.toEqual(expect.arrayContaining([bobUserKey.id]));
    expect(userKeysOfAlice.map((key) => key.id)).not.toEqual(expect.arrayContaining([bobTeamKey.id]));
  });

  it("the outbox is 403 for anyone but the instance owner", async () => {
    await expectError(await ctx.request("/api/v1/outbox", { token: alice.token }), 403, { message: "Only the instance owner can do this" });
    await expectError(await ctx.request("/api/v1/outbox", { token: bobApiKey.key }), 403);
    await expectError(await ctx.request("/api/v1/outbox"), 401);
  });

  it("an unknown space header is 404, not a silent fallback", async () => {
    await expectError(await ctx.request("/api/v1/me", { token: alice.token, headers: { "x-parley-space": "spc_does_not_exist" } }), 404);
  });
});
