import type { components } from "@parley/sdk";
import { call, client, type CallOptions } from "./request";
import { fileNameOfDisposition } from "../save-blob";

type Schemas = components["schemas"];
type Extra = Pick<CallOptions, "silent" | "signal" | "dedupeKey">;

/** A customer session as the inbox lists it (spec §3 Customer session). */
export type InboxSession = Schemas["InboxSession"];
/** A message of a session's history. */
export type InboxMessage = Schemas["InboxMessage"];
/** Who answers a session. */
export type ServiceMode = InboxSession["serviceMode"];
/** Read-type filter of the list (spec §4). */
export type ReadFilter = "all" | "unread" | "read";

const bySession = (sessionId: string) => ({ params: { path: { sessionId } } });

/** The sessions inbox calls of /console/chatManage, through the SDK and the request layer. */
export const inboxEndpoints = {
  /** A page of the list; with `sessionId`, that session alone when the filters take it. */
  sessions: (
    query: {
      read: ReadFilter;
      clientId?: string | undefined;
      keyword?: string | undefined;
      sessionId?: string | undefined;
      cursor?: string | undefined;
      limit?: number;
    },
    extra: Extra = {},
  ) =>
    call({ dedupeKey: query.cursor ? "inbox-sessions-more" : "inbox-sessions", ...extra }, (init) =>
      client.GET("/api/v1/inbox/sessions", {
        ...init,
        params: {
          query: {
            read: query.read,
            limit: query.limit ?? 30,
            ...(query.clientId ? { clientId: query.clientId } : {}),
            ...(query.keyword ? { keyword: query.keyword } : {}),
            ...(query.sessionId ? { sessionId: query.sessionId } : {}),
            ...(query.cursor ? { cursor: query.cursor } : {}),
          },
        },
      }),
    ),
  session: (sessionId: string, extra: Extra = {}) =>
    call(extra, (init) => client.GET("/api/v1/inbox/sessions/{sessionId}", { ...init, ...bySession(sessionId) })),
  /** The latest page of a history, or the page before the message `before`. */
  messages: (sessionId: string, before: string | undefined, extra: Extra = {}) =>
    call(extra, (init) =>
      client.GET("/api/v1/inbox/sessions/{sessionId}/messages", {
        ...init,
        params: { path: { sessionId }, query: { limit: 50, ...(before ? { before } : {}) } },
      }),
    ),
  /** An operator's reply: text, images uploaded for it (`fileIds`), or both. */
  reply: (sessionId: string, content: string, fileIds: string[] = [], extra: Extra = {}) =>
    call(extra, (init) =>
      client.POST("/api/v1/inbox/sessions/{sessionId}/messages", {
        ...init,
        ...bySession(sessionId),
        body: { content, ...(fileIds.length > 0 ? { fileIds } : {}) },
      }),
    ),
  /** Sends again a message whose delivery failed; answers it (pending, or already sent). */
  retry: (sessionId: string, messageId: string, extra: Extra = {}) =>
    call(extra, (init) =>
      client.POST("/api/v1/inbox/sessions/{sessionId}/messages/{messageId}/retry", { ...init, params: { path: { sessionId, messageId } } }),
    ),
  markRead: (sessionId: string, extra: Extra = {}) =>
    call({ silent: true, ...extra }, (init) => client.POST("/api/v1/inbox/sessions/{sessionId}/read", { ...init, ...bySession(sessionId) })),
  readAll: (clientId: string | undefined, extra: Extra = {}) =>
    call(extra, (init) => client.POST("/api/v1/inbox/read-all", { ...init, body: clientId ? { clientId } : {} })),
  /** Take over (MANUAL_MODE) or hand back; the caller has asked for confirmation. */
  setMode: (sessionId: string, serviceMode: ServiceMode, extra: Extra = {}) =>
    call(extra, (init) => client.PUT("/api/v1/inbox/sessions/{sessionId}/mode", { ...init, ...bySession(sessionId), body: { serviceMode, confirm: true } })),
  /**
   * The CSV of the chosen sessions between two days of the operator's zone (`timezoneOffsetMinutes`
   * as Date#getTimezoneOffset gives it), with the file name the server gives.
   */
  exportSessions: async (body: { sessionIds: string[]; from: string; to: string; timezoneOffsetMinutes?: number }, extra: Extra = {}) => {
    let disposition: string | null = null;
    const result = await call(extra, async (init) => {
      const answer = await client.POST("/api/v1/inbox/export", { ...init, body, parseAs: "blob" });
      disposition = answer.response?.headers.get("content-disposition") ?? null;
      return answer;
    });
    return result.ok ? { ok: true as const, data: { blob: result.data as unknown as Blob, fileName: fileNameOfDisposition(disposition) } } : result;
  },
};
