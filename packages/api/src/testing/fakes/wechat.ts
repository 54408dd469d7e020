import { randomBytes } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A WeChat user the fake knows. */
export interface WechatFakeUser {
  openid: string;
  /** Present only when the app belongs to an Open Platform account with UnionID. */
  unionid?: string;
  nickname: string;
  headimgurl: string;
  sex?: number;
  province?: string;
  city?: string;
  country?: string;
}

/** Options for {@link startWechatFake}. */
export interface WechatFakeOptions {
  appId: string;
  appSecret: string;
  users: WechatFakeUser[];
}

/** A running WeChat Open Platform fake; see {@link startWechatFake}. */
export interface WechatFake {
  /** Base URL serving both `open.weixin.qq.com` and `api.weixin.qq.com` paths. */
  url: string;
  /** Pass as the client's `openBaseUrl`. */
  openBaseUrl: string;
  /** Pass as the client's `apiBaseUrl`. */
  apiBaseUrl: string;
  /**
   * What WeChat does after `openid` scans the QR code shown for `state` and confirms on the phone:
   * mints a code and returns the `redirect_uri?code=…&state=…` URL the browser is sent to.
   * The qrconnect page for that state must have been requested first.
   */
  scan(state: string, openid: string): string;
  /** Mints a code for `openid` without the qrconnect page, for tests that only need a code. */
  issueCode(openid: string): string;
  /** Makes every access token issued so far answer 42001 (access_token expired). */
  expireAccessTokens(): void;
  /** Every qrconnect visit, oldest first. */
  readonly qrConnectRequests: { appid: string; redirectUri: string; state: string; scope: string }[];
  close(): Promise<void>;
}

const codeLifetimeMs = 10 * 60_000;
const tokenLifetimeSeconds = 7200;

/**
 * Starts a fake of WeChat's website QR login on 127.0.0.1 (random port):
 * `/connect/qrconnect` (an HTML page with one "confirm" link per user, for browsers),
 * `/sns/oauth2/access_token` and `/sns/userinfo`, answering failures the WeChat way:
 * HTTP 200 with `{errcode, errmsg}` (40013 appid, 40125 appsecret, 40029 code, 40163 code used,
 * 40001 / 42001 access token, 40003 openid).
 */
export async function startWechatFake(options: WechatFakeOptions): Promise<WechatFake> {
  const users = new Map(options.users.map((user) => [user.openid, user]));
  const pendingLogins = new Map<string, { redirectUri: string }>();
  const codes = new Map<string, { openid: string; expiresAt: number; used: boolean }>();
  const tokens = new Map<string, { openid: string; expiresAt: number }>();
  const qrConnectRequests: WechatFake["qrConnectRequests"] = [];

  const mintCode = (openid: string) => {
    if (!users.has(openid)) throw new Error(`unknown WeChat openid ${openid}`);
    const code = randomBytes(16).toString("hex");
    codes.set(code, { openid, expiresAt: Date.now() + codeLifetimeMs, used: false });
    return code;
  };
  const scan = (state: string, openid: string) => {
    const pending = pendingLogins.get(state);
    if (!pending) throw new Error(`no qrconnect page was requested with state ${state}`);
    const redirect = new URL(pending.redirectUri);
    redirect.searchParams.set("code", mintCode(openid));
    redirect.searchParams.set("state", state);
    return redirect.toString();
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://fake");
    const query = Object.fromEntries(url.searchParams);
    switch (url.pathname) {
      case "/connect/qrconnect":
        return qrConnect(query, response);
      case "/connect/confirm": {
        try {
          response.writeHead(302, { location: scan(query.state ?? "", query.openid ?? "") }).end();
        } catch (error) {
          html(response, 400, `<p>${escapeHtml(String(error))}</p>`);
        }
        return;
      }
      case "/sns/oauth2/access_token":
        return json(response, accessToken(query));
      case "/sns/userinfo":
        return json(response, userInfo(query));
      default:
        return json(response, wechatError(404, "invalid url domain"), 404);
    }
  });

  const qrConnect = (query: Record<string, string>, response: ServerResponse) => {
    if (query.appid !== options.appId) return html(response, 200, "<p>参数错误 (appid)</p>");
    if (query.scope !== "snsapi_login") return html(response, 200, "<p>Scope 参数错误或没有 Scope 权限</p>");
    if (!query.redirect_uri || !/^https?:\/\//.test(query.redirect_uri)) {
      return html(response, 200, "<p>redirect_uri 参数错误</p>");
    }
    const state = query.state ?? "";
    pendingLogins.set(state, { redirectUri: query.redirect_uri });
    qrConnectRequests.push({ appid: query.appid, redirectUri: query.redirect_uri, state, scope: query.scope });
    const links = options.users
      .map((user) => {
        const confirm = `/connect/confirm?${new URLSearchParams({ state, openid: user.openid }).toString()}`;
        return `<li><a data-openid="${escapeHtml(user.openid)}" href="${escapeHtml(confirm)}">${escapeHtml(user.nickname)}</a></li>`;
      })
      .join("");
    html(
      response,
      200,
      `<!doctype html><meta charset="utf-8"><title>微信登录</title><h1>WeChat login (fake)</h1>` +
        `<p>Scan the QR code with WeChat. In this fake, pick who confirms on their phone:</p><ul>${links}</ul>`,
    );
  };

  const accessToken = (query: Record<string, string>) => {
    if (query.grant_type !== "authorization_code") return wechatError(40002, "invalid grant_type");
    if (query.appid !== options.appId) return wechatError(40013, "invalid appid");
    if (query.secret !== options.appSecret) return wechatError(40125, "invalid appsecret");
    const entry = codes.get(query.code ?? "");
    if (!entry || entry.expiresAt < Date.now()) return wechatError(40029, "invalid code");
    if (entry.used) return wechatError(40163, "code been used");
    entry.used = true;
    const accessTokenValue = randomBytes(24).toString("hex");
    tokens.set(accessTokenValue, { openid: entry.openid, expiresAt: Date.now() + tokenLifetimeSeconds * 1000 });
    const user = users.get(entry.openid)!;
    return {
      access_token: accessTokenValue,
      expires_in: tokenLifetimeSeconds,
      refresh_token: randomBytes(24).toString("hex"),
      openid: user.openid,
      scope: "snsapi_login",
      ...(user.unionid ? { unionid: user.unionid } : {}),
    };
  };

  const userInfo = (query: Record<string, string>) => {
    const token = tokens.get(query.access_token ?? "");
    if (!token) return wechatError(40001, "invalid credential, access_token is invalid or not latest");
    if (token.expiresAt < Date.now()) return wechatError(42001, "access_token expired");
    if (query.openid !== token.openid) return wechatError(40003, "invalid openid");
    const user = users.get(token.openid)!;
    return {
      openid: user.openid,
      nickname: user.nickname,
      sex: user.sex ?? 0,
      province: user.province ?? "",
      city: user.city ?? "",
      country: user.country ?? "",
      headimgurl: user.headimgurl,
      privilege: [],
      ...(user.unionid ? { unionid: user.unionid } : {}),
    };
  };

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openBaseUrl: url,
    apiBaseUrl: url,
    scan,
    issueCode: mintCode,
    expireAccessTokens() {
      for (const token of tokens.values()) token.expiresAt = 0;
    },
    qrConnectRequests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function wechatError(errcode: number, errmsg: string) {
  return { errcode, errmsg: `${errmsg} rid: ${randomBytes(4).toString("hex")}-${randomBytes(4).toString("hex")}` };
}

function json(response: ServerResponse, body: unknown, status = 200) {
  // WeChat serves these JSON answers as text/plain.
  response.writeHead(status, { "content-type": "text/plain" });
  response.end(JSON.stringify(body));
}

function html(response: ServerResponse, status: number, body: string) {
  response.writeHead(status, { "content-type": "text/html; charset=utf-8" });
  response.end(body);
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
