import type { ChatApp } from "../apps/service/index";
import type { CreditHold } from "../billing/service/holds";
import type { ChatEvent } from "../chat/events";
import type { ChatFileRow } from "../chat/files/service";
import type { Deps } from "../kernel";
import type { Language } from "../i18n/language";
import type { ResolvedModel } from "../models/catalog";
import type { ModelMessage, TokenUsage, ToolDefinition } from "../platform/llm/types";
import type { checkRateLimits } from "./rate-limit";
import type { ConversationRow, MessageCitation } from "./store";

/** One turn asked of an app, by any entry point (chat, widget, OpenAI-compatible API, channel, inbox, workflow). */
export interface ChatTurn {
  app: ChatApp;
  /** Who talks (a user id, an API caller's `user`, a channel sender). */
  endUserId: string;
  channel: string;
  conversationId?: string;
  text: string;
  /**
   * Files attached to the person's message (ids of `chat_files` uploaded for this app, person and
   * conversation): images go to the model, documents are read into the turn.
   */
  fileIds?: string[];
  /**
   * The person cannot pick another model (a messaging channel): images the model cannot read are
   * left out (they stay on the message) instead of refusing the turn.
   */
  imagesOptional?: boolean;
  /** One of the app's models; the app's default when absent. */
  model?: string;
  language: Language;
  signal?: AbortSignal;
  /**
   * Stateless callers (the OpenAI-compatible API) send the whole conversation: it replaces the
   * stored memory, and its last user message is the turn's text.
   */
  messages?: ModelMessage[];
  /** Tools the caller defines and runs itself: offered to the model, calls are returned, not executed. */
  clientTools?: ToolDefinition[];
  /** The person's message is already stored (a channel delivery stored on arrival): answer it without storing it again. */
  storedMessageId?: string;
  /** Answer even if a person has the conversation (the delayed reply after a handover). */
  skipHandover?: boolean;
  /** The user key that called: its credit limit is held and charged with the space's balance. */
  userKeyId?: string;
  /**
   * The signed-in person who asks (a session or their API key): in a team space their allocation
   * pays first (decision 0019). Absent for visitors, channels and user keys: the space's own spending.
   */
  memberUserId?: string;
}

/** A turn that passed every check that can refuse it; what it may spend is held. */
export interface PreparedTurn {
  /** The person's message as stored ("(tool results)" when a stateless call ends with tool results). */
  text: string;
  /** What the person asked: the retrieval query and a workflow's {{sys.query}}. */
  query: string;
  resolved: ResolvedModel;
  /** The rate-limit rule the turn exceeded, if any. */
  limited: Awaited<ReturnType<typeof checkRateLimits>>;
  /** The conversation the turn continues, as the checks found it (undefined: a new one starts). */
  conversation: ConversationRow | undefined;
  /** Credits held for the whole turn (responders metered per turn). */
  hold: CreditHold | undefined;
  /** The longest answer the hold pays for. */
  maxOutputTokens: number | undefined;
  /** The files the person's message carries, in the order attached. */
  files: ChatFileRow[];
}

/**
 * How the core treats a responder's turn. The chat engine takes every policy; a workflow meters
 * its own model calls, keeps no memory and (as before the core existed) is counted but not
 * stopped by rate limits.
 */
export interface ResponderPolicy {
  /**
   * `turn`: the core holds credits for the whole turn, settles them and writes the usage record.
   * `per-call`: the responder holds credits call by call; the core only refuses a turn when the
   * space has no balance left.
   */
  credits: "turn" | "per-call";
  /** The conversation's remembered messages are loaded for the responder. */
  memory: boolean;
  /** An exceeded rate limit ends the turn with the rule's reply. */
  rateLimitReply: boolean;
  /** A stateless caller's (OpenAI-compatible API) last message is stored as the person's message. */
  storeStatelessPrompt: boolean;
}

/** What a responder is given: the turn, its preparation and the opened conversation. */
export interface ResponderContext {
  turn: ChatTurn;
  prepared: PreparedTurn;
  conversation: ConversationRow;
  /** The remembered messages (empty unless the policy asks for memory). */
  history: ModelMessage[];
}

/** How a responder's answer ended; the core stores it, meters it and closes the stream with it. */
export interface TurnOutcome {
  /** The answer's text as delivered. */
  text: string;
  status: "complete" | "stopped" | "error";
  /** What answered, as stored on the message and the usage record. */
  model: string;
  finishReason: Extract<ChatEvent, { type: "message-end" }>["finishReason"];
  usage: TokenUsage;
  /** The turn failed: the stream ends with this error instead of `message-end`. */
  failure?: { code: number; message: string };
  toolCalls?: unknown[];
  citations?: MessageCitation[];
  /** The knowledge hits of the turn, for its usage record (JSON). */
  knowledgeHits?: string | null;
  /** The database statements of the turn, for its usage record (JSON): what ran, was refused or waits for confirmation. */
  databaseStatements?: string | null;
  /** Nothing was found and the app hands the conversation to a person (no-hit strategy manual). */
  handover?: boolean;
}

/**
 * What answers a turn (the chat engine, a workflow). It streams the answer's events (text,
 * tool calls and results) and returns how it ended; opening the conversation, handover, rate
 * limits, metering and storing the answer are the core's.
 */
export interface Responder {
  readonly policy: ResponderPolicy;
  /** The model named in `message-start`. */
  modelOf(prepared: PreparedTurn): { model: string; offline: boolean };
  respond(deps: Deps, context: ResponderContext): AsyncGenerator<ChatEvent, TurnOutcome>;
}
