import { type ChatEvent, ParleyError } from "@parley/sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import { client } from "../../lib/api/request";
import { GUEST_MESSAGES_PATH, type GuestSession, storeEndpoints } from "../../lib/api/store";
import { i18n } from "../../i18n";
import { applyChatEvent, type ChatTurn, settleTurn } from "../../components/chat/chat-state";

let counter = 0;
const localId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

/**
 * A guest's chat with a store app: a session through the app's store client (made on the first
 * message), then each message streamed from the store's guest endpoint. Refusals (the guest
 * limit, the publisher out of credits) show on the answer, in the reader's language.
 */
export function useGuestChat(code: string) {
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [streaming, setStreaming] = useState(false);
  const session = useRef<GuestSession | undefined>(undefined);
  const controller = useRef<AbortController | undefined>(undefined);
  // Leaving the page ends a running answer (the page is keyed by the app's code).
  useEffect(() => () => controller.current?.abort(), []);

  const update = useCallback(
    (id: string, change: (turn: ChatTurn) => ChatTurn) => setTurns((current) => current.map((turn) => (turn.id === id ? change(turn) : turn))),
    [],
  );

  const send = useCallback(
    async (text: string) => {
      const message = text.trim();
      if (!message || controller.current) return;
      const abort = new AbortController();
      controller.current = abort;
      const answerId = localId("answer");
      setTurns((current) => [
        ...current,
        { id: localId("question"), role: "user", content: message, status: "complete" },
        { id: answerId, role: "assistant", content: "", status: "streaming" },
      ]);
      setStreaming(true);
      try {
        if (!session.current) {
          const started = await storeEndpoints.startGuestSession(code, { signal: abort.signal });
          if (!started.ok) throw new ParleyError("http", started.error.message, { code: started.error.code });
          session.current = started.data;
        }
        const { sessionId, visitorToken } = session.current;
        const stream = client.stream<ChatEvent>(GUEST_MESSAGES_PATH, {
          params: { path: { code, sessionId } },
          body: { content: message },
          headers: { Authorization: `Bearer ${visitorToken}` },
          signal: abort.signal,
        });
        for await (const event of stream) update(answerId, (turn) => applyChatEvent(turn, event));
        update(answerId, (turn) => settleTurn(turn, abort.signal.aborted ? "stopped" : "complete"));
      } catch (cause) {
        const error =
          cause instanceof ParleyError
            ? { ...((cause.code ?? cause.status) ? { code: cause.code ?? cause.status } : {}), message: cause.message || i18n.t("errors.generic") }
            : { message: i18n.t("errors.generic") };
        update(answerId, (turn) => ({ ...turn, status: "error", error }));
      } finally {
        if (controller.current === abort) controller.current = undefined;
        setStreaming(false);
      }
    },
    [code, update],
  );

  const stop = useCallback(() => controller.current?.abort(), []);
  return { turns, streaming, send, stop };
}
