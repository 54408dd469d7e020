import type { Server as HttpServer } from "node:http";
import type { Http2SecureServer, Http2Server } from "node:http2";
import { and, eq, inArray } from "drizzle-orm";
import { Server, type Socket } from "socket.io";
import { reachesAll } from "../access/follow";
import { rangeCondition } from "../access/range";
import { effectiveGrade } from "../billing/service/plans";
import { clientForVisitor, sessionForVisitor } from "../clients/service";
import { ServiceError } from "../errors";
import { channelClients, conversations, spacePlans, spaces, webClients } from "../db/schema/index";
import type { Auth, Deps } from "../kernel";
import { authenticate } from "../identity/service/sessions";
import { closeVisitorStreams, recheckVisitorStreams } from "./visitor-stream";

/** The socket.io server attached next to the Hono app. */
export interface RealtimeServer {
  /** The socket.io server (tests and diagnostics). */
  io: Server;
  /** Checks every connected socket's and visitor event stream's credentials again now (done every minute); refused ones are disconnected. */
  recheck(): Promise<void>;
  /** Disconnects every socket, ends the visitor event streams and stops forwarding; leaves the HTTP server to its owner. */
  close(): Promise<void>;
}

/** Room of every console socket of a space. */
export const spaceRoom = (spaceId: string) => `space:${spaceId}`;
/** Room of a web visitor's session. */
export const visitorRoom = (sessionId: string) => `visitor:${sessionId}`;

const text = (value: unknown, max: number): string | undefined => (typeof value === "string" && value.length > 0 && value.length <= max ? value : undefined);

/** The page's origin and the host it called, from the handshake headers. */
function isSameOrigin(deps: Pick<Deps, "config">, socket: Socket): boolean {
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
 * Refusals answer `connect_error` with the message `unauthorized`; connected sockets are checked
 * again every `recheckMs` (60 s) and sent away (`io server disconnect`) once refused. Events published on
 * `deps.realtime` are forwarded unchanged: space targets to `/console`, visitor targets to
 * `/visitor`, instance targets to every console (of spaces of the target's grade when it has one)
 * (event names and data in ./events.ts).
 */
export function attachRealtime(
  httpServer: HttpServer | Http2Server | Http2SecureServer,
  deps: Pick<Deps, "config" | "db" | "logger" | "now" | "realtime">,
  options: { recheckMs?: number } = {},
): RealtimeServer {
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
  io.engine.on("connection_error", (error: { code?: number; message?: string }) =>
    deps.logger.debug("socket connection refused", { code: error.code, message: error.message }),
  );

  /**
   * The console's space, or why not (a ServiceError: the credential or membership is gone). The
   * socket keeps the caller's access, and a ranged member's socket the clients it reaches, so
   * session events of other clients are not forwarded to it.
   */
  const consoleSpace = async (socket: Socket): Promise<string> => {
    const handshake = socket.handshake.auth as Record<string, unknown>;
    const token = text(handshake.token, 512);
    if (!token || !isSameOrigin(deps, socket)) throw new ServiceError("unauthenticated", "session_ended");
    const auth = await authenticate(deps, token, text(handshake.spaceId, 64));
    socket.data.auth = auth;
    socket.data.clientIds = reachesAll(auth) ? undefined : await reachableClients(auth);
    return auth.spaceId;
  };
  /** The web and channel clients a ranged member reaches. */
  const reachableClients = async (auth: Auth): Promise<Set<string>> => {
    const [web, channel] = await Promise.all([
      deps.db
        .select({ id: webClients.id })
        .from(webClients)
        .where(and(eq(webClients.spaceId, auth.spaceId), rangeCondition(auth, "client", webClients))),
      deps.db
        .select({ id: channelClients.id })
        .from(channelClients)
        .where(and(eq(channelClients.spaceId, auth.spaceId), rangeCondition(auth, "client", channelClients))),
    ]);
    return new Set([...web, ...channel].map((row) => row.id));
  };
  // A session's client never changes, so it is looked up once per session (kept for the newest sessions).
  const sessionClients = new Map<string, string | null>();
  const clientOfSession = async (sessionId: string): Promise<string | null> => {
    const known = sessionClients.get(sessionId);
    if (known !== undefined) return known;
    const row = await deps.db.select({ clientId: conversations.clientId }).from(conversations).where(eq(conversations.id, sessionId)).get();
    const clientId = row?.clientId ?? null;
    if (row) {
      if (sessionClients.size >= 10_000) sessionClients.delete(sessionClients.keys().next().value!);
      sessionClients.set(sessionId, clientId);
    }
    return clientId;
  };
  /** Whether a ranged member's socket hears an event about a session: only when they reach its client. */
  const reaches = async (socket: Socket, sessionId: string): Promise<boolean> => {
    const clientId = await clientOfSession(sessionId);
    if (clientId === null) return false;
    if ((socket.data.clientIds as Set<string>).has(clientId)) return true;
    // A client the member created since the socket's last check: look again, at most every 10 s.
    if (Date.now() - ((socket.data.clientsCheckedAt as number | undefined) ?? 0) < 10_000) return false;
    socket.data.clientsCheckedAt = Date.now();
    socket.data.clientIds = await reachableClients(socket.data.auth as Auth);
    return (socket.data.clientIds as Set<string>).has(clientId);
  };
  /**
   * Forwards a space event to the space's consoles. Sockets of members reaching the whole space get
   * it at once; a ranged member's socket gets events about sessions of the clients it reaches only,
   * through a queue of its own so its events keep their order.
   */
  const toConsoles = (spaceId: string, event: string, data: unknown) => {
    const room = consoles.adapter.rooms.get(spaceRoom(spaceId));
    const sessionId = typeof data === "object" && data !== null && "sessionId" in data ? (data as { sessionId: unknown }).sessionId : undefined;
    for (const id of room ? [...room] : []) {
      const socket = consoles.sockets.get(id);
      if (!socket) continue;
      if (!(socket.data.clientIds instanceof Set)) {
        socket.emit(event, data);
        continue;
      }
      const previous = (socket.data.queue as Promise<void> | undefined) ?? Promise.resolve();
      socket.data.queue = previous
        .then(async () => {
          if (typeof sessionId !== "string" || (await reaches(socket, sessionId))) socket.emit(event, data);
        })
        .catch((error: unknown) => deps.logger.error("realtime event not sent", { event, error: String(error) }));
    }
  };

  /**
   * Forwards an instance-wide event: to every console, or, for one grade, to the rooms of the
   * connected spaces whose effective grade it is (looked up in one query at the time of sending).
   */
  const toInstance = async (event: string, data: unknown, grade: string | undefined) => {
    if (!grade) {
      consoles.emit(event, data);
      return;
    }
    const spaceIds = [...new Set([...consoles.sockets.values()].map((socket) => socket.data.spaceId as string))];
    if (spaceIds.length === 0) return;
    const rows = await deps.db
      .select({ id: spaces.id, grade: spaces.memberGrade, expiresAt: spacePlans.expiresAt })
      .from(spaces)
      .leftJoin(spacePlans, eq(spacePlans.spaceId, spaces.id))
      .where(inArray(spaces.id, spaceIds))
      .all();
    const now = deps.now().toISOString();
    const rooms = rows
      .filter((row) => effectiveGrade(row.grade, row.expiresAt ? { expiresAt: row.expiresAt } : null, now) === grade)
      .map((row) => spaceRoom(row.id));
    if (rooms.length > 0) consoles.to(rooms).emit(event, data);
  };

  /** Checks the visitor's client, origin and session token. */
  const visitorSession = async (socket: Socket): Promise<{ clientId: string; sessionId: string }> => {
    const auth = socket.handshake.auth as Record<string, unknown>;
    const clientId = text(auth.clientId, 64);
    const sessionId = text(auth.sessionId, 64);
    const token = text(auth.token, 512);
    if (!clientId || !sessionId || !token) throw new ServiceError("unauthenticated", "visitor_token_invalid");
    const client = await clientForVisitor(deps, clientId, socket.handshake.headers.origin);
    await sessionForVisitor(deps, client, sessionId, `Bearer ${token}`);
    return { clientId, sessionId };
  };

  const consoles = io.of("/console");
  consoles.use(async (socket, next) => {
    try {
      socket.data.spaceId = await consoleSpace(socket);
      next();
    } catch (error) {
      if (!(error instanceof ServiceError)) deps.logger.error("console socket auth failed", { error: String(error) });
      next(new Error("unauthorized"));
    }
  });
  consoles.on("connection", (socket) => {
    socket.data.clientsCheckedAt = Date.now();
    void socket.join(spaceRoom(socket.data.spaceId as string));
  });

  const visitors = io.of("/visitor");
  visitors.use(async (socket, next) => {
    try {
      Object.assign(socket.data, await visitorSession(socket));
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
    if (target.kind === "space" && event === "access.changed") {
      // Removed members and narrowed roles stop hearing the space before anyone is told.
      void recheckRoom(target.spaceId)
        .catch((error: unknown) => deps.logger.warn("realtime recheck failed", { error: String(error) }))
        .then(() => consoles.to(spaceRoom(target.spaceId)).emit(event, data));
      return;
    }
    if (target.kind === "instance") {
      void toInstance(event, data, target.grade).catch((error: unknown) => deps.logger.error("realtime event not sent", { event, error: String(error) }));
      return;
    }
    try {
      if (target.kind === "space") toConsoles(target.spaceId, event, data);
      else visitors.to(visitorRoom(target.sessionId)).emit(event, data);
    } catch (error) {
      // A reserved event name or data that cannot be encoded: the publisher's bug, not a crash.
      deps.logger.error("realtime event not sent", { event, error: String(error) });
    }
  });

  // A console that signed out (or left the space), a client disabled or a session deleted stops
  // hearing events: every socket is checked again now and then, and sent away when refused.
  const recheck = async () => {
    const checks = [
      ...[...consoles.sockets.values()].map(
        (socket) =>
          [
            socket,
            // Without auth.spaceId the console follows the user's current space, which may have changed.
            consoleSpace(socket).then((spaceId) => {
              if (spaceId === socket.data.spaceId) return;
              void socket.leave(spaceRoom(socket.data.spaceId as string));
              socket.data.spaceId = spaceId;
              void socket.join(spaceRoom(spaceId));
            }),
          ] as const,
      ),
      ...[...visitors.sockets.values()].map((socket) => [socket, visitorSession(socket)] as const),
    ];
    for (const [socket, check] of checks) {
      try {
        await check;
      } catch (error) {
        if (error instanceof ServiceError) socket.disconnect(true);
        else deps.logger.warn("realtime recheck failed", { error: String(error) });
      }
    }
    // The visitors' event streams (realtime/visitor-stream.ts) follow the same rules.
    await recheckVisitorStreams(deps);
  };
  /** Checks the console sockets of one space again, now. */
  const recheckRoom = async (spaceId: string) => {
    const room = consoles.adapter.rooms.get(spaceRoom(spaceId));
    for (const id of room ? [...room] : []) {
      const socket = consoles.sockets.get(id);
      if (!socket) continue;
      try {
        const now = await consoleSpace(socket);
        if (now !== spaceId) {
          void socket.leave(spaceRoom(spaceId));
          socket.data.spaceId = now;
          void socket.join(spaceRoom(now));
        }
      } catch (error) {
        if (error instanceof ServiceError) socket.disconnect(true);
        else deps.logger.warn("realtime recheck failed", { error: String(error) });
      }
    }
  };
  const rechecking = setInterval(() => void recheck(), options.recheckMs ?? 60_000);
  rechecking.unref();

  return {
    io,
    recheck,
    async close() {
      clearInterval(rechecking);
      unsubscribe();
      io.disconnectSockets(true);
      consoles.disconnectSockets(true);
      visitors.disconnectSockets(true);
      closeVisitorStreams(deps);
      // Not io.close(): that would also close the HTTP server, which its owner closes.
      io.engine.close();
    },
  };
}
