import type { ChatEvent } from "../chat/events";
import { newId } from "../crypto";
import type { Deps } from "../kernel";
import type { ModelMessage } from "../platform/llm/types";
import { gateForPerson, handOver } from "./handover";
import { TurnMeter } from "./metering";
import { prepareTurn } from "./prepare";
import { responderFor } from "./responders";
import { type ConversationRow, loadMemory, openConversation, storeMessage } from "./store";
import type { ChatTurn, PreparedTurn, Responder, TurnOutcome } from "./types";

/**
 * Answers one turn: the one way in for every entry point (chat, widget, OpenAI-compatible API,
 * channel messages, inbox replies, the workflow app node). The checks that can refuse the turn
 * run now, so a refusal throws before anything streams (the caller answers it as an envelope);
 * the answer then streams as the returned ChatEvents.
 */
export async function answerTurn(deps: Deps, turn: ChatTurn): Promise<AsyncGenerator<ChatEvent>> {
  const responder = responderFor(turn.app);
  const prepared = await prepareTurn(deps, turn, responder.policy);
  return runTurn(deps, { turn, prepared, responder, meter: new TurnMeter(deps, turn, prepared) });
}

/** A turn on its way: what every step reads. */
interface TurnRun {
  turn: ChatTurn;
  prepared: PreparedTurn;
  responder: Responder;
  meter: TurnMeter;
}

/** The opened conversation of a turn. */
interface OpenedTurn {
  conversation: ConversationRow;
  history: ModelMessage[];
  /** The person's message (absent for a stateless call of a responder that does not store it). */
  userMessageId: string | undefined;
  /** The answer's id, known from `message-start` on. */
  messageId: string;
}

/**
 * One turn, step by step: open the conversation, start the answer, let handover and rate limits
 * stop it, let the responder answer under the meter, then hand over, store, charge and close.
 * However it ends (a reader gone, an error), the meter settles what was held.
 */
async function* runTurn(deps: Deps, run: TurnRun): AsyncGenerator<ChatEvent> {
  try {
    const opened = await openTurn(deps, run);
    yield startEvent(run, opened);
    const stopped = await stopBeforeAnswer(deps, run, opened);
    if (stopped) return yield* closeUnanswered(deps, run, opened, stopped);
    const outcome = yield* run.meter.watch(
      run.responder.respond(deps, { turn: run.turn, prepared: run.prepared, conversation: opened.conversation, history: opened.history }),
    );
    if (outcome.handover) await handOver(deps, run.turn.app, opened.conversation, { reason: "no-hit", language: run.turn.language });
    await storeAnswer(deps, run, opened, outcome);
    yield* closeAnswered(outcome, await chargeFor(run, opened, outcome));
  } finally {
    await run.meter.close();
  }
}

/** Finds or starts the conversation, loads what it remembers and stores the person's message. */
async function openTurn(deps: Deps, run: TurnRun): Promise<OpenedTurn> {
  const { turn, prepared } = run;
  const { policy } = run.responder;
  const storesPrompt = !turn.messages || policy.storeStatelessPrompt;
  const said = storesPrompt ? prepared.text : prepared.query;
  const conversation = await openConversation(deps, {
    app: turn.app,
    endUserId: turn.endUserId,
    channel: turn.channel,
    title: said || prepared.files.map((file) => file.name).join(", "),
    ...(turn.conversationId ? { conversationId: turn.conversationId } : {}),
    ...(prepared.conversation ? { found: prepared.conversation } : {}),
  });
  // Memory is read before the person's message is stored, so the message is not in it twice.
  const history = policy.memory && !turn.messages ? await loadMemory(deps, conversation, turn.app, turn.storedMessageId) : [];
  const userMessageId =
    turn.storedMessageId ??
    (storesPrompt ? await storeMessage(deps, { conversation, role: "user", content: said, touch: false, files: prepared.files }) : undefined);
  const messageId = newId("msg");
  run.meter.answering(conversation.id, messageId);
  return { conversation, history, userMessageId, messageId };
}

function startEvent(run: TurnRun, opened: OpenedTurn): ChatEvent {
  return { type: "message-start", conversationId: opened.conversation.id, messageId: opened.messageId, ...run.responder.modelOf(run.prepared) };
}

/** Why a turn ends before its responder is asked: a person has the conversation, or a rate limit was exceeded. */
type Stop = { reply: string | undefined; model: "handover" | "rate-limit"; finishReason: "handover" | "rate-limited" };

async function stopBeforeAnswer(
  deps: Pick<Deps, "config" | "db" | "knowledge" | "logger" | "mail" | "models" | "now" | "realtime" | "secrets" | "sms">,
  run: TurnRun,
  opened: OpenedTurn,
): Promise<Stop | undefined> {
  if (opened.userMessageId) {
    const held = await gateForPerson(deps, run.turn, opened.conversation, { text: run.prepared.text, messageId: opened.userMessageId });
    if (held) {
      // No model is called: the credits held for it go back at once.
      await run.meter.release();
      return { reply: held.reply, model: "handover", finishReason: "handover" };
    }
  }
  if (run.prepared.limited && run.responder.policy.rateLimitReply) {
    return { reply: run.prepared.limited.replyWhenExceeded ?? undefined, model: "rate-limit", finishReason: "rate-limited" };
  }
  return undefined;
}

/** Says the stop's reply, if any (stored under what stopped the turn), and ends the answer without cost. */
async function* closeUnanswered(deps: Deps, run: TurnRun, opened: OpenedTurn, stop: Stop): AsyncGenerator<ChatEvent> {
  if (stop.reply) {
    yield { type: "text-delta", text: stop.reply };
    run.meter.storing();
    await storeMessage(deps, { conversation: opened.conversation, role: "assistant", content: stop.reply, id: opened.messageId, model: stop.model });
  }
  yield { type: "message-end", finishReason: stop.finishReason, usage: { promptTokens: 0, completionTokens: 0 }, credits: 0, balance: null };
}

/** Stores the answer as it was delivered (complete, stopped or error), with its tool calls and citations. */
async function storeAnswer(deps: Deps, run: TurnRun, opened: OpenedTurn, outcome: TurnOutcome) {
  run.meter.storing();
  await storeMessage(deps, {
    conversation: opened.conversation,
    role: "assistant",
    content: outcome.text,
    status: outcome.status,
    model: outcome.model,
    id: opened.messageId,
    ...(outcome.toolCalls?.length ? { toolCalls: outcome.toolCalls } : {}),
    ...(outcome.citations?.length ? { citations: outcome.citations } : {}),
  });
}

/** What the turn is charged: responders metered per turn are settled and recorded here; the others meter their own calls. */
function chargeFor(run: TurnRun, opened: OpenedTurn, outcome: TurnOutcome) {
  if (run.responder.policy.credits !== "turn") return { credits: 0, balance: null };
  return run.meter.charge({ conversationId: opened.conversation.id, messageId: opened.messageId, history: opened.history, outcome });
}

/** Ends the stream: the failure, or the citations and `message-end` with what was charged. */
function* closeAnswered(outcome: TurnOutcome, charge: { credits: number; balance: number | null }): Generator<ChatEvent> {
  if (outcome.failure) {
    yield { type: "error", code: outcome.failure.code, message: outcome.failure.message };
    return;
  }
  for (const citation of outcome.citations ?? []) yield { type: "citation", ...citation };
  yield { type: "message-end", finishReason: outcome.finishReason, usage: outcome.usage, credits: charge.credits, balance: charge.balance };
}
