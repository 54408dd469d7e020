import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import { fail } from "../errors";
import { authenticate } from "../identity/service/sessions";
import type { AppEnv } from "./context";
import { serviceErrorResponse } from "./envelope";

/** Requires a bearer session token or API key and sets `c.var.auth`. */
export function requireAuth(options: { sessionOnly?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) return serviceErrorResponse(c, fail.unauthenticated());
    const space = c.req.header("x-parley-space")?.trim() || undefined;
    const auth = await authenticate(c.var.deps, match[1], space);
    if (options.sessionOnly && auth.via !== "session") return serviceErrorResponse(c, fail.forbidden("api_key_not_allowed"));
    c.set("auth", auth);
    await next();
  };
}

/** The caller's address as the socket saw it. */
export function clientIp(c: Context<AppEnv>): string {
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "local";
  }
}

/** IP and user agent of the caller, for sessions and throttles. */
export function clientOf(c: Context<AppEnv>): { ip: string; userAgent?: string } {
  const userAgent = c.req.header("user-agent");
  return { ip: clientIp(c), ...(userAgent ? { userAgent } : {}) };
}
