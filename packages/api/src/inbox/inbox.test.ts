import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectError, expectOk, manualClock } from "../testing/flows";
import { historySchema, sessionPageSchema, sessionSchema } from "./routes";
import { addWebClient, inboxSpace, type InboxSpace, recordRealtime, startVisitor, type Visitor, visitorSays } from "./testing";

// The sessions inbox (spec §3 Customer session, §4 read states): widget visitors write, the
// space's console lists, reads and exports their sessions.
const session = sessionSchema;
const page = sessionPageSchema;
const history = historySchema;

const clock = manualClock(Date.parse("2026-11-10T09:00:00.000Z"));
let ctx: TestContext;
let alice: TestUser;
let bob: TestUser;
let space: InboxSpace;
let bobSpace: InboxSpace;

beforeAll(async () => {
  ctx = await createTestContext({}, { now: clock.now });
  alice = await registerUser(ctx, "alice-inbox@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, alice.user.spaceId);
  bob = await registerUser(ctx, "bob-inbox@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, bob.user.spaceId);
  space = await inboxSpace(ctx, alice);
  bobSpace = await inboxSpace(ctx, bob, {}, "Bob widget");
});
afterAll(async () => ctx.close());

/** A visitor message one second after the last thing that happened. */
async function say(visitor: Visitor, content: string) {
  clock.advance(1000);
  const turn = await visitorSays(ctx, visitor, content);
  expect(turn.finishReason).toBe("stop");
  return turn;
}

const list = async (query = "", user: TestUser = alice) => expectOk(await ctx.request(`/api/v1/inbox/sessions${query}`, { token: user.token }), 200, page);
const ids = (items: Array<{ sessionId: string }>) => items.map((item) => item.sessionId);

describe("sessions list", () => {
  it("a visitor message puts the session at the top as UNREAD; a newer message of another session moves that one above", async () => {
    const first = await startVisitor(ctx, space.clientId);
    // A session nobody wrote in yet is not in the inbox.
    expect(ids((await list()).items)).not.toContain(first.sessionId);

    const events = recordRealtime(ctx);
    await say(first, "Where is my parcel?");
    let listed = await list();
    expect(listed.items[0]).toMatchObject({
      sessionId: first.sessionId,
      channelId: space.clientId,
      channelName: "Shop widget",
      channel: "web-embed",
      appId: space.appId,
      readStatus: "UNREAD",
      serviceMode: "FULL_AUTO_MODE",
    });
    expect(listed.items[0]!.senderName).toMatch(/^Visitor /);
    // The last message is the AI's answer, which came after the question.
    const answer = events.toSpace(alice.user.spaceId, "session.message").at(-1)!.data.message;
    expect(answer.role).toBe("assistant");
    expect(listed.items[0]!.msgContent).toBe(answer.content.replace(/\s+/g, " ").trim().slice(0, 200));

    // The question and the answer were published to Alice's space, and nothing to Bob's.
    const published = events
      .toSpace(alice.user.spaceId, "session.message")
      .map((item) => [item.data.sessionId, item.data.message.role, item.data.message.content]);
    expect(published).toEqual([
      [first.sessionId, "user", "Where is my parcel?"],
      [first.sessionId, "assistant", answer.content],
    ]);
    expect(events.toSpace(alice.user.spaceId, "session.read").map((item) => item.data)).toEqual([{ sessionId: first.sessionId, readStatus: "UNREAD" }]);
    expect(events.toSpace(bob.user.spaceId)).toEqual([]);
    events.stop();

    const second = await startVisitor(ctx, space.clientId);
    await say(second, "Do you ship to Norway?");
    listed = await list();
    expect(ids(listed.items).slice(0, 2)).toEqual([second.sessionId, first.sessionId]);
    await say(first, "Hello again");
    listed = await list();
    expect(ids(listed.items).slice(0, 2)).toEqual([first.sessionId, second.sessionId]);
    expect(listed.items[0]!.lastMessageAt! > listed.items[1]!.lastMessageAt!).toBe(true);
  });

  it("filters by read state, client, reply mode and keyword", async () => {
    const otherClient = await addWebClient(ctx, space, "Help centre");
    const a = await startVisitor(ctx, space.clientId);
    const b = await startVisitor(ctx, otherClient);
    await say(a, "My order is late");
    await say(b, "Invoice question");
    await expectOk(
      await ctx.request(`/api/v1/inbox/sessions/${a.sessionId}/read`, { method: "POST", token: alice.token }),
      200,
      z.object({ readStatus: z.literal("HAVE_READ") }),
    );
    await expectOk(
      await ctx.request(`/api/v1/inbox/sessions/${b.sessionId}/mode`, {
        method: "PUT",
        token: alice.token,
        json: { serviceMode: "MANUAL_MODE", confirm: true },
      }),
      200,
      session,
    );

    const all = ids((await list("?read=all")).items);
    expect(all).toEqual(expect.arrayContaining([a.sessionId, b.sessionId]));
    const unread = await list("?read=unread");
    expect(ids(unread.items)).toContain(b.sessionId);
    expect(ids(unread.items)).not.toContain(a.sessionId);
    expect(unread.items.every((item) => item.readStatus === "UNREAD")).toBe(true);
    expect(unread.unreadCount).toBe(unread.items.length);
    const read = await list("?read=read");
    expect(ids(read.items)).toContain(a.sessionId);
    expect(ids(read.items)).not.toContain(b.sessionId);
    expect(read.items.every((item) => item.readStatus === "HAVE_READ")).toBe(true);

    expect(ids((await list(`?clientId=${otherClient}`)).items)).toEqual([b.sessionId]);
    const manual = await list("?serviceMode=MANUAL_MODE");
    expect(ids(manual.items)).toEqual([b.sessionId]);
    expect(manual.items[0]).toMatchObject({ channelName: "Help centre", serviceMode: "MANUAL_MODE" });
    expect(ids((await list("?serviceMode=FULL_AUTO_MODE")).items)).not.toContain(b.sessionId);
    // The keyword matches the sender's name or the last message; LIKE wildcards are taken literally.
    const senderOfA = (await list(`?clientId=${space.clientId}`)).items.find((item) => item.sessionId === a.sessionId)!.senderName!;
    expect(ids((await list(`?keyword=${encodeURIComponent(senderOfA)}`)).items)).toEqual([a.sessionId]);
    expect(ids((await list("?keyword=%25")).items)).toEqual([]);
    // An operator's reply is b's last message now.
    await expectOk(
      await ctx.request(`/api/v1/inbox/sessions/${b.sessionId}/messages`, {
        method: "POST",
        token: alice.token,
        json: { content: "Parcel zebra-4411 ships today" },
      }),
      201,
      z.object({ id: z.string() }),
    );
    expect(ids((await list("?keyword=ZEBRA-4411")).items)).toEqual([b.sessionId]);
    expect(ids((await list("?keyword=zebra_4411")).items)).toEqual([]);
    // The keyword combines with the other filters.
    expect(ids((await list(`?keyword=ZEBRA-4411&clientId=${space.clientId}`)).items)).toEqual([]);
    expect(ids((await list(`?keyword=ZEBRA-4411&clientId=${otherClient}&read=unread`)).items)).toEqual([b.sessionId]);
    // One session, when the filters take it (how the console checks a live event): else none.
    expect(ids((await list(`?sessionId=${b.sessionId}&keyword=zebra`)).items)).toEqual([b.sessionId]);
    expect(ids((await list(`?sessionId=${a.sessionId}&keyword=zebra`)).items)).toEqual([]);
    expect(ids((await list(`?sessionId=${a.sessionId}&read=unread`)).items)).toEqual([]);
    expect(ids((await list(`?sessionId=${a.sessionId}`, bob)).items)).toEqual([]);
    await expectError(await ctx.request("/api/v1/inbox/sessions?read=maybe", { token: alice.token }), 400, { field: "read" });
  });

  it("pages with a cursor without duplicates or gaps, also when messages share a timestamp", async () => {
    const client = await addWebClient(ctx, space, "Paging widget");
    const created: string[] = [];
    for (let index = 0; index < 7; index++) {
      const visitor = await startVisitor(ctx, client);
      // Sessions 2–4 get their messages in the same millisecond: the id breaks the tie.
      if (index < 2 || index > 4) clock.advance(1000);
      await visitorSays(ctx, visitor, `Question ${index}`);
      created.push(visitor.sessionId);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const result: z.infer<typeof page> = await list(`?clientId=${client}&limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      expect(result.items.length).toBeLessThanOrEqual(3);
      seen.push(...ids(result.items));
      cursor = result.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(7);
    expect([...seen].sort()).toEqual([...created].sort());
    // Latest first: the last one written leads.
    expect(seen[0]).toBe(created[6]);
    await expectError(await ctx.request("/api/v1/inbox/sessions?cursor=not-a-cursor", { token: alice.token }), 400, { field: "cursor" });
  });
});

describe("one session, read state and history", () => {
  it("GET one; read → HAVE_READ (published); a new visitor message makes it UNREAD again", async () => {
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Is the shop open on Sunday?");
    const one = await expectOk(await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}`, { token: alice.token }), 200, session);
    expect(one).toMatchObject({ sessionId: visitor.sessionId, channelId: space.clientId, readStatus: "UNREAD" });
    expect(one.customerId).toMatch(/^cus_/);

    const events = recordRealtime(ctx);
    const read = await expectOk(
      await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}/read`, { method: "POST", token: alice.token }),
      200,
      z.object({ sessionId: z.string(), readStatus: z.string() }),
    );
    expect(read).toEqual({ sessionId: visitor.sessionId, readStatus: "HAVE_READ" });
    expect(events.toSpace(alice.user.spaceId, "session.read").map((item) => item.data)).toEqual([{ sessionId: visitor.sessionId, readStatus: "HAVE_READ" }]);
    expect((await expectOk(await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}`, { token: alice.token }), 200, session)).readStatus).toBe(
      "HAVE_READ",
    );
    // Reading it again publishes nothing new.
    await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}/read`, { method: "POST", token: alice.token });
    expect(events.toSpace(alice.user.spaceId, "session.read")).toHaveLength(1);

    await say(visitor, "And on Monday?");
    const again = await list();
    expect(again.items[0]).toMatchObject({ sessionId: visitor.sessionId, readStatus: "UNREAD" });
    expect(events.toSpace(alice.user.spaceId, "session.read").at(-1)!.data).toEqual({ sessionId: visitor.sessionId, readStatus: "UNREAD" });
    expect(events.toSpace(bob.user.spaceId)).toEqual([]);
    events.stop();
  });

  it("read-all reads every unread session (or one client's) and publishes each", async () => {
    const client = await addWebClient(ctx, space, "Read-all widget");
    const mine = await startVisitor(ctx, client);
    const other = await startVisitor(ctx, space.clientId);
    await say(mine, "one");
    await say(other, "two");
    const bobs = await startVisitor(ctx, bobSpace.clientId);
    await say(bobs, "Bob's customer");

    const events = recordRealtime(ctx);
    const scoped = await expectOk(
      await ctx.request("/api/v1/inbox/read-all", { method: "POST", token: alice.token, json: { clientId: client } }),
      200,
      z.object({ read: z.number() }),
    );
    expect(scoped.read).toBe(1);
    expect((await list(`?clientId=${client}&read=unread`)).items).toEqual([]);
    expect(ids((await list("?read=unread")).items)).toContain(other.sessionId);

    const everything = await expectOk(
      await ctx.request("/api/v1/inbox/read-all", { method: "POST", token: alice.token, json: {} }),
      200,
      z.object({ read: z.number() }),
    );
    expect(everything.read).toBeGreaterThan(0);
    const after = await list("?read=unread");
    expect(after.items).toEqual([]);
    expect(after.unreadCount).toBe(0);
    expect(events.toSpace(alice.user.spaceId, "session.read")).toHaveLength(1 + everything.read);
    expect(events.toSpace(bob.user.spaceId)).toEqual([]);
    events.stop();
    // Bob's session is untouched.
    expect((await list("", bob)).items.find((item) => item.sessionId === bobs.sessionId)?.readStatus).toBe("UNREAD");
  });

  it("history pages backwards with before, oldest first within a page", async () => {
    const visitor = await startVisitor(ctx, space.clientId);
    for (let index = 1; index <= 3; index++) await say(visitor, `Message ${index}`);
    const path = `/api/v1/inbox/sessions/${visitor.sessionId}/messages`;
    const full = await expectOk(await ctx.request(path, { token: alice.token }), 200, history);
    expect(full.hasMore).toBe(false);
    expect(full.items.map((item) => item.role)).toEqual(["user", "assistant", "user", "assistant", "user", "assistant"]);
    expect(full.items.filter((item) => item.role === "user").map((item) => item.content)).toEqual(["Message 1", "Message 2", "Message 3"]);

    const last = await expectOk(await ctx.request(`${path}?limit=4`, { token: alice.token }), 200, history);
    expect(last.hasMore).toBe(true);
    expect(last.items.map((item) => item.id)).toEqual(full.items.slice(2).map((item) => item.id));
    const earlier = await expectOk(await ctx.request(`${path}?limit=4&before=${last.items[0]!.id}`, { token: alice.token }), 200, history);
    expect(earlier.hasMore).toBe(false);
    expect(earlier.items.map((item) => item.id)).toEqual(full.items.slice(0, 2).map((item) => item.id));
    await expectError(await ctx.request(`${path}?before=msg_nope`, { token: alice.token }), 400, { field: "before" });
  });
});

describe("another space", () => {
  it("sees none of it: 404 on every route, not in its list, export refuses", async () => {
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "Private question");
    const before = await expectOk(await ctx.request(`/api/v1/inbox/sessions/${visitor.sessionId}`, { token: alice.token }), 200, session);
    const events = recordRealtime(ctx);
    const base = `/api/v1/inbox/sessions/${visitor.sessionId}`;
    for (const [method, path, json] of [
      ["GET", base, undefined],
      ["GET", `${base}/messages`, undefined],
      ["POST", `${base}/read`, undefined],
      ["POST", `${base}/messages`, { content: "Hello from Bob" }],
      ["PUT", `${base}/mode`, { serviceMode: "MANUAL_MODE", confirm: true }],
    ] as const) {
      await expectError(await ctx.request(path, { method, token: bob.token, ...(json ? { json } : {}) }), 404);
    }
    expect(ids((await list("", bob)).items)).not.toContain(visitor.sessionId);
    expect(ids((await list(`?clientId=${space.clientId}`, bob)).items)).toEqual([]);
    const day = clock.now().toISOString().slice(0, 10);
    await expectError(
      await ctx.request("/api/v1/inbox/export", { method: "POST", token: bob.token, json: { sessionIds: [visitor.sessionId], from: day, to: day } }),
      404,
    );
    // Bob's read-all does not reach Alice's sessions.
    await ctx.request("/api/v1/inbox/read-all", { method: "POST", token: bob.token, json: {} });
    const after = await expectOk(await ctx.request(base, { token: alice.token }), 200, session);
    expect(after).toEqual(before);
    expect(events.toSpace(alice.user.spaceId)).toEqual([]);
    expect(events.events.filter((item) => item.target.kind === "visitor")).toEqual([]);
    events.stop();
    await expectError(await ctx.request("/api/v1/inbox/sessions"), 401);
  });
});

describe("customers", () => {
  it("a widget visitor becomes one customer of the space (per visitor id), latest conversation first; other spaces do not see it", async () => {
    const first = await startVisitor(ctx, space.clientId, { visitorId: "v_returning-visitor" });
    clock.advance(1000);
    const again = await startVisitor(ctx, space.clientId, { visitorId: "v_returning-visitor" });
    // Sessions nobody wrote in are not listed in the inbox yet, but their customer exists.
    expect(ids((await list()).items)).not.toContain(first.sessionId);
    const customers = z
      .object({
        items: z.array(
          z.object({ id: z.string(), nickname: z.string(), channel: z.string(), clientId: z.string(), lastConversationAt: z.string().nullable() }),
        ),
      })
      .transform((page) => page.items);
    const listed = await expectOk(await ctx.request("/api/v1/customers", { token: alice.token }), 200, customers);
    const rows = await Promise.all(
      [first, again].map((visitor) => ctx.deps.db.query.conversations.findFirst({ where: (table, { eq }) => eq(table.id, visitor.sessionId) })),
    );
    expect(rows[0]!.customerId).toBe(rows[1]!.customerId);
    expect(listed[0]).toMatchObject({
      id: rows[0]!.customerId,
      channel: "web",
      clientId: space.clientId,
      nickname: "",
      lastConversationAt: clock.now().toISOString(),
    });
    expect(listed.filter((customer) => customer.id === rows[0]!.customerId)).toHaveLength(1);
    const bobs = await expectOk(await ctx.request("/api/v1/customers", { token: bob.token }), 200, customers);
    expect(bobs.map((customer) => customer.id)).not.toContain(rows[0]!.customerId);
  });
});

describe("export", () => {
  it("refuses more than 30 sessions and a span over 31 days; answers a CSV attachment with a BOM, one line per message, formulas neutralised", async () => {
    const visitor = await startVisitor(ctx, space.clientId);
    await say(visitor, "=cmd|' /C calc'!A0");
    await say(visitor, 'He said "hi", then left\nnext line');
    const day = clock.now().toISOString().slice(0, 10);
    const tooMany = Array.from({ length: 31 }, (_, index) => `conv_${index}`);
    await expectError(
      await ctx.request("/api/v1/inbox/export", { method: "POST", token: alice.token, json: { sessionIds: tooMany, from: day, to: day } }),
      400,
      { field: "sessionIds" },
    );
    await expectError(
      await ctx.request("/api/v1/inbox/export", {
        method: "POST",
        token: alice.token,
        json: { sessionIds: [visitor.sessionId], from: "2026-10-20", to: "2026-11-20" },
      }),
      400,
      {
        field: "to",
      },
    );
    await expectError(
      await ctx.request("/api/v1/inbox/export", {
        method: "POST",
        token: alice.token,
        json: { sessionIds: [visitor.sessionId], from: "2026-11-12", to: "2026-11-10" },
      }),
      400,
      {
        field: "to",
      },
    );
    // 32 days (above) is refused, 31 days (20 October to 19 November) is allowed.
    const month = await ctx.request("/api/v1/inbox/export", {
      method: "POST",
      token: alice.token,
      json: { sessionIds: [visitor.sessionId], from: "2026-10-20", to: "2026-11-19" },
    });
    expect(month.status).toBe(200);

    const response = await ctx.request("/api/v1/inbox/export", {
      method: "POST",
      token: alice.token,
      json: { sessionIds: [visitor.sessionId, visitor.sessionId], from: day, to: day },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="sessions-${day}-${day}.csv"`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.endsWith("\r\n")).toBe(true);
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(["session", "channel", "customer", "time", "from", "message"]);
    const body = rows.slice(1);
    // Two questions, two answers.
    expect(body).toHaveLength(4);
    expect(body.every((row) => row[0] === visitor.sessionId && row[1] === "Shop widget")).toBe(true);
    expect(body.map((row) => row[4])).toEqual([expect.stringMatching(/^Visitor /), "AI", expect.stringMatching(/^Visitor /), "AI"]);
    expect(body[0]![5]).toBe("'=cmd|' /C calc'!A0");
    expect(body[2]![5]).toBe('He said "hi", then left\nnext line');
    // Outside the day, nothing.
    const empty = await ctx.request("/api/v1/inbox/export", {
      method: "POST",
      token: alice.token,
      json: { sessionIds: [visitor.sessionId], from: "2026-01-01", to: "2026-01-02" },
    });
    expect(parseCsv(new TextDecoder().decode(new Uint8Array(await empty.arrayBuffer()).slice(3)))).toHaveLength(1);
  });

  it("reads from/to as the operator's days when given timezoneOffsetMinutes, with a local time column", async () => {
    const visitor = await startVisitor(ctx, space.clientId);
    // say() moves the clock one second on: the question and its answer are stored at 23:30 UTC on 20 November.
    clock.set(new Date("2026-11-20T23:29:59.000Z"));
    await say(visitor, "Late question");
    const exportCsv = async (from: string, to: string, timezoneOffsetMinutes?: number) => {
      const response = await ctx.request("/api/v1/inbox/export", {
        method: "POST",
        token: alice.token,
        json: { sessionIds: [visitor.sessionId], from, to, ...(timezoneOffsetMinutes === undefined ? {} : { timezoneOffsetMinutes }) },
      });
      expect(response.status, await response.clone().text()).toBe(200);
      return parseCsv(new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()).slice(3)));
    };
    // UTC (the default): the 20th.
    const utc = await exportCsv("2026-11-20", "2026-11-20");
    expect(utc[0]).toEqual(["session", "channel", "customer", "time", "from", "message"]);
    expect(utc.slice(1).map((row) => [row[3], row[5]])).toEqual([
      ["2026-11-20T23:30:00.000Z", "Late question"],
      ["2026-11-20T23:30:00.000Z", expect.any(String)],
    ]);
    expect(await exportCsv("2026-11-21", "2026-11-21")).toHaveLength(1);
    // UTC+8 (offset -480): already the morning of the 21st.
    expect(await exportCsv("2026-11-20", "2026-11-20", -480)).toHaveLength(1);
    const east = await exportCsv("2026-11-21", "2026-11-21", -480);
    expect(east[0]).toEqual(["session", "channel", "customer", "time", "local time", "from", "message"]);
    expect(east.slice(1).map((row) => [row[3], row[4], row[6]])).toEqual([
      ["2026-11-20T23:30:00.000Z", "2026-11-21T07:30:00.000+08:00", "Late question"],
      ["2026-11-20T23:30:00.000Z", "2026-11-21T07:30:00.000+08:00", expect.any(String)],
    ]);
    // UTC-5 (offset 300): still the evening of the 20th; an explicit 0 adds the column in UTC.
    expect((await exportCsv("2026-11-20", "2026-11-20", 300)).slice(1).map((row) => row[4])).toEqual([
      "2026-11-20T18:30:00.000-05:00",
      "2026-11-20T18:30:00.000-05:00",
    ]);
    expect(await exportCsv("2026-11-21", "2026-11-21", 300)).toHaveLength(1);
    expect((await exportCsv("2026-11-20", "2026-11-20", 0))[1]![4]).toBe("2026-11-20T23:30:00.000+00:00");
    // India's half hour (-330) and the limits of the field.
    expect((await exportCsv("2026-11-21", "2026-11-21", -330))[1]![4]).toBe("2026-11-21T05:00:00.000+05:30");
    for (const timezoneOffsetMinutes of [841, -841, 1.5, "60"]) {
      await expectError(
        await ctx.request("/api/v1/inbox/export", {
          method: "POST",
          token: alice.token,
          json: { sessionIds: [visitor.sessionId], from: "2026-11-20", to: "2026-11-20", timezoneOffsetMinutes },
        }),
        400,
        { field: "timezoneOffsetMinutes" },
      );
    }
  });
});

/** A small RFC 4180 reader: quoted cells may hold commas, quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const ch = text[index]!;
    if (quoted) {
      if (ch === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(cell);
      cell = "";
    } else if (ch === "\r" && text[index + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      index++;
    } else cell += ch;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}
