/**
 * The visitor's live events (an operator's message, a mode change) over the visitor API's event
 * stream, `GET …/sessions/{sessionId}/events` (docs/decisions/0006 and 0031), with the
 * reconnection rules the spec fixes for the visitor socket. No Preact, no DOM.
 *
 * One long GET read with fetch (it sends the bearer token as a header: the token stays out of
 * URLs and logs; EventSource could not). Plain HTTP to the API origin, which a strict CSP's
 * `connect-src` already allows, and any API process can answer it: no sticky sessions.
 */

/** One event of the stream: its name and its JSON data. */
export interface LiveEvent {
  event: string;
  data: unknown;
}

/** Options; the names and defaults of the reconnection ones are socket.io-client's. */
export interface LiveOptions {
  /**
   * Opens the stream (resolves once the server accepted it) and reads its events; `alive` is
   * called on every chunk received, heartbeats included. Rejects with an error carrying `status`
   * when refused (401, 403, 404: not retried).
   */
  open(signal: AbortSignal, alive: () => void): Promise<AsyncIterable<LiveEvent>>;
  /** Silence after which the stream is taken for dead and reopened (the server pings every 25 s). Default 60000 ms. */
  idleMs?: number;
  /** Default true. */
  reconnection?: boolean;
  /** Default Infinity. */
  reconnectionAttempts?: number;
  /** Default 1000 ms. */
  reconnectionDelay?: number;
  /** Default 5000 ms. */
  reconnectionDelayMax?: number;
  /** Default 0.5. */
  randomizationFactor?: number;
}

/**
 * Local events: `connect` (data: true on a reconnection), `disconnect` (reason), `connect_error`
 * ({ message, status }), `reconnect_attempt` (attempt), `reconnect_failed`; any other name is a server event.
 */
export type LiveHandler = (
  // biome-ignore lint/suspicious/noExplicitAny: a handler receives the payload of whichever event it subscribed to
  data: any,
) => void;

/** A live connection to one session; nothing happens until {@link LiveConnection.connect}. */
export interface LiveConnection {
  readonly connected: boolean;
  connect(): void;
  disconnect(): void;
  on(event: string, handler: LiveHandler): () => void;
}

/**
 * The visitor's reconnection (spec: 100 attempts, 10 s apart). The delay max and the zero
 * randomization matter: socket.io's backoff caps at `reconnectionDelayMax` (5 s by default).
 */
export const VISITOR_RECONNECTION = {
  reconnection: true,
  reconnectionAttempts: 100,
  reconnectionDelay: 10_000,
  reconnectionDelayMax: 10_000,
  randomizationFactor: 0,
} as const;

/** The delay before reconnection attempt `attempt` (0-based), as socket.io-client's backoff computes it. */
export function backoffDelay(attempt: number, min: number, max: number, jitter: number, random = Math.random()): number {
  let ms = min * 2 ** attempt;
  if (jitter) {
    const deviation = Math.floor(random * jitter * ms);
    ms = Math.floor(random * 10) & 1 ? ms + deviation : ms - deviation;
  }
  return Math.min(ms, max) | 0;
}

/** Refusals the server will repeat: retrying them only adds requests. */
const REFUSED = new Set([401, 403, 404]);

/** Creates a live connection with socket.io-client's reconnection semantics and `autoConnect: false`. */
export function createLive(options: LiveOptions): LiveConnection {
  const {
    idleMs = 60_000,
    reconnection = true,
    reconnectionAttempts = Infinity,
    reconnectionDelay = 1000,
    reconnectionDelayMax = 5000,
    randomizationFactor = 0.5,
  } = options;
  const handlers: Record<string, LiveHandler[]> = {};
  const emit = (event: string, data?: unknown) => {
    for (const handler of handlers[event]?.slice() ?? []) {
      try {
        handler(data);
      } catch (error) {
        console.warn("[parley]", error);
      }
    }
  };
  let current: AbortController | undefined;
  let connected = false;
  let everConnected = false;
  let attempts = 0;
  let reconnecting = false;
  let stopped = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;

  const drop = () => {
    clearTimeout(idleTimer);
    current?.abort();
    current = undefined;
  };

  /** The stream ended without our asking: report, then retry like socket.io's manager. */
  const lost = (reason: string) => {
    drop();
    if (connected) {
      connected = false;
      emit("disconnect", reason);
    } else reconnecting = false;
    if (!stopped && reconnection) schedule();
  };

  const schedule = () => {
    if (reconnecting) return;
    if (attempts >= reconnectionAttempts) {
      attempts = 0;
      stopped = true;
      emit("reconnect_failed");
      return;
    }
    reconnecting = true;
    timer = setTimeout(
      () => {
        emit("reconnect_attempt", attempts);
        open();
      },
      backoffDelay(attempts++, reconnectionDelay, reconnectionDelayMax, randomizationFactor),
    );
  };

  const open = () => {
    drop();
    const connection = (current = new AbortController());
    const mine = () => current === connection;
    const alive = () => {
      clearTimeout(idleTimer);
      if (mine()) idleTimer = setTimeout(() => mine() && lost("ping timeout"), idleMs);
    };
    alive();
    void (async () => {
      try {
        const events = await options.open(connection.signal, alive);
        if (!mine()) return;
        const again = everConnected;
        connected = everConnected = true;
        attempts = 0;
        reconnecting = false;
        emit("connect", again);
        for await (const item of events) {
          if (!mine()) return;
          emit(item.event, item.data);
        }
        if (mine()) lost("transport close");
      } catch (error) {
        if (!mine()) return;
        const status = (error as { status?: number })?.status ?? 0;
        if (!connected && REFUSED.has(status)) {
          // Refused (token, origin, client): socket.io-client does not retry a connect_error either.
          stopped = true;
          lost("refused");
          emit("connect_error", { message: (error as Error).message, status });
        } else lost("transport error");
      }
    })();
  };

  return {
    get connected() {
      return connected;
    },
    connect() {
      if (!stopped) return;
      stopped = false;
      if (!current && !reconnecting) open();
    },
    disconnect() {
      stopped = true;
      reconnecting = false;
      clearTimeout(timer);
      drop();
      if (connected) {
        connected = false;
        emit("disconnect", "io client disconnect");
      }
    },
    on(event, handler) {
      (handlers[event] ??= []).push(handler);
      return () => {
        handlers[event] = handlers[event]!.filter((item) => item !== handler);
      };
    },
  };
}
