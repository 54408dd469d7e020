import type { IncomingMessage } from "node:http";
import { getConnInfo } from "@hono/node-server/conninfo";
import proxyaddr from "proxy-addr";
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

/** Compiled trust lists, by their text (a process has one configuration; tests build several). */
const trustCache = new Map<string, (address: string, hop: number) => boolean>();

function trustOf(proxies: readonly string[]): (address: string, hop: number) => boolean {
  const text = proxies.join(",");
  let trust = trustCache.get(text);
  if (!trust) {
    trust = proxyaddr.compile([...proxies]);
    trustCache.set(text, trust);
  }
  return trust;
}

/**
 * The caller's address: the TCP peer, or — when the peer is a trusted proxy
 * (PARLEY_TRUSTED_PROXIES) — the nearest address in X-Forwarded-For that is not one, so
 * per-address throttles count visitors rather than the load balancer. A forwarded header from
 * an untrusted peer is ignored, so a caller cannot choose its own address.
 */
export function clientIp(c: Context<AppEnv>): string {
  try {
    const proxies = c.var.deps?.config.trustedProxies ?? [];
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (proxies.length > 0 && incoming?.socket) return proxyaddr(incoming, trustOf(proxies));
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
