import { createRoute, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { ServiceError } from "../errors";
import { operationKey } from "../access/operations";
import { requireAuth } from "./auth";
import type { AppEnv } from "./context";
import { envelopeOf, errorEnvelope, serviceErrorResponse } from "./envelope";

type RouteConfig = Parameters<typeof createRoute>[0];

const errorResponse = (description: string) => ({ description, content: { "application/json": { schema: errorEnvelope } } });

/** Error answers every route may give. */
export const standardErrors = {
  400: errorResponse("Invalid input; `data.field` names the field"),
  401: errorResponse("Not signed in, or the session ended"),
  404: errorResponse("Not found (including anything in another space)"),
  429: errorResponse("Too many attempts; see the Retry-After header"),
  500: errorResponse("Server error; `data.requestId` identifies the request"),
} as const;

/**
 * Defines a route whose 200 (or 201) answer is the envelope around `data`, with the standard
 * error answers and, unless `public`, bearer security.
 */
export function defineRoute<const R extends Omit<RouteConfig, "responses">, D extends z.ZodType>(
  config: R & { data: D; status?: 200 | 201; public?: boolean; summary: string; extraErrors?: Record<number, string> },
) {
  const { data, status = 200, public: isPublic, extraErrors = {}, ...rest } = config;
  const extra = Object.fromEntries(Object.entries(extraErrors).map(([code, text]) => [code, errorResponse(text)]));
  const declared = Object.keys((rest.request as { body?: { content?: Record<string, unknown> } } | undefined)?.body?.content ?? {});
  const operation = operationKey(String(rest.method), String(rest.path));
  const middleware = [...(isPublic ? [] : [requireAuth({ operation })]), ...(declared.length > 0 ? [requireMediaType(declared)] : [])];
  return createRoute({
    ...rest,
    ...(isPublic ? { security: [] } : { security: [{ bearer: [] }] }),
    ...(middleware.length > 0 ? { middleware } : {}),
    responses: {
      [status]: { description: config.summary, content: { "application/json": { schema: envelopeOf(data) } } },
      ...standardErrors,
      ...extra,
    },
  } as R & { responses: RouteConfig["responses"] });
}

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * Refuses a body whose content type the route does not declare, with a 415 that says what to
 * send instead (the login form is the one route that does not take JSON).
 */
function requireMediaType(declared: string[]): MiddlewareHandler<AppEnv> {
  const acceptsJson = declared.includes("application/json");
  const acceptsForm = declared.some((type) => FORM_TYPES.includes(type));
  return async (c, next) => {
    const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    const accepted = (acceptsJson && /^application\/([\w.-]+\+)?json$/.test(type)) || (acceptsForm && FORM_TYPES.includes(type));
    if (!accepted && (type !== "" || c.req.raw.body !== null)) {
      return serviceErrorResponse(c, new ServiceError("unsupported_media_type", "unsupported_media_type", { expected: declared.join(" or ") }));
    }
    await next();
  };
}

/** A required JSON body. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { "application/json": { schema } } } as const;
}

/** A required form-encoded body. */
export function formBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { "application/x-www-form-urlencoded": { schema } } } as const;
}

/** Path parameter holding a prefixed id. */
export const idParam = <N extends string>(name: N, example: string) =>
  z.object({
    [name]: z
      .string()
      .min(1)
      .max(64)
      .openapi({ param: { name, in: "path" }, example }),
  } as Record<N, z.ZodString>);
