import { chatFileSchema } from "../chat/files/schemas";
import { z } from "@hono/zod-openapi";

/** `#rrggbb`. */
const color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, { message: "msg:web_client_color_invalid" })
  .openapi({ example: "#2563eb" });

/** A site origin such as `https://shop.example.com` (scheme, host and optional port; nothing else). */
const origin = z
  .string()
  .max(200)
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value;
      } catch {
        return false;
      }
    },
    { message: "msg:web_client_origin_invalid" },
  )
  .openapi({ example: "https://shop.example.com" });

const fields = {
  appId: z.string().min(1).max(64).openapi({ description: "An app of the same space", example: "app_01jd7w3k5q9x2m4n6p8r" }),
  name: z.string().trim().min(1).max(50).openapi({ example: "Shop assistant" }),
  avatarUrl: z.string().max(500).openapi({ example: "https://cdn.example.com/bot.png" }),
  welcome: z.string().max(500).openapi({ example: "Hi! How can we help?" }),
  slogan: z.string().max(20).openapi({ description: "Bottom slogan, at most 20 characters", example: "Powered by Parley" }),
  position: z.enum(["left", "right"]),
  primaryColor: color,
  allowedOrigins: z.array(origin).max(50).openapi({ description: "Sites allowed to embed the client; empty allows any" }),
  manualTransfer: z.boolean().openapi({ description: "Offer transfer to a person" }),
  enabled: z.boolean(),
};

export const createClientBody = z
  .object({
    appId: fields.appId,
    name: fields.name,
    avatarUrl: fields.avatarUrl.optional(),
    welcome: fields.welcome.optional(),
    slogan: fields.slogan.optional(),
    position: fields.position.optional(),
    primaryColor: fields.primaryColor.optional(),
    allowedOrigins: fields.allowedOrigins.optional(),
    manualTransfer: fields.manualTransfer.optional(),
    enabled: fields.enabled.optional(),
  })
  .openapi("CreateWebClient");

export const updateClientBody = createClientBody.partial().openapi("UpdateWebClient");

export const webClientSchema = z
  .object({
    id: z.string().openapi({ example: "demo" }),
    appId: z.string(),
    name: z.string(),
    avatarUrl: z.string(),
    welcome: z.string(),
    slogan: z.string(),
    position: z.enum(["left", "right"]),
    primaryColor: z.string(),
    allowedOrigins: z.array(z.string()),
    manualTransfer: z.boolean(),
    enabled: z.boolean(),
    status: z.enum(["online", "offline"]).openapi({ description: "Online when a visitor was active in the last 5 minutes" }),
    lastActiveAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("WebClient");

export const webClientWithSecretSchema = webClientSchema
  .extend({ identitySecret: z.string().openapi({ description: "Signs visitor identities; shown only now" }) })
  .openapi("WebClientWithSecret");

export const widgetConfigSchema = z
  .object({
    clientId: z.string(),
    name: z.string(),
    avatarUrl: z.string(),
    welcome: z.string(),
    slogan: z.string(),
    position: z.enum(["left", "right"]),
    primaryColor: z.string(),
    manualTransfer: z.boolean(),
    appName: z.string(),
    openingIntroduction: z.string().openapi({ description: "The app's opening introduction without its guiding questions" }),
    guidingQuestions: z.array(z.string()).openapi({ description: "The [square-bracketed] questions of the opening introduction" }),
    speechInput: z.boolean().openapi({ description: "Whether a transcription model is served: the widget shows its microphone only then" }),
    voice: z
      .boolean()
      .openapi({ description: "Whether the app reads answers aloud (it has a voice a provider serves): the widget then offers its speaker controls" }),
  })
  .openapi("WidgetConfig");

export const createSessionBody = z
  .object({
    visitorId: z.string().min(1).max(64).optional().openapi({ description: "The widget's stable visitor id; made up when absent" }),
    language: z.enum(["en", "zh-CN"]).optional(),
    identity: z
      .object({
        userId: z.string().min(1).max(200),
        hash: z.string().min(1).max(128).openapi({ description: "hex HMAC-SHA256(identity secret, userId)" }),
      })
      .optional(),
  })
  .openapi("CreateWidgetSession");

export const widgetSessionSchema = z
  .object({
    sessionId: z.string(),
    visitorToken: z.string().openapi({ description: "Bearer token for this session's messages" }),
    visitorId: z.string(),
  })
  .openapi("WidgetSession");

export const widgetMessageBody = z
  .object({
    content: z.string().max(2000).openapi({ description: "The visitor's text; may be empty when `fileIds` is not" }),
    fileIds: z
      .array(z.string().min(1).max(64))
      .max(10)
      .optional()
      .openapi({ description: "Files uploaded with POST /api/v1/widget/{clientId}/sessions/{sessionId}/files, sent with this message" }),
  })
  .refine((body) => body.content.trim() !== "" || (body.fileIds?.length ?? 0) > 0, { message: "Write a message or attach a file", path: ["content"] })
  .openapi("WidgetMessage");

export const widgetHistorySchema = z
  .object({
    items: z.array(
      z
        .object({
          id: z.string(),
          role: z.enum(["user", "assistant", "tool", "operator"]).openapi({ description: "`operator`: a person of the team answering by hand" }),
          content: z.string(),
          senderName: z.string().nullable().optional().openapi({ description: "The operator's name" }),
          status: z.enum(["complete", "stopped", "error", "streaming", "interrupted"]).optional().openapi({
            description: "`interrupted`: the server stopped mid-answer; the content is what the visitor had been sent",
          }),
          createdAt: z.string(),
          attachments: z.array(chatFileSchema).openapi({ description: "Files and images the message carries (empty when none)" }),
        })
        .openapi("WidgetHistoryMessage"),
    ),
  })
  .openapi("WidgetHistory");
