import { afterAll, beforeAll, expect, it } from "vitest";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";

// Found by the contract fuzz: a body over the limit on /v1/* was answered with Parley's envelope,
// which OpenAI clients cannot read; it is OpenAI's error object, in the request's language.
let ctx: TestContext;
let owner: TestUser;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await registerUser(ctx, "limit@example.com");
});
afterAll(async () => ctx.close());

it("a /v1 body over the limit is a 413 in OpenAI's error format", async () => {
  const body = JSON.stringify({ model: "x", messages: [{ role: "user", content: "x".repeat(ctx.config.bodyLimitBytes) }] });
  for (const [language, pattern] of [
    ["en", /larger than \d+ bytes/],
    ["zh-CN", /请求体超过/],
  ] as const) {
    const response = await ctx.request("/v1/chat/completions", {
      method: "POST",
      body,
      headers: {
        authorization: `Bearer ${owner.token}`,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
        "accept-language": language,
      },
    });
    expect(response.status).toBe(413);
    const answer = (await response.json()) as { error: { message: string; type: string; code: string } };
    expect(answer.error).toMatchObject({ type: "invalid_request_error", code: "payload_too_large" });
    expect(answer.error.message).toMatch(pattern);
  }
  // The rest of the API keeps its envelope.
  const api = await ctx.request("/api/v1/apps", {
    method: "POST",
    body,
    headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) },
  });
  expect(api.status).toBe(413);
  expect(await api.json()).toMatchObject({ success: false, code: 413 });
});
