import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";

/** The model catalogue and the owner's provider settings. */
export function registerModelRoutes(_app: OpenAPIHono<AppEnv>) {}
