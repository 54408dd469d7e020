import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";

/** Apps, reactions, rate limits and thresholds. */
export function registerAppRoutes(_app: OpenAPIHono<AppEnv>) {}
