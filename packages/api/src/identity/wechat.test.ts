import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { externalIdentities, oauthStates, users } from "../db/schema/index";
import { startWechatFake, type WechatFake } from "../testing/fakes/wechat";
import { createTestContext, registerUser, type TestContext } from "../testing/harness";
import { codeFor, expectError, expectOk, manualClock, rowCounts } from "../testing/flows";
import { sessionSchema, wechatQrSchema, wechatStateSchema } from "./schemas";

const clock = manualClock();
let wechat: WechatFake;
let ctx: TestContext;

beforeAll(async () => {
  wechat = await startWechatFake({
    appId: "wx-test-app",
    appSecret: "wechat-secret-value",
    users: [
      { openid: "openid-li", nickname: "小李", headimgurl: "https://thirdwx.example.com/li.png" },
      { openid: "openid-ma", unionid: "union-ma", nickname: "马", headimgurl: "https://thirdwx.example.com/ma.png" },
    ],
  });
  ctx = await createTestContext(
    {
      PARLEY_CODE_RESEND_SECONDS: "0",
      WECHAT_APP_ID: "wx-test-app",
      WECHAT_APP_SECRET: "wechat-secret-value",
      WECHAT_OPEN_BASE_URL: wechat.openBaseUrl,
      WECHAT_API_BASE_URL: wechat.apiBaseUrl,
    },
    { now: clock.now },
  );
});
afterAll(async () => {
  await ctx?.close();
  await wechat?.close();
});

async function startQr() {
  const qr = await expectOk(await ctx.request("/api/v1/auth/wechat/qr", { method: "POST" }), 200, wechatQrSchema);
  // The browser shows WeChat's QR page for this state.
  const page = await fetch(qr.qrUrl);
  expect(page.status).toBe(200);
  return qr;
}

const poll = async (state: string) => expectOk(await ctx.request(`/api/v1/auth/wechat/qr/${state}`), 200, wechatStateSchema);

/** The person scans and confirms on the phone; WeChat sends their browser to our callback. */
async function scan(state: string, openid: string) {
  const callback = new URL(wechat.scan(state, openid));
  expect(callback.pathname).toBe("/api/v1/auth/wechat/callback");
  const response = await ctx.request(`${callback.pathname}${callback.search}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/text\/html/);
  return response.text();
}

function bind(json: Record<string, unknown>) {
  return ctx.request("/api/v1/auth/wechat/bind", { method: "POST", json });
}

describe("WeChat QR sign-in through the API", () => {
  it("builds the QR page for our callback", async () => {
    const qr = await startQr();
    const url = new URL(qr.qrUrl);
    expect(url.origin).toBe(wechat.openBaseUrl);
    expect(url.searchParams.get("appid")).toBe("wx-test-app");
    expect(url.searchParams.get("state")).toBe(qr.state);
    expect(url.searchParams.get("redirect_uri")).toBe("http://127.0.0.1:3000/api/v1/auth/wechat/callback");
    expect(await poll(qr.state)).toEqual({ status: "pending" });
    await expectError(await ctx.request("/api/v1/auth/wechat/qr/wxs_unknown"), 404);
  });

  it("binds a new scan to an e-mail account, then signs the same WeChat user straight in next time", async () => {
    const qr = await startQr();
    expect(await poll(qr.state)).toEqual({ status: "pending" });
    const page = await scan(qr.state, "openid-li");
    expect(page).toContain("Finish linking your account");
    expect(await poll(qr.state)).toEqual({ status: "bind_required" });

    // Binding needs a code sent to the address.
    const code = await codeFor(ctx, { target: "li@example.com", purpose: "bind" });
    await expectError(await bind({ state: qr.state, channel: "email", target: "li@example.com", code: code === "000000" ? "111111" : "000000" }), 400, {
      field: "code",
    });
    const session = await expectOk(await bind({ state: qr.state, channel: "email", target: "li@example.com", code }), 200, sessionSchema);
    expect(session.user).toMatchObject({ email: "li@example.com", name: "小李", avatarUrl: "https://thirdwx.example.com/li.png", hasPassword: false });
    const link = await ctx.deps.db.select().from(externalIdentities).where(eq(externalIdentities.subject, "openid-li")).get();
    expect(link).toMatchObject({ provider: "wechat", userId: session.user.id });
    expect(await poll(qr.state)).toEqual({ status: "expired" });
    await expectError(await bind({ state: qr.state, channel: "email", target: "li@example.com", code }), 400, { field: "state" });

    // Next time: confirmed with a loginCode, exchanged once.
    const next = await startQr();
    expect(await scan(next.state, "openid-li")).toContain("Signed in");
    const confirmed = await poll(next.state);
    expect(confirmed.status).toBe("confirmed");
    expect(confirmed.loginCode).toMatch(/^lc_/);
    const again = await expectOk(await ctx.request("/api/v1/auth/exchange", { method: "POST", json: { loginCode: confirmed.loginCode } }), 200, sessionSchema);
    expect(again.user.id).toBe(session.user.id);
    await expectError(await ctx.request("/api/v1/auth/exchange", { method: "POST", json: { loginCode: confirmed.loginCode } }), 400, {
      field: "loginCode",
    });
    // The loginCode is handed out once.
    expect(await poll(next.state)).toEqual({ status: "expired" });
  });

  it("binds to an existing account owning the address, keyed by unionid", async () => {
    const owner = await registerUser(ctx, "ma@example.com");
    const qr = await startQr();
    await scan(qr.state, "openid-ma");
    const code = await codeFor(ctx, { target: "ma@example.com", purpose: "bind" });
    const session = await expectOk(await bind({ state: qr.state, channel: "email", target: "ma@example.com", code }), 200, sessionSchema);
    expect(session.user.id).toBe(owner.user.id);
    const link = await ctx.deps.db.select().from(externalIdentities).where(eq(externalIdentities.userId, owner.user.id)).get();
    expect(link?.subject).toBe("union-ma");
    expect(await ctx.deps.db.select().from(users).where(eq(users.email, "ma@example.com")).all()).toHaveLength(1);
  });

  it("refuses to bind a state that was never scanned", async () => {
    const qr = await startQr();
    const code = await codeFor(ctx, { target: "nobody-bound@example.com", purpose: "bind" });
    const before = await rowCounts(ctx);
    await expectError(await bind({ state: qr.state, channel: "email", target: "nobody-bound@example.com", code }), 400, { field: "state" });
    expect(await rowCounts(ctx)).toEqual(before);
  });

  it("expires a QR state after 10 minutes; a late scan does not sign in", async () => {
    const qr = await startQr();
    clock.advance(10 * 60_000 + 1_000);
    expect(await poll(qr.state)).toEqual({ status: "expired" });
    expect(await scan(qr.state, "openid-li")).toContain("Sign-in failed");
    expect(await poll(qr.state)).toEqual({ status: "expired" });
    const row = await ctx.deps.db.select().from(oauthStates).where(eq(oauthStates.state, qr.state)).get();
    expect(row).toMatchObject({ status: "pending", loginCode: null });
  });

  it("shows a failure page when WeChat refuses the code", async () => {
    const qr = await startQr();
    const response = await ctx.request(`/api/v1/auth/wechat/callback?state=${qr.state}&code=forged-code`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Sign-in failed");
    expect(await poll(qr.state)).toEqual({ status: "pending" });
  });
});
