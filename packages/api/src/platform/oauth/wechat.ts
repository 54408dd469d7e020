import { ExternalProviderError, type ExternalIdentity, type WechatOAuthClient } from "../ports.js";

/** WeChat Open Platform website application credentials. */
export interface WechatOAuthConfig {
  appId: string;
  appSecret: string;
  /** Defaults to `https://open.weixin.qq.com`. */
  openBaseUrl?: string;
  /** Defaults to `https://api.weixin.qq.com`. */
  apiBaseUrl?: string;
  /** Request timeout; defaults to 10 seconds. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface WechatErrorAnswer {
  errcode?: number;
  errmsg?: string;
}

interface AccessTokenAnswer extends WechatErrorAnswer {
  access_token?: string;
  expires_in?: number;
  refresh_token?: string;
  openid?: string;
  scope?: string;
  unionid?: string;
}

interface UserInfoAnswer extends WechatErrorAnswer {
  openid?: string;
  nickname?: string;
  headimgurl?: string;
  unionid?: string;
}

/**
 * A {@link WechatOAuthClient} for WeChat's website QR login (`snsapi_login`).
 * WeChat reports failures as HTTP 200 with `{errcode, errmsg}`; those become
 * {@link ExternalProviderError} with provider `wechat` and the errcode in `detail`.
 */
export function createWechatOAuthClient(config: WechatOAuthConfig): WechatOAuthClient {
  const openBaseUrl = (config.openBaseUrl ?? "https://open.weixin.qq.com").replace(/\/$/, "");
  const apiBaseUrl = (config.apiBaseUrl ?? "https://api.weixin.qq.com").replace(/\/$/, "");
  const doFetch = config.fetch ?? fetch;

  const call = async <Answer extends WechatErrorAnswer>(step: string, path: string, query: Record<string, string>): Promise<Answer> => {
    const url = `${apiBaseUrl}${path}?${new URLSearchParams(query).toString()}`;
    let status: number;
    let body: string;
    try {
      const response = await doFetch(url, { signal: AbortSignal.timeout(config.timeoutMs ?? 10_000) });
      status = response.status;
      body = await response.text();
    } catch (error) {
      // The URL holds the app secret or an access token; report only the transport's reason.
      const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "unknown";
      throw new ExternalProviderError("wechat", `WeChat ${step} request failed: ${reason}`);
    }
    let answer: Answer;
    try {
      // WeChat labels these JSON bodies text/plain, so the content type is not consulted.
      answer = JSON.parse(body) as Answer;
    } catch {
      throw new ExternalProviderError("wechat", `WeChat ${step} answered HTTP ${status} without JSON`, { status });
    }
    if (answer.errcode !== undefined && answer.errcode !== 0) {
      throw new ExternalProviderError("wechat", `WeChat ${step} refused: ${answer.errcode} ${answer.errmsg ?? ""}`.trim(), {
        step,
        errcode: answer.errcode,
        errmsg: answer.errmsg,
      });
    }
    if (status !== 200) {
      throw new ExternalProviderError("wechat", `WeChat ${step} answered HTTP ${status}`, { step, status });
    }
    return answer;
  };

  return {
    qrConnectUrl({ redirectUri, state }) {
      const query = new URLSearchParams({
        appid: config.appId,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: "snsapi_login",
        state,
      });
      return `${openBaseUrl}/connect/qrconnect?${query.toString()}#wechat_redirect`;
    },

    async exchangeCode(code: string): Promise<ExternalIdentity> {
      const token = await call<AccessTokenAnswer>("access_token", "/sns/oauth2/access_token", {
        appid: config.appId,
        secret: config.appSecret,
        code,
        grant_type: "authorization_code",
      });
      if (!token.access_token || !token.openid) {
        throw new ExternalProviderError("wechat", "WeChat access_token answer lacks access_token or openid", {
          step: "access_token",
        });
      }
      const user = await call<UserInfoAnswer>("userinfo", "/sns/userinfo", {
        access_token: token.access_token,
        openid: token.openid,
        lang: "en",
      });
      const unionid = user.unionid || token.unionid;
      const identity: ExternalIdentity = { provider: "wechat", subject: unionid || user.openid || token.openid };
      if (user.nickname) identity.name = user.nickname;
      if (user.headimgurl) identity.avatarUrl = user.headimgurl;
      return identity;
    },
  };
}
