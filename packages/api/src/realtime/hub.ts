/**
 * Who a real-time event is for: every console of a space, one web visitor's session, or every
 * console of the instance (of spaces of one member grade when `grade` is set).
 */
export type RealtimeTarget =
  | { kind: "space"; spaceId: string }
  | { kind: "visitor"; clientId: string; sessionId: string }
  | { kind: "instance"; grade?: string };

/** A listener of {@link RealtimeHub}: the socket server forwards what it hears to sockets. */
export type RealtimeListener = (target: RealtimeTarget, event: string, data: unknown) => void;

/**
 * The server's real-time fan-out, independent of the transport: services publish here; the
 * socket.io server (and tests) subscribe. Events named here are the contract of the sockets.
 */
export interface RealtimeHub {
  /** To every signed-in console of the space (new messages, read state, mode changes). */
  toSpace(spaceId: string, event: string, data: unknown): void;
  /** To one web visitor (an operator's message, a mode change). */
  toVisitor(clientId: string, sessionId: string, event: string, data: unknown): void;
  /** To every signed-in console of the instance, or only those of spaces whose member grade is `grade` (announcements). */
  toInstance(event: string, data: unknown, grade?: string): void;
  subscribe(listener: RealtimeListener): () => void;
}

/** An in-process hub; listeners that throw are logged by the caller's logger and skipped. */
export function createRealtimeHub(onListenerError: (error: unknown) => void = () => {}): RealtimeHub {
  const listeners = new Set<RealtimeListener>();
  const publish = (target: RealtimeTarget, event: string, data: unknown) => {
    for (const listener of listeners) {
      try {
        listener(target, event, data);
      } catch (error) {
        onListenerError(error);
      }
    }
  };
  return {
    toSpace: (spaceId, event, data) => publish({ kind: "space", spaceId }, event, data),
    toVisitor: (clientId, sessionId, event, data) => publish({ kind: "visitor", clientId, sessionId }, event, data),
    toInstance: (event, data, grade) => publish(grade ? { kind: "instance", grade } : { kind: "instance" }, event, data),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
