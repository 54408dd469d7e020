import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appReactions, apps } from "../db/schema/index";
import { spaceSchema } from "../identity/schemas";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk } from "../testing/flows";
import { appSchema, collectStateSchema, thumbStateSchema } from "./schemas";
import { addMember, createAppVia } from "./testing";

// Spec §4: thumb and collect toggles adjust the counts by one, per user, however often repeated.
let ctx: TestContext;
let ann: TestUser;
let ben: TestUser;
let appId: string;
let team: { "x-parley-space": string };

beforeAll(async () => {
  ctx = await createTestContext();
  ann = await registerUser(ctx, "ann@example.com");
  ben = await registerUser(ctx, "ben@example.com");
  const space = await expectOk(await ctx.request("/api/v1/spaces", { method: "POST", token: ann.token, json: { companyName: "Ann Co" } }), 201, spaceSchema);
  await addMember(ctx, space.spaceId, ben);
  team = { "x-parley-space": space.spaceId };
  appId = (await createAppVia(ctx, ann, {}, team)).id;
});
afterAll(async () => ctx.close());

const call = (user: TestUser, method: "POST" | "DELETE", kind: "thumb" | "collect") =>
  ctx.request(`/api/v1/apps/${appId}/${kind}`, { method, token: user.token, headers: team });
const thumb = async (user: TestUser, method: "POST" | "DELETE") => expectOk(await call(user, method, "thumb"), 200, thumbStateSchema);
const collect = async (user: TestUser, method: "POST" | "DELETE") => expectOk(await call(user, method, "collect"), 200, collectStateSchema);
const stored = async () => ctx.deps.db.select({ thumbCount: apps.thumbCount, collectCount: apps.collectCount }).from(apps).where(eq(apps.id, appId)).get();
const marks = async (user: TestUser) =>
  (
    await ctx.deps.db
      .select({ kind: appReactions.kind })
      .from(appReactions)
      .where(and(eq(appReactions.appId, appId), eq(appReactions.userId, user.user.id)))
  ).map((row) => row.kind);

describe("thumb", () => {
  it("moves by exactly one per user, however often repeated", async () => {
    expect(await thumb(ann, "POST")).toEqual({ thumbed: true, thumbCount: 1 });
    expect(await thumb(ann, "POST")).toEqual({ thumbed: true, thumbCount: 1 });
    expect(await thumb(ben, "POST")).toEqual({ thumbed: true, thumbCount: 2 });
    expect(await stored()).toMatchObject({ thumbCount: 2 });
    expect(await thumb(ann, "DELETE")).toEqual({ thumbed: false, thumbCount: 1 });
    expect(await thumb(ann, "DELETE")).toEqual({ thumbed: false, thumbCount: 1 });
    expect(await marks(ann)).toEqual([]);
    expect(await marks(ben)).toEqual(["thumb"]);
    expect(await thumb(ben, "DELETE")).toEqual({ thumbed: false, thumbCount: 0 });
    expect(await thumb(ben, "DELETE")).toEqual({ thumbed: false, thumbCount: 0 });
    expect(await stored()).toMatchObject({ thumbCount: 0 });
  });

  it("holds under concurrent repeats", async () => {
    await Promise.all(Array.from({ length: 10 }, () => call(ann, "POST", "thumb")));
    expect(await stored()).toMatchObject({ thumbCount: 1 });
    await Promise.all(Array.from({ length: 10 }, () => call(ann, "DELETE", "thumb")));
    expect(await stored()).toMatchObject({ thumbCount: 0 });
  });
});

describe("collect", () => {
  it("is counted apart from thumbs, per user", async () => {
    expect(await collect(ben, "POST")).toEqual({ collected: true, collectCount: 1 });
    expect(await collect(ben, "POST")).toEqual({ collected: true, collectCount: 1 });
    expect(await collect(ann, "POST")).toEqual({ collected: true, collectCount: 2 });
    expect(await stored()).toEqual({ thumbCount: 0, collectCount: 2 });
    expect(await collect(ben, "DELETE")).toEqual({ collected: false, collectCount: 1 });

    const forAnn = await expectOk(await ctx.request(`/api/v1/apps/${appId}`, { token: ann.token, headers: team }), 200, appSchema);
    const forBen = await expectOk(await ctx.request(`/api/v1/apps/${appId}`, { token: ben.token, headers: team }), 200, appSchema);
    expect([forAnn.collected, forBen.collected, forAnn.collectCount]).toEqual([true, false, 1]);
  });

  it("a member may edit the space's apps too", async () => {
    const response = await ctx.request(`/api/v1/apps/${appId}`, { method: "PATCH", token: ben.token, headers: team, json: { name: "Ben's edit" } });
    expect((await expectOk(response, 200, appSchema.pick({ name: true }))).name).toBe("Ben's edit");
  });

  it("answers 404 for an unknown app and changes nothing", async () => {
    await expectError(await ctx.request("/api/v1/apps/app_nope/collect", { method: "POST", token: ann.token }), 404);
    await expectError(await ctx.request("/api/v1/apps/app_nope/thumb", { method: "DELETE", token: ann.token }), 404);
    expect(await ctx.deps.db.select().from(appReactions).where(eq(appReactions.appId, "app_nope")).all()).toEqual([]);
  });
});
