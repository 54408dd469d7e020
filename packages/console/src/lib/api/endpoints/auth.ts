import type { components } from "@parley/sdk";
import { call, client } from "../request";
import type { Extra } from "./shared";

type Schemas = components["schemas"];

/** Where a newly registered or exchanged account came from (spec §7 start-up calls). */
export type Attribution = Pick<Schemas["ExchangeRequest"], "share" | "source" | "sourceDetail">;

/** Sign-in, registration, codes, password reset, WeChat and external sign-in, sign-out (spec §7). */
export const authEndpoints = {
  providers: (extra: Extra = {}) => call({ public: true, ...extra }, (init) => client.GET("/api/v1/auth/providers", init)),
  /** Codes for change-password and bind go out signed in (to this account's or a new own address). */
  sendCode: (body: Schemas["SendCodeRequest"], extra: Extra = {}) =>
    call({ public: body.purpose !== "change-password" && body.purpose !== "bind", ...extra }, (init) => client.POST("/api/v1/auth/codes", { ...init, body })),
  register: (body: Schemas["RegisterRequest"], extra: Extra = {}) =>
    call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/register", { ...init, body })),
  resetPassword: (body: Schemas["ResetPasswordRequest"], extra: Extra = {}) =>
    call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/password/reset", { ...init, body })),
  /** Password sign-in is form-encoded (spec §7). */
  loginWithPassword: (body: Schemas["LoginForm"], extra: Extra = {}) =>
    call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/login", { ...init, body, form: true })),
  loginWithCode: (body: Schemas["LoginWithCodeRequest"], extra: Extra = {}) =>
    call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/login/code", { ...init, body })),
  exchange: (body: Schemas["ExchangeRequest"], extra: Extra = {}) =>
    call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/exchange", { ...init, body })),
  wechatQr: (extra: Extra = {}) => call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/wechat/qr", init)),
  wechatQrStatus: (state: string, extra: Extra = {}) =>
    call({ public: true, ...extra }, (init) => client.GET("/api/v1/auth/wechat/qr/{state}", { ...init, params: { path: { state } } })),
  wechatBind: (body: Schemas["WechatBindRequest"], extra: Extra = {}) =>
    call({ public: true, ...extra }, (init) => client.POST("/api/v1/auth/wechat/bind", { ...init, body })),
  logout: (extra: Extra = {}) => call(extra, (init) => client.POST("/api/v1/auth/logout", init)),
  /** The address that starts an external (OIDC) sign-in; the browser navigates to it. */
  oidcAuthorizeUrl: (returnTo: string) => `/api/v1/auth/oidc/authorize?returnTo=${encodeURIComponent(returnTo)}`,
};
