import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ErrorKind, ServiceError } from "../errors";
import type { Language } from "../i18n/language";
import type { AppEnv } from "./context";
import { translate, translateStored } from "./translate";

/**
 * The error catalogue: each kind of failure has one envelope code and one HTTP status.
 * 701 and 870 are envelope codes the clients handle silently; HTTP has no such statuses,
 * so they travel as 402.
 */
export const errorCatalogue: Record<ErrorKind, { code: number; status: ContentfulStatusCode }> = {
  validation: { code: 400, status: 400 },
  unauthenticated: { code: 401, status: 401 },
  session_ended: { code: 401, status: 401 },
  forbidden: { code: 403, status: 403 },
  not_found: { code: 404, status: 404 },
  conflict: { code: 409, status: 409 },
  payload_too_large: { code: 413, status: 413 },
  unsupported_media_type: { code: 415, status: 415 },
  rate_limited: { code: 429, status: 429 },
  html_message: { code: 440, status: 440 as ContentfulStatusCode },
  upgrade_required: { code: 701, status: 402 },
  insufficient_credits: { code: 870, status: 402 },
  external: { code: 502, status: 502 },
  internal: { code: 500, status: 500 },
  // Spec §8's image statuses travel as they are, as HTTP statuses too (the clients show each as its warning).
  image_balance: { code: 406, status: 406 },
  image_rejected: { code: 410, status: 410 },
  image_task_not_found: { code: 461, status: 461 as ContentfulStatusCode },
  image_unavailable: { code: 503, status: 503 },
  image_task_busy: { code: 511, status: 511 },
  image_failed: { code: 561, status: 561 as ContentfulStatusCode },
  image_unknown: { code: 599, status: 599 as ContentfulStatusCode },
};

/** The envelope every JSON answer is wrapped in. */
export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    code: z.number().int().openapi({ example: 200 }),
    message: z.string().openapi({ example: "OK" }),
    data,
  });
}

/** The envelope of a failed request. */
export const errorEnvelope = z
  .object({
    success: z.literal(false),
    code: z.number().int().openapi({
      description:
        "400 invalid input (the message names the field), 401 session ended or missing, 403, 404, 409, 413, 415, 429 (see Retry-After), 440 message is HTML, 701 upgrade required, 870 insufficient credits, 500, 502; image task calls: 406 insufficient balance, 410 generation refused (check the prompt), 461 task not found, 503 image service unavailable, 511 wait for the current task, 561 generation issue, 599 unknown",
      example: 404,
    }),
    message: z.string().openapi({ example: "Space not found" }),
    data: z
      .object({
        field: z.string().optional(),
        requestId: z.string().optional(),
        quota: z.string().optional().openapi({ description: "701: the quota reached (apps, workflows, knowledgeTokens…)" }),
        feature: z.string().optional().openapi({ description: "701: the feature the plan does not include (hosting, manualTransfer, remoteDatabase)" }),
        limit: z.number().int().optional().openapi({ description: "701: the quota's limit on the current plan" }),
        plan: z.string().optional().openapi({ description: "701: the plan the space runs on (free, pro, team, enterprise, custom)" }),
      })
      .nullable()
      .openapi({ description: "Details: the offending field for 400, the request id for 500, the quota or feature, limit and plan for 701" }),
  })
  .openapi("ErrorEnvelope");

/** Answers a success envelope. */
export function ok<T>(c: Context<AppEnv>, data: T, status: 200 | 201 = 200): Response {
  return c.json({ success: true as const, code: status, message: translate(c.var.language, status === 201 ? "created" : "ok"), data }, status);
}

/** Builds the failure envelope and its status. */
export function failure(
  _language: Language,
  kind: ErrorKind,
  message: string,
  data: { field?: string; requestId?: string; quota?: string; feature?: string; limit?: number; plan?: string } | null = null,
) {
  const entry = errorCatalogue[kind];
  return { body: { success: false as const, code: entry.code, message, data }, status: entry.status };
}

/** Turns a ServiceError into its envelope answer. */
export function serviceErrorResponse(c: Context<AppEnv>, error: ServiceError) {
  const { body, status } = failure(
    c.var.language,
    error.kind,
    translate(c.var.language, error.messageId, error.params),
    error.extra.upgrade ? { ...error.extra.upgrade } : error.extra.field ? { field: error.extra.field } : null,
  );
  if (error.extra.retryAfterSeconds !== undefined) c.header("Retry-After", String(error.extra.retryAfterSeconds));
  return c.json(body, status);
}

/** The one place any thrown error becomes an answer; nothing thrown can crash the process. */
export function handleError(error: unknown, c: Context<AppEnv>) {
  if (error instanceof ServiceError) return serviceErrorResponse(c, error);
  if (error instanceof HTTPException) {
    const status = error.status;
    if (status === 413) {
      return serviceErrorResponse(c, new ServiceError("payload_too_large", "payload_too_large", { limit: c.var.deps.config.bodyLimitBytes }));
    }
    if (status === 400 && /json/i.test(error.message)) {
      return serviceErrorResponse(c, new ServiceError("validation", "malformed_json"));
    }
    if (status === 415 || (status === 400 && /content-type/i.test(error.message))) {
      return serviceErrorResponse(c, new ServiceError("unsupported_media_type", "unsupported_media_type", { expected: "application/json" }));
    }
    const kind: ErrorKind = status === 401 ? "unauthenticated" : status === 404 ? "not_found" : status < 500 ? "validation" : "internal";
    const { body, status: code } = failure(c.var.language, kind, error.message);
    return c.json(body, code);
  }
  const requestId = c.var.requestId;
  c.var.deps.logger.error("request failed", { requestId, path: c.req.path, error: describe(error) });
  const { body, status } = failure(c.var.language, "internal", translate(c.var.language, "internal_error", { requestId }), {
    requestId,
  });
  return c.json(body, status);
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `\ncaused by ${error.cause.name}: ${error.cause.message}` : "";
  // Failed-query errors carry their bound values (password hashes, token hashes): keep the SQL, drop the values.
  return `${error.name}: ${error.message}\n${error.stack ?? ""}${cause}`.replace(/\nparams: [\s\S]*?(?=\n\s+at |\ncaused by |$)/g, "\nparams: [redacted]");
}

/**
 * The validation hook for every route: the first issue names its field, in the request's language.
 */
export function validationHook(result: { success: true } | { success: false; error: z.ZodError; target?: string }, c: Context<AppEnv>) {
  if (result.success) return undefined;
  const issue = result.error.issues[0];
  const field = issue ? issue.path.map(String).join(".") || (issue.code === "invalid_type" ? "body" : "input") : "input";
  const reason = issue ? localIssueMessage(c.var.language, issue) : "invalid";
  return serviceErrorResponse(c, new ServiceError("validation", "validation_failed", { field, reason }, { field }));
}

const zhLocale = z.locales.zhCN();
const enLocale = z.locales.en();

function localIssueMessage(language: Language, issue: z.core.$ZodIssue): string {
  // Custom messages written in our schemas are message ids; zod's own are rendered per language.
  if (issue.message?.startsWith("msg:")) return translateStored(language, issue.message.slice(4));
  const locale = language === "zh-CN" ? zhLocale : enLocale;
  const raw = { ...issue, input: undefined } as unknown as z.core.$ZodRawIssue;
  const rendered = locale.localeError(raw);
  if (typeof rendered === "string") return rendered;
  return rendered?.message ?? issue.message;
}
