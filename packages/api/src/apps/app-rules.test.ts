import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apps } from "../db/schema/index";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectError, expectOk } from "../testing/flows";
import { appSeniorSchema } from "./schemas";
import { DEFAULT_APP_AVATAR } from "./service/catalogue";
import { createAppVia, validAppBody } from "./testing";

// Spec §5 App (and §5 Knowledge for retrieval counts): every rule is refused by the server with
// the offending field named, on create and on update, and nothing is stored.
let ctx: TestContext;
let user: TestUser;
let existingId: string;

beforeAll(async () => {
  ctx = await createTestContext();
  user = await registerUser(ctx, "rules@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, user.user.spaceId);
  existingId = (await createAppVia(ctx, user)).id;
});
afterAll(async () => ctx.close());

const appCount = async () => (await ctx.deps.db.select({ n: count() }).from(apps).get())?.n ?? 0;
const create = (body: Record<string, unknown>, language = "en") =>
  ctx.request("/api/v1/apps", { method: "POST", token: user.token, json: body, headers: { "accept-language": language } });
const update = (body: Record<string, unknown>) => ctx.request(`/api/v1/apps/${existingId}`, { method: "PATCH", token: user.token, json: body });

const cases: { rule: string; change: Record<string, unknown>; field: string; message?: string; zh?: string }[] = [
  { rule: "name required", change: { name: "   " }, field: "name", message: "The app name is required", zh: "请填写应用名称" },
  { rule: "name length", change: { name: "n".repeat(51) }, field: "name" },
  { rule: "description required", change: { description: "" }, field: "description", message: "The description is required" },
  {
    rule: "description longer than 5",
    change: { description: "Hello" },
    field: "description",
    message: "The description must be longer than 5 characters",
    zh: "应用描述需多于 5 个字符",
  },
  { rule: "description counts characters, not bytes", change: { description: "你好世界朋" }, field: "description" },
  {
    rule: "opening introduction required",
    change: { openingIntroduction: " " },
    field: "openingIntroduction",
    message: "The opening introduction is required",
  },
  {
    rule: "opening introduction longer than 5",
    change: { openingIntroduction: "Hi 👋!" },
    field: "openingIntroduction",
    message: "The opening introduction must be longer than 5 characters",
  },
  { rule: "avatar required", change: { avatarUrl: "" }, field: "avatarUrl", message: "The avatar is required" },
  {
    rule: "no default avatar on the square",
    change: { avatarUrl: DEFAULT_APP_AVATAR, isPublic: true },
    field: "avatarUrl",
    message: "Upload your own avatar before publishing to the square; the default avatar cannot be used",
  },
  { rule: "category required", change: { category: "" }, field: "category", message: "The category is required" },
  { rule: "category known", change: { category: "astrology" }, field: "category", message: "Unknown category; pick one from the category list" },
  { rule: "settings prompt required", change: { settingsPrompt: "\n" }, field: "settingsPrompt", message: "The settings prompt is required" },
  { rule: "default model required", change: { defaultModel: "" }, field: "defaultModel", message: "The default model is required", zh: "请选择默认模型" },
  {
    rule: "retrieval length not 0",
    change: { retrievalLength: 0 },
    field: "retrievalLength",
    message: "The retrieval length cannot be 0",
    zh: "检索长度不能为 0",
  },
  { rule: "retrieval length positive", change: { retrievalLength: -5 }, field: "retrievalLength" },
  { rule: "bottom slogan at most 20", change: { bottomSlogan: "s".repeat(21) }, field: "bottomSlogan", message: "bottomSlogan can have at most 20 characters" },
  {
    rule: "semantic + full-text at most 10 (semantic takes priority)",
    change: { semanticCount: 8, fullTextCount: 3 },
    field: "fullTextCount",
    message: "Semantic and full-text counts together can be at most 10",
  },
  { rule: "semantic count at most 10", change: { semanticCount: 11, fullTextCount: 0 }, field: "semanticCount" },
  {
    rule: "citation threshold at least the similarity threshold",
    change: { citationEnabled: true, similarityThreshold: 0.8, citationThreshold: 0.7 },
    field: "citationThreshold",
    message: "The citation threshold must be at least the similarity threshold",
    zh: "引用阈值不能低于相似度阈值",
  },
  {
    rule: "similarity threshold within 0–1",
    change: { similarityThreshold: 1.5 },
    field: "similarityThreshold",
    message: "similarityThreshold must be between 0 and 1",
  },
  {
    rule: "similarity threshold not negative",
    change: { similarityThreshold: -0.1 },
    field: "similarityThreshold",
    zh: "similarityThreshold 需在 0 到 1 之间",
  },
  { rule: "citation threshold within 0–1", change: { citationThreshold: 1.2 }, field: "citationThreshold" },
  { rule: "fixed no-hit strategy needs its text", change: { noHitStrategy: "fixed", noHitText: " " }, field: "noHitText" },
  { rule: "memory turns within range", change: { memoryTurns: 101 }, field: "memoryTurns", message: "memoryTurns must be between 0 and 100" },
  { rule: "memory turns not negative", change: { memoryTurns: -1 }, field: "memoryTurns" },
  { rule: "memory minutes within range", change: { memoryRetentionMinutes: 0 }, field: "memoryRetentionMinutes" },
  { rule: "temperature within 0–2", change: { temperature: 2.5 }, field: "temperature" },
  { rule: "max rounds at least 1 with multi-round thinking", change: { multiRoundThinking: true, maxRounds: 0 }, field: "maxRounds" },
];

describe("spec §5 App rules", () => {
  for (const entry of cases) {
    it(`${entry.rule}: refused on create and on update, naming ${entry.field}`, async () => {
      const before = await appCount();
      const body = await expectError(await create(validAppBody(entry.change)), 400, {
        field: entry.field,
        ...(entry.message ? { message: entry.message } : {}),
      });
      expect(body.data?.field).toBe(entry.field);
      if (entry.zh) await expectError(await create(validAppBody(entry.change), "zh-CN"), 400, { field: entry.field, message: entry.zh });
      expect(await appCount()).toBe(before);

      const stored = await ctx.deps.db.select().from(apps).all();
      await expectError(await update(entry.change), 400, { field: entry.field });
      expect(await ctx.deps.db.select().from(apps).all()).toEqual(stored);
    });
  }

  it("required fields missing from the body are named too", async () => {
    for (const field of ["name", "description", "openingIntroduction", "avatarUrl", "category", "settingsPrompt"]) {
      const body = validAppBody();
      delete body[field];
      await expectError(await create(body), 400, { field });
    }
  });

  it("the boundaries themselves are accepted", async () => {
    const created = await expectOk(
      await create(
        validAppBody({
          description: "Sixchr",
          openingIntroduction: "Hello!",
          bottomSlogan: "s".repeat(20),
          semanticCount: 7,
          fullTextCount: 3,
          retrievalLength: 1,
          citationEnabled: true,
          similarityThreshold: 0.8,
          citationThreshold: 0.8,
          avatarUrl: "https://cdn.example.com/a.png",
          isPublic: true,
          memoryTurns: 0,
          temperature: 2,
        }),
      ),
      201,
      appSeniorSchema,
    );
    expect(created).toMatchObject({ description: "Sixchr", semanticCount: 7, fullTextCount: 3, isPublic: true });
  });

  it("the default avatar is fine while the app stays private", async () => {
    const created = await createAppVia(ctx, user, { avatarUrl: DEFAULT_APP_AVATAR });
    expect(created.avatarUrl).toBe(DEFAULT_APP_AVATAR);
  });

  it("citations are on by default; a similarity threshold sent alone raises the default citation threshold with it", async () => {
    const plain = await createAppVia(ctx, user);
    expect(plain).toMatchObject({ retrievalMode: "hybrid", similarityThreshold: 0.75, citationEnabled: true, citationThreshold: 0.8 });
    const strict = await createAppVia(ctx, user, { similarityThreshold: 0.9 });
    expect(strict).toMatchObject({ similarityThreshold: 0.9, citationEnabled: true, citationThreshold: 0.9 });
  });

  it("a lower citation threshold is fine while citations are hidden", async () => {
    const created = await createAppVia(ctx, user, { citationEnabled: false, similarityThreshold: 0.9, citationThreshold: 0.5 });
    expect(created.citationThreshold).toBe(0.5);
  });
});
