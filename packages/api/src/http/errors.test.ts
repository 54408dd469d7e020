import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { capturingLogger, expectError, manualClock, rowCounts } from "../testing/flows";

const clock = manualClock();
const logger = capturingLogger();
let ctx: TestContext;
let base: string;
let cleo: TestUser;

beforeAll(async () => {
  ctx = await createTestContext({ PARLEY_BODY_LIMIT_BYTES: "2048" }, { now: clock.now, logger });
  base = await ctx.listen();
  cleo = await registerUser(ctx, "cleo@example.com");
});
afterAll(async () => ctx.close());

/** Runs a bad request and proves it changed no row. */
async function unchanged(run: () => Promise<void>) {
  const before = await rowCounts(ctx);
  await run();
  expect(await rowCounts(ctx)).toEqual(before);
}

describe("bad input answers in the envelope and changes nothing", () => {
  it("malformed JSON → 400 'not valid JSON'", async () => {
    await unchanged(async () => {
      for (const body of ["{", "{'channel': 'email'}", "nul"]) {
        await expectError(await ctx.request("/api/v1/auth/register", { method: "POST", body, headers: { "content-type": "application/json" } }), 400, {
          message: "The request body is not valid JSON",
        });
      }
      await expectError(
        await ctx.request("/api/v1/me", { method: "PATCH", token: cleo.token, body: "{", headers: { "content-type": "application/json" } }),
        400,
        { message: "The request body is not valid JSON" },
      );
    });
  });

  it("wrong content type → 415, in process and over a socket", async () => {
    await unchanged(async () => {
      const body = JSON.stringify({ channel: "email", target: "x@example.com", purpose: "register" });
      await expectError(await ctx.request("/api/v1/auth/codes", { method: "POST", body, headers: { "content-type": "text/plain" } }), 415, {
        message: "Unsupported content type; send application/json",
      });
      await expectError(
        await ctx.request("/api/v1/auth/codes", { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded" } }),
        415,
      );
      await expectError(await fetch(`${base}/api/v1/auth/codes`, { method: "POST", body, headers: { "content-type": "text/plain" } }), 415);
      await expectError(
        await fetch(`${base}/api/v1/user-keys`, {
          method: "POST",
          body: "name=x",
          headers: { authorization: `Bearer ${cleo.token}`, "content-type": "application/x-www-form-urlencoded" },
        }),
        415,
      );
      await expectError(await fetch(`${base}/api/v1/auth/login`, { method: "POST", body, headers: { "content-type": "application/json" } }), 415, {
        message: /application\/x-www-form-urlencoded/,
      });
    });
  });

  it("oversize body → 413", async () => {
    await unchanged(async () => {
      const json = { channel: "email", target: "big@example.com", purpose: "register", padding: "x".repeat(4096) };
      await expectError(await ctx.request("/api/v1/auth/codes", { method: "POST", json }), 413, { message: "The request body is larger than 2048 bytes" });
      await expectError(
        await fetch(`${base}/api/v1/auth/codes`, { method: "POST", body: JSON.stringify(json), headers: { "content-type": "application/json" } }),
        413,
      );
    });
  });

  it("missing token → 401 'please log in first'; garbage token → 401 session ended", async () => {
    await unchanged(async () => {
      await expectError(await ctx.request("/api/v1/me"), 401, { message: "Please log in first" });
      await expectError(await ctx.request("/api/v1/me", { headers: { authorization: "Bearer" } }), 401, { message: "Please log in first" });
      for (const token of ["pst_garbage", "pk_garbage", "x"]) {
        await expectError(await ctx.request("/api/v1/me", { token }), 401, { message: "Your session has ended, please log in again" });
      }
      await expectError(await ctx.request("/api/v1/me", { token: "pst_garbage", headers: { "accept-language": "zh-CN" } }), 401, {
        message: "登录已失效，请重新登录",
      });
    });
  });

  it("expired session → 401 session ended", async () => {
    const soon = await registerUser(ctx, "soon@example.com");
    expect((await ctx.request("/api/v1/me", { token: soon.token })).status).toBe(200);
    clock.advance(14 * 24 * 3_600_000 + 1_000);
    await unchanged(async () => {
      await expectError(await ctx.request("/api/v1/me", { token: soon.token }), 401, { message: /session has ended/ });
      await expectError(await ctx.request("/api/v1/me", { token: cleo.token }), 401);
    });
    cleo = await registerUser(ctx, "cleo-again@example.com");
  });

  it("validation errors name the field in English and in Chinese", async () => {
    await unchanged(async () => {
      const body = { channel: "email", target: "x@example.com", purpose: 42 };
      const en = await expectError(await ctx.request("/api/v1/auth/codes", { method: "POST", json: body }), 400, { field: "purpose" });
      expect(en.message).toMatch(/^Invalid purpose: /);
      const zh = await expectError(
        await ctx.request("/api/v1/auth/codes", { method: "POST", json: body, headers: { "accept-language": "zh-CN,zh;q=0.9,en;q=0.8" } }),
        400,
        { field: "purpose" },
      );
      expect(zh.message).toMatch(/^purpose 无效：/);
      expect(zh.message).toMatch(/[\u4e00-\u9fff]/);
      const nested = await expectError(
        await ctx.request("/api/v1/me", { method: "PATCH", token: cleo.token, json: { avatarUrl: "nope" }, headers: { "accept-language": "zh-CN" } }),
        400,
        {
          field: "avatarUrl",
        },
      );
      expect(nested.message).toMatch(/[\u4e00-\u9fff]/);
      // A body that is not an object.
      await expectError(await ctx.request("/api/v1/auth/codes", { method: "POST", json: [1, 2] }), 400);
      await expectError(await ctx.request("/api/v1/auth/codes", { method: "POST", json: "text" }), 400);
    });
  });

  it("unknown /api paths and methods → 404 in the envelope", async () => {
    await unchanged(async () => {
      await expectError(await ctx.request("/api/v1/nothing-here"), 404, { message: "No such endpoint: GET /api/v1/nothing-here" });
      await expectError(await ctx.request("/api/v2/me", { token: cleo.token }), 404);
      await expectError(await ctx.request("/api/v1/health", { method: "DELETE" }), 404);
      await expectError(await ctx.request("/api/v1/nothing-here", { headers: { "accept-language": "zh-CN" } }), 404, {
        message: "接口不存在：GET /api/v1/nothing-here",
      });
    });
  });
});

describe("no request crashes the process", () => {
  it("an unexpected failure inside a handler → 500 envelope with data.requestId, logged with it", async () => {
    const other = await createTestContext({}, { logger });
    try {
      const dana = await registerUser(other, "dana@example.com");
      await other.deps.db.run(sql`DROP TABLE user_keys`);
      const response = await other.request("/api/v1/user-keys", { token: dana.token });
      const requestId = response.headers.get("x-request-id");
      const body = await expectError(response, 500);
      expect(body.data?.requestId).toBe(requestId);
      expect(body.message).toContain(requestId!);
      expect(body.message).not.toMatch(/user_keys|sqlite|SELECT/i);
      expect(logger.lines.some((line) => line.startsWith("error request failed") && line.includes(requestId!))).toBe(true);
      // The app keeps serving.
      expect((await other.request("/api/v1/health")).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
