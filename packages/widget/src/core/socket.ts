/**
 * A compact socket.io client for the visitor namespace (docs/decisions/0006-visitor-socket.md):
 * Engine.IO v4 + Socket.IO v5 over HTTP long-polling (fetch), receiving events, with
 * socket.io-client's reconnection rules. No Preact, no DOM.
 *
 * Long-polling, not a WebSocket: a site's Content-Security-Policy that lets the widget call
 * `http(s)://parley` (connect-src) does not let it open `ws(s)://parley`; Chromium blocks it.
 *
 * Speaks: GET `/socket.io/?EIO=4&transport=polling` → `0{sid, pingInterval, pingTimeout}`; then
 * GET (long poll) and POST with `&sid=`, packets separated by `\x1e`: `2` ping → `3` pong,
 * `1` close, `6` noop, and `4` + socket.io packets: `0/nsp,{auth}` connect, `0/nsp,{sid}`
 * connected, `4/nsp,{message}` refused, `2/nsp,["event",data]` event, `1/nsp,` sent away.
 */

/** Options; the names and defaults of the reconnection ones are socket.io-client's. */
export interface SocketOptions {
  /** The API base, `http(s)://host[:port]`; `/socket.io/` is appended. */
  url: string;
  /** The namespace, e.g. `/visitor`. */
  namespace: string;
  /** Sent with every namespace connect (socket.io's `auth`). */
  auth: Record<string, unknown>;
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
  /** The fetch to use (tests). */
  fetch?: typeof fetch;
}

/**
 * Local events: `connect` (data: true on a reconnection), `disconnect` (reason), `connect_error`
 * ({ message }), `reconnect_attempt` (attempt), `reconnect_failed`; any other name is a server event.
 */
export type SocketHandler = (
  // biome-ignore lint/suspicious/noExplicitAny: a handler receives the payload of whichever event it subscribed to
  data: any,
) => void;

/** A socket of one namespace; nothing happens until {@link ClientSocket.connect}. */
export interface ClientSocket {
  readonly connected: boolean;
  connect(): void;
  disconnect(): void;
  on(event: string, handler: SocketHandler): () => void;
}

/**
 * The visitor socket's reconnection (spec: 100 attempts, 10 s apart). The delay max and the zero
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

/** Creates a socket with socket.io-client's reconnection semantics and `autoConnect: false`. */
export function createSocket(options: SocketOptions): ClientSocket {
  const {
    namespace,
    reconnection = true,
    reconnectionAttempts = Infinity,
    reconnectionDelay = 1000,
    reconnectionDelayMax = 5000,
    randomizationFactor = 0.5,
    fetch: fetcher = (...args) => fetch(...args),
  } = options;
  const handlers: Record<string, SocketHandler[]> = {};
  const emit = (event: string, data?: unknown) => {
    for (const handler of handlers[event]?.slice() ?? []) {
      try {
        handler(data);
      } catch (error) {
        console.warn("[parley]", error);
      }
    }
  };
  /** The current connection: aborting it ends its poll and posts. */
  let current: AbortController | undefined;
  let url = "";
  let connected = false;
  let everConnected = false;
  let attempts = 0;
  let reconnecting = false;
  let stopped = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setTimeout> | undefined;
  let sequence = 0;
  const prefix = namespace === "/" ? "" : `${namespace},`;

  const request = (body: string | undefined, signal?: AbortSignal) =>
    fetcher(`${url}&t=${++sequence}`, { method: body ? "POST" : "GET", credentials: "omit", ...(body ? { body } : {}), ...(signal ? { signal } : {}) }).then(
      (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.text();
      },
    );

  const drop = () => {
    clearTimeout(pingTimer);
    current?.abort();
    current = undefined;
  };

  /** The connection ended without our asking: report, then retry like socket.io's manager. */
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
    url = `${options.url}/socket.io/?EIO=4&transport=polling`;
    // Posts go one at a time (the server refuses overlapping ones).
    let posting: Promise<unknown> = Promise.resolve();
    const write = (packet: string) => {
      posting = posting.then(() => request(packet, connection.signal)).catch(() => mine() && lost("transport error"));
    };
    let alive = 0;
    const heartbeat = () => {
      clearTimeout(pingTimer);
      pingTimer = setTimeout(() => lost("ping timeout"), alive);
    };
    const receive = (data: string) => {
      const type = data[0];
      if (type === "0") {
        const handshake = JSON.parse(data.slice(1));
        url += `&sid=${encodeURIComponent(handshake.sid)}`;
        alive = handshake.pingInterval + handshake.pingTimeout;
        heartbeat();
        write(`40${prefix}${JSON.stringify(options.auth)}`);
      } else if (type === "2") {
        heartbeat();
        write("3");
      } else if (type === "1") lost("transport close");
      else if (type === "4" && data.startsWith(prefix, 2)) {
        const kind = data[1];
        const body = data.slice(2 + prefix.length).replace(/^\d+/, "");
        const payload = body ? JSON.parse(body) : undefined;
        if (kind === "0") {
          const again = everConnected;
          connected = everConnected = true;
          attempts = 0;
          reconnecting = false;
          emit("connect", again);
        } else if (kind === "2" && Array.isArray(payload)) emit(payload[0], payload[1]);
        else if (kind === "4" || kind === "1") {
          // Refused, or sent away by the server: socket.io-client does not retry either.
          stopped = true;
          lost(kind === "1" ? "io server disconnect" : "refused");
          if (kind === "4") emit("connect_error", payload);
        }
      }
    };
    void (async () => {
      try {
        while (mine()) {
          for (const packet of (await request(undefined, connection.signal)).split("\x1e")) {
            if (!mine()) break;
            try {
              receive(packet);
            } catch {
              // A packet we cannot read (malformed, binary): skipped, like an unknown event.
            }
          }
        }
      } catch {
        if (mine()) lost("transport error");
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
      // Tell the server at once rather than letting the session time out.
      if (current && url.includes("&sid=")) void request(`41${prefix}\x1e1`).catch(() => {});
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
