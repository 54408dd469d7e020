import { type OpenAPIHono, z } from "@hono/zod-openapi";
import { fail } from "../errors";
import { clientIp, clientOf } from "../http/auth";
import type { AppEnv } from "../http/context";
import { ok } from "../http/envelope";
import { defineRoute, formBody, jsonBody } from "../http/openapi";
import {
  bindContact,
  changePassword,
  loginWithCode,
  loginWithPassword,
  register,
  requestCode,
  resetPassword,
  signedIn,
  updateProfile,
} from "./service/accounts";
import { bindWechat, finishOidc, pollWechat, startOidc, startWechatQr, wechatCallback } from "./service/external";
import { authenticate, consumeGrant, revokeSession } from "./service/sessions";
import * as s from "./schemas";
import { userView } from "../spaces/service/spaces";

const tags = ["Auth"];

/** Sign-up, sign-in (password, code, link, OIDC, WeChat QR), sign-out. */
export function registerAuthRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/auth/providers",
      tags,
      public: true,
      summary: "Which sign-in methods this server offers",
      data: s.providersSchema,
    }),
    (c) => {
      const { deps } = c.var;
      return ok(c, {
        email: true,
        phone: deps.sms !== undefined,
        oidc: { enabled: deps.oidc !== undefined, name: deps.config.oidc?.name ?? "SSO" },
        wechat: { enabled: deps.wechat !== undefined },
      });
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/auth/codes",
      tags,
      public: true,
      summary: "Send a one-time code by e-mail or SMS",
      description:
        "Purposes: `register` (address must be new), `login` and `reset-password` (address must belong to an account), `change-password` (signed in; the account's own address), `bind` (signed in: add an address; otherwise the WeChat bind step). Throttled per address and per IP; a resend within the resend window answers 429.",
      request: { body: jsonBody(s.sendCodeBody) },
      data: s.sendCodeResult,
    }),
    async (c) => {
      const body = c.req.valid("json");
      const header = c.req.header("authorization");
      let auth: Awaited<ReturnType<typeof authenticate>> | undefined;
      if (body.purpose === "change-password" || (body.purpose === "bind" && header)) {
        const bearer = /^Bearer\s+(\S+)$/i.exec(header ?? "")?.[1];
        if (!bearer) throw fail.unauthenticated();
        auth = await authenticate(c.var.deps, bearer, undefined);
      }
      const result = await requestCode(c.var.deps, { ...body, ip: clientIp(c), language: c.var.language, ...(auth ? { auth } : {}) });
      return ok(c, result);
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/auth/register",
      tags,
      public: true,
      status: 201,
      summary: "Register with an e-mail or phone code, and sign in",
      request: { body: jsonBody(s.registerBody) },
      data: s.sessionSchema,
      extraErrors: { 409: "The address is already registered" },
    }),
    async (c) => ok(c, await register(c.var.deps, { ...c.req.valid("json"), language: c.var.language }, clientOf(c)), 201),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/auth/password/reset",
      tags,
      public: true,
      summary: "Forgot password: set a new password with a code",
      description: "Ends every session of the account.",
      request: { body: jsonBody(s.resetPasswordBody) },
      data: z.object({ reset: z.literal(true) }),
    }),
    async (c) => ok(c, await resetPassword(c.var.deps, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/auth/login",
      tags,
      public: true,
      summary: "Sign in with a password (form-encoded)",
      description:
        "Attempts are counted before the password is checked: per address, per account and address (with growing waits), and per account from all addresses — past that ceiling only addresses that signed in before, and sign-in by code, get through (429 with Retry-After). Neither the answer nor its timing reveals whether the account exists.",
      request: { body: formBody(s.loginForm) },
      data: s.sessionSchema,
    }),
    async (c) => ok(c, await loginWithPassword(c.var.deps, c.req.valid("form"), clientOf(c))),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/auth/login/code",
      tags,
      public: true,
      summary: "Sign in with a code sent by e-mail or SMS",
      request: { body: jsonBody(s.loginCodeBody) },
      data: s.sessionSchema,
    }),
    async (c) => ok(c, await loginWithCode(c.var.deps, c.req.valid("json"), clientOf(c))),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/auth/exchange",
      tags,
      public: true,
      summary: "Exchange a single-use `code` or `loginCode` for a session",
      description: "`loginCode` comes from a sign-in link, `code` from an external sign-in redirect. Each works once.",
      request: { body: jsonBody(s.exchangeBody) },
      data: s.sessionSchema,
    }),
    async (c) => {
      const body = c.req.valid("json");
      const { deps } = c.var;
      if (!body.code && !body.loginCode) throw fail.invalid("grant_missing", "loginCode");
      const grant = body.loginCode
        ? await consumeGrant(deps, { kind: "login-code", grant: body.loginCode })
        : await consumeGrant(deps, { kind: "code", grant: body.code! });
      return ok(c, await signedIn(deps, grant.userId, grant.method, clientOf(c)));
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/auth/logout",
      tags,
      summary: "End the current session",
      data: z.object({ loggedOut: z.literal(true) }),
    }),
    async (c) => {
      const auth = c.var.auth;
      if (auth.via !== "session" || !auth.sessionId) throw fail.forbidden("api_key_not_allowed");
      await revokeSession(c.var.deps, auth.sessionId);
      return ok(c, { loggedOut: true as const });
    },
  );

  // --- OpenID Connect: browser redirects, not JSON.
  app.openapi(
    {
      ...defineRoute({
        method: "get",
        path: "/api/v1/auth/oidc/authorize",
        tags,
        public: true,
        summary: "Start OpenID Connect sign-in (redirects to the identity provider)",
        request: { query: z.object({ returnTo: z.string().max(500).optional().openapi({ example: "/console/agents" }) }) },
        data: z.null(),
      }),
      responses: { 302: { description: "Redirect to the identity provider" } },
    },
    async (c) => c.redirect(await startOidc(c.var.deps, c.req.valid("query")), 302),
  );

  app.openapi(
    {
      ...defineRoute({
        method: "get",
        path: "/api/v1/auth/oidc/callback",
        tags,
        public: true,
        summary: "OpenID Connect callback (redirects to the console with a single-use code)",
        data: z.null(),
      }),
      responses: { 302: { description: "Redirect to the console with `code`, or to /login with `authError`" } },
    },
    async (c) => c.redirect(await finishOidc(c.var.deps, { callbackUrl: c.req.url, language: c.var.language }), 302),
  );

  // --- WeChat QR sign-in.
  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/auth/wechat/qr",
      tags,
      public: true,
      summary: "Start a WeChat QR sign-in",
      data: s.wechatQrSchema,
    }),
    async (c) => ok(c, await startWechatQr(c.var.deps)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/auth/wechat/qr/{state}",
      tags,
      public: true,
      summary: "Poll a WeChat QR sign-in",
      request: {
        params: z.object({
          state: z
            .string()
            .min(1)
            .max(100)
            .openapi({ param: { name: "state", in: "path" } }),
        }),
      },
      data: s.wechatStateSchema,
    }),
    async (c) => ok(c, await pollWechat(c.var.deps, c.req.valid("param").state)),
  );

  app.openapi(
    {
      ...defineRoute({
        method: "get",
        path: "/api/v1/auth/wechat/callback",
        tags,
        public: true,
        summary: "WeChat redirect after the user confirms on the phone",
        request: { query: z.object({ code: z.string().max(200).optional(), state: z.string().max(100) }) },
        data: z.null(),
      }),
      responses: { 200: { description: "A page telling the person to return to their computer", content: { "text/html": { schema: z.string() } } } },
    },
    async (c) => {
      const { code, state } = c.req.valid("query");
      const language = c.var.language;
      let title: string;
      if (!code) {
        title = language === "zh-CN" ? "已取消授权" : "Sign-in cancelled";
      } else {
        try {
          const result = await wechatCallback(c.var.deps, { code, state, language });
          title =
            result.status === "confirmed"
              ? language === "zh-CN"
                ? "登录成功，请回到电脑上继续"
                : "Signed in — continue on your computer"
              : language === "zh-CN"
                ? "请在电脑上绑定账号"
                : "Finish linking your account on your computer";
        } catch {
          title = language === "zh-CN" ? "登录失败，请重新扫码" : "Sign-in failed — scan the code again";
        }
      }
      return c.html(
        `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Parley</title><h1 style="font-family:system-ui;text-align:center;margin-top:30vh">${title}</h1>`,
      );
    },
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/auth/wechat/bind",
      tags,
      public: true,
      summary: "Bind a scanned WeChat identity to an e-mail or phone account and sign in",
      description: "Send a code with purpose `bind` first. An address without an account gets a new one.",
      request: { body: jsonBody(s.wechatBindBody) },
      data: s.sessionSchema,
    }),
    async (c) => ok(c, await bindWechat(c.var.deps, { ...c.req.valid("json"), language: c.var.language }, clientOf(c))),
  );
}

const meTags = ["Account"];

/** The signed-in user's own account. */
export function registerMeRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(defineRoute({ method: "get", path: "/api/v1/me", tags: meTags, summary: "The signed-in user", data: s.userSchema }), async (c) =>
    ok(c, await userView(c.var.deps, c.var.auth.userId, c.var.auth.spaceId)),
  );

  app.openapi(
    defineRoute({
      method: "patch",
      path: "/api/v1/me",
      tags: meTags,
      summary: "Update the signed-in user's profile",
      request: { body: jsonBody(s.updateMeBody) },
      data: s.userSchema,
    }),
    async (c) => ok(c, await updateProfile(c.var.deps, c.var.auth, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/me/password",
      tags: meTags,
      summary: "Change password (old password and a code)",
      description: "Send a code with purpose `change-password` first. Other sessions end.",
      request: { body: jsonBody(s.changePasswordBody) },
      data: z.object({ changed: z.literal(true) }),
    }),
    async (c) => ok(c, await changePassword(c.var.deps, c.var.auth, c.req.valid("json"))),
  );

  app.openapi(
    defineRoute({
      method: "post",
      path: "/api/v1/me/contact",
      tags: meTags,
      summary: "Add or change the e-mail or phone, proven by a code",
      description: "Send a code with purpose `bind` to the new address first.",
      request: { body: jsonBody(s.bindContactBody) },
      data: s.userSchema,
      extraErrors: { 409: "The address belongs to another account" },
    }),
    async (c) => ok(c, await bindContact(c.var.deps, c.var.auth, c.req.valid("json"))),
  );
}
