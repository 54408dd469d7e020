import { parse as parseCsv } from "csv-parse/sync";
import * as XLSX from "@e965/xlsx";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMember, createAppVia } from "../apps/testing";
import { spaceRoles, usageRecords } from "../db/schema/index";
import { allGrants } from "../access/resources";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectError } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { rollUpRecord } from "./service/rollup";
import { recordTransfer } from "./service/transfers";
import { countQuestionWords, wordsOf } from "./service/words";

// Records, exports and the dashboard over a hand-made set: five records in range (1–3 March
// 2026), one before it, two transfers in range and one before; counts worked out by hand below.

let ctx: TestContext;
let base: string;
let owner: TestUser;
let ranged: TestUser;
let a1: string;
let a2: string;
const range = "from=2026-03-01T00:00:00.000Z&to=2026-03-04T00:00:00.000Z";
const filters = { from: "2026-03-01T00:00:00.000Z", to: "2026-03-04T00:00:00.000Z" };

const headers = () => ({ "x-parley-space": owner.user.spaceId });
function call(user: TestUser, url: string, init: { method?: string; json?: unknown } = {}) {
  return fetch(`${base}${url}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${user.token}`, "accept-language": "en", ...headers(), ...(init.json ? { "content-type": "application/json" } : {}) },
    ...(init.json ? { body: JSON.stringify(init.json) } : {}),
  });
}
async function data<T = any>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (JSON.parse(text) as { data: T }).data;
}

async function record(appId: string, channel: string, endUserId: string, model: string, credits: number, hits: number | null, at: string, prompt = "q") {
  await ctx.deps.db.insert(usageRecords).values({
    id: `use_${at}_${endUserId}`,
    spaceId: owner.user.spaceId,
    appId,
    conversationId: `cnv_${endUserId}`,
    endUserId,
    channel,
    prompt,
    answer: `answer to ${prompt}`,
    model,
    promptTokens: 10,
    completionTokens: 20,
    credits,
    knowledgeHitCount: hits,
    knowledgeHits: hits === null ? null : JSON.stringify(Array.from({ length: hits }, (_, index) => ({ index }))),
    createdAt: at,
  });
  // What the usage-record writer adds to the dashboard's rollup for each turn (words are seeded on their own below).
  await rollUpRecord(ctx.deps, { spaceId: owner.user.spaceId, appId, channel, endUserId, credits, notHit: hits === 0, text: "", at });
}

beforeAll(async () => {
  ctx = await createTestContext();
  base = await ctx.listen();
  owner = await registerUser(ctx, "analysis-owner@example.com");
  ranged = await registerUser(ctx, "analysis-ranged@example.com");
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  a1 = (await createAppVia(ctx, owner, { name: "Support" })).id;
  a2 = (await createAppVia(ctx, owner, { name: "Sales" })).id;
  await ctx.deps.db.insert(spaceRoles).values({
    id: "role_analysis_a1",
    spaceId: owner.user.spaceId,
    name: "A1 analyst",
    grants: JSON.stringify(allGrants),
    dataRange: JSON.stringify({ scope: "chosen", appIds: [a1], knowledgeBaseIds: [], clientIds: [] }),
    createdBy: owner.user.id,
    updatedAt: new Date().toISOString(),
  });
  await addMember(ctx, owner.user.spaceId, ranged, "role_analysis_a1");

  await record(a1, "web", "u1", "gpt-4o-mini", 10, 2, "2026-03-01T10:00:00.000Z", "Where is my ORDER? order status please");
  await record(a1, "web", "u2", "gpt-4o-mini", 5, 0, "2026-03-01T11:00:00.000Z", "refund, please");
  await record(a1, "telegram", "u1", "claude-3-haiku", 7, null, "2026-03-02T09:00:00.000Z");
  await record(a2, "telegram", "u3", "plugin:weather", 3, 0, "2026-03-02T10:00:00.000Z", "=cmd|' /C calc'!A0");
  await record(a2, "web", "u3", "gpt-4o-mini", 20, 1, "2026-03-03T08:00:00.000Z", '我想查询订单的物流信息, "quoted"\nline');
  await record(a1, "web", "u4", "gpt-4o-mini", 100, 0, "2026-02-20T08:00:00.000Z");
  const conversation = (appId: string, channel: string, endUserId: string) => ({
    id: `cnv_${endUserId}`,
    spaceId: owner.user.spaceId,
    appId,
    channel,
    endUserId,
  });
  await recordTransfer(ctx.deps, conversation(a1, "web", "u2"), { reason: "no-hit", detail: null, at: "2026-03-01T11:05:00.000Z" });
  await recordTransfer(ctx.deps, conversation(a2, "telegram", "u3"), { reason: "keyword", detail: "人工", at: "2026-03-02T10:05:00.000Z" });
  await recordTransfer(ctx.deps, conversation(a1, "web", "u4"), { reason: "customer", detail: null, at: "2026-02-20T08:05:00.000Z" });
  const words = (appId: string, channel: string, text: string, at: string) =>
    countQuestionWords(ctx.deps, { spaceId: owner.user.spaceId, appId, channel, text, at });
  await words(a1, "web", "Where is my ORDER? order status please", "2026-03-01T10:00:00.000Z");
  await words(a2, "web", "我想查询订单的物流信息", "2026-03-03T08:00:00.000Z");
  await words(a2, "telegram", "订单", "2026-03-02T10:00:00.000Z");
  await words(a1, "web", "order order order order", "2026-02-20T08:00:00.000Z");
});
afterAll(async () => {
  await ctx?.close();
});

describe("the data dashboard", () => {
  it("counts users, records, not-hit, transfers and credits, per app, per channel and per day", async () => {
    const board = await data(await call(owner, `/api/v1/analysis/dashboard?${range}`));
    expect(board.totals).toEqual({ users: 3, records: 5, notHit: 2, transfers: 2, credits: 45 });
    expect(board.byApp).toEqual([
      { appId: a1, appName: "Support", users: 2, records: 3, notHit: 1, transfers: 1, credits: 22 },
      { appId: a2, appName: "Sales", users: 1, records: 2, notHit: 1, transfers: 1, credits: 23 },
    ]);
    expect(board.byChannel).toEqual([
      { channel: "web", users: 3, records: 3, notHit: 1, transfers: 1, credits: 35 },
      { channel: "telegram", users: 2, records: 2, notHit: 1, transfers: 1, credits: 10 },
    ]);
    expect(board.daily).toEqual([
      { day: "2026-03-01", records: 2, activeUsers: 2, credits: 15 },
      { day: "2026-03-02", records: 2, activeUsers: 2, credits: 10 },
      { day: "2026-03-03", records: 1, activeUsers: 1, credits: 20 },
    ]);
    // Most frequent first; ties in the word's binary order (Latin before Han).
    expect(board.words.slice(0, 3)).toEqual([
      { word: "order", count: 2 },
      { word: "订单", count: 2 },
      { word: "status", count: 1 },
    ]);
  });

  it("narrows to one app or one channel", async () => {
    const app = await data(await call(owner, `/api/v1/analysis/dashboard?${range}&appId=${a2}`));
    expect(app.totals).toEqual({ users: 1, records: 2, notHit: 1, transfers: 1, credits: 23 });
    const channel = await data(await call(owner, `/api/v1/analysis/dashboard?${range}&channel=telegram`));
    expect(channel.totals).toEqual({ users: 2, records: 2, notHit: 1, transfers: 1, credits: 10 });
    expect(channel.words).toEqual([{ word: "订单", count: 1 }]);
  });

  it("shows a ranged member only the apps in their range", async () => {
    const board = await data(await call(ranged, `/api/v1/analysis/dashboard?${range}`));
    expect(board.totals).toEqual({ users: 2, records: 3, notHit: 1, transfers: 1, credits: 22 });
    expect(board.words.map((w: { word: string }) => w.word)).toEqual(["order", "status"]);
    const records = await data(await call(ranged, `/api/v1/analysis/records?${range}`));
    expect(records.total).toBe(3);
    const transfers = await data(await call(ranged, `/api/v1/analysis/transfers?${range}`));
    expect(transfers.items.map((t: { endUserId: string }) => t.endUserId)).toEqual(["u2"]);
    const notHit = await data(await call(ranged, `/api/v1/analysis/not-hit?${range}`));
    expect(notHit.items.map((r: { endUserId: string }) => r.endUserId)).toEqual(["u2"]);
    const words = await data(await call(ranged, `/api/v1/analysis/words?${range}`));
    expect(words.items).toEqual([
      { word: "order", count: 2 },
      { word: "status", count: 1 },
    ]);
    // Even asking for the other app by id: nothing.
    expect((await data(await call(ranged, `/api/v1/analysis/records?${range}&appId=${a2}`))).total).toBe(0);
    const file = await call(ranged, "/api/v1/analysis/records/export", { method: "POST", json: { filters, format: "csv" } });
    expect(parseCsv(await file.text(), { bom: true })).toHaveLength(4);
  });

  it("refuses an inverted time range and one over 366 days, naming the field", async () => {
    await expectError(await call(owner, "/api/v1/analysis/dashboard?from=2026-03-04T00:00:00Z&to=2026-03-01T00:00:00Z"), 400, { field: "to" });
    await expectError(await call(owner, "/api/v1/analysis/records?from=2016-01-01T00:00:00Z&to=2026-01-01T00:00:00Z"), 400, { field: "from" });
    await expectError(await call(owner, "/api/v1/analysis/words?from=yesterday"), 400, { field: "from" });
    await expectError(
      await call(owner, "/api/v1/analysis/records/export", {
        method: "POST",
        json: { filters: { from: "2026-03-04T00:00:00Z", to: "2026-03-01T00:00:00Z" }, format: "csv" },
      }),
      400,
      { field: "to" },
    );
    await expectError(await call(owner, "/api/v1/analysis/records/export", { method: "POST", json: { filters, format: "pdf" } }), 400, { field: "format" });
  });

  it("counts days in the caller's time zone, and refuses an unknown zone in the request's language, naming the field", async () => {
    const user = await registerUser(ctx, "analysis-zones@example.com");
    const spaceId = user.user.spaceId;
    const turn = (endUserId: string, at: string) =>
      rollUpRecord(ctx.deps, { spaceId, appId: "app_zone", channel: "web", endUserId, credits: 1, notHit: false, text: "", at });
    await turn("z1", "2026-03-01T23:30:00.000Z"); // 2 March, 07:30 in Shanghai
    await turn("z2", "2026-03-02T10:00:00.000Z"); // 2 March, 18:00 in Shanghai
    await turn("z1", "2026-03-02T17:00:00.000Z"); // 3 March, 01:00 in Shanghai
    const board = async (query: string) =>
      data(await fetch(`${base}/api/v1/analysis/dashboard?${query}`, { headers: { authorization: `Bearer ${user.token}` } }));

    const utc = await board("from=2026-03-01T00:00:00Z&to=2026-03-02T12:00:00Z");
    expect(utc).toMatchObject({ from: "2026-03-01T00:00:00.000Z", to: "2026-03-02T23:59:59.999Z", timeZone: "UTC" });
    expect(utc.daily).toEqual([
      { day: "2026-03-01", records: 1, activeUsers: 1, credits: 1 },
      { day: "2026-03-02", records: 2, activeUsers: 2, credits: 2 },
    ]);
    const shanghai = await board(`from=2026-03-02T00:00:00%2B08:00&to=2026-03-03T12:00:00%2B08:00&timeZone=Asia/Shanghai`);
    expect(shanghai).toMatchObject({ from: "2026-03-01T16:00:00.000Z", to: "2026-03-03T15:59:59.999Z", timeZone: "Asia/Shanghai" });
    expect(shanghai.daily).toEqual([
      { day: "2026-03-02", records: 2, activeUsers: 2, credits: 2 },
      { day: "2026-03-03", records: 1, activeUsers: 1, credits: 1 },
    ]);
    expect(shanghai.totals).toMatchObject({ records: 3, users: 2 });
    // Only 2 March in Los Angeles (UTC−8): 10:00Z and 17:00Z; 23:30Z on 1 March is still 1 March there.
    const angeles = await board("from=2026-03-02T12:00:00Z&to=2026-03-02T20:00:00Z&timeZone=America/Los_Angeles");
    expect(angeles).toMatchObject({ from: "2026-03-02T08:00:00.000Z", to: "2026-03-03T07:59:59.999Z" });
    expect(angeles.daily).toEqual([{ day: "2026-03-02", records: 2, activeUsers: 2, credits: 2 }]);

    // Across the switch to summer time (8 March 2026 in Los Angeles): 07:30Z on 9 March is 00:30 PDT, on 9 March.
    await turn("z3", "2026-03-09T07:30:00.000Z");
    const summer = await board("from=2026-03-07T12:00:00Z&to=2026-03-09T20:00:00Z&timeZone=America/Los_Angeles");
    expect(summer).toMatchObject({ from: "2026-03-07T08:00:00.000Z", to: "2026-03-10T06:59:59.999Z" });
    expect(summer.daily).toEqual([{ day: "2026-03-09", records: 1, activeUsers: 1, credits: 1 }]);

    const unknown = await fetch(`${base}/api/v1/analysis/dashboard?timeZone=Mars/Olympus`, { headers: { authorization: `Bearer ${user.token}` } });
    expect((await expectError(unknown, 400, { field: "timeZone" })).message).toContain("Mars/Olympus");
    const zh = await fetch(`${base}/api/v1/analysis/dashboard?timeZone=Mars/Olympus`, {
      headers: { authorization: `Bearer ${user.token}`, "accept-language": "zh-CN" },
    });
    expect((await expectError(zh, 400, { field: "timeZone" })).message).toContain("时区");
  });
});

describe("records", () => {
  it("lists records newest first with paging and the query enums", async () => {
    const first = await data(await call(owner, `/api/v1/analysis/records?${range}&pageSize=2`));
    expect(first.total).toBe(5);
    expect(first.items.map((r: { credits: number }) => r.credits)).toEqual([20, 3]);
    const third = await data(await call(owner, `/api/v1/analysis/records?${range}&pageSize=2&pageNo=3`));
    expect(third.items.map((r: { credits: number }) => r.credits)).toEqual([10]);
    const enums = await data(await call(owner, "/api/v1/analysis/records/enums"));
    expect(enums.channels).toEqual(["telegram", "web"]);
    expect(enums.models).toEqual(["claude-3-haiku", "gpt-4o-mini", "plugin:weather"]);
    expect(enums.apps.map((a: { name: string }) => a.name)).toEqual(["Sales", "Support"]);
  });

  it("filters by app, channel, model or plugin, and time", async () => {
    const credits = async (query: string) =>
      (await data(await call(owner, `/api/v1/analysis/records?${query}`))).items.map((r: { credits: number }) => r.credits);
    expect(await credits(`${range}&appId=${a1}`)).toEqual([7, 5, 10]);
    expect(await credits(`${range}&channel=telegram`)).toEqual([3, 7]);
    expect(await credits(`${range}&model=plugin:weather`)).toEqual([3]);
    expect(await credits(`${range}&appId=${a1}&channel=web&model=gpt-4o-mini`)).toEqual([5, 10]);
    expect(await credits("from=2026-02-01T00:00:00.000Z&to=2026-03-01T10:00:00.000Z")).toEqual([10, 100]);
  });

  it("lists not-hit records and transfers", async () => {
    const notHit = await data(await call(owner, `/api/v1/analysis/not-hit?${range}`));
    expect(notHit.items.map((r: { endUserId: string; knowledgeHitCount: number }) => [r.endUserId, r.knowledgeHitCount])).toEqual([
      ["u3", 0],
      ["u2", 0],
    ]);
    const transfers = await data(await call(owner, `/api/v1/analysis/transfers?${range}`));
    expect(transfers.total).toBe(2);
    expect(transfers.items.map((t: { reason: string; appName: string }) => [t.reason, t.appName])).toEqual([
      ["keyword", "Sales"],
      ["no-hit", "Support"],
    ]);
  });

  it("sums the credits used, by app and by channel", async () => {
    const used = await data(await call(owner, `/api/v1/analysis/credits?${range}`));
    expect(used.total).toBe(45);
    expect(used.byApp).toEqual([
      { appId: a2, appName: "Sales", credits: 23, records: 2 },
      { appId: a1, appName: "Support", credits: 22, records: 3 },
    ]);
    expect(used.byChannel).toEqual([
      { channel: "web", credits: 35, records: 3 },
      { channel: "telegram", credits: 10, records: 2 },
    ]);
  });

  it("counts Chinese words by jieba and English words lower-cased, without stop words", async () => {
    expect(wordsOf("Where is my ORDER? order status please")).toEqual(["order", "order", "status"]);
    expect(wordsOf("我想查询订单的物流信息")).toEqual(["查询", "订单", "物流", "信息"]);
    const words = await data(await call(owner, `/api/v1/analysis/words?${range}&limit=10`));
    expect(words.items).toEqual([
      { word: "order", count: 2 },
      { word: "订单", count: 2 },
      { word: "status", count: 1 },
      { word: "信息", count: 1 },
      { word: "查询", count: 1 },
      { word: "物流", count: 1 },
    ]);
  });
});

describe("exports", () => {
  it("exports records as CSV that parses back to the same rows", async () => {
    const response = await call(owner, "/api/v1/analysis/records/export", { method: "POST", json: { filters, format: "csv" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    expect(response.headers.get("content-disposition")).toContain("records-2026-03-04.csv");
    const rows = parseCsv(await response.text(), { bom: true }) as string[][];
    expect(rows[0]).toEqual([
      "Time",
      "App",
      "Channel",
      "User",
      "Model or plugin",
      "Question",
      "Answer",
      "Prompt tokens",
      "Completion tokens",
      "Credits",
      "Knowledge hits",
    ]);
    expect(rows.slice(1).map((row) => [row[1], row[2], row[3], row[9]])).toEqual([
      ["Sales", "web", "u3", "20"],
      ["Sales", "telegram", "u3", "3"],
      ["Support", "telegram", "u1", "7"],
      ["Support", "web", "u2", "5"],
      ["Support", "web", "u1", "10"],
    ]);
    expect(rows[1]![5]).toBe('我想查询订单的物流信息, "quoted"\nline');
    // A question that a spreadsheet would run as a formula is written as text.
    expect(rows[2]![5]).toBe("'=cmd|' /C calc'!A0");
  });

  it("exports not-hit records as XLSX that a reader opens, with Chinese column titles", async () => {
    const response = await fetch(`${base}/api/v1/analysis/not-hit/export`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner.token}`, "accept-language": "zh-CN", "content-type": "application/json", ...headers() },
      body: JSON.stringify({ filters, format: "xlsx" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const book = XLSX.read(new Uint8Array(await response.arrayBuffer()), { type: "array" });
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 });
    expect(rows[0]).toEqual(["时间", "应用", "渠道", "用户", "模型或插件", "问题", "回答", "输入 tokens", "输出 tokens", "积分", "知识命中数"]);
    expect(rows.slice(1).map((row) => [row[1], row[3], row[9], row[10]])).toEqual([
      ["Sales", "u3", 3, 0],
      ["Support", "u2", 5, 0],
    ]);
  });

  it("exports transfers and words", async () => {
    const transfers = await call(owner, "/api/v1/analysis/transfers/export", { method: "POST", json: { filters, format: "xlsx" } });
    const book = XLSX.read(new Uint8Array(await transfers.arrayBuffer()), { type: "array" });
    const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 });
    expect(rows.slice(1).map((row) => [row[3], row[5], row[6]])).toEqual([
      ["u3", "keyword", "人工"],
      ["u2", "no-hit", undefined],
    ]);
    const words = await call(owner, "/api/v1/analysis/words/export", { method: "POST", json: { filters, format: "csv" } });
    expect((parseCsv(await words.text(), { bom: true }) as string[][]).slice(0, 3)).toEqual([
      ["Word", "Count"],
      ["order", "2"],
      ["订单", "2"],
    ]);
  });

  // 100,001 rows written first: a loaded 2-core runner needs well over the default 20 s for them.
  it("refuses an export of more than 100,000 rows, naming the limit, before writing anything", async () => {
    const big = await registerUser(ctx, "analysis-big@example.com");
    const app = (await createAppVia(ctx, big, { name: "Busy" })).id;
    await ctx.deps.db.run(sql`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100001)
      INSERT INTO usage_records (id, space_id, app_id, channel, end_user_id, prompt, answer, model, credits, knowledge_hit_count, created_at)
      SELECT 'use_big_' || i, ${big.user.spaceId}, ${app}, 'web', 'v' || (i % 50), 'q', 'a', 'm', 1, 0, '2026-03-02T00:00:00.000Z' FROM n`);
    const response = await fetch(`${base}/api/v1/analysis/records/export`, {
      method: "POST",
      headers: { authorization: `Bearer ${big.token}`, "content-type": "application/json" },
      body: JSON.stringify({ filters, format: "xlsx" }),
    });
    const body = await expectError(response, 400, { field: "filters" });
    expect(body.message).toContain("100001");
    expect(body.message).toContain("100000");
    // Exactly the limit is written, every row of it.
    await ctx.deps.db.run(sql`DELETE FROM usage_records WHERE id = 'use_big_1'`);
    const allowed = await fetch(`${base}/api/v1/analysis/records/export`, {
      method: "POST",
      headers: { authorization: `Bearer ${big.token}`, "content-type": "application/json" },
      body: JSON.stringify({ filters: { ...filters, appId: app }, format: "csv" }),
    });
    expect(allowed.status).toBe(200);
    const lines = (await allowed.text()).split("\r\n").filter((line) => line.length > 0);
    expect(lines).toHaveLength(100_001);
  }, 120_000);
});

describe("the writers", () => {
  it("a visitor's turns reach the dashboard (records, user, words) and a keyword handover is a transfer", async () => {
    const { inboxSpace, setManualService, startVisitor, visitorSays } = await import("../inbox/testing");
    const user = await registerUser(ctx, "analysis-writer@example.com");
    await upgradeSpaceForTest(ctx, user.user.spaceId);
    const space = await inboxSpace(ctx, user, { name: "Writer" });
    await setManualService(ctx, space, { triggers: [{ type: "keyword", content: "人工" }] });
    const visitor = await startVisitor(ctx, space.clientId);
    await visitorSays(ctx, visitor, "Where is my parcel? The parcel tracking says nothing");
    await visitorSays(ctx, visitor, "我要转人工");
    const board = await data(await fetch(`${base}/api/v1/analysis/dashboard`, { headers: { authorization: `Bearer ${user.token}` } }));
    expect(board.totals).toMatchObject({ users: 1, records: 1, transfers: 1 });
    expect(board.words.slice(0, 2)).toEqual([
      { word: "parcel", count: 2 },
      { word: "nothing", count: 1 },
    ]);
    const transfers = await data(await fetch(`${base}/api/v1/analysis/transfers`, { headers: { authorization: `Bearer ${user.token}` } }));
    expect(transfers.items.map((t: { reason: string; appId: string }) => [t.reason, t.appId])).toEqual([["keyword", space.appId]]);
  });

  it("a conversation that goes to a person counts once: a handover then an operator's takeover and replies is one transfer, an operator typing into an AI session is one", async () => {
    const { inboxSpace, setManualService, startVisitor, visitorSays } = await import("../inbox/testing");
    const user = await registerUser(ctx, "analysis-transfers@example.com");
    await upgradeSpaceForTest(ctx, user.user.spaceId);
    const space = await inboxSpace(ctx, user, { name: "Transfers" });
    await setManualService(ctx, space, { triggers: [{ type: "keyword", content: "人工" }] });
    const send = (url: string, method: string, json: unknown) =>
      fetch(`${base}${url}`, { method, headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" }, body: JSON.stringify(json) });
    const transfers = async () =>
      (await data(await fetch(`${base}/api/v1/analysis/transfers`, { headers: { authorization: `Bearer ${user.token}` } }))).items.map(
        (t: { reason: string; conversationId: string }) => [t.reason, t.conversationId],
      );

    // A handover request, then the operator takes the session over and replies twice: one transfer.
    const asked = await startVisitor(ctx, space.clientId);
    await visitorSays(ctx, asked, "我要转人工");
    await data(await send(`/api/v1/inbox/sessions/${asked.sessionId}/mode`, "PUT", { serviceMode: "MANUAL_MODE", confirm: true }));
    await data(await send(`/api/v1/inbox/sessions/${asked.sessionId}/messages`, "POST", { content: "Hello, I am here" }), 201);
    await data(await send(`/api/v1/inbox/sessions/${asked.sessionId}/messages`, "POST", { content: "How can I help?" }), 201);
    expect(await transfers()).toEqual([["keyword", asked.sessionId]]);

    // The operator simply types into a session the AI runs: the session goes to a person, once.
    const quiet = await startVisitor(ctx, space.clientId);
    await visitorSays(ctx, quiet, "Where is my parcel?");
    await data(await send(`/api/v1/inbox/sessions/${quiet.sessionId}/messages`, "POST", { content: "Let me check that for you" }), 201);
    await data(await send(`/api/v1/inbox/sessions/${quiet.sessionId}/messages`, "POST", { content: "It ships today" }), 201);
    expect(await transfers()).toEqual([
      ["operator", quiet.sessionId],
      ["keyword", asked.sessionId],
    ]);
    // Handed back to the AI and taken over again by the mode switch: a second transfer of that session.
    await data(await send(`/api/v1/inbox/sessions/${quiet.sessionId}/mode`, "PUT", { serviceMode: "FULL_AUTO_MODE", confirm: true }));
    await data(await send(`/api/v1/inbox/sessions/${quiet.sessionId}/mode`, "PUT", { serviceMode: "MANUAL_MODE", confirm: true }));
    expect((await transfers()).filter(([, id]: [string, string]) => id === quiet.sessionId)).toHaveLength(2);
    const board = await data(await fetch(`${base}/api/v1/analysis/dashboard`, { headers: { authorization: `Bearer ${user.token}` } }));
    expect(board.totals.transfers).toBe(3);
  });
});
