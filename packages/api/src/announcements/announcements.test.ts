import { io, type Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "@hono/zod-openapi";
import { bootstrap } from "../bootstrap";
import { announcementReads, announcements } from "../db/schema/index";
import { sessionSchema } from "../identity/schemas";
import { expectError, expectOk } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import {
  adminAnnouncementPageSchema,
  adminAnnouncementSchema,
  announcementPageSchema,
  announcementSchema,
  announcementStatsSchema,
  readAllSchema,
} from "./schemas";

const ADMIN_KEY = "pk_admin-announce-key-0123456789abcdef";
const zh = { "accept-language": "zh-CN" };

let ctx: TestContext;
let base: string;
let admin: { token: string };
let free: TestUser;
let pro: TestUser;
const open: Socket[] = [];

/** A request over real HTTP to the listening server. */
function http(path: string, init: { method?: string; token?: string; json?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: init.method ?? "GET",
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.json !== undefined ? { "content-type": "application/json" } : {}),
      ...init.headers,
    },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
}

beforeAll(async () => {
  ctx = await createTestContext({ PARLEY_BOOTSTRAP_API_KEY: ADMIN_KEY });
  base = await ctx.listen();
  const { signInUrl } = await bootstrap(ctx.deps);
  const loginCode = new URL(signInUrl!).searchParams.get("loginCode");
  const session = await expectOk(await http("/api/v1/auth/exchange", { method: "POST", json: { loginCode } }), 200, sessionSchema);
  admin = { token: session.token };
  free = await registerUser(ctx, "free-announce@example.com");
  pro = await registerUser(ctx, "pro-announce@example.com");
  await expectOk(
    await http(`/api/v1/instance/users/${pro.user.id}`, { method: "PATCH", token: admin.token, json: { memberGrade: "PROFESSION" } }),
    200,
    z.unknown(),
  );
});
afterEach(() => {
  for (const socket of open.splice(0)) socket.disconnect();
});
afterAll(async () => ctx.close());

const publish = (json: unknown, token = admin.token, headers: Record<string, string> = {}) =>
  http("/api/v1/instance/announcements", { method: "POST", token, json, headers });
const stats = async (token: string) => (await expectOk(await http("/api/v1/announcements/stats", { token }), 200, announcementStatsSchema)).unread;
const mine = async (token: string, query = "") => expectOk(await http(`/api/v1/announcements${query}`, { token }), 200, announcementPageSchema);
const rows = async () => ({
  announcements: await ctx.deps.db.select().from(announcements).orderBy(announcements.id).all(),
  reads: await ctx.deps.db.select().from(announcementReads).all(),
});

/** A real socket.io-client console socket (websocket only, no retries). */
function connect(token: string): Promise<Socket> {
  const socket = io(`${base}/console`, { auth: { token }, forceNew: true, reconnection: false, transports: ["websocket"] });
  open.push(socket);
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
}
function heard(socket: Socket, event: string): unknown[] {
  const seen: unknown[] = [];
  socket.on(event, (data) => seen.push(data));
  return seen;
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe("announcements", () => {
  let everyone: string;
  let forPro: string;
  let forEnterprise: string;

  it("are published by the administrator to everyone or a grade; each user sees those addressed to them, newest first", async () => {
    everyone = (await expectOk(await publish({ title: "  Welcome  ", body: "Hello **all**", audience: "everyone" }), 201, adminAnnouncementSchema)).id;
    forPro = (await expectOk(await publish({ title: "For Pro", body: "Pro only", audience: "PROFESSION" }), 201, adminAnnouncementSchema)).id;
    const enterprise = await expectOk(await publish({ title: "For Enterprise", body: "", audience: "ENTERPRISE" }), 201, adminAnnouncementSchema);
    forEnterprise = enterprise.id;
    expect(enterprise).toMatchObject({ title: "For Enterprise", audience: "ENTERPRISE", published: true, readCount: 0 });
    // Scheduled for tomorrow: nobody sees it yet.
    const later = new Date(Date.now() + 86_400_000).toISOString();
    await expectOk(await publish({ title: "Tomorrow", body: "soon", publishAt: later }), 201, adminAnnouncementSchema);

    const freeList = await mine(free.token);
    expect(freeList.items.map((item) => item.title)).toEqual(["Welcome"]);
    expect(freeList).toMatchObject({ total: 1, unread: 1 });
    expect(freeList.items[0]).toMatchObject({ id: everyone, body: "Hello **all**", readAt: null });
    const proList = await mine(pro.token);
    expect(proList.items.map((item) => item.title)).toEqual(["For Pro", "Welcome"]);
    expect(await stats(pro.token)).toBe(2);
    expect(await stats(free.token)).toBe(1);
    // The administrator's spaces are CUSTOM: neither the Pro nor the Enterprise ones.
    expect((await mine(admin.token)).items.map((item) => item.title)).toEqual(["Welcome"]);

    const paged = await mine(pro.token, "?pageNo=2&pageSize=1");
    expect(paged).toMatchObject({ total: 2, pageNo: 2, pageSize: 1 });
    expect(paged.items.map((item) => item.id)).toEqual([everyone]);

    // One addressed to another grade, or scheduled, is not found for the user.
    await expectError(await http(`/api/v1/announcements/${forEnterprise}`, { token: pro.token }), 404, { message: "Announcement not found" });
    await expectError(await http(`/api/v1/announcements/${forEnterprise}`, { token: pro.token, headers: zh }), 404, { message: "未找到公告" });
  });

  it("a user's grade follows their current space: a grade change shows them that grade's announcements", async () => {
    await expectOk(
      await http(`/api/v1/instance/users/${free.user.id}`, { method: "PATCH", token: admin.token, json: { memberGrade: "ENTERPRISE" } }),
      200,
      z.unknown(),
    );
    expect((await mine(free.token)).items.map((item) => item.title)).toEqual(["For Enterprise", "Welcome"]);
    await expectOk(
      await http(`/api/v1/instance/users/${free.user.id}`, { method: "PATCH", token: admin.token, json: { memberGrade: "FREE" } }),
      200,
      z.unknown(),
    );
    expect((await mine(free.token)).items.map((item) => item.title)).toEqual(["Welcome"]);
  });

  it("reading one marks it read for that user only; read-all marks the rest; stats follow", async () => {
    const read = await expectOk(await http(`/api/v1/announcements/${forPro}`, { token: pro.token }), 200, announcementSchema);
    expect(read).toMatchObject({ id: forPro, title: "For Pro", body: "Pro only" });
    expect(read.readAt).not.toBeNull();
    expect(await stats(pro.token)).toBe(1);
    expect(await stats(free.token)).toBe(1);
    // Reading again keeps the first read time.
    const again = await expectOk(await http(`/api/v1/announcements/${forPro}`, { token: pro.token }), 200, announcementSchema);
    expect(again.readAt).toBe(read.readAt);
    const list = await mine(pro.token);
    expect(list.items.find((item) => item.id === forPro)?.readAt).toBe(read.readAt);
    expect(list.items.find((item) => item.id === everyone)?.readAt).toBeNull();

    expect(await expectOk(await http("/api/v1/announcements/read-all", { method: "POST", token: pro.token }), 200, readAllSchema)).toEqual({ marked: 1 });
    expect(await stats(pro.token)).toBe(0);
    expect(await expectOk(await http("/api/v1/announcements/read-all", { method: "POST", token: pro.token }), 200, readAllSchema)).toEqual({ marked: 0 });
    // Read-all did not mark what is not addressed to Pro (the Enterprise and the scheduled ones).
    const readIds = (await ctx.deps.db.select().from(announcementReads).all()).map((row) => row.announcementId).sort();
    expect(readIds).toEqual([everyone, forPro].sort());
    expect(await stats(free.token)).toBe(1);

    const all = await expectOk(await http("/api/v1/instance/announcements", { token: admin.token }), 200, adminAnnouncementPageSchema);
    expect(all.total).toBe(4);
    expect(all.items[0]).toMatchObject({ title: "Tomorrow", published: false, readCount: 0 });
    expect(all.items.find((item) => item.id === everyone)?.readCount).toBe(1);
    expect(all.items.find((item) => item.id === forPro)?.readCount).toBe(1);
  });

  it("the administrator edits and deletes; a deleted one is gone with its read states", async () => {
    const edited = await expectOk(
      await http(`/api/v1/instance/announcements/${forPro}`, {
        method: "PATCH",
        token: admin.token,
        json: { title: "For Pro (edited)", audience: "everyone" },
      }),
      200,
      adminAnnouncementSchema,
    );
    expect(edited).toMatchObject({ title: "For Pro (edited)", body: "Pro only", audience: "everyone", readCount: 1 });
    expect((await mine(free.token)).items.map((item) => item.title)).toEqual(["For Pro (edited)", "Welcome"]);
    expect(await stats(free.token)).toBe(2);

    await expectOk(await http(`/api/v1/instance/announcements/${forPro}`, { method: "DELETE", token: admin.token }), 200, z.object({ id: z.string() }));
    expect((await mine(free.token)).items.map((item) => item.title)).toEqual(["Welcome"]);
    expect((await ctx.deps.db.select().from(announcementReads).all()).map((row) => row.announcementId)).toEqual([everyone]);
    await expectError(await http(`/api/v1/instance/announcements/${forPro}`, { method: "DELETE", token: admin.token }), 404, {
      message: "Announcement not found",
    });
    await expectError(await http(`/api/v1/instance/announcements/${forPro}`, { method: "PATCH", token: admin.token, json: { title: "x" } }), 404);
  });

  it("refuses bad input with a clear error naming the field, in en and zh, and writes nothing", async () => {
    const before = await rows();
    await expectError(await publish({ title: "", body: "x" }), 400, { field: "title", message: "Invalid title: the title is required" });
    await expectError(await publish({ title: "   ", body: "x" }, admin.token, zh), 400, { field: "title", message: "title 无效：请填写标题" });
    await expectError(await publish({ title: "x".repeat(101), body: "x" }), 400, {
      field: "title",
      message: "Invalid title: the title has at most 100 characters",
    });
    await expectError(await publish({ title: "ok", body: "x".repeat(20_001) }), 400, {
      field: "body",
      message: "Invalid body: the body has at most 20,000 characters",
    });
    await expectError(await publish({ title: "ok", body: "x", audience: "GOLD" }), 400, {
      field: "audience",
      message: /^Invalid audience: the audience is everyone or a member grade/,
    });
    await expectError(await publish({ title: "ok", body: "x", audience: "GOLD" }, admin.token, zh), 400, {
      field: "audience",
      message: /^audience 无效：受众应为/,
    });
    await expectError(await publish({ title: "ok", body: "x", publishAt: "tomorrow" }), 400, { field: "publishAt" });
    await expectError(await publish({ title: "ok" }), 400, { field: "body" });
    await expectError(await http(`/api/v1/instance/announcements/${everyone}`, { method: "PATCH", token: admin.token, json: {} }), 400, {
      field: "title",
      message: "Invalid title: send title, body, audience or publishAt",
    });
    await expectError(await http(`/api/v1/instance/announcements/${everyone}`, { method: "PATCH", token: admin.token, json: { audience: "everybody" } }), 400, {
      field: "audience",
    });
    await expectError(await http("/api/v1/announcements?pageSize=0", { token: free.token }), 400, { field: "pageSize" });
    expect(await rows()).toEqual(before);
  });

  it("refuses the instance operations to anyone but the administrator (403, before the input is read) and changes nothing", async () => {
    const before = await rows();
    const calls: Array<[string, { method?: string; json?: unknown }]> = [
      ["/api/v1/instance/announcements", { method: "POST", json: { title: "Hijack", body: "x" } }],
      ["/api/v1/instance/announcements", { method: "POST", json: { title: "" } }],
      ["/api/v1/instance/announcements", {}],
      [`/api/v1/instance/announcements/${everyone}`, { method: "PATCH", json: { title: "Hijack" } }],
      [`/api/v1/instance/announcements/${everyone}`, { method: "DELETE" }],
    ];
    for (const token of [free.token, pro.token]) {
      for (const [path, init] of calls) {
        await expectError(await http(path, { ...init, token }), 403, { message: "Only the instance administrator can do this" });
        await expectError(await http(path, { ...init, token, headers: zh }), 403, { message: "只有实例管理员可以执行此操作" });
      }
    }
    for (const [path, init] of calls) await expectError(await http(path, init), 401);
    await expectError(await http("/api/v1/announcements/stats"), 401);
    expect(await rows()).toEqual(before);
  });
});

describe("announcements in real time", () => {
  it("publishing sends announcement.published to every open console it addresses", async () => {
    const [freeSocket, proSocket, adminSocket] = await Promise.all([connect(free.token), connect(pro.token), connect(admin.token)]);
    const seen = {
      free: heard(freeSocket, "announcement.published"),
      pro: heard(proSocket, "announcement.published"),
      admin: heard(adminSocket, "announcement.published"),
    };

    const forAll = await expectOk(await publish({ title: "Live", body: "now" }), 201, adminAnnouncementSchema);
    await expect.poll(() => seen.free.length).toBe(1);
    await expect.poll(() => seen.admin.length).toBe(1);
    await expect.poll(() => seen.pro.length).toBe(1);
    expect(seen.free[0]).toEqual({ id: forAll.id, title: "Live" });

    // A grade's announcement reaches only the consoles of spaces of that grade.
    const proOnly = await expectOk(await publish({ title: "Pro live", body: "x", audience: "PROFESSION" }), 201, adminAnnouncementSchema);
    await expect.poll(() => seen.pro.length).toBe(2);
    expect(seen.pro[1]).toEqual({ id: proOnly.id, title: "Pro live" });
    await settle();
    expect(seen.free).toHaveLength(1);
    expect(seen.admin).toHaveLength(1);

    // A scheduled one is announced when it comes, not at once.
    await expectOk(await publish({ title: "Soon", body: "x", publishAt: new Date(Date.now() + 600).toISOString() }), 201, adminAnnouncementSchema);
    await settle();
    expect(seen.free).toHaveLength(1);
    await expect.poll(() => seen.free.length, { timeout: 3000 }).toBe(2);
    expect(seen.free[1]).toMatchObject({ title: "Soon" });
    expect(await stats(free.token)).toBeGreaterThanOrEqual(1);

    // A refused publication sends nothing.
    await publish({ title: "" });
    await publish({ title: "Nope", body: "x" }, free.token);
    await settle();
    expect(seen.free).toHaveLength(2);
  });
});
