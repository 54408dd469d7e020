import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../http/context";

/** Conversations, the streaming chat endpoint, usage and credits. */
export function registerChatRoutes(_app: OpenAPIHono<AppEnv>) {}
