import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWechatFake, type WechatFake } from "../../testing/fakes/wechat.js";
import { ExternalProviderError } from "../ports.js";
import { createWechatOAuthClient, type WechatOAuthConfig } from "./wechat.js";

describe("createWechatOAuthClient against the local WeChat fake", () => {
  const appId = "wx1234567890abcdef";
  const appSecret = "0123456789abcdef0123456789abcdef";
  const redirectUri = "https://app.parley.test/api/auth/wechat/callback?next=/inbox";
  let fake: WechatFake;

  beforeAll(async () => {
    fake = await startWechatFake({
      appId,
      appSecret,
      users: [
        { openid: "o_union_user", unionid: "u_union_user", nickname: "小明", headimgurl: "https://thirdwx.qlogo.cn/a/132" },
        { openid: "o_plain_user", nickname: "Plain", headimgurl: "" },
      ],
    });
  });
  afterAll(() => fake.close());

  const client = (overrides: Partial<WechatOAuthConfig> = {}) =>
    createWechatOAuthClient({ appId, appSecret, openBaseUrl: fake.openBaseUrl, apiBaseUrl: fake.apiBaseUrl, ...overrides });

  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ExternalProviderError);
    const providerError = error as ExternalProviderError;
    expect(providerError.provider).toBe("wechat");
    expect(providerError.message).not.toContain(appSecret);
    expect(JSON.stringify(providerError.detail ?? null)).not.toContain(appSecret);
    return providerError;
  };

  /** Plays the browser: opens the QR page, then the user confirms on the phone. */
  const signInCode = async (openid: string, state = `state-${Math.random()}`) => {
    const page = await fetch(client().qrConnectUrl({ redirectUri, state }));
    expect(page.status).toBe(200);
    return new URL(fake.scan(state, openid));
  };

  it("builds WeChat's qrconnect URL", () => {
    const url = createWechatOAuthClient({ appId, appSecret }).qrConnectUrl({ redirectUri, state: "s1" });
    expect(url).toBe(
      "https://open.weixin.qq.com/connect/qrconnect?appid=wx1234567890abcdef" +
        "&redirect_uri=https%3A%2F%2Fapp.parley.test%2Fapi%2Fauth%2Fwechat%2Fcallback%3Fnext%3D%2Finbox" +
        "&response_type=code&scope=snsapi_login&state=s1#wechat_redirect",
    );
  });

  it("completes QR login and uses the unionid as subject", async () => {
    const callback = await signInCode("o_union_user", "abc123");
    expect(fake.qrConnectRequests.at(-1)).toEqual({ appid: appId, redirectUri, state: "abc123", scope: "snsapi_login" });
    expect(callback.origin + callback.pathname).toBe("https://app.parley.test/api/auth/wechat/callback");
    expect(callback.searchParams.get("next")).toBe("/inbox");
    expect(callback.searchParams.get("state")).toBe("abc123");

    const identity = await client().exchangeCode(callback.searchParams.get("code")!);
    expect(identity).toEqual({
      provider: "wechat",
      subject: "u_union_user",
      name: "小明",
      avatarUrl: "https://thirdwx.qlogo.cn/a/132",
    });
  });

  it("falls back to the openid without a unionid", async () => {
    const callback = await signInCode("o_plain_user");
    await expect(client().exchangeCode(callback.searchParams.get("code")!)).resolves.toEqual({
      provider: "wechat",
      subject: "o_plain_user",
      name: "Plain",
    });
  });

  it("the qrconnect page links each user to the callback, for browsers", async () => {
    const page = await fetch(client().qrConnectUrl({ redirectUri, state: "browser-state" }));
    const html = await page.text();
    const href = /data-openid="o_plain_user" href="([^"]+)"/.exec(html)?.[1]?.replace(/&#38;/g, "&");
    expect(href).toBeDefined();
    const confirm = await fetch(new URL(href!, fake.url), { redirect: "manual" });
    expect(confirm.status).toBe(302);
    const location = new URL(confirm.headers.get("location")!);
    expect(location.searchParams.get("state")).toBe("browser-state");
    await expect(client().exchangeCode(location.searchParams.get("code")!)).resolves.toMatchObject({
      subject: "o_plain_user",
    });
  });

  it("refuses a code used twice with 40163", async () => {
    const code = (await signInCode("o_union_user")).searchParams.get("code")!;
    await client().exchangeCode(code);
    const error = await refusal(client().exchangeCode(code));
    expect(error.detail).toMatchObject({ step: "access_token", errcode: 40163 });
    expect(error.message).toMatch(/^WeChat access_token refused: 40163 code been used/);
  });

  it("refuses an unknown code with 40029", async () => {
    const error = await refusal(client().exchangeCode("not-a-code"));
    expect(error.detail).toMatchObject({ errcode: 40029 });
  });

  it("refuses a wrong app secret with 40125 without echoing it", async () => {
    const code = fake.issueCode("o_union_user");
    const error = await refusal(client({ appSecret: "ffffffffffffffffffffffffffffffff" }).exchangeCode(code));
    expect(error.detail).toMatchObject({ errcode: 40125 });
    expect(error.message).not.toContain("ffffffffffffffffffffffffffffffff");
  });

  it("refuses a wrong app id with 40013", async () => {
    const error = await refusal(client({ appId: "wx0000000000000000" }).exchangeCode(fake.issueCode("o_plain_user")));
    expect(error.detail).toMatchObject({ errcode: 40013 });
  });

  it("surfaces an expired access token at userinfo (42001)", async () => {
    const code = fake.issueCode("o_union_user");
    const expiring: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (String(input).includes("/sns/oauth2/access_token")) fake.expireAccessTokens();
      return response;
    };
    const error = await refusal(client({ fetch: expiring }).exchangeCode(code));
    expect(error.detail).toMatchObject({ step: "userinfo", errcode: 42001 });
  });

  it("surfaces an invalid access token at userinfo (40001)", async () => {
    const swapping: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      if (url.pathname === "/sns/userinfo") url.searchParams.set("access_token", "forged");
      return fetch(url, init);
    };
    const error = await refusal(client({ fetch: swapping }).exchangeCode(fake.issueCode("o_union_user")));
    expect(error.detail).toMatchObject({ step: "userinfo", errcode: 40001 });
  });

  it("scan needs the qrconnect page to have been shown for that state", () => {
    expect(() => fake.scan("never-shown", "o_union_user")).toThrow(/no qrconnect page/);
  });

  it("reports an unreachable API without the secret", async () => {
    const gone = await startWechatFake({ appId, appSecret, users: [] });
    await gone.close();
    const error = await refusal(client({ apiBaseUrl: gone.apiBaseUrl }).exchangeCode("x"));
    expect(error.message).toMatch(/^WeChat access_token request failed: /);
  });
});
