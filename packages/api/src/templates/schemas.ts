import { z } from "@hono/zod-openapi";

const kind = z.enum(["app", "workflow"]).openapi({ description: "An app template or a workflow template", example: "app" });

/** A template in a list. */
export const templateSummarySchema = z
  .object({
    code: z.string().openapi({ example: "translator" }),
    kind,
    groupId: z.string().openapi({ example: "productivity" }),
    groupName: z.string().openapi({ example: "Productivity" }),
    source: z.enum(["shipped", "custom"]).openapi({ description: "Shipped with Parley, or added by the administrator" }),
    name: z.string().openapi({ description: "In the request's language", example: "Translator" }),
    description: z.string(),
    avatarUrl: z.string(),
    category: z.string().openapi({ example: "productivity" }),
    updatedAt: z.string(),
  })
  .openapi("TemplateSummary");

/** GET /api/v1/templates. */
export const templateListSchema = z.object({ items: z.array(templateSummarySchema), total: z.number().int() }).openapi("TemplateList");

/** GET /api/v1/templates/groups. */
export const templateGroupListSchema = z
  .array(z.object({ id: z.string(), name: z.string(), count: z.number().int() }).openapi("TemplateGroup"))
  .openapi("TemplateGroupList");

/** Query of GET /api/v1/templates. */
export const templateListQuery = z.object({
  kind: kind.optional(),
  groupId: z.string().max(64).optional().openapi({ example: "productivity" }),
  keyword: z.string().max(10_000).optional().openapi({
    description: "Matched literally (no wildcards) in names and descriptions, both languages; only its first 100 characters count",
    example: "translate",
  }),
});

/** GET /api/v1/templates/{code}. */
export const templateDetailSchema = templateSummarySchema
  .extend({
    app: z
      .object({
        type: z.enum(["LIGHT", "KNOWLEDGE", "AGENT"]),
        openingIntroduction: z.string(),
        settingsPrompt: z.string(),
        handover: z.boolean().openapi({ description: "Comes with manual-handover settings" }),
        database: z.boolean().openapi({ description: "The database setting is on; bind a database after copying" }),
      })
      .nullable(),
    workflow: z
      .object({
        nodes: z.array(z.object({ id: z.string(), type: z.string(), name: z.string() })),
        cron: z.string().nullable().openapi({ description: "The schedule the copy starts with", example: "0 9 * * 1-5" }),
      })
      .nullable(),
    knowledgeBase: z
      .object({ name: z.string(), sampleQaCount: z.number().int().openapi({ description: "Sample Q&A pairs imported into it" }) })
      .nullable()
      .openapi({ description: "The knowledge base the copy gets" }),
    nextStep: z.string().nullable().openapi({ description: "What to do after copying" }),
  })
  .openapi("TemplateDetail");

/** POST /api/v1/templates/{code}/copy. */
export const templateCopySchema = z
  .object({
    kind,
    appId: z.string().nullable(),
    appCode: z.string().nullable().openapi({ description: "The copied app's code: chat with it at /app/{code}" }),
    workflowId: z.string().nullable(),
    knowledgeBaseId: z.string().nullable(),
    name: z.string().openapi({ description: "The copy's name: the template's, with (2), (3)… when taken", example: "Translator (2)" }),
    nextStep: z.string().nullable(),
  })
  .openapi("TemplateCopy");

/** POST /api/v1/instance/templates. */
export const addTemplateBody = z
  .object({
    appId: z.string().max(64).optional(),
    workflowId: z.string().max(64).optional(),
    groupId: z.string().max(64).openapi({ example: "productivity" }),
    nameEn: z.string().max(200).optional(),
    nameZh: z.string().max(200).optional(),
    descriptionEn: z.string().max(2000).optional(),
    descriptionZh: z.string().max(2000).optional(),
  })
  .openapi("AddTemplateRequest");

/** POST /api/v1/apps/auto-create. */
export const autoCreateBody = z
  .object({ description: z.string().max(10_000).openapi({ description: "5 to 500 characters", example: "An assistant that plans healthy weekly menus" }) })
  .openapi("AutoCreateAppRequest");

/** The drafted app: review it, then create it with POST /api/v1/apps. */
export const autoCreateDraftSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    settingsPrompt: z.string(),
    openingIntroduction: z.string().openapi({ description: "With [guiding questions]" }),
    category: z.string(),
    model: z.string(),
    avatarUrl: z.string().openapi({ description: "A generated SVG drawn from the name (data URL)" }),
  })
  .openapi("AutoCreateAppDraft");

/** POST /api/v1/apps/avatar/auto-create. */
export const avatarBody = z.object({ name: z.string().max(1000).openapi({ example: "Menu planner" }) }).openapi("AutoCreateAvatarRequest");

/** The drawn avatar. */
export const avatarSchema = z
  .object({
    avatarUrl: z.string(),
    source: z.enum(["generated"]).openapi({ description: "`generated`: a deterministic SVG from the name (no image provider is configured)" }),
  })
  .openapi("AutoCreateAvatar");

const contactText = (max: number, message: string) => z.string().max(max, { message: `msg:${message}` });

/** POST /api/v1/contact-requests. */
export const contactBody = z
  .object({
    firstName: contactText(200, "contact_first_name_invalid").openapi({ description: "1 to 50 characters", example: "Ada" }),
    lastName: contactText(200, "contact_last_name_invalid").openapi({ description: "1 to 50 characters", example: "Lovelace" }),
    email: contactText(1000, "contact_email_invalid").openapi({ description: "A valid work e-mail", example: "ada@example.com" }),
    companyName: contactText(400, "contact_company_invalid").openapi({ description: "1 to 100 characters", example: "Analytical Engines Ltd" }),
  })
  .openapi("ContactRequestBody");

/** The answer to a contact request. */
export const contactResultSchema = z
  .object({ id: z.string(), replyWithinHours: z.number().int().openapi({ example: 48 }), mailed: z.boolean() })
  .openapi("ContactRequestResult");

/** A stored contact request (administrator). */
export const contactRequestSchema = z
  .object({
    id: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    companyName: z.string(),
    language: z.string(),
    mailed: z.boolean(),
    createdAt: z.string(),
  })
  .openapi("ContactRequest");

/** GET /api/v1/instance/contact-requests. */
export const contactPageSchema = z
  .object({ items: z.array(contactRequestSchema), total: z.number().int(), pageNo: z.number().int(), pageSize: z.number().int() })
  .openapi("ContactRequestPage");

/** Query of GET /api/v1/instance/contact-requests. */
export const contactListQuery = z.object({
  pageNo: z.coerce.number().int().min(1).max(100_000).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).optional(),
});
