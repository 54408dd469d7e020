import { z } from "@hono/zod-openapi";
import { pageNoSchema, pageSizeSchema } from "../http/schemas";

const isoTime = z.string().datetime({ offset: true });

/** Filters every analysis query takes: a time range (default the last 30 days, at most 366 days), app and channel. */
export const analysisFiltersSchema = z
  .object({
    from: isoTime.optional().openapi({ description: "Start (ISO 8601); default 30 days before `to`", example: "2026-01-01T00:00:00.000Z" }),
    to: isoTime.optional().openapi({ description: "End (ISO 8601, inclusive); default now", example: "2026-01-31T00:00:00.000Z" }),
    appId: z.string().min(1).max(64).optional().openapi({ example: "app_01jd7w3k5q9x2m4n6p8r" }),
    channel: z.string().min(1).max(40).optional().openapi({ example: "telegram" }),
    model: z.string().min(1).max(200).optional().openapi({ description: "A model id, or `plugin:<code>` for plugin calls", example: "gpt-4o-mini" }),
  })
  .openapi("AnalysisFilters");

/** The dashboard's query: the filters (no model) and the time zone its days are counted in. */
export const dashboardQuerySchema = analysisFiltersSchema.omit({ model: true }).extend({
  timeZone: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: "IANA time zone the days are counted in (the whole days from `from` to `to` there); default UTC", example: "Asia/Shanghai" }),
});

/** Filters and paging of a record list. */
export const recordsQuerySchema = analysisFiltersSchema.extend({
  pageNo: pageNoSchema.optional().openapi({ example: 1 }),
  pageSize: pageSizeSchema(200).optional().openapi({ description: "At most 200", example: 20 }),
});

/** Filters and the number of words of the high-frequency word list. */
export const wordsQuerySchema = analysisFiltersSchema.extend({
  limit: z.coerce.number().int().min(1).max(500).optional().openapi({ description: "How many words (default 50, at most 500)", example: 50 }),
});

const rangeFields = { from: z.string(), to: z.string() };

/** One invocation record. */
export const analysisRecordSchema = z
  .object({
    id: z.string(),
    appId: z.string().nullable(),
    appName: z.string().nullable(),
    conversationId: z.string().nullable(),
    endUserId: z.string().nullable(),
    channel: z.string().nullable(),
    prompt: z.string(),
    answer: z.string(),
    model: z.string(),
    promptTokens: z.number().int(),
    completionTokens: z.number().int(),
    credits: z.number().int(),
    knowledgeHitCount: z.number().int().nullable().openapi({ description: "Chunks the turn's knowledge retrieval found; 0 = not hit; null = no retrieval" }),
    databaseStatements: z
      .array(
        z
          .object({
            database: z.string(),
            sql: z.string().openapi({ description: "The statement as it ran (or was refused)" }),
            status: z.string().openapi({ description: "ran, refused, failed or awaiting_confirmation" }),
            code: z.string().optional().openapi({ description: "Why it was refused or failed (e.g. sql_table_not_allowed)" }),
            message: z.string().optional(),
          })
          .openapi("AnalysisRecordStatement"),
      )
      .openapi({ description: "The database statements of the turn (empty when none)" }),
    createdAt: z.string(),
  })
  .openapi("AnalysisRecord");

/** A page of records. */
export const recordPageSchema = z.object({ ...rangeFields, total: z.number().int(), items: z.array(analysisRecordSchema) }).openapi("AnalysisRecordPage");

/** One transfer of a conversation to a person. */
export const transferSchema = z
  .object({
    id: z.string(),
    appId: z.string(),
    appName: z.string().nullable(),
    conversationId: z.string(),
    channel: z.string(),
    endUserId: z.string(),
    reason: z.string().openapi({ description: "keyword, intent, no-hit, customer, operator (unknown for transfers before records were kept)" }),
    detail: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("AnalysisTransfer");

/** A page of transfers. */
export const transferPageSchema = z.object({ ...rangeFields, total: z.number().int(), items: z.array(transferSchema) }).openapi("AnalysisTransferPage");

/** Credits used over a range. */
export const creditsSchema = z
  .object({
    ...rangeFields,
    total: z.number().int(),
    byApp: z.array(z.object({ appId: z.string().nullable(), appName: z.string().nullable(), credits: z.number().int(), records: z.number().int() })),
    byChannel: z.array(z.object({ channel: z.string().nullable(), credits: z.number().int(), records: z.number().int() })),
  })
  .openapi("AnalysisCredits");

const wordSchema = z.object({ word: z.string(), count: z.number().int() }).openapi("AnalysisWord");

/** High-frequency words. */
export const wordsSchema = z.object({ ...rangeFields, items: z.array(wordSchema) }).openapi("AnalysisWords");

/** What records can be filtered by. */
export const enumsSchema = z
  .object({ apps: z.array(z.object({ id: z.string(), name: z.string() })), channels: z.array(z.string()), models: z.array(z.string()) })
  .openapi("AnalysisRecordEnums");

const countsShape = {
  users: z.number().int().openapi({ description: "Distinct users (customers, visitors, signed-in users)" }),
  records: z.number().int(),
  notHit: z.number().int().openapi({ description: "Turns whose knowledge retrieval found nothing" }),
  transfers: z.number().int().openapi({ description: "Conversations transferred to a person" }),
  credits: z.number().int(),
};

/** The data dashboard. */
export const dashboardSchema = z
  .object({
    ...rangeFields,
    totals: z.object(countsShape),
    byApp: z.array(z.object({ appId: z.string(), appName: z.string().nullable(), ...countsShape })),
    byChannel: z.array(z.object({ channel: z.string(), ...countsShape })),
    timeZone: z.string().openapi({ description: "The time zone the days are counted in", example: "Asia/Shanghai" }),
    daily: z.array(
      z.object({
        day: z.string().openapi({ description: "A day in `timeZone`, YYYY-MM-DD" }),
        records: z.number().int(),
        activeUsers: z.number().int(),
        credits: z.number().int(),
      }),
    ),
    words: z.array(wordSchema),
  })
  .openapi("AnalysisDashboard");

/** An export request. */
export const exportRequestSchema = z
  .object({
    filters: analysisFiltersSchema.optional(),
    format: z.enum(["csv", "xlsx"]).openapi({ example: "xlsx" }),
  })
  .openapi("AnalysisExportRequest");
