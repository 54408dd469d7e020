/**
 * Provider ports: the outside world as Parley's services see it.
 * Each port has an embedded default and at least one real implementation.
 */

/** One message handed to a mail or SMS provider. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends e-mail. `send` resolves once the provider accepted the message. */
export interface MailSender {
  readonly kind: "outbox" | "smtp";
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
}

/** A templated text message: vendors (Aliyun, Tencent) send templates, not free text. */
export interface OutgoingSms {
  /** E.164 without '+' for mainland numbers is accepted by vendors; we pass what the user typed, normalised. */
  phone: string;
  /** Logical template, mapped to the vendor's template code by configuration. */
  template: "verification-code" | "handover-notice" | "client-offline" | "balance-alert";
  params: Record<string, string>;
  /** Human-readable text of the same message, for the outbox and logs. */
  text: string;
}

/** Sends SMS. */
export interface SmsSender {
  readonly kind: "outbox" | "aliyun";
  send(sms: OutgoingSms): Promise<{ messageId: string }>;
}

/** What an external identity provider tells us about the person who signed in. */
export interface ExternalIdentity {
  provider: "oidc" | "wechat";
  /** Stable subject at that provider (OIDC `sub`, WeChat `unionid` or else `openid`). */
  subject: string;
  email?: string;
  emailVerified?: boolean;
  name?: string;
  avatarUrl?: string;
}

/** OpenID Connect sign-in (authorization code + PKCE). */
export interface OidcClient {
  /** Builds the authorization URL; the caller stores `state`, `nonce` and `codeVerifier`. */
  authorizationUrl(input: { redirectUri: string }): Promise<{
    url: string;
    state: string;
    nonce: string;
    codeVerifier: string;
  }>;
  /** Exchanges the callback for a verified identity (ID token signature, nonce, state checked). */
  finish(input: { callbackUrl: string; redirectUri: string; state: string; nonce: string; codeVerifier: string }): Promise<ExternalIdentity>;
}

/** WeChat Open Platform website login (QR connect, scope snsapi_login). */
export interface WechatOAuthClient {
  /** The qrconnect URL a browser shows as a QR code. */
  qrConnectUrl(input: { redirectUri: string; state: string }): string;
  /** code → access_token → userinfo. Throws ExternalProviderError on an errcode answer. */
  exchangeCode(code: string): Promise<ExternalIdentity>;
}

/** Raised by provider implementations when the remote side refuses or fails. */
export class ExternalProviderError extends Error {
  constructor(
    readonly provider: string,
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
    this.name = "ExternalProviderError";
  }
}
