import type { ChatApp } from "../apps/service/index";
import type { Language } from "../i18n/language";
import type { Deps } from "../kernel";
import { recordTransfer } from "../analysis/service/transfers";
import { handoverGate, transferToHuman } from "../inbox/handover";
import { type ConversationRow, requestHandover } from "./store";
import type { ChatTurn } from "./types";

/*
 * Handover, a policy of the conversation core: an inbox session a person has (or that a trigger
 * hands over now) is not answered by the app, and an app that finds nothing may hand the
 * conversation to a person. The inbox decides; responders never ask it.
 */

/**
 * Whether the app stays silent for a person on this message. Answers the reply said instead
 * (absent when none), or undefined when the app answers. Only inbox sessions (a client's
 * conversation) are gated, and never a stateless call or a delayed reply after a handover.
 */
export async function gateForPerson(
  deps: Pick<Deps, "config" | "db" | "knowledge" | "logger" | "mail" | "models" | "now" | "realtime" | "secrets" | "sms">,
  turn: ChatTurn,
  conversation: ConversationRow,
  input: { text: string; messageId: string },
) {
  if (!conversation.clientId || turn.messages || turn.skipHandover) return undefined;
  const gate = await handoverGate(deps, turn.app, conversation, { ...input, language: turn.language });
  return gate.kind === "hold" ? { reply: gate.reply } : undefined;
}

/**
 * Hands a conversation to a person: an inbox session is transferred (mode, notices; answers
 * the app's default reply), any other conversation is marked as waiting for one.
 */
export async function handOver(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "models" | "now" | "realtime" | "secrets" | "sms">,
  app: ChatApp,
  conversation: ConversationRow,
  input: { reason: "no-hit" | "intent"; detail?: string; language: Language },
): Promise<string | undefined> {
  if (conversation.clientId) return transferToHuman(deps, app, conversation, input);
  await requestHandover(deps, conversation.id);
  if (!conversation.handoverRequestedAt) {
    await recordTransfer(deps, conversation, { reason: input.reason, detail: input.detail ?? null, at: deps.now().toISOString() });
  }
  return undefined;
}
