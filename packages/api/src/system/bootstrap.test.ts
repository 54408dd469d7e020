import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap";
import { spaceMembers, spaces, users } from "../db/schema/index";
import { sessionSchema, userSchema } from "../identity/schemas";
import { createTestContext, registerUser, type TestContext } from "../testing/harness";
import { expectOk } from "../testing/flows";

const contexts: TestContext[] = [];
async function context(env: Record<string, string> = {}) {
  const created = await createTestContext(env);
  contexts.push(created);
  return created;
}
afterAll(async () => {
  for (const created of contexts) await created.close();
});

describe("bootstrap", () => {
  it("creates the owner once, with a personal space and no password, and prints a single-use link", async () => {
    const ctx = await context({ PARLEY_PUBLIC_URL: "https://parley.example.com/" });
    const first = await bootstrap(ctx.deps);
    expect(first).toMatchObject({ ownerCreated: true, apiKeyCreated: false });
    expect(first.signInUrl).toMatch(/^https:\/\/parley\.example\.com\/console\/agents\?loginCode=lc_/);
    const owners = await ctx.deps.db.select().from(users).where(eq(users.isInstanceOwner, true)).all();
    expect(owners).toHaveLength(1);
    expect(owners[0]).toMatchObject({ name: "Owner", email: null, passwordHash: null });
    const space = await ctx.deps.db.select().from(spaces).where(eq(spaces.id, owners[0]!.personalSpaceId)).get();
    expect(space).toMatchObject({ kind: "personal", ownerUserId: owners[0]!.id });
    expect(await ctx.deps.db.select().from(spaceMembers).where(eq(spaceMembers.userId, owners[0]!.id)).all()).toHaveLength(1);

    // Restarts: no second owner; a fresh link while the owner has no way in.
    const second = await bootstrap(ctx.deps);
    expect(second.ownerCreated).toBe(false);
    expect(second.signInUrl).toBeDefined();
    expect(second.signInUrl).not.toBe(first.signInUrl);
    expect(await ctx.deps.db.select().from(users).where(eq(users.isInstanceOwner, true)).all()).toHaveLength(1);

    // Both links work, each once.
    for (const url of [first.signInUrl!, second.signInUrl!]) {
      const loginCode = new URL(url).searchParams.get("loginCode")!;
      const session = await expectOk(await ctx.request("/api/v1/auth/exchange", { method: "POST", json: { loginCode } }), 200, sessionSchema);
      expect(session.user).toMatchObject({ id: owners[0]!.id, isInstanceOwner: true });
    }
  });

  it("stops printing links once the owner has an address", async () => {
    const ctx = await context({ PARLEY_OWNER_EMAIL: "Boss@Example.com" });
    const first = await bootstrap(ctx.deps);
    expect(first.ownerCreated).toBe(true);
    expect(first.signInUrl).toBeDefined();
    const owner = await ctx.deps.db.select().from(users).where(eq(users.isInstanceOwner, true)).get();
    expect(owner?.email).toBe("boss@example.com");
    expect(await bootstrap(ctx.deps)).toEqual({ ownerCreated: false, apiKeyCreated: false });
  });

  it("makes an owner even when people registered first, and they are not owners", async () => {
    const ctx = await context();
    const early = await registerUser(ctx, "early@example.com");
    const result = await bootstrap(ctx.deps);
    expect(result.ownerCreated).toBe(true);
    const me = await expectOk(await ctx.request("/api/v1/me", { token: early.token }), 200, userSchema);
    expect(me.isInstanceOwner).toBe(false);
  });
});
