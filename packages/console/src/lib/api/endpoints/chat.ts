import { call, client } from "../request";
import type { Extra } from "./shared";

/** Chatting with an app: its chat view, conversations, messages and delete context (the stream is in features/chat/chat-stream). */
export const chatEndpoints = {
  app: (appCode: string, extra: Extra = {}) => call(extra, (init) => client.GET("/api/v1/chat/apps/{appCode}", { ...init, params: { path: { appCode } } })),
  conversations: (appCode: string, extra: Extra = {}) =>
    call({ dedupeKey: `conversations-${appCode}`, ...extra }, (init) => client.GET("/api/v1/chat/conversations", { ...init, params: { query: { appCode } } })),
  messages: (conversationId: string, extra: Extra = {}) =>
    call({ dedupeKey: "conversation-messages", ...extra }, (init) =>
      client.GET("/api/v1/chat/conversations/{conversationId}/messages", { ...init, params: { path: { conversationId } } }),
    ),
  clearContext: (conversationId: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/chat/conversations/{conversationId}/clear-context", { ...init, params: { path: { conversationId } } })),
  confirmDatabaseWrite: (confirmationId: string, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/chat/database-writes/{confirmationId}/confirm", { ...init, params: { path: { confirmationId } } })),
};
