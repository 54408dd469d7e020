import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { clientForVisitor, sessionForVisitor } from "../clients/service";
import { ServiceError } from "../errors";
import type { AppEnv } from "../http/context";
import type { Deps } from "../kernel";
import type { RealtimeHub } from "./hub";

/**
 * How often an open stream sends a comment line (proxies and load balancers close connections
 * that stay silent, commonly after 60 s). Tests shorten it.
 */
export const visitorStreamTiming = { heartbeatMs: 25_000 };

interface OpenStream {
  /** Checks the visitor's client, origin and token again; ends the stream when refused. */
  recheck(): Promise<void>;
  /** Ends the stream (the visitor reconnects). */
  end(): void;
}

// The streams open in this process, per hub (one per server): the socket server rechecks and closes them.
const openStreams = new WeakMap<RealtimeHub, Set<OpenStream>>();

/**
 * Checks every open visitor stream of this hub again (the socket server does it with its sockets,
 * every minute): a disabled client, an origin no longer allowed or a deleted session ends the stream.
 */
export async function recheckVisitorStreams(deps: Pick<Deps, "logger" | "realtime">): Promise<void> {
  await Promise.all([...(openStreams.get(deps.realtime) ?? [])].map((stream) => stream.recheck()));
}

/** How many visitor streams of this hub are open in this process (diagnostics and tests). */
export function openVisitorStreams(deps: Pick<Deps, "realtime">): number {
  return openStreams.get(deps.realtime)?.size ?? 0;
}

/** Ends every open visitor stream of this hub (shutdown: they would keep the HTTP server open). */
export function closeVisitorStreams(deps: Pick<Deps, "realtime">): void {
  for (const stream of [...(openStreams.get(deps.realtime) ?? [])]) stream.end();
}

/**
 * `GET /api/v1/widget/{clientId}/sessions/{sessionId}/events`: the visitor's events (those of the
 * socket.io `/visitor` namespace, same names and data, see ./events.ts) as server-sent events.
 * Checked like the namespace: the client enabled, the Origin allowed, the bearer token the
 * session's; a refusal answers as an envelope before the stream starts. Any API process can serve
 * it, since hub events reach every process (decision 0031): no sticky sessions.
 *
 * The stream opens with a `: open` comment (so headers and the first bytes leave at once), sends
 * `: ping` every {@link visitorStreamTiming}.heartbeatMs, and writes each event as
 * `event: <name>` + `data: <JSON>`. Events carry no ids and `Last-Event-ID` is not read: nothing is
 * replayed; a client that reconnects refetches the session's messages.
 */
export async function streamVisitorEvents(c: Context<AppEnv>, clientId: string, sessionId: string) {
  const { deps } = c.var;
  const origin = c.req.header("origin");
  const authorization = c.req.header("authorization");
  const check = async () => {
    const client = await clientForVisitor(deps, clientId, origin);
    await sessionForVisitor(deps, client, sessionId, authorization);
  };
  await check();
  // nginx buffers responses unless told otherwise; an event must leave when it is written.
  c.header("X-Accel-Buffering", "no");
  c.header("Cache-Control", "no-cache, no-transform");
  return streamSSE(c, async (stream) => {
    let ended = false;
    let finish: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    // Writes go one after the other so events keep their order; a failed write ends the stream.
    let writing = Promise.resolve();
    const write = (chunk: () => Promise<unknown>) => {
      writing = writing.then(() => (ended ? undefined : chunk().then(() => undefined))).catch(() => end());
    };
    const streams = openStreams.get(deps.realtime) ?? new Set<OpenStream>();
    openStreams.set(deps.realtime, streams);
    const unsubscribe = deps.realtime.subscribe((target, event, data) => {
      if (target.kind !== "visitor" || target.sessionId !== sessionId || target.clientId !== clientId) return;
      let json: string;
      try {
        json = JSON.stringify(data);
      } catch (error) {
        deps.logger.error("realtime event not sent", { event, error: String(error) });
        return;
      }
      write(() => stream.writeSSE({ event, data: json }));
    });
    const heartbeat = setInterval(() => write(() => stream.write(": ping\n\n")), visitorStreamTiming.heartbeatMs);
    heartbeat.unref();
    const self: OpenStream = {
      async recheck() {
        try {
          await check();
        } catch (error) {
          if (error instanceof ServiceError) end();
          else deps.logger.warn("realtime recheck failed", { error: String(error) });
        }
      },
      end: () => end(),
    };
    function end() {
      if (ended) return;
      ended = true;
      unsubscribe();
      clearInterval(heartbeat);
      streams.delete(self);
      finish();
    }
    streams.add(self);
    stream.onAbort(end);
    c.req.raw.signal.addEventListener("abort", end, { once: true });
    write(() => stream.write(": open\n\n"));
    await finished;
    await writing;
  });
}
