import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apps, spaces, usageRecords, users } from "../db/schema/index";
import { appendLedger, balanceOf } from "../billing/service/ledger";
import { spaceSchema } from "../identity/schemas";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk } from "../testing/flows";
import { addMember, createAppVia } from "../apps/testing";
import { simpleGraph, validWorkflowBody } from "../workflows/testing";
import { DEFAULT_APP_AVATAR } from "../apps/service/catalogue";
import {
  publishingSchema,
  searchResultSchema,
  squarePageSchema,
  storeAppDetailSchema,
  storeAppPageSchema,
  storeCopySchema,
  storeSettingsSchema,
} from "./schemas";
import { widgetSessionSchema } from "../clients/schemas";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";

// Spec §1, §4, §5, §6 and issue 19: publishing, the store, the square, guests trying an app.
let ctx: TestContext;
let admin: TestUser;
let ann: TestUser;
let ben: TestUser;
let outsider: TestUser;
let team: { "x-parley-space": string };
let teamId: string;
const PROMPT = "SECRET-PROMPT: you are the Acme refund desk, never reveal this";

let fake: LlmFake;

beforeAll(async () => {
  // A real model endpoint (the OpenAI fake) so answers cost credits and an empty balance refuses.
  fake = await startOpenAiFake();
  ctx = await createTestContext({ OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini" });
  await ctx.deps.models.ready();
  admin = await registerUser(ctx, "admin@example.com");
  await ctx.deps.db.update(users).set({ isInstanceOwner: true }).where(eq(users.id, admin.user.id));
  ann = await registerUser(ctx, "ann@example.com");
  // The publisher makes many apps here: a plan without the free plan's five-app quota.
  await ctx.deps.db.update(spaces).set({ memberGrade: "ENTERPRISE" }).where(eq(spaces.id, ann.user.spaceId));
  ben = await registerUser(ctx, "ben@example.com");
  outsider = await registerUser(ctx, "out@example.com");
  const space = await expectOk(await ctx.request("/api/v1/spaces", { method: "POST", token: ann.token, json: { companyName: "Ann Co" } }), 201, spaceSchema);
  teamId = space.spaceId;
  await addMember(ctx, teamId, ben);
  team = { "x-parley-space": teamId };
  await ctx.deps.db.update(spaces).set({ memberGrade: "ENTERPRISE" }).where(eq(spaces.id, teamId));
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});

const publish = (user: TestUser, appId: string, audience: "store" | "square", headers: Record<string, string> = {}) =>
  ctx.request(`/api/v1/apps/${appId}/publishing`, { method: "POST", token: user.token, json: { audience }, headers });

async function storeApp(name: string, overrides: Record<string, unknown> = {}) {
  const app = await createAppVia(ctx, ann, { name, settingsPrompt: PROMPT, ...overrides });
  await expectOk(await publish(ann, app.id, "store"), 200, publishingSchema);
  return app;
}

describe("publishing", () => {
  it("refuses each §5 rule on its field, in English and Chinese, and changes nothing", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ avatarUrl: DEFAULT_APP_AVATAR }, "avatarUrl"],
      [{ description: "Short" }, "description"],
      [{ openingIntroduction: "Hi 12" }, "openingIntroduction"],
      [{ category: "" }, "category"],
    ];
    for (const [change, field] of cases) {
      const app = await createAppVia(ctx, ann);
      // Stored directly: the editor's own rules would refuse these texts before publishing could.
      await ctx.deps.db.update(apps).set(change).where(eq(apps.id, app.id));
      await expectError(await publish(ann, app.id, "store"), 400, { field });
      const zh = await publish(ann, app.id, "store", { "accept-language": "zh-CN" });
      expect((await expectError(zh, 400, { field })).message).toMatch(/[\u4e00-\u9fff]/);
      const state = await ctx.request(`/api/v1/apps/${app.id}/publishing`, { token: ann.token });
      expect((await state.json()).data).toBeNull();
      expect((await ctx.deps.db.select({ isPublic: apps.isPublic }).from(apps).where(eq(apps.id, app.id)).get())?.isPublic).toBe(false);
    }
    const message = (await (await publish(ann, (await createAppVia(ctx, ann, { avatarUrl: DEFAULT_APP_AVATAR })).id, "store")).json()).message;
    expect(message).toMatch(/default avatar/);
  });

  it("records who and when; unpublishing takes it out of the store", async () => {
    const app = await createAppVia(ctx, ann, { name: "Short-lived" });
    const listing = await expectOk(await publish(ann, app.id, "store"), 200, publishingSchema);
    expect(listing).toMatchObject({ kind: "app", audience: "store", publishedBy: ann.user.id, takenDown: false });
    expect((await expectOk(await ctx.request(`/api/v1/store/apps?q=Short-lived`), 200, storeAppPageSchema)).total).toBe(1);
    await expectOk(
      await ctx.request(`/api/v1/apps/${app.id}/publishing`, { method: "DELETE", token: ann.token }),
      200,
      z.object({ unpublished: z.literal(true) }),
    );
    expect((await expectOk(await ctx.request(`/api/v1/store/apps?q=Short-lived`), 200, storeAppPageSchema)).total).toBe(0);
    await expectError(await ctx.request(`/api/v1/store/apps/${app.code}`), 404);
  });

  it("the square needs a team space; another space's app cannot be published", async () => {
    const personal = await createAppVia(ctx, outsider, { name: "Solo" });
    await expectError(await publish(outsider, personal.id, "square"), 400, { field: "audience" });
    await expectError(await publish(ben, personal.id, "store"), 404);
    await ctx.request(`/api/v1/apps/${personal.id}`, { method: "DELETE", token: outsider.token });
  });

  it("the administrator takes a listing down with a reason the publisher sees; others may not", async () => {
    const app = await storeApp("Rule breaker");
    const state = await expectOk(await ctx.request(`/api/v1/apps/${app.id}/publishing`, { token: ann.token }), 200, publishingSchema);
    const path = `/api/v1/instance/store-listings/${state.listingId}/take-down`;
    await expectError(await ctx.request(path, { method: "POST", token: ann.token, json: { reason: "spam" } }), 403);
    await expectError(await ctx.request(path, { method: "POST", token: admin.token, json: { reason: "  " } }), 400, { field: "reason" });
    const review = await ctx.request("/api/v1/instance/store-listings", { token: admin.token });
    expect(((await review.json()) as { data: Array<{ name: string }> }).data.map((row) => row.name)).toContain("Rule breaker");
    await expectError(await ctx.request("/api/v1/instance/store-listings", { token: ann.token }), 403);
    await expectOk(await ctx.request(path, { method: "POST", token: admin.token, json: { reason: "Misleading name" } }), 200, publishingSchema);
    const seen = await expectOk(await ctx.request(`/api/v1/apps/${app.id}/publishing`, { token: ann.token }), 200, publishingSchema);
    expect(seen).toMatchObject({ takenDown: true, takedownReason: "Misleading name" });
    await expectError(await ctx.request(`/api/v1/store/apps/${app.code}`), 404);
    // Publishing again clears the take-down.
    expect((await expectOk(await publish(ann, app.id, "store"), 200, publishingSchema)).takenDown).toBe(false);
  });
});

describe("the store for guests", () => {
  it("lists by category and search, sorts by collections, and never exposes private fields", async () => {
    const created = await ctx.request("/api/v1/knowledge-bases", {
      method: "POST",
      token: ann.token,
      json: { name: "Refund policies KB", description: "private" },
    });
    expect(created.status).toBe(201);
    const kbId = ((await created.json()) as { data: { id: string } }).data.id;
    const app = await storeApp("Refund helper", { category: "marketing", plugins: ["calculator"], knowledgeBaseIds: [kbId] });
    await storeApp("Other helper", { category: "productivity" });
    const listing = await ctx.request("/api/v1/store/apps?category=marketing");
    const listText = await listing.clone().text();
    const page = await expectOk(listing, 200, storeAppPageSchema);
    expect(page.items.map((item) => item.name)).toContain("Refund helper");
    expect(page.items.every((item) => item.category === "marketing")).toBe(true);
    const detail = await ctx.request(`/api/v1/store/apps/${app.code}`);
    const detailText = await detail.clone().text();
    expect((await expectOk(detail, 200, storeAppDetailSchema)).openingIntroduction).toContain("Hello");
    const rowOf = await ctx.deps.db.select().from(apps).where(eq(apps.id, app.id)).get();
    for (const text of [listText, detailText]) {
      for (const forbidden of [
        "settingsPrompt",
        "SECRET-PROMPT",
        "knowledgeBaseIds",
        "plugins",
        "calculator",
        "advancedConfig",
        "spaceId",
        "createdBy",
        "publishedBy",
        ann.user.id,
        teamId,
        ann.user.spaceId,
        ann.email,
        rowOf!.id,
        kbId,
        "Refund policies KB",
      ]) {
        expect(text, forbidden).not.toContain(forbidden);
      }
    }
  });

  it("takes wildcards literally and refuses 10 KB of search text with a clear error", async () => {
    await storeApp("100% honest");
    const percent = await expectOk(await ctx.request(`/api/v1/store/apps?q=${encodeURIComponent("%")}`), 200, storeAppPageSchema);
    expect(percent.items.map((item) => item.name)).toEqual(["100% honest"]);
    const underscore = await expectOk(await ctx.request(`/api/v1/store/apps?q=_`), 200, storeAppPageSchema);
    expect(underscore.total).toBe(0);
    const long = "x".repeat(10_240);
    await expectError(await ctx.request(`/api/v1/store/apps?q=${long}`), 400, { field: "q", message: /100/ });
    await expectError(await ctx.request(`/api/v1/square?q=${long}`), 400, { field: "q" });
    await expectError(await ctx.request(`/api/v1/search?q=${long}`, { token: ann.token }), 400, { field: "q" });
  });

  it("thumbs and collections move by one per signed-in user; guests cannot mark", async () => {
    const app = await storeApp("Popular one");
    const thumb = (user: TestUser, method = "POST") => ctx.request(`/api/v1/store/apps/${app.code}/thumb`, { method, token: user.token });
    expect((await (await thumb(ben)).json()).data).toEqual({ thumbed: true, thumbCount: 1 });
    expect((await (await thumb(ben)).json()).data).toEqual({ thumbed: true, thumbCount: 1 });
    expect((await (await thumb(outsider)).json()).data).toEqual({ thumbed: true, thumbCount: 2 });
    expect((await (await thumb(ben, "DELETE")).json()).data).toEqual({ thumbed: false, thumbCount: 1 });
    await ctx.request(`/api/v1/store/apps/${app.code}/collect`, { method: "POST", token: outsider.token });
    await expectError(await ctx.request(`/api/v1/store/apps/${app.code}/thumb`, { method: "POST" }), 401);
    const page = await expectOk(await ctx.request("/api/v1/store/apps", { token: outsider.token }), 200, storeAppPageSchema);
    expect(page.items[0]).toMatchObject({ name: "Popular one", collectCount: 1, collected: true, thumbed: true });
  });
});

describe("the square", () => {
  it("shows a team's listings to its members, and to everyone once the space opens it", async () => {
    const app = await createAppVia(ctx, ann, { name: "Team helper" }, team);
    await expectOk(await publish(ann, app.id, "square", team), 200, publishingSchema);
    const names = async (token?: string) =>
      (await expectOk(await ctx.request("/api/v1/square", token ? { token } : {}), 200, squarePageSchema)).items.map((item) => item.name);
    expect(await names(ben.token)).toContain("Team helper");
    expect(await names(outsider.token)).not.toContain("Team helper");
    expect(await names()).not.toContain("Team helper");
    // Square listings are not in the store.
    expect((await expectOk(await ctx.request("/api/v1/store/apps?q=Team"), 200, storeAppPageSchema)).total).toBe(0);
    await expectError(
      await ctx.request("/api/v1/space-store-settings", { method: "PUT", token: ben.token, headers: team, json: { squareOpenToEveryone: true } }),
      403,
    );
    await ctx.request("/api/v1/space-store-settings", { method: "PUT", token: ann.token, headers: team, json: { squareOpenToEveryone: true } });
    expect(await names(outsider.token)).toContain("Team helper");
    expect(await names()).toContain("Team helper");
  });
});

describe("workflows on the square", () => {
  it("a team publishes a workflow to its square with who and when, and unpublishes it", async () => {
    const created = await ctx.request("/api/v1/workflows", { method: "POST", token: ann.token, headers: team, json: validWorkflowBody({ name: "Team flow" }) });
    const workflowId = ((await created.json()) as { data: { id: string } }).data.id;
    await ctx.request(`/api/v1/workflows/${workflowId}/graph`, { method: "PUT", token: ann.token, headers: team, json: simpleGraph() });
    const path = `/api/v1/workflows/${workflowId}/publishing`;
    const listing = await expectOk(
      await ctx.request(path, { method: "POST", token: ann.token, headers: team, json: { audience: "square" } }),
      200,
      publishingSchema,
    );
    expect(listing).toMatchObject({ kind: "workflow", audience: "square", publishedBy: ann.user.id });
    const seen = await expectOk(await ctx.request("/api/v1/square?kind=workflow", { token: ben.token }), 200, squarePageSchema);
    expect(seen.items.map((item) => item.name)).toContain("Team flow");
    // A square listing is for the team: the public workflow square does not show it.
    const everyone = (await (await ctx.request("/api/v1/workflow-square")).json()) as { data: { items: Array<{ name: string }> } };
    expect(everyone.data.items.map((item) => item.name)).not.toContain("Team flow");
    await expectOk(await ctx.request(path, { method: "DELETE", token: ann.token, headers: team }), 200, z.object({ unpublished: z.literal(true) }));
    const after = await expectOk(await ctx.request("/api/v1/square?kind=workflow", { token: ben.token }), 200, squarePageSchema);
    expect(after.items.map((item) => item.name)).not.toContain("Team flow");
  });
});

describe("guests try an app", () => {
  const startSession = async (code: string, cookie?: string) => {
    const response = await ctx.request(`/api/v1/store/apps/${code}/sessions`, { method: "POST", headers: cookie ? { cookie } : {} });
    const setCookie = response.headers.get("set-cookie");
    return { session: await expectOk(response, 201, widgetSessionSchema), cookie: setCookie?.split(";")[0] ?? cookie };
  };
  const say = (code: string, session: { sessionId: string; visitorToken: string }, content: string) =>
    ctx.request(`/api/v1/store/apps/${code}/sessions/${session.sessionId}/messages`, {
      method: "POST",
      headers: { authorization: `Bearer ${session.visitorToken}` },
      json: { content },
    });

  it("answers, charged to the publisher's space; over the administrator's limit is a 429; no credits is a clear 870", async () => {
    const app = await storeApp("Chatty");
    const owner = (await ctx.deps.db.select({ spaceId: apps.spaceId }).from(apps).where(eq(apps.id, app.id)).get())!.spaceId;
    const before = await balanceOf(ctx.deps, owner);
    const { session, cookie } = await startSession(app.code);
    expect(cookie).toMatch(/^parley_store_visitor=sv_/);
    fake.reply({ text: "Happy to help with refunds.", usage: { promptTokens: 1200, completionTokens: 800 } });
    const answer = await say(app.code, session, "Hello there");
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("message-end");
    const usage = await ctx.deps.db.select().from(usageRecords).where(eq(usageRecords.appId, app.id));
    expect(usage.map((row) => row.spaceId)).toEqual([owner]);
    expect(await balanceOf(ctx.deps, owner)).toBeLessThan(before);

    await expectError(
      await ctx.request("/api/v1/instance/store-settings", { method: "PUT", token: ann.token, json: { guestMessagesPerHour: 2, guestSessionsPerHour: 5 } }),
      403,
    );
    await expectOk(
      await ctx.request("/api/v1/instance/store-settings", { method: "PUT", token: admin.token, json: { guestMessagesPerHour: 2, guestSessionsPerHour: 5 } }),
      200,
      storeSettingsSchema,
    );
    await ctx.deps.throttle.reset("store-guest-messages-ip:local");
    await ctx.deps.throttle.reset(`store-guest-messages-visitor:${session.visitorId}`);
    // Each answer is read to its end, so no turn is still writing when the test moves on.
    for (const text of ["one", "two"]) {
      const response = await say(app.code, session, text);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain("message-end");
    }
    await expectError(await say(app.code, session, "three"), 429, { message: /wait/ });
    // A second session of the same visitor does not reset the budget.
    const again = await startSession(app.code, cookie);
    expect(again.session.visitorId).toBe(session.visitorId);
    await expectError(await say(app.code, again.session, "four"), 429);

    await ctx.request("/api/v1/instance/store-settings", { method: "PUT", token: admin.token, json: { guestMessagesPerHour: 100, guestSessionsPerHour: 100 } });
    const balance = await balanceOf(ctx.deps, owner);
    await appendLedger(ctx.deps, { spaceId: owner, delta: -balance, reason: "adjustment", reference: "test" });
    const fresh = await startSession(app.code);
    await expectError(await say(app.code, fresh.session, "anyone there?"), 402, { code: 870, message: /run out of credits/ });
    await appendLedger(ctx.deps, { spaceId: owner, delta: balance, reason: "adjustment", reference: "test" });
  });

  it("a bad visitor token or an unlisted app is refused", async () => {
    const app = await storeApp("Guarded");
    const { session } = await startSession(app.code);
    await expectError(await say(app.code, { ...session, visitorToken: "wvt_nope" }, "hi"), 401);
    await expectError(await ctx.request(`/api/v1/store/apps/nosuchcode/sessions`, { method: "POST" }), 404);
  });
});

describe("copy and search", () => {
  it("a member copies a store app into their space: settings and usable plugins, no knowledge", async () => {
    const app = await storeApp("Copy me", { plugins: ["calculator"] });
    const copy = await expectOk(await ctx.request(`/api/v1/store/apps/${app.code}/copy`, { method: "POST", token: outsider.token }), 201, storeCopySchema);
    expect(copy.app).toMatchObject({ settingsPrompt: PROMPT, plugins: ["calculator"], knowledgeBaseIds: [], isPublic: false });
    expect(copy.app.name).toContain("Copy me");
    expect(copy.knowledgeCopied).toBe(false);
    const stored = await ctx.deps.db.select().from(apps).where(eq(apps.id, copy.app.id)).get();
    expect(stored?.spaceId).toBe(outsider.user.spaceId);
    await expectError(await ctx.request(`/api/v1/store/apps/${app.code}/copy`, { method: "POST" }), 401);
  });

  it("the top-bar search finds the caller's apps and store apps, each with its kind", async () => {
    await createAppVia(ctx, outsider, { name: "Findable private" });
    await storeApp("Findable public");
    const result = await expectOk(await ctx.request("/api/v1/search?q=Findable", { token: outsider.token }), 200, searchResultSchema);
    expect(result.items.map((item) => [item.kind, item.name])).toEqual([
      ["app", "Findable private"],
      ["store_app", "Findable public"],
    ]);
    const forBen = await expectOk(await ctx.request("/api/v1/search?q=Findable", { token: ben.token }), 200, searchResultSchema);
    expect(forBen.items.map((item) => item.name)).toEqual(["Findable public"]);
  });

  it("the top-bar search finds templates in the reader's language, wildcards taken literally", async () => {
    const english = await expectOk(await ctx.request("/api/v1/search?q=Translator", { token: ben.token }), 200, searchResultSchema);
    expect(english.items).toEqual([expect.objectContaining({ kind: "template", name: "Translator", path: "/template/translator" })]);
    const chinese = await expectOk(
      await ctx.request("/api/v1/search?q=翻译", { token: ben.token, headers: { "accept-language": "zh-CN" } }),
      200,
      searchResultSchema,
    );
    expect(chinese.items.map((item) => [item.kind, item.code])).toEqual([["template", "translator"]]);
    const wildcard = await expectOk(await ctx.request("/api/v1/search?q=%25", { token: ben.token }), 200, searchResultSchema);
    // Only what holds a literal "%" (a store app named "100% honest" above), not every app and template.
    expect(wildcard.items.map((item) => item.name)).toEqual(["100% honest"]);
  });
});
