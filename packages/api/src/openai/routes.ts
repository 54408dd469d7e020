import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";

/** The OpenAI-compatible open API under /v1 (answers in OpenAI's own format, not the envelope). */
export function registerOpenAiRoutes(_app: OpenAPIHono<AppEnv>) {}
