import type { conversations } from "../db/schema/index";
import type { Deps } from "../kernel";

type ConversationRow = typeof conversations.$inferSelect;

/** A message as it was stored. */
export interface StoredMessage {
  id: string;
  role: "user" | "assistant" | "operator";
  content: string;
  createdAt: string;
  senderName?: string;
  /** `pending`: it is to go out through the conversation's channel. */
  delivery?: "pending" | "sent" | "failed";
}

/** Everything the conversation core announces, by name. */
export interface ConversationEvents {
  /** A message was written to a conversation (the person's, an answer, an operator's). */
  "message.stored": { deps: Deps; conversation: ConversationRow; message: StoredMessage };
}

type Listener<E> = (event: E) => void | Promise<void>;

/**
 * A small typed in-process event bus. Listeners run one after another in the order they were
 * added and are awaited, so whoever emits sees their work done (or their error) as if it had
 * called them; adding the same listener twice keeps one. The sides that react to the
 * conversation (the inbox, the channels) subscribe at start-up, so the conversation core and the
 * workflows never import them.
 */
export function createEventBus<Events extends object>() {
  const listeners = new Map<keyof Events, Set<Listener<never>>>();
  return {
    /** Calls `listener` for every `name` event from now on; answers a function that removes it. */
    on<N extends keyof Events>(name: N, listener: Listener<Events[N]>): () => void {
      const set = listeners.get(name) ?? new Set();
      set.add(listener as Listener<never>);
      listeners.set(name, set);
      return () => void set.delete(listener as Listener<never>);
    },
    /** Runs the listeners of `name` in turn. */
    async emit<N extends keyof Events>(name: N, event: Events[N]): Promise<void> {
      for (const listener of listeners.get(name) ?? []) await (listener as Listener<Events[N]>)(event);
    },
  };
}

/** The conversation core's events. */
export const conversationEvents = createEventBus<ConversationEvents>();
