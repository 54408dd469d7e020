import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../crypto";
import { userKeys } from "../db/schema/index";
import { createdUserKeySchema, userKeySchema } from "../identity/schemas";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk, manualClock, rowCounts } from "../testing/flows";
import { createAppVia } from "../apps/testing";

const clock = manualClock();
let ctx: TestContext;
let abel: TestUser;
// Keys may only be bound to apps of their own space, so the codes are of real apps.
let supportCode: string;
let otherCode: string;
beforeAll(async () => {
  ctx = await createTestContext({}, { now: clock.now });
  abel = await registerUser(ctx, "abel@example.com");
  supportCode = (await createAppVia(ctx, abel)).code;
  otherCode = (await createAppVia(ctx, abel)).code;
});
afterAll(async () => ctx.close());

const create = (json: unknown, token = abel.token) => ctx.request("/api/v1/user-keys", { method: "POST", token, json });
const update = (id: string, json: unknown, token = abel.token) => ctx.request(`/api/v1/user-keys/${id}`, { method: "PATCH", token, json });
const remove = (id: string, token = abel.token) => ctx.request(`/api/v1/user-keys/${id}`, { method: "DELETE", token });
const rowOf = (id: string) => ctx.deps.db.select().from(userKeys).where(eq(userKeys.id, id)).get();

describe("user keys", () => {
  it("creates a key in the current space with defaults; the key is shown once", async () => {
    const created = await expectOk(await create({ name: " Widget " }), 201, createdUserKeySchema);
    expect(created.key).toMatch(/^uk_/);
    expect(created).toMatchObject({
      name: "Widget",
      prefix: created.key.slice(0, 10),
      appCode: null,
      enabled: true,
      creditLimit: null,
      creditsUsed: 0,
      expiresAt: null,
      lastUsedAt: null,
    });
    const row = await rowOf(created.id);
    expect(row).toMatchObject({ spaceId: abel.user.spaceId, createdBy: abel.user.id, keyHash: sha256(created.key) });

    const response = await ctx.request("/api/v1/user-keys", { token: abel.token });
    const text = await response.clone().text();
    const listed = await expectOk(response, 200, z.array(userKeySchema));
    expect(listed.map((key) => key.id)).toContain(created.id);
    expect(text).not.toContain(created.key);
    expect(text).not.toContain(sha256(created.key));
  });

  it("stores every optional field", async () => {
    const created = await expectOk(
      await create({ name: "Bound", appCode: supportCode, enabled: false, creditLimit: 500, expiresAt: "2030-01-01T00:00:00.000Z" }),
      201,
      createdUserKeySchema,
    );
    expect(created).toMatchObject({ appCode: supportCode, enabled: false, creditLimit: 500, expiresAt: "2030-01-01T00:00:00.000Z" });
    expect(await rowOf(created.id)).toMatchObject({ appCode: supportCode, enabled: false, creditLimit: 500, expiresAt: "2030-01-01T00:00:00.000Z" });
  });

  it("refuses invalid input naming the field, storing nothing", async () => {
    const before = await rowCounts(ctx);
    await expectError(await create({}), 400, { field: "name" });
    await expectError(await create({ name: "" }), 400, { field: "name" });
    await expectError(await create({ name: "   " }), 400, { field: "name" });
    await expectError(await create({ name: "k", creditLimit: -1 }), 400, { field: "creditLimit" });
    await expectError(await create({ name: "k", creditLimit: 1.5 }), 400, { field: "creditLimit" });
    await expectError(await create({ name: "k", expiresAt: "tomorrow" }), 400, { field: "expiresAt" });
    await expectError(await create({ name: "k", enabled: "yes" }), 400, { field: "enabled" });
    await expectError(await create({ name: "k", appCode: "a".repeat(65) }), 400, { field: "appCode" });
    await expectError(await ctx.request("/api/v1/user-keys", { method: "POST", json: { name: "k" } }), 401);
    await expectError(await ctx.request("/api/v1/user-keys"), 401);
    expect(await rowCounts(ctx)).toEqual(before);
  });

  it("updates only the given fields and moves updatedAt", async () => {
    const created = await expectOk(await create({ name: "Edit me", creditLimit: 100 }), 201, createdUserKeySchema);
    clock.advance(5_000);
    const updated = await expectOk(await update(created.id, { enabled: false, creditLimit: null, appCode: otherCode }), 200, userKeySchema);
    expect(updated).toMatchObject({ name: "Edit me", enabled: false, creditLimit: null, appCode: otherCode });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
    expect(updated).not.toHaveProperty("key");
    expect(await rowOf(created.id)).toMatchObject({ name: "Edit me", enabled: false, creditLimit: null, appCode: otherCode, keyHash: sha256(created.key) });

    const before = await rowOf(created.id);
    await expectError(await update(created.id, { name: "  " }), 400, { field: "name" });
    await expectError(await update(created.id, { creditLimit: -5 }), 400, { field: "creditLimit" });
    expect(await rowOf(created.id)).toEqual(before);
    await expectError(await update("ukey_missing", { name: "x" }), 404, { message: "User key not found" });
  });

  it("deletes a key once", async () => {
    const created = await expectOk(await create({ name: "Bye" }), 201, createdUserKeySchema);
    expect(await expectOk(await remove(created.id), 200, z.object({ deleted: z.literal(true) }))).toEqual({ deleted: true });
    expect(await rowOf(created.id)).toBeUndefined();
    await expectError(await remove(created.id), 404);
  });
});
