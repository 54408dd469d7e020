import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { Logger } from "../logger";
import { createRealtimeHub, type RealtimeHub, type RealtimeTarget } from "./hub";

/** The Redis pub/sub channel every process publishes its hub events on and listens to. */
export const REALTIME_CHANNEL = "parley:realtime";

/** One hub event on {@link REALTIME_CHANNEL}: the publishing process, the target, the event and its data. */
interface Envelope {
  from: string;
  target: RealtimeTarget;
  event: string;
  data: unknown;
}

/** A {@link RealtimeHub} shared by every process of an instance; `close` stops listening. */
export interface SharedRealtimeHub extends RealtimeHub {
  close(): Promise<void>;
}

/**
 * A hub whose events reach the listeners of every process (docs/decisions/0031-realtime-and-limits.md):
 * an event is handed to this process's listeners at once and published on {@link REALTIME_CHANNEL};
 * the other processes hand it to theirs. Each process's socket server then forwards it to its own
 * sockets with its own filters (ranged members, grades), exactly as in one process.
 *
 * Best effort: while Redis is unreachable, publishing fails fast (the `commands` connection does
 * not queue), is logged once per outage and never reaches the caller; the event still reaches
 * this process's sockets. The subscriber connection resubscribes when Redis is back.
 */
export async function createRedisRealtimeHub(publisher: Redis, subscriber: Redis, logger: Logger): Promise<SharedRealtimeHub> {
  const local = createRealtimeHub((error) => logger.error("realtime listener failed", { error: String(error) }));
  const self = randomUUID();
  const deliver = (target: RealtimeTarget, event: string, data: unknown) => {
    if (target.kind === "space") local.toSpace(target.spaceId, event, data);
    else if (target.kind === "visitor") local.toVisitor(target.clientId, target.sessionId, event, data);
    else local.toInstance(event, data, target.grade);
  };
  let warned = false;
  publisher.on("ready", () => {
    if (warned) logger.info("realtime events reach other processes again (Redis is back)");
    warned = false;
  });
  const publish = (target: RealtimeTarget, event: string, data: unknown) => {
    deliver(target, event, data);
    let message: string;
    try {
      message = JSON.stringify({ from: self, target, event, data } satisfies Envelope);
    } catch (error) {
      logger.error("realtime event not shared", { event, error: String(error) });
      return;
    }
    publisher.publish(REALTIME_CHANNEL, message).catch((error: unknown) => {
      if (warned) return;
      warned = true;
      logger.warn("realtime events do not reach other processes: Redis is unreachable", { error: String(error) });
    });
  };
  const onMessage = (channel: string, message: string) => {
    if (channel !== REALTIME_CHANNEL) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch {
      return;
    }
    if (envelope.from === self || typeof envelope.event !== "string" || !envelope.target) return;
    deliver(envelope.target, envelope.event, envelope.data);
  };
  subscriber.on("message", onMessage);
  await subscriber.subscribe(REALTIME_CHANNEL);
  return {
    toSpace: (spaceId, event, data) => publish({ kind: "space", spaceId }, event, data),
    toVisitor: (clientId, sessionId, event, data) => publish({ kind: "visitor", clientId, sessionId }, event, data),
    toInstance: (event, data, grade) => publish(grade ? { kind: "instance", grade } : { kind: "instance" }, event, data),
    subscribe: (listener) => local.subscribe(listener),
    async close() {
      subscriber.off("message", onMessage);
      await subscriber.unsubscribe(REALTIME_CHANNEL).catch(() => {});
    },
  };
}
