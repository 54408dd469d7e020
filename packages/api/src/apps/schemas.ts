import { z } from "@hono/zod-openapi";
import { appTypes } from "../db/schema/apps";
import { manualReplyModes, manualTriggerTypes, webhookKinds } from "./service/advanced-config";
import { APP_PAGE_SIZE, appCategoryIds, appGroupIds, DEFAULT_APP_AVATAR, DEFAULT_APP_MODEL } from "./service/catalogue";
import { RATE_LIMIT_COUNT_MAX, RATE_LIMIT_REPLY_MAX, rateLimitChannels, rateLimitPeriods } from "./service/rate-limits";
import { APP_LIMITS, creatableAppTypes } from "./service/rules";
import { thresholdScenes } from "./service/thresholds";
import { pageNoSchema, pageSizeSchema } from "../http/schemas";

const timestamp = z.string().openapi({ format: "date-time", example: "2026-11-21T08:00:00.000Z" });
const appId = z.string().openapi({ description: "App id", example: "app_01jd7w3k5q9x2m4n6p8r" });
// Generous caps on sizes keep bodies bounded; the rules of spec §5 are checked by the service, which names the field.
const text = (max: number) => z.string().max(max * 4);
const idList = (description: string, example: string[]) => z.array(z.string().max(100)).max(200).openapi({ description, example });

const settingsFields = {
  name: text(APP_LIMITS.nameMax).openapi({ description: `Required; at most ${APP_LIMITS.nameMax} characters`, example: "Support bot" }),
  description: text(APP_LIMITS.descriptionMax).openapi({
    description: "Required; longer than 5 characters",
    example: "Answers questions about orders and returns",
  }),
  openingIntroduction: text(APP_LIMITS.openingIntroductionMax).openapi({
    description: "Required Markdown, longer than 5 characters; guiding questions are written in square brackets",
    example: "Hi! I can help with your order. [Where is my parcel?] [How do I return an item?]",
  }),
  avatarUrl: text(APP_LIMITS.avatarUrlMax).openapi({
    description: `Required; the default avatar (${DEFAULT_APP_AVATAR}) is refused when isPublic`,
    example: "https://cdn.example.com/avatars/support.png",
  }),
  isPublic: z.boolean().openapi({ description: "Published to the square", example: false }),
  category: z
    .string()
    .max(100)
    .openapi({ description: `Required; one of ${appCategoryIds.join(", ")} (see /api/v1/app-categories)`, example: "customer_service" }),
  settingsPrompt: text(APP_LIMITS.settingsPromptMax).openapi({
    description: "Required: the instructions the model follows",
    example: "You are a friendly support agent for Acme.",
  }),
  defaultModel: z
    .string()
    .max(APP_LIMITS.modelIdMax)
    .openapi({ description: `Required; ${DEFAULT_APP_MODEL} when omitted on create`, example: DEFAULT_APP_MODEL }),
  optionalModels: z
    .array(z.string().max(APP_LIMITS.modelIdMax))
    .max(100)
    .openapi({
      description: "Models the chat may switch to; the default model is always one of them (added first when missing)",
      example: [DEFAULT_APP_MODEL, "gpt-4.1"],
    }),
  memoryTurns: z
    .number()
    .int()
    .openapi({ description: `Turns of history sent to the model, ${APP_LIMITS.memoryTurns.min}–${APP_LIMITS.memoryTurns.max}`, example: 10 }),
  memoryRetentionMinutes: z
    .number()
    .int()
    .openapi({
      description: `How long history is kept, ${APP_LIMITS.memoryRetentionMinutes.min}–${APP_LIMITS.memoryRetentionMinutes.max} minutes`,
      example: 1440,
    }),
  temperature: z.number().openapi({ description: `${APP_LIMITS.temperature.min}–${APP_LIMITS.temperature.max}`, example: 0.7 }),
  retrievalLength: z.number().int().openapi({ description: "Tokens of retrieved context handed to the model; cannot be 0", example: 4000 }),
  knowledgeBaseIds: idList("Bound knowledge bases", ["kb_01jd7w3k5q9x2m4n6p8r"]),
  databaseIds: idList("Bound databases", []),
  retrievalMode: z
    .enum(["semantic", "fulltext", "hybrid"])
    .openapi({ description: "Semantic, full text, or enhanced (hybrid: both, fused). Default: hybrid", example: "hybrid" }),
  similarityThreshold: z.number().openapi({
    description:
      "Minimum matching degree, 0–1, on a scale calibrated per embedding model (0.8 or more strict, 0.7 or less loose); semantic hits only. Default: 0.75",
    example: 0.75,
  }),
  semanticCount: z.number().int().openapi({ description: "Semantic hits; semantic + full-text at most 10 (semantic takes priority)", example: 3 }),
  fullTextCount: z.number().int().openapi({ description: "Full-text hits", example: 1 }),
  rerankModel: z.string().max(APP_LIMITS.modelIdMax).nullable().openapi({
    description:
      "A rerank model (GET /api/v1/rerank-models) that reorders the fused hits before the answer; null (default) for none. Each call costs the space the model's credits per call",
    example: null,
  }),
  rerankThreshold: z.number().openapi({
    description: "0–1: hits the rerank model scores below it are dropped; only used with a rerank model. Default: 0 (keep all)",
    example: 0,
  }),
  noHitStrategy: z
    .enum(["default", "fixed", "manual"])
    .openapi({ description: "When nothing is found: answer freely, answer noHitText, or transfer to a person", example: "default" }),
  noHitText: text(APP_LIMITS.noHitTextMax).nullable().openapi({ description: "Required when noHitStrategy is fixed", example: null }),
  citationEnabled: z.boolean().openapi({ description: "Show source citations. Default: true", example: true }),
  citationThreshold: z.number().openapi({
    description: "0–1 on the similarity threshold's scale; at least the similarity threshold while citations are shown. Default: 0.8",
    example: 0.8,
  }),
  plugins: idList("Plugin codes (custom plg_… codes or built-in names)", ["current_time"]),
  multiRoundThinking: z.boolean().openapi({ description: "Let the model call plugins over several rounds", example: false }),
  maxRounds: z
    .number()
    .int()
    .openapi({ description: `Maximum rounds, ${APP_LIMITS.maxRounds.min}–${APP_LIMITS.maxRounds.max}`, example: 3 }),
  pluginStrategy: z.enum(["knowledge_first", "plugin_first", "both"]).openapi({ description: "Plugin execution strategy", example: "both" }),
  voice: z.string().max(100).nullable().openapi({
    description: "The tone (voice id of `voiceModel`, GET /api/v1/voice/tones) answers are read aloud with; null: answers are not read aloud",
    example: null,
  }),
  voiceModel: z
    .string()
    .max(200)
    .nullable()
    .openapi({ description: "The speech model (GET /api/v1/speech-models) of `voice`; set both or neither", example: null }),
  bottomSlogan: text(APP_LIMITS.bottomSloganMax)
    .nullable()
    .openapi({ description: `At most ${APP_LIMITS.bottomSloganMax} characters`, example: "Powered by Acme" }),
};

/** Body of POST /api/v1/apps. */
export const createAppBody = z
  .object({
    type: z.enum(creatableAppTypes).optional().openapi({ description: "LIGHT (default), KNOWLEDGE or AGENT", example: "LIGHT" }),
    name: settingsFields.name,
    description: settingsFields.description,
    openingIntroduction: settingsFields.openingIntroduction,
    avatarUrl: settingsFields.avatarUrl,
    category: settingsFields.category,
    settingsPrompt: settingsFields.settingsPrompt,
    isPublic: settingsFields.isPublic.optional(),
    defaultModel: settingsFields.defaultModel.optional(),
    optionalModels: settingsFields.optionalModels.optional(),
    memoryTurns: settingsFields.memoryTurns.optional(),
    memoryRetentionMinutes: settingsFields.memoryRetentionMinutes.optional(),
    temperature: settingsFields.temperature.optional(),
    retrievalLength: settingsFields.retrievalLength.optional(),
    knowledgeBaseIds: settingsFields.knowledgeBaseIds.optional(),
    databaseIds: settingsFields.databaseIds.optional(),
    retrievalMode: settingsFields.retrievalMode.optional(),
    similarityThreshold: settingsFields.similarityThreshold.optional(),
    semanticCount: settingsFields.semanticCount.optional(),
    fullTextCount: settingsFields.fullTextCount.optional(),
    rerankModel: settingsFields.rerankModel.optional(),
    rerankThreshold: settingsFields.rerankThreshold.optional(),
    noHitStrategy: settingsFields.noHitStrategy.optional(),
    noHitText: settingsFields.noHitText.optional(),
    citationEnabled: settingsFields.citationEnabled.optional(),
    citationThreshold: settingsFields.citationThreshold.optional(),
    plugins: settingsFields.plugins.optional(),
    multiRoundThinking: settingsFields.multiRoundThinking.optional(),
    maxRounds: settingsFields.maxRounds.optional(),
    pluginStrategy: settingsFields.pluginStrategy.optional(),
    voice: settingsFields.voice.optional(),
    voiceModel: settingsFields.voiceModel.optional(),
    bottomSlogan: settingsFields.bottomSlogan.optional(),
  })
  .openapi("CreateAppRequest");

/** Body of PATCH /api/v1/apps/{appId}: any settings; the rules are checked on the result. */
export const updateAppBody = z.object(settingsFields).partial().openapi("UpdateAppRequest");

const marks = {
  thumbCount: z.number().int().openapi({ description: "Thumbs up", example: 12 }),
  collectCount: z.number().int().openapi({ description: "Collections", example: 3 }),
  thumbed: z.boolean().openapi({ description: "Whether the caller gave a thumb", example: false }),
  collected: z.boolean().openapi({ description: "Whether the caller collected it", example: true }),
};

/** An app in the list. */
export const appSummarySchema = z
  .object({
    id: appId,
    code: z.string().openapi({ description: "Public app code: /app/{code}, and the `model` of the OpenAI-compatible API", example: "K7P2QX9MRT" }),
    name: settingsFields.name,
    type: z.enum(appTypes).openapi({ example: "LIGHT" }),
    description: settingsFields.description,
    avatarUrl: settingsFields.avatarUrl,
    isPublic: settingsFields.isPublic,
    category: settingsFields.category,
    ...marks,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi("AppSummary");

/** The basic detail of an app. */
export const appSchema = appSummarySchema
  .extend({
    openingIntroduction: settingsFields.openingIntroduction,
    settingsPrompt: settingsFields.settingsPrompt,
    defaultModel: settingsFields.defaultModel,
    optionalModels: settingsFields.optionalModels,
    memoryTurns: settingsFields.memoryTurns,
    memoryRetentionMinutes: settingsFields.memoryRetentionMinutes,
    temperature: settingsFields.temperature,
    voice: settingsFields.voice,
    voiceModel: settingsFields.voiceModel,
    bottomSlogan: settingsFields.bottomSlogan,
    createdBy: z.string().openapi({ description: "User who created it", example: "usr_01jd7w3k5q9x2m4n6p8r" }),
  })
  .openapi("App");

const humanizationSchema = z
  .object({
    splitReply: z.boolean().openapi({ description: "Send a long answer as several messages", example: false }),
    mergeReply: z.boolean().openapi({ description: "Answer several quick messages together; needs mergeDelaySeconds", example: true }),
    mergeDelaySeconds: z.number().int().min(1).max(300).nullable().optional().openapi({ description: "Seconds to wait before merging", example: 5 }),
    delayReplySeconds: z.number().int().min(0).max(300).openapi({ description: "Seconds to wait before every reply", example: 0 }),
  })
  .openapi("Humanization");

const webhookSchema = z
  .object({
    kind: z.enum(webhookKinds).openapi({ description: "DingTalk, Feishu or WeChat Work robot", example: "feishu" }),
    url: z.string().max(1000).openapi({
      description:
        "Robot webhook URL. Stored sealed; answered with its credential masked (DingTalk `access_token`, WeChat Work `key`, the Feishu hook id), e.g. `https://oapi.dingtalk.com/robot/send?access_token=••••1a2b`. Sending the masked URL back keeps the stored one.",
      example: "https://open.feishu.cn/open-apis/bot/v2/hook/xxxx",
    }),
    secret: z.string().max(200).openapi({
      description:
        "Signing secret of the robot. Never answered: reads give an empty string with `secretSet`. Send it empty to keep the secret stored for a webhook of the same kind and URL; a new or changed URL needs it.",
      example: "SEC0123456789",
    }),
    secretSet: z.boolean().optional().openapi({ description: "Answered: whether a secret is stored. Ignored when sent.", example: true }),
  })
  .openapi("HandoverWebhook");

const manualServiceSchema = z
  .object({
    triggers: z
      .array(
        z.object({
          type: z.enum(manualTriggerTypes).openapi({ description: "Keyword match or intent recognition", example: "keyword" }),
          content: z.string().max(500).openapi({ description: "The keyword or the intent", example: "human" }),
        }),
      )
      .max(100),
    defaultReply: z
      .string()
      .max(2000)
      .nullable()
      .openapi({ description: "Sent to the person when handed over", example: "A colleague will be with you shortly." }),
    replyMode: z
      .enum(manualReplyModes)
      .openapi({ description: "After handover the AI stays silent, keeps replying, or replies after delayMinutes", example: "none" }),
    delayMinutes: z.number().int().min(1).max(1440).nullable().optional().openapi({ description: "Required when replyMode is delayed", example: null }),
    notify: z.object({
      email: z.boolean().openapi({ example: true }),
      sms: z.boolean().openapi({ example: false }),
      wechat: z.boolean().openapi({
        description:
          "Notify by WeChat: each chosen member on the official account clients of the space they bound their WeChat to (POST /api/v1/channel-clients/{id}/wechat-binding-code)",
        example: false,
      }),
      webhook: z.boolean().default(false).openapi({ description: "Notify through webhooks; needs at least one webhook", example: false }),
      webhooks: z.array(webhookSchema).max(10),
    }),
    notifyMemberIds: z
      .array(z.string().max(64))
      .max(200)
      .openapi({ description: "User ids of space members to notify", example: ["usr_01jd7w3k5q9x2m4n6p8r"] }),
    summaryTemplate: z
      .array(
        z.object({
          property: z.string().max(100).openapi({ example: "Order number" }),
          content: z.string().max(500).openapi({ example: "The order the person asks about" }),
          description: z.string().max(500).openapi({ example: "Digits only" }),
        }),
      )
      .max(50)
      .openapi({ description: "Properties of the handover summary" }),
    aiTagging: z.boolean().openapi({ description: "Let the AI tag the customer", example: false }),
  })
  .openapi("ManualServiceConfig");

/** Advanced configuration: humanization, manual handover and database settings. */
export const advancedConfigSchema = z
  .object({
    humanization: humanizationSchema,
    manualService: manualServiceSchema,
    database: z
      .object({
        enabled: z.boolean().openapi({ example: false }),
        databaseIds: idList("Bound databases (the same list as the app's databaseIds)", []),
        confirmWrites: z.boolean().optional().openapi({
          description: "Writes the model asks for (add, edit, delete) wait for the user's confirmation before they run; default true",
          example: true,
        }),
      })
      .openapi("AppDatabaseSettings"),
  })
  .openapi("AdvancedConfig");

/** The senior detail: basic detail plus retrieval, plugin and advanced settings. */
export const appSeniorSchema = appSchema
  .extend({
    retrievalLength: settingsFields.retrievalLength,
    knowledgeBaseIds: settingsFields.knowledgeBaseIds,
    databaseIds: settingsFields.databaseIds,
    retrievalMode: settingsFields.retrievalMode,
    similarityThreshold: settingsFields.similarityThreshold,
    semanticCount: settingsFields.semanticCount,
    fullTextCount: settingsFields.fullTextCount,
    rerankModel: settingsFields.rerankModel,
    rerankThreshold: settingsFields.rerankThreshold,
    noHitStrategy: settingsFields.noHitStrategy,
    noHitText: settingsFields.noHitText,
    citationEnabled: settingsFields.citationEnabled,
    citationThreshold: settingsFields.citationThreshold,
    plugins: settingsFields.plugins,
    multiRoundThinking: settingsFields.multiRoundThinking,
    maxRounds: settingsFields.maxRounds,
    pluginStrategy: settingsFields.pluginStrategy,
    advancedConfig: advancedConfigSchema,
  })
  .openapi("AppSeniorDetail");

/** Query of the apps list. */
export const appListQuery = z.object({
  pageNo: pageNoSchema.optional().openapi({ description: "1-based page number", example: 1 }),
  pageSize: pageSizeSchema()
    .optional()
    .openapi({ description: `Default ${APP_PAGE_SIZE}; larger values are capped at ${APP_PAGE_SIZE}`, example: APP_PAGE_SIZE }),
});

/** A page of apps. */
export const appPageSchema = z
  .object({
    items: z.array(appSummarySchema),
    total: z.number().int().openapi({ description: "Apps in the space", example: 1 }),
    pageNo: z.number().int().openapi({ example: 1 }),
    pageSize: z.number().int().openapi({ description: "The page size applied (after the cap)", example: APP_PAGE_SIZE }),
  })
  .openapi("AppPage");

/** Answer of DELETE /api/v1/apps/{appId}. */
export const deletedAppSchema = z
  .object({
    deleted: z.literal(true),
    nextAppId: z
      .string()
      .nullable()
      .openapi({ description: "The neighbour to select next, or null when no app remains (go home)", example: "app_01jd7w3k5q9x2m4n6p8s" }),
  })
  .openapi("DeletedApp");

/** Thumb state after a thumb or unthumb. */
export const thumbStateSchema = z.object({ thumbed: marks.thumbed, thumbCount: marks.thumbCount }).openapi("AppThumbState");

/** Collect state after a collect or uncollect. */
export const collectStateSchema = z.object({ collected: marks.collected, collectCount: marks.collectCount }).openapi("AppCollectState");

/** A category of the catalogue. */
export const appCategorySchema = z
  .object({
    id: z.enum(appCategoryIds).openapi({ example: "customer_service" }),
    name: z.string().openapi({ description: "In the request's language", example: "Customer service" }),
    description: z.string().openapi({ example: "Answer customers' questions and hand over to a person" }),
    groupId: z.enum(appGroupIds).openapi({ example: "business" }),
  })
  .openapi("AppCategory");

/** A role group of the catalogue. */
export const appGroupSchema = z
  .object({
    id: z.enum(appGroupIds).openapi({ example: "business" }),
    name: z.string().openapi({ description: "In the request's language", example: "Business" }),
    categoryIds: z.array(z.enum(appCategoryIds)).openapi({ example: ["customer_service", "marketing"] }),
  })
  .openapi("AppGroup");

const rateLimitFields = {
  targetChannel: z.enum(rateLimitChannels).openapi({
    description: "all, personal subscription, enterprise official account, or WeChat Work internal app",
    example: "all",
  }),
  periodUnit: z.enum(rateLimitPeriods).openapi({ example: "minute" }),
  count: z.number().int().max(RATE_LIMIT_COUNT_MAX).openapi({ description: "Messages per single user per period; cannot be 0", example: 5 }),
  replyWhenExceeded: z
    .string()
    .max(RATE_LIMIT_REPLY_MAX * 4)
    .nullable()
    .openapi({ description: "Sent when exceeded; null (the default) sends nothing", example: "You are sending messages too fast." }),
};

/** Body of POST /api/v1/apps/{appId}/rate-limits. */
export const createRateLimitBody = z
  .object({ ...rateLimitFields, replyWhenExceeded: rateLimitFields.replyWhenExceeded.optional() })
  .openapi("CreateRateLimitRequest");

/** Body of PATCH /api/v1/rate-limits/{id}. */
export const updateRateLimitBody = z.object(rateLimitFields).partial().openapi("UpdateRateLimitRequest");

/** A rate-limit rule. */
export const rateLimitRuleSchema = z
  .object({
    id: z.string().openapi({ example: "rlr_01jd7w3k5q9x2m4n6p8r" }),
    appId,
    ...rateLimitFields,
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .openapi("RateLimitRule");

/** The balance alert's configuration. */
export const balanceAlertSchema = z
  .object({
    enabled: z.boolean().openapi({ example: true }),
    threshold: z.number().int().openapi({ description: "Alert when the credit balance falls below this; required", example: 1000 }),
    notify: z.object({ email: z.boolean().openapi({ example: true }), sms: z.boolean().openapi({ example: false }) }),
  })
  .openapi("BalanceAlertConfig");

/** Body of PUT /api/v1/thresholds/{scene}. */
export const putThresholdBody = z
  .object({
    enabled: z.boolean().optional().openapi({ description: "Default true", example: true }),
    threshold: z.number().int().nullable().optional().openapi({ description: "Required", example: 1000 }),
    notify: z.object({ email: z.boolean().optional(), sms: z.boolean().optional() }).optional().openapi({ description: "Default e-mail on, SMS off" }),
  })
  .openapi("PutThresholdRequest");

/** A scene's threshold configuration. */
export const thresholdSchema = z
  .object({
    scene: z.enum(thresholdScenes).openapi({ example: "balance-alert" }),
    config: balanceAlertSchema.nullable().openapi({ description: "Null until saved" }),
    updatedAt: timestamp.nullable(),
  })
  .openapi("ThresholdConfig");

/** Path parameter naming a scene. */
export const sceneParam = z.object({
  scene: z
    .string()
    .max(64)
    .openapi({ param: { name: "scene", in: "path" }, description: `One of ${thresholdScenes.join(", ")}`, example: "balance-alert" }),
});
