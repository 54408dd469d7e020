/**
 * The console's real-time connection: the socket.io `/console` namespace of the API (same origin),
 * authenticated by the session token. Events mirror packages/api/src/realtime/events.ts.
 *
 *   const off = consoleRealtime()?.on('session.message', ({ sessionId, message }) => …);
 *   useRealtimeEvent('session.read', ({ sessionId, readStatus }) => …);
 *   const state = useRealtimeState(); // 'connected' | 'reconnecting' | …
 */
import { useEffect, useRef, useSyncExternalStore } from "react";
import { io, type Socket } from "socket.io-client";
import { sessionStore, useSession } from "./api/session";

/** Who wrote a message of a customer session. */
export type RealtimeMessageRole = "user" | "assistant" | "operator";
/** Who answers a customer session. */
export type ServiceMode = "FULL_AUTO_MODE" | "MANUAL_MODE" | "GROUP_MODE";

/** A message as the inbox shows it. */
export interface RealtimeMessage {
  id: string;
  role: RealtimeMessageRole;
  content: string;
  /** ISO timestamp. */
  createdAt: string;
  senderName?: string;
}

/** Event name → data of the `/console` namespace. */
export interface ConsoleEvents {
  "session.message": { sessionId: string; message: RealtimeMessage };
  /** The changed fields (e.g. `tags`), or the inbox's whole session object as `session`. */
  "session.updated": { sessionId: string; session?: Record<string, unknown>; tags?: string[]; [field: string]: unknown };
  "session.read": { sessionId: string; readStatus: "UNREAD" | "HAVE_READ" };
  "session.mode": { sessionId: string; serviceMode: ServiceMode };
  /** A message sent through a messaging channel was accepted by the platform, or failed. */
  "session.delivery": { sessionId: string; messageId: string; delivery: "sent" | "failed"; error?: string };
  /** Who may do what in the space changed (a role, a member's role, a member removed): read the privileges again. */
  "access.changed": { reason: "role" | "member" | "removed" | "owner"; userIds?: string[]; roleId?: string };
  /** The instance administrator published an announcement addressed to this console: read the unread count again. */
  "announcement.published": { id: string; title: string };
}

/** Where the connection is: `unauthorized` (refused) and `failed` (attempts used up) stay until a new session. */
export type RealtimeState = "idle" | "connecting" | "connected" | "reconnecting" | "unauthorized" | "failed";

/** The spec's socket options: auto-connect off, 100 attempts, 10 s apart (the max and zero jitter make it 10 s). */
export const CONSOLE_SOCKET_OPTIONS = {
  autoConnect: false,
  // A WebSocket first: one connection holds the session, so API processes behind a load balancer
  // need no sticky sessions; long-polling only where a WebSocket cannot open (decision 0031).
  transports: ["websocket", "polling"] as ("websocket" | "polling")[],
  tryAllTransports: true,
  reconnection: true,
  reconnectionAttempts: 100,
  reconnectionDelay: 10_000,
  reconnectionDelayMax: 10_000,
  randomizationFactor: 0,
} as const;

/** One `/console` connection. */
export interface ConsoleRealtime {
  /** Listens to an event (connecting on the first listener); answers the unsubscribe. */
  on<K extends keyof ConsoleEvents>(event: K, handler: (data: ConsoleEvents[K]) => void): () => void;
  state(): RealtimeState;
  /** Calls `listener` on every state change; answers the unsubscribe. */
  onState(listener: (state: RealtimeState) => void): () => void;
  connect(): void;
  close(): void;
  /** The socket.io-client socket (tests, diagnostics). */
  readonly socket: Socket;
}

/**
 * Creates a `/console` connection (not yet connected). `url` is the API origin (default: this
 * page's); `spaceId` picks a space of the user like the X-Parley-Space header (default: the
 * current space, as the console's requests).
 */
export function createConsoleRealtime(options: { token: string; spaceId?: string; url?: string }): ConsoleRealtime {
  const base = options.url ?? (typeof location === "undefined" ? "" : location.origin);
  // forceNew: two io() calls to one origin would share a manager and its options (channels.md §7).
  const socket = io(`${base}/console`, {
    ...CONSOLE_SOCKET_OPTIONS,
    forceNew: true,
    auth: { token: options.token, ...(options.spaceId ? { spaceId: options.spaceId } : {}) },
  });
  let state: RealtimeState = "idle";
  const stateListeners = new Set<(state: RealtimeState) => void>();
  const set = (next: RealtimeState) => {
    if (next === state) return;
    state = next;
    for (const listener of [...stateListeners]) {
      try {
        listener(state);
      } catch (error) {
        console.warn("[realtime]", error);
      }
    }
  };
  socket.on("connect", () => set("connected"));
  socket.on("disconnect", (reason) => set(reason === "io client disconnect" ? "idle" : reason === "io server disconnect" ? "failed" : "reconnecting"));
  socket.on("connect_error", (error) => {
    // A refusal by the server's auth is final; a network error is retried by the manager.
    if (!socket.active) set(error.message === "unauthorized" ? "unauthorized" : "failed");
    else set("reconnecting");
  });
  socket.io.on("reconnect_failed", () => set("failed"));
  const realtime: ConsoleRealtime = {
    socket,
    on<K extends keyof ConsoleEvents>(event: K, handler: (data: ConsoleEvents[K]) => void) {
      const listener = (data: ConsoleEvents[K]) => {
        try {
          handler(data);
        } catch (error) {
          console.warn("[realtime]", event, error);
        }
      };
      socket.on(event as string, listener);
      realtime.connect();
      return () => {
        socket.off(event as string, listener);
      };
    },
    state: () => state,
    onState(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    connect() {
      if (socket.connected || socket.active || state === "unauthorized") return;
      set("connecting");
      socket.connect();
    },
    close() {
      socket.disconnect();
      set("idle");
    },
  };
  return realtime;
}

let shared: { key: string; realtime: ConsoleRealtime } | undefined;
const sharedListeners = new Set<() => void>();

/**
 * The connection of the signed-in session, shared by every screen; replaced when the token or
 * the current space changes, closed on sign-out. Undefined when nobody is signed in.
 */
export function consoleRealtime(): ConsoleRealtime | undefined {
  const { token, nowSelect } = sessionStore.get();
  const key = token ? `${token} ${nowSelect?.spaceId ?? ""}` : "";
  if (shared?.key !== key) {
    shared?.realtime.close();
    shared = token ? { key, realtime: createConsoleRealtime({ token }) } : undefined;
    shared?.realtime.onState(() => sharedListeners.forEach((listener) => listener()));
  }
  return shared?.realtime;
}

sessionStore.subscribe(() => {
  if (shared && !sessionStore.get().token) consoleRealtime();
});

/** Calls `handler` for every `event` while the component is mounted (the latest handler wins). */
export function useRealtimeEvent<K extends keyof ConsoleEvents>(event: K, handler: (data: ConsoleEvents[K]) => void): void {
  const latest = useRef(handler);
  latest.current = handler;
  const { token, nowSelect } = useSession();
  useEffect(() => consoleRealtime()?.on(event, (data) => latest.current(data)), [event, token, nowSelect?.spaceId]);
}

/** The shared connection's state, re-rendering on change. */
export function useRealtimeState(): RealtimeState {
  const read = () => consoleRealtime()?.state() ?? "idle";
  return useSyncExternalStore(
    (listener) => {
      sharedListeners.add(listener);
      const offSession = sessionStore.subscribe(listener);
      return () => {
        sharedListeners.delete(listener);
        offSession();
      };
    },
    read,
    read,
  );
}
