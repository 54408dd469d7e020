import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";

/** Custom and built-in plugins: CRUD, parse, test run. */
export function registerPluginRoutes(_app: OpenAPIHono<AppEnv>) {}
