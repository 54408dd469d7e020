import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "../apps/testing";
import { createTestContext, registerUser, type TestContext } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";

// Three sessions per IP per 10 minutes here (30 by default): the fourth is refused until the window ends.
let ctx: TestContext;
let clientId: string;

beforeAll(async () => {
  ctx = await createTestContext({ PARLEY_THROTTLE_WIDGET_SESSIONS_PER_IP: "3" });
  const owner = await registerUser(ctx, "owner-widget-throttle@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  const app = await createAppVia(ctx, owner, { name: "Throttled bot" });
  const created = await ctx.request("/api/v1/web-clients", { method: "POST", token: owner.token, json: { appId: app.id, name: "Widget" } });
  clientId = ((await created.json()) as { data: { id: string } }).data.id;
});
afterAll(async () => ctx.close());

const start = (language = "en") =>
  ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", headers: { origin: "https://shop.example", "accept-language": language }, json: {} });

describe("visitor sessions throttled per IP", () => {
  it("answers 429 with Retry-After in the visitor's language once an IP started its allowance, exposed to the widget", async () => {
    for (let index = 0; index < 3; index++) expect((await start()).status).toBe(201);
    const refused = await start();
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(refused.headers.get("X-Parley-Error")).toBe("rate_limited");
    expect(refused.headers.get("Access-Control-Allow-Origin")).toBe("https://shop.example");
    expect(refused.headers.get("Access-Control-Expose-Headers")).toContain("Retry-After");
    const body = (await refused.json()) as { success: boolean; code: number; message: string };
    expect(body).toMatchObject({ success: false, code: 429 });
    expect(body.message).toContain(`${retryAfter} s`);
    const zh = (await (await start("zh-CN")).json()) as { message: string };
    expect(zh.message).toContain("秒后再试");
  });

  it("does not count refusals of an unknown client against anyone, nor throttle other visitor calls", async () => {
    const unknown = await ctx.request("/api/v1/widget/no-such-client/sessions", { method: "POST", json: {} });
    expect(unknown.status).toBe(404);
    expect((await ctx.request(`/api/v1/widget/${clientId}/config`)).status).toBe(200);
  });
});
