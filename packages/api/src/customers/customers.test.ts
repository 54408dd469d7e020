import * as XLSX from "@e965/xlsx";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addMember } from "../apps/testing";
import { identityHash } from "../clients/service";
import { newId } from "../crypto";
import { conversations, customers, customerTags, spaceRoles, tagGroups, tags } from "../db/schema/index";
import { eventually, inboxSpace, type InboxSpace, setManualService, startVisitor, visitorSays } from "../inbox/testing";
import { upgradeSpaceForTest } from "../plans/testing";
import { type LlmFake, startOpenAiFake } from "../testing/fakes/llm-openai";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";

// Customers and tags (issue 17) over a real listening server, a real SQLite file and an OpenAI
// fake for the model that chooses tags.
let fake: LlmFake;
let ctx: TestContext;
let base: string;
let alice: TestUser;
let bob: TestUser;
let ranged: TestUser;
let shop: InboxSpace;
let second: InboxSpace;
let bobShop: InboxSpace;

beforeAll(async () => {
  fake = await startOpenAiFake();
  ctx = await createTestContext({ OPENAI_API_KEY: "sk-test-parley", OPENAI_BASE_URL: fake.url, PARLEY_OPENAI_MODELS: "gpt-4.1-mini" });
  await ctx.deps.models.ready();
  base = await ctx.listen();
  alice = await registerUser(ctx, "alice-customers@example.com");
  bob = await registerUser(ctx, "bob-customers@example.com");
  ranged = await registerUser(ctx, "ranged-customers@example.com");
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  await upgradeSpaceForTest(ctx, bob.user.spaceId);
  shop = await inboxSpace(ctx, alice, { name: "Shop bot" });
  second = await inboxSpace(ctx, alice, { name: "Second bot" }, "Second widget");
  bobShop = await inboxSpace(ctx, bob, { name: "Bob bot" });
  // A member who reaches only the first widget (decision 0019), with the customer grants.
  await ctx.deps.db.insert(spaceRoles).values({
    id: "role_customers_ranged",
    spaceId: alice.user.spaceId,
    name: "Shop operators",
    grants: JSON.stringify(["customers.view", "customers.edit", "chatManage.view"]),
    dataRange: JSON.stringify({ scope: "chosen", appIds: [], knowledgeBaseIds: [], clientIds: [shop.clientId] }),
    createdBy: alice.user.id,
    updatedAt: new Date().toISOString(),
  });
  await addMember(ctx, alice.user.spaceId, ranged, "role_customers_ranged");
});
afterAll(async () => {
  await ctx.close();
  await fake.close();
});
beforeEach(() => fake.reset());

async function call(user: TestUser, method: string, path: string, json?: unknown, spaceId?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${user.token}` };
  if (json !== undefined) headers["content-type"] = "application/json";
  if (spaceId) headers["x-parley-space"] = spaceId;
  return fetch(`${base}${path}`, { method, headers, ...(json === undefined ? {} : { body: JSON.stringify(json) }) });
}

async function data<T = any>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const body = JSON.parse(text) as { success: boolean; data: T };
  expect(body.success).toBe(true);
  return body.data;
}

async function refused(response: Response, status: number, field?: string): Promise<{ message: string; data: { field?: string } | null }> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  const body = JSON.parse(text) as { success: boolean; code: number; message: string; data: { field?: string } | null };
  expect(body.success).toBe(false);
  expect(body.code).toBe(status);
  if (field) expect(body.data?.field, text).toBe(field);
  return body;
}

/** Customers written straight to the database: the list's filters and paging over many rows. */
async function seedCustomers(spaceId: string, rows: Array<Partial<typeof customers.$inferInsert> & { clientId: string }>) {
  const values = rows.map((row, index) => ({
    id: row.id ?? newId("cus"),
    spaceId,
    channel: "web",
    externalId: `seed-${index}-${Math.random().toString(36).slice(2)}`,
    ...row,
  }));
  for (let start = 0; start < values.length; start += 500) await ctx.deps.db.insert(customers).values(values.slice(start, start + 500));
  return values.map((value) => value.id);
}

async function group(user: TestUser, name: string): Promise<string> {
  return (await data<{ id: string }>(await call(user, "POST", "/api/v1/tag-groups", { name }), 201)).id;
}
async function tag(user: TestUser, groupId: string, name: string, extra: Record<string, unknown> = {}): Promise<string> {
  return (await data<{ id: string }>(await call(user, "POST", "/api/v1/tags", { groupId, name, ...extra }), 201)).id;
}

async function allPages(user: TestUser, query: string, limit: number) {
  const seen: Array<{ id: string; lastConversationAt: string | null }> = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const page: { items: Array<{ id: string; lastConversationAt: string | null }>; nextCursor: string | null } = await data(
      await call(user, "GET", `/api/v1/customers?limit=${limit}${query ? `&${query}` : ""}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`),
    );
    seen.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) break;
  }
  return seen;
}

describe("customers", () => {
  it("an identified widget visitor is one customer across sessions; the detail lists their conversations, latest first; members edit them", async () => {
    const secret = (await data<{ identitySecret: string }>(await call(alice, "POST", `/api/v1/web-clients/${shop.clientId}/rotate-secret`))).identitySecret;
    const identity = { userId: "shopper-7", hash: identityHash(secret, "shopper-7") };
    const first = await startVisitor(ctx, shop.clientId, { identity, visitorId: "v_device-one" });
    fake.reply("Hello there");
    await visitorSays(ctx, first, "First question");
    const again = await startVisitor(ctx, shop.clientId, { identity, visitorId: "v_device-two" });
    fake.reply("Welcome back");
    await visitorSays(ctx, again, "Second question");
    const rows = await ctx.deps.db.select().from(conversations).where(eq(conversations.id, first.sessionId));
    const customerId = rows[0]!.customerId!;
    expect((await ctx.deps.db.select().from(conversations).where(eq(conversations.id, again.sessionId)))[0]!.customerId).toBe(customerId);

    const detail = await data(await call(alice, "GET", `/api/v1/customers/${customerId}`));
    expect(detail).toMatchObject({ id: customerId, nickname: "shopper-7", channel: "web", clientId: shop.clientId, clientName: "Shop widget", tags: [] });
    expect(detail.conversations.map((row: { sessionId: string }) => row.sessionId)).toEqual([again.sessionId, first.sessionId]);
    expect(detail.conversations[0]).toMatchObject({ appId: shop.appId, appName: "Shop bot", lastMessage: expect.stringContaining("Welcome back") });

    const edited = await data(
      await call(alice, "PATCH", `/api/v1/customers/${customerId}`, {
        nickname: "Li Lei",
        company: "Acme",
        wechat: "lilei88",
        gender: "male",
        remark: "Buys wholesale",
        type: "VIP",
      }),
    );
    expect(edited).toMatchObject({ nickname: "Li Lei", company: "Acme", wechat: "lilei88", gender: "male", remark: "Buys wholesale", type: "VIP" });
    await refused(await call(alice, "PATCH", `/api/v1/customers/${customerId}`, { gender: "robot" }), 400, "gender");
    expect((await ctx.deps.db.select().from(customers).where(eq(customers.id, customerId)).get())!.gender).toBe("male");
    // Another space does not see, open or edit them.
    await refused(await call(bob, "GET", `/api/v1/customers/${customerId}`), 404);
    await refused(await call(bob, "PATCH", `/api/v1/customers/${customerId}`, { remark: "mine" }), 404);
    expect((await data(await call(bob, "GET", "/api/v1/customers"))).items.map((row: { id: string }) => row.id)).not.toContain(customerId);
  });

  it("pages through many customers by last conversation then id, with every filter, and refuses bad ranges and cursors", async () => {
    const groupId = await group(alice, "Paging");
    const vip = await tag(alice, groupId, "VIP");
    const day = (n: number) => new Date(Date.UTC(2026, 9, 1 + (n % 30), 12)).toISOString();
    const seeded = await seedCustomers(
      alice.user.spaceId,
      Array.from({ length: 137 }, (_, index) => ({
        clientId: index % 3 === 0 ? second.clientId : shop.clientId,
        channel: index % 2 === 0 ? "telegram" : "web",
        nickname: `Seeded ${index}`,
        company: index % 10 === 0 ? "Globex Trading" : "",
        remark: index === 5 ? "prefers 100% cotton" : "",
        // Many share a time: the id breaks the tie.
        lastConversationAt: day(index),
      })),
    );
    await data(await call(alice, "POST", "/api/v1/customers/tags", { customerIds: seeded.filter((_, index) => index % 7 === 0), addTagIds: [vip] }));

    const everyone = await allPages(alice, "", 20);
    const ids = everyone.map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of seeded) expect(ids).toContain(id);
    const sorted = [...everyone].sort((a, b) =>
      a.lastConversationAt === b.lastConversationAt ? (a.id < b.id ? 1 : -1) : (b.lastConversationAt ?? "").localeCompare(a.lastConversationAt ?? ""),
    );
    expect(ids).toEqual(sorted.map((row) => row.id));

    const seededSet = new Set(seeded);
    const only = (rows: Array<{ id: string }>) =>
      rows
        .map((row) => row.id)
        .filter((id) => seededSet.has(id))
        .sort();
    const expectIds = (pick: (index: number) => boolean) => seeded.filter((_, index) => pick(index)).sort();
    expect(only(await allPages(alice, `tagIds=${vip}`, 7))).toEqual(expectIds((index) => index % 7 === 0));
    expect(only(await allPages(alice, "channel=telegram", 25))).toEqual(expectIds((index) => index % 2 === 0));
    expect(only(await allPages(alice, `clientId=${second.clientId}&channel=web`, 9))).toEqual(expectIds((index) => index % 3 === 0 && index % 2 === 1));
    expect(only(await allPages(alice, "keyword=globex", 5))).toEqual(expectIds((index) => index % 10 === 0));
    expect(only(await allPages(alice, `keyword=${encodeURIComponent("100%")}`, 5))).toEqual(expectIds((index) => index === 5));
    // A NUL cannot reach FTS5's MATCH: the LIKE alone answers (none match), never a 500.
    expect(only(await allPages(alice, `keyword=${encodeURIComponent("glo\u0000bex")}`, 5))).toEqual([]);
    // A day range includes the whole last day.
    expect(only(await allPages(alice, "from=2026-10-03&to=2026-10-04", 10))).toEqual(expectIds((index) => index % 30 === 2 || index % 30 === 3));
    expect(only(await allPages(alice, `from=2026-10-03&to=2026-10-04&tagIds=${vip}&channel=telegram`, 3))).toEqual(
      expectIds((index) => (index % 30 === 2 || index % 30 === 3) && index % 7 === 0 && index % 2 === 0),
    );

    await refused(await call(alice, "GET", "/api/v1/customers?from=2026-10-05&to=2026-10-01"), 400, "to");
    const tenYears = await refused(await call(alice, "GET", "/api/v1/customers?from=2016-01-01&to=2026-01-01"), 400, "to");
    expect(tenYears.message).toContain("366");
    await refused(await call(alice, "GET", "/api/v1/customers?from=yesterday"), 400, "from");
    await refused(await call(alice, "GET", "/api/v1/customers?cursor=not-a-cursor"), 400, "cursor");
  });

  it("a keyword finds exactly the customers a LIKE over nickname, company, remark and WeChat finds, in English and Chinese, common or rare, after edits", async () => {
    const { spaceId } = bob.user;
    const texts = [
      { nickname: "韩梅梅", company: "腾飞科技", remark: "老客户，喜欢电话联系", wechat: "" },
      { nickname: "李雷", company: "", remark: "", wechat: "lilei_88" },
      { nickname: "王芳", company: "Globex", remark: "VIP since 2023", wechat: "" },
      { nickname: "Chen Wei", company: "ACME Ltd", remark: "asks for 50%_off", wechat: "wx-Chen" },
      { nickname: "chén", company: "Ümlaut GmbH", remark: "", wechat: "" },
      { nickname: "李", company: "", remark: "电", wechat: "" },
      { nickname: 'Quote "Q"', company: "", remark: "tab\there", wechat: "" },
    ];
    // Over 2,000 holders of "Bulk": the common-keyword path (the list's order index) is taken too.
    const rows = [
      ...texts.map((text, index) => ({ ...text, clientId: bobShop.clientId, lastConversationAt: new Date(Date.UTC(2026, 8, 1 + index)).toISOString() })),
      ...Array.from({ length: 2_100 }, (_, index) => ({
        clientId: bobShop.clientId,
        nickname: `Bulk buyer ${index}`,
        company: index % 500 === 0 ? "梅花商行" : "",
        remark: "",
        wechat: "",
        lastConversationAt: new Date(Date.UTC(2026, 7, 1, 0, index)).toISOString(),
      })),
    ];
    await seedCustomers(spaceId, rows);
    const all = await ctx.deps.db
      .select({ id: customers.id, nickname: customers.nickname, company: customers.company, remark: customers.remark, wechat: customers.wechat })
      .from(customers)
      .where(eq(customers.spaceId, spaceId));
    // SQLite's LIKE: a substring, ASCII letters in any case, other characters as they are.
    const fold = (text: string) => text.replace(/[A-Z]/g, (char) => char.toLowerCase());
    const likeIds = (keyword: string) =>
      all
        .filter((row) => [row.nickname, row.company, row.remark, row.wechat].some((field) => fold(field).includes(fold(keyword))))
        .map((row) => row.id)
        .sort();
    const keywords = [
      "韩梅梅",
      "梅",
      "梅梅",
      "腾飞",
      "电话",
      "电",
      "李",
      "李雷",
      "王芳",
      "chen",
      "CHEN WEI",
      "Globex",
      "wx-",
      "lilei",
      "50%_",
      "%",
      "_",
      "é",
      "ché",
      "Ü",
      "ümlaut",
      '"Q"',
      "Q",
      "bulk",
      "Bulk buyer 1",
      "uyer 20",
      "梅花",
      "nobody here",
      "2023",
      "i",
    ];
    for (const keyword of keywords) {
      const found = (await allPages(bob, `keyword=${encodeURIComponent(keyword)}`, 200)).map((row) => row.id).sort();
      expect(found, keyword).toEqual(likeIds(keyword));
    }
    // Combined with a time range and paged by the cursor, in the list's order.
    const paged = await allPages(bob, `keyword=${encodeURIComponent("梅")}&from=2026-08-01&to=2026-09-30`, 2);
    expect(paged.map((row) => row.id).sort()).toEqual(likeIds("梅"));

    // Edits reach the index: the new name is found, the old one no longer.
    const wang = all.find((row) => row.nickname === "王芳")!.id;
    await data(await call(bob, "PATCH", `/api/v1/customers/${wang}`, { nickname: "王小芳", wechat: "wangxf" }));
    expect((await allPages(bob, `keyword=${encodeURIComponent("王芳")}`, 50)).map((row) => row.id)).not.toContain(wang);
    for (const keyword of ["小芳", "王小芳", "wangxf", "芳"])
      expect(
        (await allPages(bob, `keyword=${encodeURIComponent(keyword)}`, 50)).map((row) => row.id),
        keyword,
      ).toContain(wang);
    // A deleted customer leaves the index with them.
    await ctx.deps.db.delete(customers).where(eq(customers.id, wang));
    const [left] = await ctx.deps.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM customers_search WHERE customers_search MATCH ${'grams : "小芳»"'}`);
    expect(left!.n).toBe(0);
    await ctx.deps.db.delete(customers).where(eq(customers.spaceId, spaceId));
  });

  it("exports the filtered customers as CSV and XLSX that read back, and refuses more than 10,000", async () => {
    const groupId = await group(alice, "Export");
    const gold = await tag(alice, groupId, "Gold");
    const [a, b] = await seedCustomers(alice.user.spaceId, [
      { clientId: shop.clientId, nickname: '=HYPERLINK("x")', company: "Umbrella, Inc.", remark: 'said "hi"', lastConversationAt: "2026-11-20T08:00:00.000Z" },
      { clientId: shop.clientId, nickname: "王小明", company: "北京公司", lastConversationAt: "2026-11-21T08:00:00.000Z" },
    ]);
    await data(await call(alice, "POST", "/api/v1/customers/tags", { customerIds: [a, b], addTagIds: [gold] }));
    const filters = { tagIds: [gold] };

    const csv = await call(alice, "POST", "/api/v1/customers/export", { filters, format: "csv" });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/attachment; filename="customers-.*\.csv"/);
    const bytes = new Uint8Array(await csv.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
    const fromCsv = XLSX.utils.sheet_to_json<string[]>(XLSX.read(text.slice(1), { type: "string", raw: true }).Sheets.Sheet1!, { header: 1, raw: false });
    expect(fromCsv[0]).toEqual([
      "Nickname",
      "Company",
      "Tags",
      "WeChat",
      "Gender",
      "Remark",
      "Type",
      "Channel",
      "Client",
      "Added",
      "Last conversation",
      "Customer ID",
    ]);
    expect(fromCsv.slice(1).map((row) => row.at(-1))).toEqual([b, a]);
    expect(fromCsv[1]!.slice(0, 3)).toEqual(["王小明", "北京公司", "Export/Gold"]);
    // The formula is neutralised, the comma and quotes survive.
    expect(fromCsv[2]!.slice(0, 3)).toEqual(['\'=HYPERLINK("x")', "Umbrella, Inc.", "Export/Gold"]);
    expect(fromCsv[2]![5]).toBe('said "hi"');

    const xlsx = await call(alice, "POST", "/api/v1/customers/export", { filters, format: "xlsx" }, undefined);
    expect(xlsx.status).toBe(200);
    expect(xlsx.headers.get("content-type")).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const book = XLSX.read(new Uint8Array(await xlsx.arrayBuffer()), { type: "array" });
    const fromXlsx = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 });
    expect(fromXlsx.slice(1).map((row) => row.at(-1))).toEqual([b, a]);
    expect(fromXlsx[2]![0]).toBe('=HYPERLINK("x")');
    expect(book.Sheets[book.SheetNames[0]!]!.A3!.f).toBeUndefined();

    // Chinese headers for a Chinese request.
    const zh = await fetch(`${base}/api/v1/customers/export`, {
      method: "POST",
      headers: { authorization: `Bearer ${alice.token}`, "content-type": "application/json", "accept-language": "zh-CN" },
      body: JSON.stringify({ filters, format: "csv" }),
    });
    expect((await zh.text()).split("\r\n")[0]).toContain("昵称");

    // Bob's space holds 10,001 customers: the export says the limit and writes nothing.
    await seedCustomers(
      bob.user.spaceId,
      Array.from({ length: 10_001 }, (_, index) => ({ clientId: bobShop.clientId, nickname: `Bulk ${index}`, lastConversationAt: "2026-11-01T00:00:00.000Z" })),
    );
    const over = await refused(await call(bob, "POST", "/api/v1/customers/export", { format: "xlsx" }), 400, "filters");
    expect(over.message).toContain("10000");
    const narrowed = await call(bob, "POST", "/api/v1/customers/export", { filters: { keyword: "Bulk 999" }, format: "csv" });
    expect(narrowed.status).toBe(200);
    // "Bulk 999" and "Bulk 9990".."Bulk 9999": a header and 11 lines.
    expect((await narrowed.text()).trim().split("\r\n")).toHaveLength(12);
    await refused(await call(alice, "POST", "/api/v1/customers/export", { format: "pdf" }), 400, "format");
  });
});

describe("tags and tag groups", () => {
  it("creates, changes and deletes groups and tags, with the §3 fields; duplicates in a group and groups in use are refused", async () => {
    const groupId = await group(alice, "Intent");
    await refused(await call(alice, "POST", "/api/v1/tag-groups", { name: "Intent" }), 409);
    await refused(await call(alice, "POST", "/api/v1/tag-groups", { name: "   " }), 400, "name");
    const created = await data(
      await call(alice, "POST", "/api/v1/tags", { groupId, name: "Refund", description: "Asked for money back", syncTarget: "wecom" }),
      201,
    );
    expect(created).toMatchObject({
      name: "Refund",
      description: "Asked for money back",
      groupId,
      groupName: "Intent",
      syncTarget: "wecom",
      createdBy: alice.user.id,
      customerCount: 0,
    });
    expect(created.creatorName).toBeTruthy();
    expect(Date.parse(created.createdAt)).not.toBeNaN();

    const before = await ctx.deps.db.select().from(tags).where(eq(tags.spaceId, alice.user.spaceId));
    const duplicate = await refused(await call(alice, "POST", "/api/v1/tags", { groupId, name: "Refund" }), 409);
    expect(duplicate.message).toContain("Refund");
    expect(await ctx.deps.db.select().from(tags).where(eq(tags.spaceId, alice.user.spaceId))).toHaveLength(before.length);
    // The same name in another group is fine.
    const other = await group(alice, "Mood");
    const moodRefund = await tag(alice, other, "Refund", { syncTarget: "wechat" });
    // Moving it next to its namesake is a duplicate too.
    await refused(await call(alice, "PATCH", `/api/v1/tags/${moodRefund}`, { groupId }), 409);
    await refused(await call(alice, "POST", "/api/v1/tags", { groupId: "tgg_nope", name: "X" }), 400, "groupId");
    await refused(await call(alice, "POST", "/api/v1/tags", { groupId, name: "X", syncTarget: "slack" }), 400, "syncTarget");
    const bobGroup = await group(bob, "Bob's");
    await refused(await call(alice, "POST", "/api/v1/tags", { groupId: bobGroup, name: "Sneaky" }), 400, "groupId");
    await refused(await call(bob, "PATCH", `/api/v1/tags/${created.id}`, { name: "Mine" }), 404);
    await refused(await call(bob, "DELETE", `/api/v1/tag-groups/${groupId}`), 404);

    const changed = await data(await call(alice, "PATCH", `/api/v1/tags/${created.id}`, { name: "Refunds", syncTarget: "none" }));
    expect(changed).toMatchObject({ name: "Refunds", syncTarget: "none", description: "Asked for money back" });
    expect(await data(await call(alice, "PATCH", `/api/v1/tag-groups/${groupId}`, { name: "Intents" }))).toMatchObject({ name: "Intents", tagCount: 1 });
    await refused(await call(alice, "PATCH", `/api/v1/tag-groups/${groupId}`, { name: "Mood" }), 409);

    const inUse = await refused(await call(alice, "DELETE", `/api/v1/tag-groups/${groupId}`), 409);
    expect(inUse.message).toContain("Intents");
    expect(await ctx.deps.db.select().from(tagGroups).where(eq(tagGroups.id, groupId))).toHaveLength(1);

    const listed = await data<Array<{ id: string; groupName: string }>>(await call(alice, "GET", `/api/v1/tags?groupId=${groupId}`));
    expect(listed.map((row) => row.id)).toEqual([created.id]);
    expect((await data<Array<{ id: string }>>(await call(bob, "GET", "/api/v1/tags"))).map((row) => row.id)).not.toContain(created.id);
    expect((await data<Array<{ id: string }>>(await call(bob, "GET", "/api/v1/tag-groups"))).map((row) => row.id)).toEqual([bobGroup]);

    await data(await call(alice, "DELETE", `/api/v1/tags/${created.id}`));
    await data(await call(alice, "DELETE", `/api/v1/tag-groups/${groupId}`));
    await refused(await call(alice, "DELETE", `/api/v1/tag-groups/${groupId}`), 404);
  });

  it("maps tags to customers all or nothing: another space's tag or customer is a 400 naming the field and writes nothing", async () => {
    const groupId = await group(alice, "Mapping");
    const hot = await tag(alice, groupId, "Hot lead");
    const cold = await tag(alice, groupId, "Cold lead");
    const [one, two] = await seedCustomers(alice.user.spaceId, [
      { clientId: shop.clientId, lastConversationAt: "2026-11-02T00:00:00.000Z" },
      { clientId: shop.clientId, lastConversationAt: "2026-11-02T00:00:00.000Z" },
    ]);
    const [bobs] = await seedCustomers(bob.user.spaceId, [{ clientId: bobShop.clientId }]);
    const bobTag = await tag(bob, await group(bob, "Bob mapping"), "Bob tag");
    const mapped = () => ctx.deps.db.select().from(customerTags).where(eq(customerTags.spaceId, alice.user.spaceId));

    expect(await data(await call(alice, "POST", "/api/v1/customers/tags", { customerIds: [one, two], addTagIds: [hot, cold] }))).toEqual({
      added: 4,
      removed: 0,
    });
    const before = (await mapped()).length;
    await refused(await call(alice, "POST", "/api/v1/customers/tags", { customerIds: [one], addTagIds: [bobTag], removeTagIds: [cold] }), 400, "addTagIds");
    await refused(await call(alice, "POST", "/api/v1/customers/tags", { customerIds: [one, bobs], removeTagIds: [hot] }), 400, "customerIds");
    await refused(await call(alice, "POST", "/api/v1/customers/tags", { customerIds: [one], removeTagIds: [bobTag] }), 400, "removeTagIds");
    await refused(await call(alice, "POST", "/api/v1/customers/tags", { customerIds: [one], addTagIds: [hot], removeTagIds: [hot] }), 400, "removeTagIds");
    await refused(await call(alice, "POST", "/api/v1/customers/tags", { customerIds: [] }), 400, "customerIds");
    expect(await mapped()).toHaveLength(before);
    expect(await ctx.deps.db.select().from(customerTags).where(eq(customerTags.customerId, bobs!))).toEqual([]);

    expect(await data(await call(alice, "POST", "/api/v1/customers/tags", { customerIds: [one], removeTagIds: [cold] }))).toEqual({ added: 0, removed: 1 });
    const detail = await data(await call(alice, "GET", `/api/v1/customers/${one}`));
    expect(detail.tags).toEqual([{ id: hot, name: "Hot lead", groupId, groupName: "Mapping", source: "manual" }]);
    expect(
      (await data<Array<{ id: string; customerCount: number }>>(await call(alice, "GET", "/api/v1/tags"))).find((row) => row.id === hot)!.customerCount,
    ).toBe(2);
    // Deleting a tag takes it from its customers.
    await data(await call(alice, "DELETE", `/api/v1/tags/${cold}`));
    expect((await data(await call(alice, "GET", `/api/v1/customers/${two}`))).tags.map((row: { id: string }) => row.id)).toEqual([hot]);
  });
});

describe("AI tagging", () => {
  it("on demand, the conversation's model chooses only among the space's tags; the result is marked ai", async () => {
    const groupId = await group(alice, "Topics");
    const delivery = await tag(alice, groupId, "Late delivery", { description: "Parcel did not arrive in time" });
    const refund = await tag(alice, groupId, "Money back");
    await tag(alice, groupId, "Praise");
    const visitor = await startVisitor(ctx, shop.clientId);
    fake.reply("Sorry about that, let me check.");
    await visitorSays(ctx, visitor, "My parcel is two weeks late and I want my money back");
    const customerId = (await ctx.deps.db.select().from(conversations).where(eq(conversations.id, visitor.sessionId)).get())!.customerId!;

    fake.reply("Topics / Late delivery, Angry customer, money back");
    const result = await data(await call(alice, "POST", `/api/v1/customers/${customerId}/ai-tags`));
    expect(result.chosenTagIds.sort()).toEqual([delivery, refund].sort());
    expect(result.customer.tags.map((row: { id: string; source: string }) => [row.id, row.source]).sort()).toEqual(
      [
        [delivery, "ai"],
        [refund, "ai"],
      ].sort(),
    );
    const prompt = (fake.requests.at(-1)!.body.messages as Array<{ content: string }>).at(-1)!.content;
    expect(prompt).toContain("- Topics / Late delivery (Parcel did not arrive in time)");
    expect(prompt).toContain("- Topics / Praise");
    expect(prompt).toContain("My parcel is two weeks late");
    // Nothing the model made up became a tag.
    expect(
      (
        await ctx.deps.db
          .select()
          .from(tags)
          .where(and(eq(tags.spaceId, alice.user.spaceId), eq(tags.name, "Angry customer")))
      ).length,
    ).toBe(0);

    // A model failure is a clear error and writes nothing.
    await data(await call(alice, "POST", "/api/v1/customers/tags", { customerIds: [customerId], removeTagIds: [delivery, refund] }));
    fake.fail(500);
    const failed = await call(alice, "POST", `/api/v1/customers/${customerId}/ai-tags`);
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.status).not.toBe(500);
    expect(await ctx.deps.db.select().from(customerTags).where(eq(customerTags.customerId, customerId))).toEqual([]);

    // A space without tags, or a customer without a conversation, has nothing to choose.
    const [silent] = await seedCustomers(alice.user.spaceId, [{ clientId: shop.clientId }]);
    await refused(await call(alice, "POST", `/api/v1/customers/${silent}/ai-tags`), 409);
    const carol = await registerUser(ctx, "carol-customers@example.com");
    await upgradeSpaceForTest(ctx, carol.user.spaceId);
    const carolShop = await inboxSpace(ctx, carol, { name: "Carol bot" });
    const carolVisitor = await startVisitor(ctx, carolShop.clientId);
    fake.reply("Hi Carol's customer");
    await visitorSays(ctx, carolVisitor, "Hello");
    const carolCustomer = (await ctx.deps.db.select().from(conversations).where(eq(conversations.id, carolVisitor.sessionId)).get())!.customerId!;
    const bobRequests = fake.requests.length;
    const none = await refused(await call(carol, "POST", `/api/v1/customers/${carolCustomer}/ai-tags`), 409);
    expect(none.message).toContain("no tags");
    expect(fake.requests).toHaveLength(bobRequests);
  });

  it("on handover with the app's AI tagging on, the customer gets the space's tags the model chose", async () => {
    const groupId = await group(alice, "Handover topics");
    const complaint = await tag(alice, groupId, "Complaint");
    await tag(alice, groupId, "Sales lead");
    await setManualService(ctx, shop, { triggers: [{ type: "keyword", content: "human" }], aiTagging: true });
    const visitor = await startVisitor(ctx, shop.clientId);
    fake.reply("free tag one, free tag two");
    fake.reply("Handover topics / Complaint, Invented");
    await visitorSays(ctx, visitor, "This is terrible, get me a human");
    const customerId = (await ctx.deps.db.select().from(conversations).where(eq(conversations.id, visitor.sessionId)).get())!.customerId!;
    const rows = await eventually(async () => {
      const found = await ctx.deps.db.select().from(customerTags).where(eq(customerTags.customerId, customerId));
      return found.length ? found : undefined;
    });
    expect(rows.map((row) => [row.tagId, row.source])).toEqual([[complaint, "ai"]]);
    await setManualService(ctx, shop, {});
  });
});

describe("data range", () => {
  it("a member whose range holds one client sees, opens, tags and exports only its customers", async () => {
    const [inRange, outOfRange] = await seedCustomers(alice.user.spaceId, [
      { clientId: shop.clientId, nickname: "In range", lastConversationAt: "2026-11-03T00:00:00.000Z" },
      { clientId: second.clientId, nickname: "Out of range", lastConversationAt: "2026-11-03T00:00:00.000Z" },
    ]);
    const space = alice.user.spaceId;
    const listed = await (async () => {
      const seen: Array<{ id: string; clientId: string }> = [];
      let cursor: string | null = null;
      do {
        const page: { items: Array<{ id: string; clientId: string }>; nextCursor: string | null } = await data(
          await call(ranged, "GET", `/api/v1/customers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, undefined, space),
        );
        seen.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return seen;
    })();
    expect(listed.map((row) => row.id)).toContain(inRange);
    expect(new Set(listed.map((row) => row.clientId))).toEqual(new Set([shop.clientId]));
    await refused(await call(ranged, "GET", `/api/v1/customers/${outOfRange}`, undefined, space), 404);
    await refused(await call(ranged, "PATCH", `/api/v1/customers/${outOfRange}`, { remark: "x" }, space), 404);
    await refused(await call(ranged, "POST", `/api/v1/customers/${outOfRange}/ai-tags`, undefined, space), 404);
    const groupId = (await data<{ id: string }>(await call(ranged, "POST", "/api/v1/tag-groups", { name: "Ranged" }, space), 201)).id;
    const tagId = (await data<{ id: string }>(await call(ranged, "POST", "/api/v1/tags", { groupId, name: "Seen" }, space), 201)).id;
    await refused(await call(ranged, "POST", "/api/v1/customers/tags", { customerIds: [inRange, outOfRange], addTagIds: [tagId] }, space), 400, "customerIds");
    expect(await ctx.deps.db.select().from(customerTags).where(eq(customerTags.tagId, tagId))).toEqual([]);
    await data(await call(ranged, "POST", "/api/v1/customers/tags", { customerIds: [inRange], addTagIds: [tagId] }, space));
    const csv = await (await call(ranged, "POST", "/api/v1/customers/export", { format: "csv" }, space)).text();
    expect(csv).toContain(inRange);
    expect(csv).not.toContain(outOfRange);
    // The owner sees both.
    const owner = await allPages(alice, "keyword=range", 50);
    expect(owner.map((row) => row.id).sort()).toEqual([inRange, outOfRange].sort());
  });
});
