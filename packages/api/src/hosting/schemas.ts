import { z } from "@hono/zod-openapi";
import { hostedAccountStates, hostedGroupStates } from "../db/schema/hosting";
import { accountTransitions, groupTransitions } from "./state";

const text2 = z.object({ en: z.string(), "zh-CN": z.string() });

export const hostingBridgeSchema = z
  .object({
    name: z.string().openapi({ description: "The installed bridge; `none` when hosting is not available", example: "none" }),
    configured: z.boolean().openapi({ description: "False: every login call answers 403 with the official routes to use instead" }),
    officialRoutes: z
      .array(
        z.object({
          kind: z.string().openapi({ description: "A channel kind to connect under channel clients", example: "wechat-customer-service" }),
          name: text2,
          covers: text2,
        }),
      )
      .openapi({ description: "The official WeChat routes that cover the need without hosting a personal account" }),
  })
  .openapi("HostingBridge");

export const hostingConfigSchema = z
  .object({
    answerPrivateChats: z.boolean().openapi({ description: "Answer one-to-one chats with the account's contacts" }),
    groupTrigger: z.enum(["mention", "all"]).openapi({ description: "In open group chats, answer only when the account is mentioned, or every message" }),
    replyDelaySeconds: z.number().int().min(0).max(60).openapi({ description: "Wait this long before answering", example: 2 }),
  })
  .openapi("HostingConfig");

export const saveHostingConfigBody = hostingConfigSchema.partial().openapi("SaveHostingConfig");

export const hostedAccountSchema = z
  .object({
    id: z.string().openapi({ example: "hacc_01jb7x3m9q2r5t8v0w4y6z1a3c" }),
    name: z.string(),
    appId: z.string().nullable().openapi({ description: "The app that answers; null answers nothing" }),
    state: z.enum(hostedAccountStates).openapi({
      description:
        "logged_out → qr_pending (QR code until `loginExpiresAt`) → verify_code_pending (when the platform asks) → online ⇄ paused (switch on/off); online/paused → offline (connection lost) or expired (log in again)",
    }),
    actions: z.array(z.enum(Object.keys(accountTransitions) as [keyof typeof accountTransitions])).openapi({ description: "What the owner may do now" }),
    bridge: z.string().openapi({ description: "The bridge that holds the login" }),
    qrCode: z.string().nullable().openapi({ description: "While `qr_pending`: the content to show as a QR code" }),
    loginExpiresAt: z.string().nullable().openapi({ description: "When the pending QR code or verification step runs out" }),
    verifyHint: z.string().nullable().openapi({ description: "Where the platform sent the verification code" }),
    profile: z
      .object({ externalId: z.string(), nickname: z.string(), avatarUrl: z.string() })
      .nullable()
      .openapi({ description: "The account last logged in (kept after logging out)" }),
    config: hostingConfigSchema,
    groups: z.object({ total: z.number().int(), open: z.number().int() }),
    stateChangedAt: z.string(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("HostedAccount");

export const hostedGroupSchema = z
  .object({
    id: z.string().openapi({ example: "hgrp_01jb7x3m9q2r5t8v0w4y6z1a3c" }),
    accountId: z.string(),
    externalId: z.string().openapi({ description: "The group's id on the platform" }),
    name: z.string(),
    memberCount: z.number().int(),
    state: z
      .enum(hostedGroupStates)
      .openapi({ description: "waiting (synced, not opened) → open (the bot answers) ⇄ paused; any → cancelled; cancelled → open" }),
    actions: z.array(z.enum(Object.keys(groupTransitions) as [keyof typeof groupTransitions])),
    present: z.boolean().openapi({ description: "False once a sync no longer lists the group" }),
    syncedAt: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("HostedGroup");

export const loginStatusSchema = z
  .object({
    account: hostedAccountSchema,
    progress: z
      .enum(["none", "waiting", "scanned", "verify_code_required", "confirmed", "expired"])
      .openapi({ description: "What the bridge reported on this poll; `none` when no login is pending" }),
  })
  .openapi("HostingLoginStatus");

export const requestQrCodeBody = z
  .object({
    accountId: z.string().min(1).max(64).optional().openapi({ description: "Log an existing account in again; leave out to add an account" }),
    appId: z.string().min(1).max(64).optional().openapi({ description: "For a new account: the app that answers" }),
    name: z.string().trim().min(1).max(50).optional().openapi({ example: "Front desk WeChat" }),
  })
  .openapi("RequestHostingQrCode");

export const submitVerifyCodeBody = z
  .object({
    accountId: z.string().min(1).max(64),
    code: z.string().trim().min(1).max(16).openapi({ example: "482913" }),
  })
  .openapi("SubmitHostingVerifyCode");

export const bindAppBody = z
  .object({ appId: z.string().min(1).max(64).nullable().openapi({ description: "An app of the same space; null unbinds" }) })
  .openapi("BindHostingApp");

export const accountIdQuery = z.object({
  accountId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: "accountId", in: "query" } }),
});

export const groupListQuery = z.object({
  state: z
    .enum(hostedGroupStates)
    .optional()
    .openapi({ param: { name: "state", in: "query" }, description: "Only groups in this state" }),
});
