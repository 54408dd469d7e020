/** The widget's view of the visitor API (server contract of issue 5). No Preact, no DOM. */
import type { components } from "@parley/sdk";

/** `GET /api/v1/widget/{clientId}/config` → data. */
export interface WidgetConfig {
  clientId: string;
  name: string;
  avatarUrl?: string | null;
  welcome?: string | null;
  slogan?: string | null;
  position?: "left" | "right";
  primaryColor?: string | null;
  manualTransfer?: boolean;
  appName?: string | null;
  openingIntroduction?: string | null;
  guidingQuestions?: string[];
  /** A transcription model is served: the microphone shows. */
  speechInput?: boolean;
  /** The app reads answers aloud. */
  voice?: boolean;
}

/** `POST …/sessions` → data. */
export interface WidgetSession {
  sessionId: string;
  visitorToken: string;
  visitorId: string;
}

/** A session as the widget keeps it (localStorage, shared by the tabs of the browser). */
export interface StoredSession extends WidgetSession {
  /** The identified user the session was created for; absent for an anonymous visitor. */
  userId?: string;
  /** A person has the session (MANUAL_MODE): the "talk to a person" button is gone. */
  manual?: boolean;
}

/** `POST …/sessions/{sessionId}/handover` → data. */
export type WidgetHandover = components["schemas"]["WidgetHandover"];

/**
 * One stored message of `GET …/sessions/{sessionId}/messages`, or a `message` event of the
 * visitor socket (an operator's reply; `senderName` is the operator's name when given).
 */
export interface StoredMessage {
  id: string;
  role: "user" | "assistant" | "operator" | string;
  content: string;
  createdAt: string;
  senderName?: string | null;
  /** `interrupted`: the server stopped mid-answer; the content is what had been sent. */
  status?: string;
  /** Files sent with the message (issue 24); `[]` or absent when none. */
  attachments?: ChatFile[];
}

/**
 * A file in chat (issue 24), as an upload answers it and as messages carry it. `url` is the
 * signed address of its bytes, relative to the API origin (valid 24 h, needs no header).
 */
export type ChatFile = components["schemas"]["ChatFile"];

/** The chat stream events the widget reads (see packages/api/src/chat/events.ts). */
export type ChatEvent =
  | { type: "message-start"; conversationId?: string; messageId?: string }
  | { type: "text-delta"; text: string }
  | { type: "citation"; index: number; source: string; content: string }
  | {
      type: "tool-result";
      id: string;
      ok: boolean;
      table?: { columns: string[]; rows: Array<Array<string | number | boolean | null>>; truncated: boolean };
      confirmation?: { id: string; databaseName: string; kind: string; sql: string };
    }
  | { type: "message-end"; finishReason?: string }
  | { type: "error"; code: number; message: string };

/** The options the loader reads from its script tag. */
export interface LoaderOptions {
  clientId: string;
  api: string;
  language?: string;
  position?: "left" | "right";
  mode: "bubble" | "page" | "iframe";
}

/** The identity of a verified visitor (`Parley('identify', { userId, hash })`). */
export interface VisitorIdentity {
  userId: string;
  hash: string;
}

/** What the loader hands the chat chunk when it loads. */
export interface ChatContext {
  options: LoaderOptions;
  /** The shadow root both the bubble and the panel live in. */
  root: ShadowRoot;
  /** The bubble button (focus returns there on close). */
  bubble: HTMLButtonElement | undefined;
  /** The config request the loader already started (or undefined in page mode). */
  config: Promise<ConfigResult>;
  identity: VisitorIdentity | undefined;
  language: string | undefined;
  setUnread(count: number): void;
  setOpen(open: boolean): void;
}

/** The chat's view of {@link ChatContext}: events for `Parley('on', event, listener)` listeners. */
export interface PanelContext extends ChatContext {
  emit(event: string, payload?: unknown): void;
}

/** The config answer: the data, or the HTTP status (0 = network down) and the server's message. */
export type ConfigResult = { ok: true; config: WidgetConfig } | { ok: false; status: number; message?: string };

/** What the chat chunk answers the loader: the commands it takes over. */
export interface ChatHandle {
  command(name: string, args: unknown[]): void;
}
