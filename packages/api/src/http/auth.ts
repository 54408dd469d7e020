import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context, MiddlewareHandler } from "hono";
import { type OperationAccess, operationAccess } from "../access/operations";
import { fail, ServiceError } from "../errors";
import type { Auth } from "../kernel";
import { authenticate } from "../identity/service/sessions";
import type { AppEnv } from "./context";
import { serviceErrorResponse } from "./envelope";

/**
 * What `operation` needs (access/operations.ts). Throws for an operation the table does not
 * list, so a new route cannot be registered without deciding who may call it.
 */
export function accessFor(operation: string): OperationAccess {
  const needed = operationAccess[operation];
  if (!needed) throw new Error(`${operation} has no entry in access/operations.ts: decide which grant it needs`);
  return needed;
}

/** Refuses a caller whose role lacks the grant an operation needs (403, nothing done). */
export function checkAccess(auth: Auth, needed: OperationAccess): void {
  if (needed === "member" || needed === "instance" || !auth.access) return;
  if (auth.access.grants.has(needed)) return;
  const [resource, level] = needed.split(".") as [string, "view" | "edit"];
  throw new ServiceError("forbidden", level === "edit" ? "permission_denied_edit" : "permission_denied_view", { resource: `resource.${resource}` });
}

/**
 * Requires a bearer session token or API key and sets `c.var.auth`. With `operation`
 * (`METHOD /path`), the caller's role must also hold what the operation needs.
 */
export function requireAuth(options: { sessionOnly?: boolean; operation?: string } = {}): MiddlewareHandler<AppEnv> {
  const needed = options.operation ? accessFor(options.operation) : "member";
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) return serviceErrorResponse(c, fail.unauthenticated());
    const space = c.req.header("x-parley-space")?.trim() || undefined;
    const auth = await authenticate(c.var.deps, match[1], space);
    if (options.sessionOnly && auth.via !== "session") return serviceErrorResponse(c, fail.forbidden("api_key_not_allowed"));
    c.set("auth", auth);
    checkAccess(auth, needed);
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
