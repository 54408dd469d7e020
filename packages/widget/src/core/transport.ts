/** The visitor API over fetch; the stream is parsed by the SDK's event-stream parser. */
import { parseEventStream } from "@parley/sdk";
import type { LiveEvent } from "./live";
import type { ChatEvent, StoredMessage, VisitorIdentity, WidgetHandover, WidgetSession } from "./protocol";

/**
 * A failed call: the HTTP status (0 when the network is down), the server's message, its
 * message id (`X-Parley-Error`, e.g. `manual_transfer_off`) and `Retry-After` in seconds.
 */
export class WidgetHttpError extends Error {
  constructor(
    readonly status: number,
    message = "",
    readonly code = "",
    readonly retryAfter = 0,
  ) {
    super(message || `HTTP ${status}`);
  }
}

/** The calls the chat makes, bound to one API base URL and client id. */
export interface Transport {
  createSession(input: { visitorId?: string; language?: string; identity?: VisitorIdentity }): Promise<WidgetSession>;
  history(session: WidgetSession): Promise<StoredMessage[]>;
  /** Sends a message; `fileIds` are files uploaded for it (then `content` may be empty). */
  send(session: WidgetSession, content: string, signal: AbortSignal, fileIds?: string[]): AsyncGenerator<ChatEvent>;
  /**
   * Opens the session's event stream (resolves once the server accepted it, rejects with a
   * {@link WidgetHttpError} when refused) and reads its events; `alive` is called on every chunk.
   */
  events(session: WidgetSession, signal: AbortSignal, alive: () => void): Promise<AsyncIterable<LiveEvent>>;
  /** Asks for a person (clients with manual transfer on). */
  handover(session: WidgetSession): Promise<WidgetHandover>;
  /** Runs a database write the visitor confirmed (once). */
  confirmWrite?(session: WidgetSession, confirmationId: string): Promise<{ affectedRows: number }>;
  /** Turns a recording into text for the input (clients whose space serves a transcription model). */
  transcribe?(session: WidgetSession, audio: Blob, fileName: string): Promise<{ text: string }>;
}

/** Parses the events of a chat stream body: each SSE event's data is one JSON ChatEvent. */
export async function* readChatEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ChatEvent> {
  for await (const event of parseEventStream(body)) {
    try {
      const parsed = JSON.parse(event.data) as ChatEvent;
      if (parsed && typeof parsed.type === "string") yield parsed;
    } catch {
      // A malformed event is skipped rather than ending the answer.
    }
  }
}

/** Creates the transport for `${api}/api/v1/widget/${clientId}`. */
export function createTransport(api: string, clientId: string, language: () => string, fetcher: typeof fetch = (...args) => fetch(...args)): Transport {
  const base = `${api}/api/v1/widget/${encodeURIComponent(clientId)}`;
  const call = async (path: string, init: RequestInit = {}, token?: string): Promise<Response> => {
    let response: Response;
    try {
      response = await fetcher(base + path, {
        ...init,
        credentials: "omit",
        headers: {
          "Accept-Language": language(),
          // A FormData body (a recording) gets its multipart type and boundary from fetch.
          ...(typeof init.body === "string" ? { "Content-Type": "application/json" } : {}),
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
      });
    } catch (error) {
      if ((error as Error)?.name === "AbortError") throw error;
      throw new WidgetHttpError(0);
    }
    if (!response.ok) {
      const body = await response.json().catch(() => undefined);
      throw new WidgetHttpError(response.status, body?.message, response.headers.get("X-Parley-Error") ?? "", Number(response.headers.get("Retry-After")) || 0);
    }
    return response;
  };
  const data = async <T>(response: Response): Promise<T> => ((await response.json()) as { data: T }).data;
  return {
    async createSession(input) {
      return data(await call("/sessions", { method: "POST", body: JSON.stringify(input) }));
    },
    async history(session) {
      const result = await data<{ items: StoredMessage[] }>(
        await call(`/sessions/${encodeURIComponent(session.sessionId)}/messages`, {}, session.visitorToken),
      );
      return result.items;
    },
    async *send(session, content, signal, fileIds) {
      const response = await call(
        `/sessions/${encodeURIComponent(session.sessionId)}/messages`,
        { method: "POST", body: JSON.stringify(fileIds?.length ? { content, fileIds } : { content }), signal },
        session.visitorToken,
      );
      if (response.body) yield* readChatEvents(response.body);
    },
    async events(session, signal, alive) {
      const response = await call(`/sessions/${encodeURIComponent(session.sessionId)}/events`, { signal }, session.visitorToken);
      const body = response.body;
      return (async function* () {
        if (!body) return;
        // Heartbeat comments never reach the parser's output: every chunk counts as a sign of life.
        const watched = body.pipeThrough(
          new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, out) {
              alive();
              out.enqueue(chunk);
            },
          }),
        );
        for await (const item of parseEventStream(watched)) {
          let data: unknown;
          try {
            data = JSON.parse(item.data);
          } catch {
            // A malformed event is skipped rather than ending the stream.
            continue;
          }
          yield { event: item.event, data };
        }
      })();
    },
    async handover(session) {
      return data(await call(`/sessions/${encodeURIComponent(session.sessionId)}/handover`, { method: "POST" }, session.visitorToken));
    },
    async transcribe(session, audio, fileName) {
      const form = new FormData();
      form.append("file", audio, fileName);
      return data(await call(`/sessions/${encodeURIComponent(session.sessionId)}/transcriptions`, { method: "POST", body: form }, session.visitorToken));
    },
    async confirmWrite(session, confirmationId) {
      return data(
        await call(
          `/sessions/${encodeURIComponent(session.sessionId)}/database-writes/${encodeURIComponent(confirmationId)}/confirm`,
          { method: "POST" },
          session.visitorToken,
        ),
      );
    },
  };
}

/** GET the client's config; answers the result, never rejects. */
export async function fetchConfig(api: string, clientId: string, language: string): Promise<import("./protocol").ConfigResult> {
  try {
    const response = await fetch(`${api}/api/v1/widget/${encodeURIComponent(clientId)}/config`, {
      credentials: "omit",
      headers: { "Accept-Language": language },
    });
    const body = await response.json().catch(() => undefined);
    return response.ok && body?.data ? { ok: true, config: body.data } : { ok: false, status: response.status, message: body?.message };
  } catch {
    return { ok: false, status: 0 };
  }
}
