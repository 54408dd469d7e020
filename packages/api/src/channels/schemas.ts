import { z } from "@hono/zod-openapi";
import { channelKinds } from "@parley/channels";

const localized = z.object({ en: z.string(), "zh-CN": z.string() }).openapi("LocalizedText");

export const channelFieldSchema = z
  .object({
    key: z.string(),
    label: localized,
    help: localized.optional(),
    secret: z.boolean().openapi({ description: "Stored encrypted and never answered; the client lists it in `secretsSet` once set" }),
    required: z.boolean(),
    options: z.array(z.object({ value: z.string(), label: localized })).optional(),
    default: z.string().optional(),
    pattern: z.string().optional().openapi({ description: "A regular expression the value must match" }),
  })
  .openapi("ChannelField");

export const channelCatalogueSchema = z
  .array(
    z
      .object({
        kind: z.enum(channelKinds),
        name: localized,
        fields: z.array(channelFieldSchema),
        capabilities: z
          .object({
            ackDeadlineMs: z.number(),
            passiveReply: z.boolean(),
            maxText: z.object({ unit: z.enum(["chars", "utf8-bytes"]), value: z.number() }),
            replyWindow: z.object({ hours: z.number(), maxMessages: z.number().optional() }).optional(),
            markdown: z.boolean(),
            edit: z.boolean(),
            typing: z.boolean(),
          })
          .openapi("ChannelCapabilities"),
      })
      .openapi("ChannelDescriptor"),
  )
  .openapi("ChannelCatalogue");

const config = z.record(z.string(), z.string().max(4000)).openapi({
  description: "Field values by key (see the catalogue). A secret left out keeps its stored value; an empty string clears a field.",
  example: { botToken: "123456:ABC-DEF", secretToken: "s3cr3t-token" },
});

export const createChannelClientBody = z
  .object({
    appId: z.string().min(1).max(64).openapi({ description: "An app of the same space" }),
    name: z.string().trim().min(1).max(50).openapi({ example: "Support on Telegram" }),
    kind: z.string().min(1).max(40).openapi({ description: "A kind from the catalogue", example: "telegram" }),
    deployType: z.enum(["self-built", "hosting"]).optional(),
    enabled: z.boolean().optional(),
    offlineNotify: z.enum(["none", "sms", "wechat-official-account"]).optional(),
    config: config.optional(),
  })
  .openapi("CreateChannelClient");

export const updateChannelClientBody = createChannelClientBody.partial().openapi("UpdateChannelClient");

export const channelClientSchema = z
  .object({
    id: z.string().openapi({ example: "ch_Xk2v9QpLm3TzA8bc" }),
    appId: z.string(),
    name: z.string(),
    kind: z.string(),
    deployType: z.enum(["self-built", "hosting"]),
    enabled: z.boolean(),
    status: z.enum(["online", "offline"]).openapi({ description: "Online when enabled, fully configured and the last exchange with the platform succeeded" }),
    configured: z.boolean().openapi({ description: "Every required field is set" }),
    config: z.record(z.string(), z.string()).openapi({ description: "The values of the fields that are not secret" }),
    secretsSet: z.array(z.string()).openapi({ description: "Keys of the secret fields that have a value" }),
    offlineNotify: z.enum(["none", "sms", "wechat-official-account"]),
    webhookUrl: z.string().openapi({ description: "Paste this into the platform's callback / request URL setting" }),
    lastActiveAt: z.string().nullable(),
    lastError: z.string().nullable().openapi({ description: "The latest failure talking to the platform, until the next success" }),
    lastErrorAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("ChannelClient");

export const wechatBindingCodeSchema = z
  .object({
    clientId: z.string().openapi({ description: "The official account client the code is for", example: "ch_Xk2v9QpLm3TzA8bc" }),
    code: z.string().openapi({ description: "6 digits, valid 10 minutes, used once", example: "123456" }),
    command: z.string().openapi({ description: 'What to send to the official account ("绑定 123456" works too)', example: "BIND 123456" }),
    expiresAt: z.string().openapi({ example: "2026-11-21T12:40:00.000Z" }),
  })
  .openapi("WechatBindingCode");

export const wechatBindingSchema = z
  .object({
    id: z.string().openapi({ example: "wxb_01jd7w3k5q9x2m4n6p8r" }),
    clientId: z.string().openapi({ description: "The official account client the WeChat is bound to" }),
    clientName: z.string(),
    openid: z.string().openapi({ description: "The member's openid on that official account", example: "oPerson4fK2Qm7Yd0ZxLq1Wn9Abc" }),
    lastMessageAt: z.string().nullable().openapi({
      description:
        "The member's latest message to the account: without a notice template, notices go as customer-service messages, accepted only within 48 hours of it",
    }),
    lastNoticeAt: z.string().nullable(),
    lastNoticeError: z
      .string()
      .nullable()
      .openapi({ description: "Why the latest notice did not go out (e.g. errcode 45015, outside the 48-hour window); null once one does" }),
    createdAt: z.string(),
  })
  .openapi("WechatBinding");
