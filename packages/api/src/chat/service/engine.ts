import { sql } from "drizzle-orm";
import { newId } from "../../crypto";
import { prepared as preparedQuery } from "../../db/prepared";
import { usageRecords } from "../../db/schema/index";
import { ServiceError } from "../../errors";
import type { Deps } from "../../http/context";
import type { Language } from "../../http/messages";
import { translate } from "../../http/messages";
import { creditsFor, priceOf } from "../../models/pricing";
import { estimateTokens } from "../../platform/llm/tokens";
import { type ModelMessage, ModelError, type ModelRequest, type TokenUsage, type ToolCall, type ToolDefinition } from "../../platform/llm/types";
import type { PluginTool } from "../../plugins/runtime-types";
import { availableBalance, type CreditHold, extendHold, releaseHold, settleHold, takeHold } from "../../billing/service/holds";
import type { ChatEvent } from "../events";
import type { ChatApp } from "../../apps/service/index";
import { conversationExists, loadMemory, type MessageCitation, openConversation, requestHandover, storeMessage } from "./conversations";
import {
  citationsOf,
  fitToBudget,
  knowledgeForModel,
  knowledgeHitsRecord,
  noHitReply,
  previousUserText,
  referenceBudget,
  referenceSection,
  retrieveForTurn,
  type TurnKnowledge,
  usesKnowledge,
} from "./knowledge";
import { checkRateLimits } from "./rate-limit";
import { handoverGate, transferToHuman } from "../../inbox/handover";

/** One turn asked of an app. */
export interface ChatTurn {
  app: ChatApp;
  /** Who talks (a user id, an API caller's `user`, a channel sender). */
  endUserId: string;
  channel: string;
  conversationId?: string;
  text: string;
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
}

/** The most a turn's model call may write: the credit hold is sized for it (decision 0011). */
export const TURN_MAX_OUTPUT_TOKENS = 4096;
/** A turn is refused when the credits left cannot pay for even this many tokens of answer. */
const TURN_MIN_OUTPUT_TOKENS = 16;

const USAGE_COLUMNS = [
  "id",
  "spaceId",
  "appId",
  "conversationId",
  "messageId",
  "endUserId",
  "channel",
  "prompt",
  "answer",
  "model",
  "promptTokens",
  "completionTokens",
  "credits",
  "context",
  "knowledgeHits",
  "createdAt",
] as const;

/** Longest message accepted from a person. */
export const MAX_INPUT_CHARACTERS = 20_000;

/**
 * Everything that can refuse a turn before anything streams: the checks run first so that the
 * caller can answer with an envelope error (400, 404, 429, 870) instead of a broken stream.
 */
export async function prepareTurn(deps: Deps, turn: ChatTurn) {
  const text = turn.messages ? turn.text.trim() || "(tool results)" : turn.text.trim();
  if (!text) throw new ServiceError("validation", "validation_failed", { field: "message", reason: "empty" }, { field: "message" });
  if (!turn.messages && text.length > MAX_INPUT_CHARACTERS) {
    throw new ServiceError("validation", "validation_failed", { field: "message", reason: `longer than ${MAX_INPUT_CHARACTERS} characters` }, { field: "message" });
  }
  const modelId = turn.model ?? turn.app.defaultModel;
  if (modelId !== turn.app.defaultModel && !turn.app.optionalModels.includes(modelId)) throw new ServiceError("validation", "chat_unknown_model", { model: modelId }, { field: "model" });
  // A conversation named but not the caller's (another space's, another user's, or unknown) is a
  // 400 before anything is held or streamed, instead of an error event inside a 200 stream.
  if (turn.conversationId && !(await conversationExists(deps, { id: turn.conversationId, app: turn.app, endUserId: turn.endUserId }))) {
    throw new ServiceError("validation", "chat_conversation_unknown", { id: turn.conversationId }, { field: "conversationId" });
  }
  const resolved = deps.models.resolve(modelId) ?? deps.models.fallback();
  // A prompt that cannot fit the model's context window is refused before any call is paid for.
  const promptText = turn.messages ? turn.messages.map((message) => message.content).join("\n") : text;
  if (!resolved.model.offline && estimateTokens(promptText) + estimateTokens(turn.app.settingsPrompt) > resolved.model.contextWindow) {
    throw new ServiceError("validation", "chat_model_context_length", {}, { field: turn.messages ? "messages" : "message" });
  }
  const free = creditsFor(resolved.model.id, { promptTokens: 1000, completionTokens: 1000 }) === 0;
  const limited = await checkRateLimits(deps, { appId: turn.app.id, endUserId: turn.endUserId, channel: turn.channel });
  let hold: CreditHold | undefined;
  let maxOutputTokens: number | undefined;
  if (turn.app.type === "WORKFLOW") {
    // A workflow's model nodes hold credits call by call; the turn itself calls no model.
    if (!free && (await availableBalance(deps, turn.app.spaceId)) <= 0) throw new ServiceError("insufficient_credits", "insufficient_credits");
  } else if (!free && !limited) {
    // Reserved before the model is called, in one statement, so concurrent turns cannot all pass
    // a check and overrun the balance; the answer is capped at what the hold pays for.
    const promptTokens = estimateTokens(promptText) + estimateTokens(turn.app.settingsPrompt);
    hold = await takeHold(deps, {
      spaceId: turn.app.spaceId,
      userKeyId: turn.userKeyId ?? null,
      amount: creditsFor(resolved.model.id, { promptTokens, completionTokens: TURN_MAX_OUTPUT_TOKENS }),
      minimum: creditsFor(resolved.model.id, { promptTokens, completionTokens: TURN_MIN_OUTPUT_TOKENS }),
      reference: turn.app.id,
    });
    const price = priceOf(resolved.model.id);
    maxOutputTokens = price.completion > 0
      ? Math.max(1, Math.min(TURN_MAX_OUTPUT_TOKENS, Math.floor((hold.amount * 1000 - promptTokens * price.prompt) / price.completion)))
      : TURN_MAX_OUTPUT_TOKENS;
  }
  return { text, resolved, limited, hold, maxOutputTokens };
}

/** How often an answer's text so far is written while it streams. */
export const PARTIAL_SAVE_MS = 500;
/** A hold of a running turn is extended this often (its expiry is what frees it after a crash). */
const HOLD_EXTEND_MS = 60_000;

function modelFailure(error: unknown, language: Language): { code: number; message: string } {
  if (error instanceof ModelError) {
    const code = error.kind === "timeout" ? 504 : error.kind === "rate_limited" ? 429 : error.kind === "context_length" ? 400 : 502;
    return { code, message: translate(language, `chat_model_${error.kind}`, { seconds: error.details.retryAfterSeconds ?? 0 }) };
  }
  return { code: 500, message: translate(language, "chat_failed") };
}

/**
 * Runs one turn and yields the chat stream. The user's message is stored first; the answer is
 * stored with what was delivered (complete, stopped or error), a usage record is written, and
 * credits are charged for the tokens actually produced.
 */
export async function* runTurn(deps: Deps, turn: ChatTurn, prepared: Awaited<ReturnType<typeof prepareTurn>>): AsyncGenerator<ChatEvent> {
  const meter: TurnMeter = { settled: false };
  const { hold } = prepared;
  let answer = "";
  let messageId: string | undefined;
  let conversation: { id: string; spaceId: string } | undefined;
  // The text so far is written at most every PARTIAL_SAVE_MS, one write at a time and off the
  // stream's path, so a crash leaves what the reader saw (marked interrupted at the next start).
  let writing: Promise<void> = Promise.resolve();
  let savedAt = 0;
  let extendedAt = Date.now();
  let inserted = false;
  const savePartial = () => {
    if (!messageId || !conversation) return;
    const id = messageId;
    const { id: conversationId, spaceId } = conversation;
    const content = answer;
    const first = !inserted;
    inserted = true;
    writing = writing
      .then(() => writePartialAnswer(deps, { id, conversationId, spaceId, content, model: prepared.resolved.model.id, first }))
      .catch((error: unknown) => deps.logger.warn("could not store a partial answer", { error: String(error) }));
  };
  try {
    for await (const event of answerTurn(deps, turn, prepared, meter)) {
      if (event.type === "message-start") {
        messageId = event.messageId;
        conversation = { id: event.conversationId, spaceId: turn.app.spaceId };
      } else if (event.type === "text-delta" && !meter.stored) {
        answer += event.text;
        const now = Date.now();
        if (now - savedAt >= PARTIAL_SAVE_MS) {
          savedAt = now;
          savePartial();
        }
        if (hold && now - extendedAt >= HOLD_EXTEND_MS) {
          extendedAt = now;
          void extendHold(deps, hold).catch(() => {});
        }
      }
      yield event;
    }
  } finally {
    await writing;
    if (hold && !meter.settled) {
      // The reader went away mid-answer: what was delivered is charged, the rest of the hold freed.
      const usage = { promptTokens: estimateTokens(prepared.text) + estimateTokens(turn.app.settingsPrompt), completionTokens: estimateTokens(answer) };
      const credits = answer ? creditsFor(prepared.resolved.model.id, usage) : 0;
      await settleHold(deps, hold, { credits, reference: messageId ?? hold.id }).catch((error: unknown) =>
        deps.logger.warn("could not settle a credit hold; it lapses on expiry", { error: String(error) }),
      );
    }
    if (!meter.stored && inserted && messageId) {
      await Promise.resolve(deps.db.run(sql`UPDATE messages SET content = ${answer}, status = 'stopped' WHERE id = ${messageId} AND status = 'streaming'`)).catch(() => {});
    }
  }
}

/** What the outer turn needs to know of the inner one's bookkeeping. */
interface TurnMeter {
  /** The hold was settled (the turn charged what it cost). */
  settled: boolean;
  /** The answer's final row was written: partial writes must stop. */
  stored?: boolean;
}

/** Writes the answer so far as a `streaming` message: inserted on the first write, then updated while still streaming. */
async function writePartialAnswer(deps: Deps, input: { id: string; conversationId: string; spaceId: string; content: string; model: string; first: boolean }) {
  if (input.first) {
    await deps.db.run(sql`INSERT INTO messages (id, space_id, conversation_id, role, content, status, model, created_at)
      VALUES (${input.id}, ${input.spaceId}, ${input.conversationId}, 'assistant', ${input.content}, 'streaming', ${input.model}, ${deps.now().toISOString()})
      ON CONFLICT (id) DO NOTHING`);
  } else {
    await deps.db.run(sql`UPDATE messages SET content = ${input.content} WHERE id = ${input.id} AND status = 'streaming'`);
  }
}

/** Marks answers left `streaming` by a process that died as `interrupted`; run at start-up. Answers how many. */
export async function markInterruptedAnswers(deps: Deps): Promise<number> {
  const rows = await deps.db.all<{ id: string }>(sql`UPDATE messages SET status = 'interrupted' WHERE status = 'streaming' RETURNING id`);
  return rows.length;
}

async function* answerTurn(deps: Deps, turn: ChatTurn, prepared: Awaited<ReturnType<typeof prepareTurn>>, meter: TurnMeter): AsyncGenerator<ChatEvent> {
  const { app } = turn;
  const conversation = await openConversation(deps, { app, endUserId: turn.endUserId, channel: turn.channel, title: prepared.text, ...(turn.conversationId ? { conversationId: turn.conversationId } : {}) });
  const history = turn.messages ? [] : await loadMemory(deps, conversation, app, turn.storedMessageId);
  const userMessageId = turn.storedMessageId ?? (await storeMessage(deps, { conversation, role: "user", content: prepared.text, touch: false }));
  const messageId = newId("msg");
  const { provider, model } = prepared.resolved;
  yield { type: "message-start", conversationId: conversation.id, messageId, model: model.id, offline: model.offline };

  // An inbox session a person has (or that a trigger now hands over) is not answered by the AI.
  if (conversation.clientId && !turn.messages && !turn.skipHandover) {
    const gate = await handoverGate(deps, app, conversation, { text: prepared.text, messageId: userMessageId, language: turn.language });
    if (gate.kind === "hold") {
      // No model is called: the credits held for it go back at once.
      if (prepared.hold) await releaseHold(deps, prepared.hold);
      meter.settled = true;
      if (gate.reply) {
        yield { type: "text-delta", text: gate.reply };
        meter.stored = true;
        await storeMessage(deps, { conversation, role: "assistant", content: gate.reply, id: messageId, model: "handover" });
      }
      yield { type: "message-end", finishReason: "handover", usage: { promptTokens: 0, completionTokens: 0 }, credits: 0, balance: null };
      return;
    }
  }

  if (prepared.limited) {
    const reply = prepared.limited.replyWhenExceeded;
    if (reply) {
      yield { type: "text-delta", text: reply };
      meter.stored = true;
      await storeMessage(deps, { conversation, role: "assistant", content: reply, id: messageId, model: "rate-limit" });
    }
    yield { type: "message-end", finishReason: "rate-limited", usage: { promptTokens: 0, completionTokens: 0 }, credits: 0, balance: null };
    return;
  }

  const clientTools = turn.clientTools && turn.clientTools.length > 0 ? turn.clientTools : undefined;
  const tools: PluginTool[] =
    !clientTools && app.plugins.length > 0 ? await deps.plugins.toolsFor({ spaceId: app.spaceId, pluginCodes: app.plugins }) : [];
  const toolByName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  const offered = clientTools ?? tools.map((tool) => tool.definition);
  const conversationMessages: ModelMessage[] = turn.messages ?? [...history, { role: "user" as const, content: prepared.text }];
  const promptWith = (reference: string | null): ModelMessage[] => {
    const system = [app.settingsPrompt.trim() ? app.settingsPrompt : "", reference ?? ""].filter(Boolean).join("\n\n");
    return [...(system ? [{ role: "system" as const, content: system }] : []), ...conversationMessages];
  };
  let prompt = promptWith(null);
  const toolRounds = offered.length === 0 ? 0 : clientTools ? 1 : app.multiRoundThinking ? Math.max(1, app.maxRounds) : 1;
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  let answer = "";
  let finishReason: Extract<ChatEvent, { type: "message-end" }>["finishReason"] = "stop";
  const toolLog: Array<{ call: ToolCall; ok: boolean; content: string }> = [];
  let failure: { code: number; message: string } | undefined;
  let modelCalls = 0;
  let knowledge: ModelRequest["knowledge"];
  let citations: MessageCitation[] = [];
  let knowledgeHits: string | null = null;
  let noHit: { text: string; handover: boolean } | undefined;

  /**
   * One exchange with the model: rounds of answer and tool calls on `messages`. With `probe`, the
   * first round's text is held back; when the model calls no tool in it, the exchange ends there
   * and answers that draft unshown, so the caller decides what the turn says instead.
   */
  async function* converse(messages: ModelMessage[], withTools: boolean, probe = false): AsyncGenerator<ChatEvent, { toolCalled: boolean; draft: string }> {
    prompt = messages;
    const rounds = withTools ? toolRounds : 0;
    for (let round = 0; ; round++) {
      const offerTools = round < rounds;
      const holdBack = probe && round === 0;
      const calls: ToolCall[] = [];
      let roundText = "";
      let reported = false;
      modelCalls += 1;
      for await (const part of provider.stream({
        model: model.id,
        messages: prompt,
        temperature: app.temperature,
        language: turn.language,
        // Widget visitors and channel customers are not the people who configure the server.
        audience: conversation.clientId ? "customer" : "operator",
        ...(knowledge ? { knowledge } : {}),
        ...(prepared.maxOutputTokens ? { maxOutputTokens: prepared.maxOutputTokens } : {}),
        ...(offerTools ? { tools: offered } : {}),
        ...(turn.signal ? { signal: turn.signal } : {}),
      })) {
        if (part.type === "text-delta") {
          roundText += part.text;
          if (holdBack) continue;
          answer += part.text;
          yield { type: "text-delta", text: part.text };
        } else if (part.type === "tool-call") {
          calls.push(part.call);
        } else {
          reported = true;
          usage.promptTokens += part.usage.promptTokens;
          usage.completionTokens += part.usage.completionTokens;
          finishReason = part.reason;
        }
      }
      if (!reported) usage.completionTokens += estimateTokens(roundText);
      if (holdBack) {
        if (calls.length === 0 || !offerTools) return { toolCalled: false, draft: roundText };
        if (roundText) {
          answer += roundText;
          yield { type: "text-delta", text: roundText };
        }
      }
      if (calls.length === 0 || !offerTools) break;
      if (clientTools) {
        // The caller runs its own tools: hand the calls back and end the turn.
        for (const call of calls) {
          toolLog.push({ call, ok: true, content: "" });
          yield { type: "tool-call", id: call.id, name: call.name, arguments: call.arguments };
        }
        finishReason = "tool-calls";
        break;
      }
      prompt.push({ role: "assistant", content: roundText, toolCalls: calls });
      for (const call of calls) {
        yield { type: "tool-call", id: call.id, name: call.name, arguments: call.arguments };
        const tool = toolByName.get(call.name);
        const result = tool
          ? await deps.plugins.execute({ spaceId: app.spaceId, tool, arguments: call.arguments, ...(turn.signal ? { signal: turn.signal } : {}) })
          : { ok: false, content: `Unknown tool ${call.name}`, durationMs: 0 };
        toolLog.push({ call, ok: result.ok, content: result.content });
        yield { type: "tool-result", id: call.id, name: call.name, ok: result.ok, content: result.content, durationMs: result.durationMs };
        prompt.push({ role: "tool", toolCallId: call.id, name: call.name, content: result.content });
      }
      finishReason = "stop";
    }
    return { toolCalled: toolLog.length > 0, draft: "" };
  }

  /** Retrieval for this turn; undefined when it failed (the turn then answers as if the app had no knowledge). */
  const findKnowledge = async (): Promise<TurnKnowledge | undefined> => {
    const query = (turn.messages ? turn.text : prepared.text).trim();
    if (!query) return undefined;
    try {
      const hits = await retrieveForTurn(deps, app, { text: query, previousText: previousUserText(conversationMessages) });
      const sources = fitToBudget(hits, referenceBudget(app.retrievalLength, model.contextWindow, promptWith(null)));
      knowledgeHits = knowledgeHitsRecord(sources);
      return { hits, sources };
    } catch (error) {
      deps.logger.warn("knowledge retrieval failed; answering without knowledge", { app: app.code, error: String(error) });
      return undefined;
    }
  };
  /** Answers from the found sources: they join the system prompt, and are cited when the app shows citations. */
  const answerFrom = (found: TurnKnowledge, withTools: boolean) => {
    knowledge = knowledgeForModel(found.sources);
    citations = citationsOf(app, found.sources);
    return converse(promptWith(referenceSection(found.sources, turn.language)), withTools);
  };
  // Tools the model can actually be offered (the offline responder never calls any).
  const toolsUsable = offered.length > 0 && !model.offline;

  try {
    if (!usesKnowledge(app)) {
      yield* converse(prompt, true);
    } else if (app.pluginStrategy === "plugin_first" && toolsUsable) {
      // Plugins first: the model sees the tools alone; knowledge is consulted only when it calls none.
      const first = yield* converse(promptWith(null), true, true);
      if (!first.toolCalled) {
        const found = await findKnowledge();
        if (found && found.sources.length > 0) yield* answerFrom(found, false);
        else if (!found || app.noHitStrategy === "default") {
          // Free style: the draft the model already wrote is the answer.
          answer += first.draft;
          if (first.draft) yield { type: "text-delta", text: first.draft };
        } else noHit = noHitReply(app, turn.language);
      }
    } else {
      const found = await findKnowledge();
      if (!found) yield* converse(prompt, true);
      // Knowledge first answers from its hits without tools; both offers them together.
      else if (found.sources.length > 0) yield* answerFrom(found, app.pluginStrategy === "both");
      else if (app.noHitStrategy === "default") yield* converse(prompt, true);
      else if (toolsUsable) {
        // Nothing found, but a plugin may still answer: the no-hit reply stands only when the model calls none.
        const probe = yield* converse(promptWith(null), true, true);
        if (!probe.toolCalled) noHit = noHitReply(app, turn.language);
      } else noHit = noHitReply(app, turn.language);
    }
    if (noHit) {
      answer = noHit.text;
      finishReason = noHit.handover ? "handover" : "stop";
      yield { type: "text-delta", text: noHit.text };
      if (noHit.handover) {
        if (conversation.clientId) await transferToHuman(deps, app, conversation, { reason: "no-hit", language: turn.language });
        else await requestHandover(deps, conversation.id);
      }
    }
  } catch (error) {
    if (turn.signal?.aborted || (error instanceof ModelError && error.kind === "aborted")) {
      finishReason = "stopped";
    } else {
      failure = modelFailure(error, turn.language);
      if (!(error instanceof ModelError)) deps.logger.error("chat turn failed", { app: app.code, error: String(error) });
    }
    usage.completionTokens = Math.max(usage.completionTokens, estimateTokens(answer));
    if (usage.promptTokens === 0) usage.promptTokens = estimateTokens(prompt.map((message) => message.content).join("\n"));
  }
  if (failure) citations = [];
  // A no-hit reply the model did not write is recorded under what answered it.
  const answeredBy = noHit && modelCalls === 0 ? (noHit.handover ? "handover" : "no-hit") : model.id;

  const status = failure ? "error" : finishReason === "stopped" ? "stopped" : "complete";
  meter.stored = true;
  await storeMessage(deps, {
    conversation,
    role: "assistant",
    content: answer,
    status,
    model: answeredBy,
    id: messageId,
    ...(toolLog.length ? { toolCalls: toolLog } : {}),
    ...(citations.length ? { citations } : {}),
  });
  // Charge for what was delivered: nothing when nothing came out of a failed call.
  const credits = failure && answer === "" ? 0 : creditsFor(model.id, usage);
  let balance: number | null = null;
  let charged = credits;
  if (prepared.hold) {
    ({ charged, balance } = await settleHold(deps, prepared.hold, { credits, reference: messageId }));
    meter.settled = true;
  }
  await preparedQuery(deps.db, "chat.insertUsage", () =>
    deps.db
      .insert(usageRecords)
      .values(Object.fromEntries(USAGE_COLUMNS.map((column) => [column, sql.placeholder(column)])) as unknown as typeof usageRecords.$inferInsert)
      .prepare(),
  ).run({
    id: newId("use"),
    spaceId: app.spaceId,
    appId: app.id,
    conversationId: conversation.id,
    messageId,
    endUserId: turn.endUserId,
    channel: turn.channel,
    prompt: prepared.text,
    answer,
    model: answeredBy,
    promptTokens: usage.promptTokens,
    completionTokens: usage.completionTokens,
    credits: charged,
    context: JSON.stringify(history),
    knowledgeHits,
    createdAt: deps.now().toISOString(),
  });
  if (failure) {
    yield { type: "error", code: failure.code, message: failure.message };
    return;
  }
  for (const citation of citations) yield { type: "citation", ...citation };
  yield { type: "message-end", finishReason, usage, credits: charged, balance };
}
