import { ParleyError } from "@parley/sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import { client, CODES, endSession, warnLoginFirst } from "../../lib/api/request";
import { endpoints } from "../../lib/api/endpoints";
import { fetchSpace, invalidateSpace } from "../../lib/api/query";
import { sessionStore } from "../../lib/api/session";
import { i18n } from "../../i18n";
import { applyChatEvent, type ChatTurn, settleTurn } from "../../components/chat/chat-state";
import type { AttachedFile } from "../../components/chat/pending-files";
import { chatFileEndpoints } from "../../lib/api/chat-files";

/** Options of {@link useChat}. */
export interface UseChatOptions {
  appCode: string | undefined;
  /** `preview` in the console editor, `web` on the chat page. */
  channel: "preview" | "web";
  /** One of the app's models; the app's default when undefined. */
  model?: string;
}

/** Cache keys of chatting with an app (below the space id, see lib/api/query). */
export const CHAT_KEYS = {
  app: (appCode: string) => ["chat", "app", appCode],
  conversations: (appCode: string) => ["chat", "conversations", appCode],
  messages: (conversationId: string) => ["chat", "messages", conversationId],
};

let counter = 0;
const localId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter += 1)}`;

/** A failure before the stream started, as an inline error (401 ends the session instead). */
function failureOf(cause: unknown): ChatTurn["error"] {
  if (cause instanceof ParleyError) {
    const code = cause.code ?? cause.status;
    if (code === CODES.sessionEnded) endSession({ notify: true });
    return { code, message: cause.message || i18n.t("errors.generic") };
  }
  return { message: cause instanceof Error ? cause.message : i18n.t("errors.generic") };
}

/**
 * A chat with one app through `client.chat.stream()`: sends, streams the answer in, stops it
 * (abort), deletes the context, starts a new conversation or loads an earlier one. Errors are
 * kept on the answer for inline display; nothing here raises a toast (spec §8: 870 stays quiet).
 */
export function useChat({ appCode, channel, model }: UseChatOptions) {
  const [turns, setTurns] = useState<ChatTurn[]>([]);
  const [conversationId, setConversationId] = useState<string>();
  const [streaming, setStreaming] = useState(false);
  const controller = useRef<AbortController | undefined>(undefined);
  const conversationRef = useRef<string | undefined>(undefined);
  conversationRef.current = conversationId;

  // Leaving the page (or switching app) ends a running answer.
  useEffect(() => () => controller.current?.abort(), [appCode]);

  const updateTurn = (id: string, change: (turn: ChatTurn) => ChatTurn) => setTurns((current) => current.map((turn) => (turn.id === id ? change(turn) : turn)));

  const send = useCallback(
    async (text: string, files: AttachedFile[] = []) => {
      const message = text.trim();
      if ((!message && files.length === 0) || !appCode || controller.current) return;
      if (!sessionStore.get().token) {
        warnLoginFirst();
        return;
      }
      const abort = new AbortController();
      controller.current = abort;
      const answerId = localId("answer");
      setTurns((current) => [
        ...current,
        { id: localId("question"), role: "user", content: message, status: "complete", ...(files.length > 0 ? { attachments: files } : {}) },
        { id: answerId, role: "assistant", content: "", status: "streaming" },
      ]);
      setStreaming(true);
      try {
        const stream = client.chat.stream(
          {
            appCode,
            message,
            channel,
            ...(files.length > 0 ? { fileIds: files.map((file) => file.id) } : {}),
            ...(conversationRef.current ? { conversationId: conversationRef.current } : {}),
            ...(model ? { model } : {}),
          },
          { signal: abort.signal },
        );
        for await (const event of stream) {
          if (event.type === "message-start") {
            // A new conversation appears in the list once its first answer has started.
            if (event.conversationId !== conversationRef.current) void invalidateSpace(CHAT_KEYS.conversations(appCode));
            conversationRef.current = event.conversationId;
            setConversationId(event.conversationId);
          }
          updateTurn(answerId, (turn) => applyChatEvent(turn, event));
        }
        updateTurn(answerId, (turn) => settleTurn(turn, abort.signal.aborted ? "stopped" : "complete"));
      } catch (cause) {
        const error = failureOf(cause);
        updateTurn(answerId, (turn) => ({ ...turn, status: "error", ...(error ? { error } : {}) }));
      } finally {
        if (controller.current === abort) controller.current = undefined;
        setStreaming(false);
      }
    },
    [appCode, channel, model],
  );

  /** Stops the answer being written; what arrived so far stays. */
  const stop = useCallback(() => {
    controller.current?.abort();
  }, []);

  /** Later answers no longer remember earlier messages; a divider marks the spot. */
  const clearContext = useCallback(async () => {
    const id = conversationRef.current;
    if (id) {
      const result = await endpoints.chat.clearContext(id);
      if (!result.ok) return false;
    }
    setTurns((current) =>
      current.length === 0 || current[current.length - 1]?.role === "divider"
        ? current
        : [...current, { id: localId("divider"), role: "divider", content: "", status: "complete" }],
    );
    return true;
  }, []);

  /** Starts a fresh conversation. */
  const reset = useCallback(() => {
    controller.current?.abort();
    setTurns([]);
    setConversationId(undefined);
    conversationRef.current = undefined;
  }, []);

  /** Shows an earlier conversation and continues it. */
  const load = useCallback(async (id: string) => {
    controller.current?.abort();
    const messages = await fetchSpace({ key: CHAT_KEYS.messages(id), fetch: (signal) => endpoints.chat.messages(id, { signal }) });
    if (!messages) return;
    setConversationId(id);
    conversationRef.current = id;
    setTurns(
      messages
        .filter((message) => message.role !== "tool")
        .map((message) => ({
          id: message.id,
          role: message.role === "user" ? "user" : "assistant",
          content: message.content,
          // An answer another tab is still streaming shows what is stored so far, without a cursor.
          status: message.status === "streaming" ? "complete" : message.status,
          ...(message.model ? { model: message.model } : {}),
          ...(message.citations.length > 0 ? { citations: message.citations } : {}),
          ...(message.attachments.length > 0 ? { attachments: message.attachments } : {}),
          // A stored transfer notice is recorded under the model name `handover`.
          ...(message.role === "assistant" && message.model === "handover" ? { handover: true } : {}),
        })),
    );
  }, []);

  /** Uploads a file for the next message (bound to the current conversation when there is one). */
  const uploadFile = useCallback(
    (file: File) =>
      appCode
        ? chatFileEndpoints.upload(appCode, conversationRef.current, file)
        : Promise.resolve({ ok: false as const, error: { message: i18n.t("errors.generic") } }),
    [appCode],
  );

  return { turns, streaming, conversationId, send, stop, clearContext, reset, load, uploadFile };
}
