import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap";
import { outboxMessageSchema, sessionSchema } from "../identity/schemas";
import { createTestContext, registerUser, type TestContext } from "../testing/harness";
import { expectError, expectOk, sendCode } from "../testing/flows";

let ctx: TestContext;
let ownerToken: string;
beforeAll(async () => {
  ctx = await createTestContext();
  const result = await bootstrap(ctx.deps);
  const loginCode = new URL(result.signInUrl!).searchParams.get("loginCode")!;
  ownerToken = (await expectOk(await ctx.request("/api/v1/auth/exchange", { method: "POST", json: { loginCode } }), 200, sessionSchema)).token;
});
afterAll(async () => ctx.close());

const read = async (query = "") => expectOk(await ctx.request(`/api/v1/outbox${query}`, { token: ownerToken }), 200, z.array(outboxMessageSchema));

describe("outbox", () => {
  it("lets the instance owner read what was sent, newest first, e-mail and SMS", async () => {
    expect(await read()).toEqual([]);
    await sendCode(ctx, { target: "first@example.com", purpose: "register" });
    await sendCode(ctx, { channel: "phone", target: "13300133000", purpose: "register" });
    await sendCode(ctx, { target: "second@example.com", purpose: "register" });
    const messages = await read();
    expect(messages.map((message) => [message.channel, message.to])).toEqual([
      ["email", "second@example.com"],
      ["sms", "13300133000"],
      ["email", "first@example.com"],
    ]);
    expect(messages[0]!.text).toMatch(/verification code is \d{6}/);
    expect(messages[0]!.id).toMatch(/^msg_/);
  });

  it("filters by address (case-insensitive) and limits", async () => {
    expect((await read("?to=FIRST@example.com")).map((message) => message.to)).toEqual(["first@example.com"]);
    expect(await read("?limit=1")).toHaveLength(1);
    expect(await read("?limit=0")).toHaveLength(1);
    expect(await read("?limit=500")).toHaveLength(3);
    await expectError(await ctx.request("/api/v1/outbox?limit=abc", { token: ownerToken }), 400, { field: "limit" });
  });

  it("is 403 for other users and 401 without a token", async () => {
    const someone = await registerUser(ctx, "someone@example.com");
    await expectError(await ctx.request("/api/v1/outbox", { token: someone.token }), 403, { message: "Only the instance owner can do this" });
    await expectError(await ctx.request("/api/v1/outbox"), 401);
  });
});
