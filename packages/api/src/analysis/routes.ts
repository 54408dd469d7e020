import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";
import { requireAuth } from "../http/auth";
import { ok } from "../http/envelope";
import { defineRoute, jsonBody, standardErrors } from "../http/openapi";
import { operationKey } from "../access/operations";
import {
  analysisFiltersSchema,
  creditsSchema,
  dashboardQuerySchema,
  dashboardSchema,
  enumsSchema,
  exportRequestSchema,
  recordPageSchema,
  recordsQuerySchema,
  transferPageSchema,
  wordsQuerySchema,
  wordsSchema,
} from "./schemas";
import { dashboard } from "./service/dashboard";
import { EXPORT_ROW_LIMIT, type ExportKind, exportTable } from "./service/export";
import { creditsUsed, listRecords, listTransfers, listWords, recordEnums } from "./service/records";

const tags = ["Analysis"];

const XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

/** A signed-in POST whose 200 answer is a file streamed as it is written; errors answer as envelopes. */
function defineExportRoute(path: string, summary: string) {
  return createRoute({
    method: "post",
    path,
    tags,
    summary,
    description: `At most ${EXPORT_ROW_LIMIT} rows: more answers 400 naming the limit, before anything is written.`,
    security: [{ bearer: [] }],
    middleware: [requireAuth({ operation: operationKey("post", path) })],
    request: { body: jsonBody(exportRequestSchema) },
    responses: {
      200: {
        description: summary,
        content: {
          "text/csv": { schema: z.string().openapi({ type: "string", format: "binary" }) },
          [XLSX_TYPE]: { schema: z.string().openapi({ type: "string", format: "binary" }) },
        },
      },
      ...standardErrors,
    },
  });
}

const pageOf = (query: { pageNo?: number | undefined; pageSize?: number | undefined }) => ({ page: query.pageNo ?? 1, pageSize: query.pageSize ?? 20 });

/**
 * Records and the data dashboard (spec §7 Records and dashboard): invocation records, not-hit
 * knowledge records, transfers to a person, credits used and high-frequency words, each with a
 * streamed CSV/XLSX export, and the dashboard's counts in one call. Records follow their app's
 * data range.
 */
export function registerAnalysisRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/analysis/dashboard",
      tags,
      summary: "The data dashboard over a time range: users, records, not-hit, transfers, credits (totals, per app, per channel), daily trend, top 50 words",
      request: { query: dashboardQuerySchema },
      data: dashboardSchema,
    }),
    async (c) => ok(c, await dashboard(c.var.deps, c.var.auth, c.req.valid("query"))),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/analysis/records",
      tags,
      summary: "Invocation records (getInvokeRecord), newest first, filtered by app, channel, model or plugin and time",
      request: { query: recordsQuerySchema },
      data: recordPageSchema,
    }),
    async (c) => {
      const query = c.req.valid("query");
      return ok(c, await listRecords(c.var.deps, c.var.auth, "records", { ...query, ...pageOf(query) }));
    },
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/analysis/records/enums",
      tags,
      summary: "What records can be filtered by (getInvokeRecordQueryParamEnum)",
      data: enumsSchema,
    }),
    async (c) => ok(c, await recordEnums(c.var.deps, c.var.auth)),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/analysis/not-hit",
      tags,
      summary: "Turns whose knowledge retrieval found nothing (getNotHitKnowledgeInvokeRecord)",
      request: { query: recordsQuerySchema },
      data: recordPageSchema,
    }),
    async (c) => {
      const query = c.req.valid("query");
      return ok(c, await listRecords(c.var.deps, c.var.auth, "not-hit", { ...query, ...pageOf(query) }));
    },
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/analysis/transfers",
      tags,
      summary: "Conversations transferred to a person (getTransferManualInvokeRecord)",
      request: { query: recordsQuerySchema.omit({ model: true }) },
      data: transferPageSchema,
    }),
    async (c) => {
      const query = c.req.valid("query");
      return ok(c, await listTransfers(c.var.deps, c.var.auth, { ...query, ...pageOf(query) }));
    },
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/analysis/credits",
      tags,
      summary: "Credits used over the range, in total, by app and by channel (queryInvokeRecordAllUsedScore)",
      request: { query: analysisFiltersSchema },
      data: creditsSchema,
    }),
    async (c) => ok(c, await creditsUsed(c.var.deps, c.var.auth, c.req.valid("query"))),
  );

  app.openapi(
    defineRoute({
      method: "get",
      path: "/api/v1/analysis/words",
      tags,
      summary: "High-frequency words of the questions (Chinese by jieba, English lower-cased, stop words removed), most frequent first",
      request: { query: wordsQuerySchema.omit({ model: true }) },
      data: wordsSchema,
    }),
    async (c) => {
      const query = c.req.valid("query");
      return ok(c, await listWords(c.var.deps, c.var.auth, { ...query, limit: query.limit ?? 50 }));
    },
  );

  const exports: Array<[ExportKind, string, string]> = [
    ["records", "/api/v1/analysis/records/export", "Export invocation records (exportInvokeRecord) as CSV or XLSX, streamed"],
    ["not-hit", "/api/v1/analysis/not-hit/export", "Export not-hit knowledge records as CSV or XLSX, streamed"],
    ["transfers", "/api/v1/analysis/transfers/export", "Export transfer-to-a-person records as CSV or XLSX, streamed"],
    ["words", "/api/v1/analysis/words/export", "Export the high-frequency words as CSV or XLSX"],
  ];
  for (const [kind, path, summary] of exports) {
    app.openapi(defineExportRoute(path, summary), async (c) => {
      const body = c.req.valid("json");
      const file = await exportTable(c.var.deps, c.var.auth, kind, { filters: body.filters ?? {}, format: body.format, language: c.var.language });
      const ascii = file.fileName.replace(/[^\x20-\x7e]/g, "_");
      return new Response(file.body, {
        status: 200,
        headers: {
          "Content-Type": file.contentType,
          "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
          "X-Content-Type-Options": "nosniff",
          "Cache-Control": "private, no-store",
        },
      }) as never;
    });
  }
}
