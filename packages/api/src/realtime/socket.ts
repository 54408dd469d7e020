import type { Server as HttpServer } from "node:http";
import type { Http2SecureServer, Http2Server } from "node:http2";
import { Server, type Socket } from "socket.io";
import { clientForVisitor, sessionForVisitor } from "../clients/service";
import { ServiceError } from "../errors";
import type { Deps } from "../http/context";
import { authenticate } from "../identity/service/sessions";

/** The socket.io server attached next to the Hono app. */
export interface RealtimeServer {
  /** The socket.io server (tests and diagnostics). */
  io: Server;
  /** Disconnects every socket and stops forwarding; leaves the HTTP server to its owner. */
  close(): Promise<void>;
}

/** Room of every console socket of a space. */
export const spaceRoom = (spaceId: string) => `space:${spaceId}`;
/** Room of a web visitor's session. */
export const visitorRoom = (sessionId: string) => `visitor:${sessionId}`;

const text = (value: unknown, max: number): string | undefined => (typeof value === "string" && value.length > 0 && value.length <= max ? value : undefined);

/** The page's origin and the host it called, from the handshake headers. */
function isSameOrigin(deps: Deps, socket: Socket): boolean {
  const origin = socket.handshake.headers.origin;
  if (!origin) return true;
  try {
    const url = new URL(origin);
    if (url.host === socket.handshake.headers.host) return true;
    return url.origin === new URL(deps.config.publicUrl).origin;
  } catch {
    return false;
  }
}

/**
 * Attaches socket.io to the server Hono listens on (it owns `/socket.io/`) with two namespaces:
 *
 * - `/console`: `auth.token` is a console session token or API key, checked like the HTTP bearer
 *   auth; `auth.spaceId` (optional, like the X-Parley-Space header) must be a space of the user.
 *   Same-origin pages only. The socket joins its space's room.
 * - `/visitor`: `auth.clientId`, `auth.sessionId` and `auth.token` (the visitor session's bearer
 *   token); the client must be enabled and the page's origin allowed, as on the visitor HTTP API.
 *
 * Refusals answer `connect_error` with the message `unauthorized`. Events published on
 * `deps.realtime` are forwarded unchanged: space targets to `/console`, visitor targets to
 * `/visitor` (event names and data in ./events.ts).
 */
export function attachRealtime(httpServer: HttpServer | Http2Server | Http2SecureServer, deps: Deps): RealtimeServer {
  const io = new Server(httpServer as HttpServer, {
    serveClient: false,
    // Any site may open the visitor namespace (the namespace refuses origins a client does not
    // allow, as the visitor HTTP API does); cookies are never used.
    cors: { origin: true, credentials: false },
    // Nothing we accept from clients is large: the handshake auth and pongs.
    maxHttpBufferSize: 16 * 1024,
    connectTimeout: 10_000,
  });
  // A socket.io-client in a test or a tab that leaves without closing: never an unhandled error.
  io.engine.on("connection_error", (error: { code?: number; message?: string }) => deps.logger.debug("socket connection refused", { code: error.code, message: error.message }));

  const consoles = io.of("/console");
  consoles.use(async (socket, next) => {
    try {
      const auth = socket.handshake.auth as Record<string, unknown>;
      const token = text(auth.token, 512);
      if (!token || !isSameOrigin(deps, socket)) return next(new Error("unauthorized"));
      const identity = await authenticate(deps, token, text(auth.spaceId, 64));
      socket.data.spaceId = identity.spaceId;
      socket.data.userId = identity.userId;
      next();
    } catch (error) {
      if (!(error instanceof ServiceError)) deps.logger.error("console socket auth failed", { error: String(error) });
      next(new Error("unauthorized"));
    }
  });
  consoles.on("connection", (socket) => {
    void socket.join(spaceRoom(socket.data.spaceId as string));
  });

  const visitors = io.of("/visitor");
  visitors.use(async (socket, next) => {
    try {
      const auth = socket.handshake.auth as Record<string, unknown>;
      const clientId = text(auth.clientId, 64);
      const sessionId = text(auth.sessionId, 64);
      const token = text(auth.token, 512);
      if (!clientId || !sessionId || !token) return next(new Error("unauthorized"));
      const client = await clientForVisitor(deps, clientId, socket.handshake.headers.origin);
      await sessionForVisitor(deps, client, sessionId, `Bearer ${token}`);
      socket.data.clientId = clientId;
      socket.data.sessionId = sessionId;
      next();
    } catch (error) {
      if (!(error instanceof ServiceError)) deps.logger.error("visitor socket auth failed", { error: String(error) });
      next(new Error("unauthorized"));
    }
  });
  visitors.on("connection", (socket) => {
    void socket.join(visitorRoom(socket.data.sessionId as string));
  });

  const unsubscribe = deps.realtime.subscribe((target, event, data) => {
    try {
      if (target.kind === "space") consoles.to(spaceRoom(target.spaceId)).emit(event, data);
      else visitors.to(visitorRoom(target.sessionId)).emit(event, data);
    } catch (error) {
      // A reserved event name or data that cannot be encoded: the publisher's bug, not a crash.
      deps.logger.error("realtime event not sent", { event, error: String(error) });
    }
  });

  return {
    io,
    async close() {
      unsubscribe();
      io.disconnectSockets(true);
      consoles.disconnectSockets(true);
      visitors.disconnectSockets(true);
      // Not io.close(): that would also close the HTTP server, which its owner closes.
      io.engine.close();
    },
  };
}
