import { z } from "@hono/zod-openapi";
import { memberGrades, menuGroups } from "../spaces/service/privileges";
import { codePurposes } from "./service/codes";

const timestamp = z.string().openapi({ format: "date-time", example: "2026-11-21T08:00:00.000Z" });

/** The signed-in user, with every field of the spec's User (session) entity. */
export const userSchema = z
  .object({
    id: z.string().openapi({ example: "usr_01jd7w3k5q9x2m4n6p8r" }),
    name: z.string().openapi({ example: "Lin Wei" }),
    email: z.string().nullable().openapi({ example: "lin@example.com" }),
    phone: z.string().nullable().openapi({ example: "13800138000" }),
    avatarUrl: z.string().nullable(),
    language: z.enum(["en", "zh-CN"]).openapi({ description: "Preferred console language" }),
    spaceId: z.string().openapi({ description: "The space this answer was computed for (the current space)", example: "spc_01jd7w3k5q9x2m4n6p8r" }),
    companyCode: z.string().openapi({ description: "Short code of the current space", example: "K7P2QX9M" }),
    companyName: z.string().openapi({ example: "Acme Support" }),
    companyOwner: z.boolean().openapi({ description: "Whether the user owns the current space" }),
    memberGrade: z.enum(memberGrades).openapi({ description: "Plan grade of the current space" }),
    authorizedRoute: z.boolean().openapi({ description: "Whether console routes are limited to authorizedRouteList" }),
    authorizedRouteList: z.array(z.string()).openapi({ example: ["/console/agents"] }),
    customerAdmin: z.enum(["Y", "N"]),
    clientManage: z.number().int().openapi({ description: "Client (channel) quota; > 0 unlocks the clients menu" }),
    customerManage: z.number().int().openapi({ description: "Chat-management quota; > 0 unlocks chat management" }),
    memberNumber: z.number().int().openapi({ description: "Member quota; > 0 unlocks the team menu" }),
    companyTabIconUrl: z.string().nullable(),
    companyTabTitle: z.string().nullable(),
    companyIconWordUrl: z.string().nullable(),
    role: z.enum(["owner", "admin", "member"]),
    roleId: z.string().openapi({ description: "The member's role in the current space: a system role's key or a custom role's id", example: "developer" }),
    roleName: z.string().openapi({ description: "That role's name (a system role's in the user's language)", example: "Developer" }),
    hasPassword: z.boolean(),
    isInstanceOwner: z.boolean().openapi({ description: "The first account of this Parley instance; may read the outbox" }),
    createdAt: timestamp,
  })
  .openapi("User");

/** A bearer session and its user. */
export const sessionSchema = z
  .object({
    token: z.string().openapi({ description: "Bearer token; send as `Authorization: Bearer <token>`", example: "pst_…" }),
    expiresAt: timestamp,
    user: userSchema,
  })
  .openapi("Session");

/** E-mail or phone. */
export const channelSchema = z.enum(["email", "phone"]).openapi({ description: "Where codes go and how the account is addressed" });

const attribution = {
  share: z.string().max(200).optional().openapi({ description: "Share id from the address" }),
  source: z.string().max(200).optional().openapi({ description: "Visit source (the `ref` URL parameter)" }),
  sourceDetail: z.string().max(500).optional(),
};

export const sendCodeBody = z
  .object({
    channel: channelSchema,
    target: z.string().min(3).max(254).openapi({ example: "lin@example.com" }),
    purpose: z.enum(codePurposes),
  })
  .openapi("SendCodeRequest");

export const sendCodeResult = z
  .object({
    sentTo: z.string().openapi({ example: "l***@example.com" }),
    expiresInSeconds: z.number().int(),
    resendAfterSeconds: z.number().int(),
  })
  .openapi("SendCodeResult");

const password = z.string().min(1).max(128).openapi({ description: "At least 8 characters with letters and digits", example: "s3cret-Passw0rd" });
const code = z.string().min(4).max(12).openapi({ example: "123456" });

export const registerBody = z
  .object({
    channel: channelSchema,
    target: z.string().min(3).max(254).openapi({ example: "lin@example.com" }),
    code,
    password,
    name: z.string().max(60).optional(),
    inviteParam: z.string().max(200).optional(),
    ...attribution,
  })
  .openapi("RegisterRequest");

export const resetPasswordBody = z.object({ channel: channelSchema, target: z.string().min(3).max(254), code, password }).openapi("ResetPasswordRequest");

export const loginForm = z
  .object({
    username: z.string().min(3).max(254).openapi({ description: "E-mail address or phone number", example: "lin@example.com" }),
    password,
  })
  .openapi("LoginForm");

export const loginCodeBody = z.object({ channel: channelSchema, target: z.string().min(3).max(254), code }).openapi("LoginWithCodeRequest");

export const exchangeBody = z
  .object({
    code: z.string().max(200).optional().openapi({ description: "Single-use code from an external sign-in redirect" }),
    loginCode: z.string().max(200).optional().openapi({ description: "Single-use code from a sign-in link" }),
    ...attribution,
  })
  .openapi("ExchangeRequest");

export const providersSchema = z
  .object({
    email: z.boolean(),
    phone: z.boolean(),
    oidc: z.object({ enabled: z.boolean(), name: z.string() }),
    wechat: z.object({ enabled: z.boolean() }),
  })
  .openapi("SignInProviders");

export const wechatQrSchema = z
  .object({ state: z.string(), qrUrl: z.string().openapi({ description: "WeChat's QR connect page, to show in a frame" }), expiresAt: timestamp })
  .openapi("WechatQr");

export const wechatStateSchema = z
  .object({
    status: z.enum(["pending", "confirmed", "bind_required", "expired"]),
    loginCode: z.string().optional().openapi({ description: "With `confirmed`: exchange it at /auth/exchange" }),
  })
  .openapi("WechatQrState");

export const wechatBindBody = z
  .object({ state: z.string().min(1).max(100), channel: channelSchema, target: z.string().min(3).max(254), code })
  .openapi("WechatBindRequest");

export const updateMeBody = z
  .object({
    name: z.string().min(1).max(60).optional(),
    avatarUrl: z.string().url().max(500).nullable().optional(),
    language: z.enum(["en", "zh-CN"]).optional(),
  })
  .openapi("UpdateMeRequest");

export const changePasswordBody = z
  .object({
    oldPassword: z.string().max(128).optional().openapi({ description: "Required when the account has a password" }),
    newPassword: password,
    code: code.openapi({ description: "Code sent with purpose change-password" }),
    channel: channelSchema.optional().openapi({ description: "Where the code was sent; defaults to e-mail when set" }),
  })
  .openapi("ChangePasswordRequest");

export const bindContactBody = z.object({ channel: channelSchema, target: z.string().min(3).max(254), code }).openapi("BindContactRequest");

export const spaceSchema = z
  .object({
    spaceId: z.string(),
    companyCode: z.string(),
    companyName: z.string(),
    kind: z.enum(["personal", "team"]),
    role: z.enum(["owner", "admin", "member"]),
    roleId: z.string().openapi({ description: "The member's role: a system role's key or a custom role's id", example: "developer" }),
    roleName: z.string().openapi({ description: "That role's name (a system role's in the user's language)", example: "Developer" }),
    memberGrade: z.enum(memberGrades),
    companyTabIconUrl: z.string().nullable(),
    companyTabTitle: z.string().nullable(),
    companyIconWordUrl: z.string().nullable(),
    current: z.boolean().openapi({ description: "The user's current space (nowSelect)" }),
    createdAt: timestamp,
  })
  .openapi("Space");

export const privilegesSchema = z
  .object({
    memberGrade: z.enum(memberGrades),
    menus: z.array(
      z.object({
        key: z.string().openapi({ example: "clients" }),
        group: z.enum(menuGroups),
        route: z.string().openapi({ example: "/console/clients" }),
        visible: z.boolean(),
        hint: z.enum(["standard", "pro"]).optional().openapi({ description: "Plan that unlocks a gated entry" }),
      }),
    ),
    authorizedRoute: z.boolean(),
    authorizedRouteList: z.array(z.string()),
    clientManage: z.number().int(),
    customerManage: z.number().int(),
    memberNumber: z.number().int(),
    customerAdmin: z.enum(["Y", "N"]),
    grants: z.array(z.string()).openapi({
      description: "The member's grants in the space (decision 0019); the console shows edit controls only with `<resource>.edit`",
      example: ["customers.view", "customers.edit"],
    }),
  })
  .openapi("Privileges");

export const apiKeySchema = z
  .object({
    id: z.string().openapi({ example: "key_01jd7w3k5q9x2m4n6p8r" }),
    name: z.string(),
    prefix: z.string().openapi({ description: "First characters of the key, to recognise it", example: "pk_Zx81aQ" }),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable().openapi({ description: "Active time: last request made with the key (to the minute)" }),
  })
  .openapi("ApiKey");

export const createdApiKeySchema = apiKeySchema
  .extend({ key: z.string().openapi({ description: "The full key. Shown only in this answer." }) })
  .openapi("CreatedApiKey");

export const userKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    appCode: z.string().nullable().openapi({ description: "Only this app may be used with the key; null for any app of the space" }),
    enabled: z.boolean(),
    creditLimit: z.number().int().nullable(),
    creditsUsed: z.number().int(),
    expiresAt: timestamp.nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    lastUsedAt: timestamp.nullable(),
  })
  .openapi("UserKey");

export const createdUserKeySchema = userKeySchema.extend({ key: z.string().openapi({ description: "Shown only in this answer" }) }).openapi("CreatedUserKey");

export const userKeyBody = z
  .object({
    name: z.string().min(1).max(60),
    appCode: z.string().max(64).nullable().optional(),
    enabled: z.boolean().optional(),
    creditLimit: z.number().int().nonnegative().nullable().optional(),
    expiresAt: z.string().datetime().nullable().optional(),
  })
  .openapi("UserKeyRequest");

export const outboxMessageSchema = z
  .object({
    id: z.string(),
    channel: z.enum(["email", "sms"]),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    createdAt: timestamp,
  })
  .openapi("OutboxMessage");
