import type { ChatApp } from "../../apps/service/index";
import type { MessageCitation } from "../../conversation/store";
import type { ChatTurn, PreparedTurn, Responder, ResponderContext, TurnOutcome } from "../../conversation/types";
import type { Deps } from "../../kernel";
import type { ResolvedModel } from "../../models/catalog";
import { estimatePromptTokens, estimateTokens } from "../../platform/llm/tokens";
import { fileCitations, filesInstruction, fileSources, imagePartsOf } from "./turn-files";
import { type ModelMessage, ModelError, type ModelRequest, type TokenUsage, type ToolCall, type ToolDefinition } from "../../platform/llm/types";
import type { PluginTool } from "../../plugins/runtime-types";
import type { ChatEvent } from "../events";
import { DATABASE_TOOL, databaseTargetsFor, databaseTool, executeDatabaseTool } from "./database-tool";
import type { StatementTarget } from "../../databases/service/statements";
import { messageText, renderMessage } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";
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

/**
 * The chat engine: answers a turn with the app's model, its knowledge and its plugins. The
 * conversation core opens the conversation, applies handover, rate limits and metering, and
 * stores what this answers.
 */
export const chatEngine: Responder = {
  policy: { credits: "turn", memory: true, rateLimitReply: true, storeStatelessPrompt: true },
  modelOf: (prepared) => ({ model: prepared.resolved.model.id, offline: prepared.resolved.model.offline }),
  respond: answerWithModel,
};

type FinishReason = TurnOutcome["finishReason"];

/** One turn of the engine on its way: what its steps read and write. */
interface ModelRun {
  deps: Deps;
  turn: ChatTurn;
  prepared: PreparedTurn;
  app: ChatApp;
  model: ResolvedModel["model"];
  provider: ResolvedModel["provider"];
  /** Widget visitors and channel customers are not the people who configure the server. */
  audience: "customer" | "operator";
  /** The conversation as the model sees it, without the system prompt. */
  conversationMessages: ModelMessage[];
  clientTools: ToolDefinition[] | undefined;
  toolByName: Map<string, PluginTool>;
  /** The app's databases the `query_database` tool reaches (empty: not offered). */
  databases: StatementTarget[];
  /** The conversation, for confirmations of database writes. */
  conversationId: string;
  /** A database write waits for the user: the turn ends with its confirmation card. */
  awaitingConfirmation: string | undefined;
  /** The turn's database statements, for its usage record. */
  statements: Array<Record<string, unknown>>;
  offered: ToolDefinition[];
  toolRounds: number;
  prompt: ModelMessage[];
  usage: TokenUsage;
  answer: string;
  finishReason: FinishReason;
  toolLog: Array<{ call: ToolCall; ok: boolean; content: string }>;
  failure: { code: number; message: string } | undefined;
  modelCalls: number;
  knowledge: ModelRequest["knowledge"];
  citations: MessageCitation[];
  knowledgeHits: string | null;
  noHit: { text: string; handover: boolean } | undefined;
  handover: boolean;
}

/** Answers a turn: tools and prompt first, then the app's strategy, then what the turn came to. */
async function* answerWithModel(deps: Deps, context: ResponderContext): AsyncGenerator<ChatEvent, TurnOutcome> {
  const run = await startRun(deps, context);
  try {
    yield* followStrategy(run);
    if (run.noHit) yield* sayNoHit(run, run.noHit);
  } catch (error) {
    recordFailure(run, error);
  }
  return outcomeOf(run);
}

/** The tools offered (the caller's own, or the app's plugins) and the prompt of the turn. */
async function startRun(deps: Deps, { turn, prepared, conversation, history }: ResponderContext): Promise<ModelRun> {
  const { app } = turn;
  const clientTools = turn.clientTools && turn.clientTools.length > 0 ? turn.clientTools : undefined;
  const tools: PluginTool[] = !clientTools && app.plugins.length > 0 ? await deps.plugins.toolsFor({ spaceId: app.spaceId, pluginCodes: app.plugins }) : [];
  const targets = clientTools ? [] : await databaseTargetsFor(deps, app);
  const offered = clientTools ?? [...tools.map((tool) => tool.definition), ...(targets.length > 0 ? [databaseTool(targets)] : [])];
  const images = await imagePartsOf(deps, prepared.files);
  const run: ModelRun = {
    deps,
    turn,
    prepared,
    app,
    model: prepared.resolved.model,
    provider: prepared.resolved.provider,
    audience: conversation.clientId ? "customer" : "operator",
    conversationMessages: turn.messages ?? [...history, { role: "user" as const, content: prepared.text, ...(images.length ? { images } : {}) }],
    clientTools,
    toolByName: new Map(tools.map((tool) => [tool.definition.name, tool])),
    databases: targets,
    conversationId: conversation.id,
    awaitingConfirmation: undefined,
    statements: [],
    offered,
    toolRounds: offered.length === 0 ? 0 : clientTools ? 1 : app.multiRoundThinking ? Math.max(1, app.maxRounds) : 1,
    prompt: [],
    usage: { promptTokens: 0, completionTokens: 0 },
    answer: "",
    finishReason: "stop",
    toolLog: [],
    failure: undefined,
    modelCalls: 0,
    knowledge: undefined,
    citations: [],
    knowledgeHits: null,
    noHit: undefined,
    handover: false,
  };
  run.prompt = promptWith(run, null);
  return run;
}

/** The system prompt (the app's, with the knowledge reference when there is one) before the conversation. */
function promptWith(run: ModelRun, reference: string | null): ModelMessage[] {
  const system = [run.app.settingsPrompt.trim() ? run.app.settingsPrompt : "", reference ?? ""].filter(Boolean).join("\n\n");
  return [...(system ? [{ role: "system" as const, content: system }] : []), ...run.conversationMessages];
}

/**
 * The app's strategy: without knowledge the model answers; "plugin first" offers the tools
 * alone and consults knowledge only when the model calls none; otherwise knowledge first.
 */
async function* followStrategy(run: ModelRun): AsyncGenerator<ChatEvent> {
  // Tools the model can actually be offered (the offline responder never calls any).
  const toolsUsable = run.offered.length > 0 && !run.model.offline;
  if (run.prepared.files.some((file) => file.kind === "document")) return yield* answerWithFiles(run, toolsUsable);
  if (!usesKnowledge(run.app)) yield* converse(run, run.prompt, true);
  else if (run.app.pluginStrategy === "plugin_first" && toolsUsable) yield* pluginsFirst(run);
  else yield* knowledgeFirst(run, toolsUsable);
}

async function* pluginsFirst(run: ModelRun): AsyncGenerator<ChatEvent> {
  const first = yield* converse(run, promptWith(run, null), true, true);
  if (first.toolCalled) return;
  const found = await findKnowledge(run);
  if (found && found.sources.length > 0) yield* answerFrom(run, found, false);
  else if (!found || run.app.noHitStrategy === "default") {
    // Free style: the draft the model already wrote is the answer.
    run.answer += first.draft;
    if (first.draft) yield { type: "text-delta", text: first.draft };
  } else run.noHit = noHitReply(run.app, run.turn.language);
}

async function* knowledgeFirst(run: ModelRun, toolsUsable: boolean): AsyncGenerator<ChatEvent> {
  const found = await findKnowledge(run);
  if (!found) yield* converse(run, run.prompt, true);
  // Knowledge first answers from its hits without tools; both offers them together.
  else if (found.sources.length > 0) yield* answerFrom(run, found, run.app.pluginStrategy === "both");
  else if (run.app.noHitStrategy === "default") yield* converse(run, run.prompt, true);
  else if (toolsUsable) {
    // Nothing found, but a plugin may still answer: the no-hit reply stands only when the model calls none.
    const probe = yield* converse(run, promptWith(run, null), true, true);
    if (!probe.toolCalled) run.noHit = noHitReply(run.app, run.turn.language);
  } else run.noHit = noHitReply(run.app, run.turn.language);
}

/** Retrieval for this turn; undefined when it failed (the turn then answers as if the app had no knowledge). */
async function findKnowledge(run: ModelRun): Promise<TurnKnowledge | undefined> {
  const query = run.prepared.query;
  if (!query) return undefined;
  try {
    const hits = await retrieveForTurn(run.deps, run.app, { text: query, previousText: previousUserText(run.conversationMessages) });
    const sources = fitToBudget(hits, referenceBudget(run.app.retrievalLength, run.model.contextWindow, promptWith(run, null)));
    run.knowledgeHits = knowledgeHitsRecord(sources);
    return { hits, sources };
  } catch (error) {
    run.deps.logger.warn("knowledge retrieval failed; answering without knowledge", { app: run.app.code, error: String(error) });
    return undefined;
  }
}

/** Answers from the found sources: they join the system prompt, and are cited when the app shows citations. */
function answerFrom(run: ModelRun, found: TurnKnowledge, withTools: boolean) {
  run.knowledge = knowledgeForModel(found.sources);
  run.citations = citationsOf(run.app, found.sources);
  return converse(run, promptWith(run, referenceSection(found.sources, run.turn.language)), withTools);
}

/**
 * A turn with attached documents: they are the first references, read whole as far as the
 * context window allows, and always cited; the app's knowledge (when it has any) follows them.
 * The app's no-hit strategy does not apply: the person's own files are the material.
 */
async function* answerWithFiles(run: ModelRun, toolsUsable: boolean): AsyncGenerator<ChatEvent> {
  const found = usesKnowledge(run.app) ? await findKnowledge(run) : undefined;
  const knowledge = found?.sources ?? [];
  const base = promptWith(run, null);
  const knowledgeTokens = knowledge.reduce((sum, source) => sum + estimateTokens(source.content), 0);
  const room = run.model.contextWindow - estimatePromptTokens(base) - knowledgeTokens - FILE_ANSWER_RESERVE_TOKENS;
  const files = fileSources(run.prepared.files, Math.max(MIN_FILE_TOKENS, room), run.turn.language);
  const renumbered = knowledge.map((source, position) => ({ ...source, index: files.length + position + 1 }));
  const sources = [...files, ...renumbered];
  run.knowledge = knowledgeForModel(sources);
  run.citations = [...fileCitations(files), ...citationsOf(run.app, renumbered)];
  const reference = `${filesInstruction(run.turn.language)}\n\n${referenceSection(sources, run.turn.language)}`;
  yield* converse(run, promptWith(run, reference), toolsUsable);
}

/** Tokens kept free for the answer when attached documents are fitted into the context window. */
const FILE_ANSWER_RESERVE_TOKENS = 1024;

/** An attached document always gives the model at least this much of itself. */
const MIN_FILE_TOKENS = 256;

/** The app found nothing: its no-hit reply is the answer, and may hand the conversation to a person. */
async function* sayNoHit(run: ModelRun, noHit: { text: string; handover: boolean }): AsyncGenerator<ChatEvent> {
  run.answer = noHit.text;
  run.finishReason = noHit.handover ? "handover" : "stop";
  yield { type: "text-delta", text: noHit.text };
  run.handover = noHit.handover;
}

/**
 * One exchange with the model: rounds of answer and tool calls on `messages`. With `probe`, the
 * first round's text is held back; when the model calls no tool in it, the exchange ends there
 * and answers that draft unshown, so the caller decides what the turn says instead.
 */
async function* converse(
  run: ModelRun,
  messages: ModelMessage[],
  withTools: boolean,
  probe = false,
): AsyncGenerator<ChatEvent, { toolCalled: boolean; draft: string }> {
  const { turn, app } = run;
  run.prompt = messages;
  const rounds = withTools ? run.toolRounds : 0;
  for (let round = 0; ; round++) {
    const offerTools = round < rounds;
    const holdBack = probe && round === 0;
    const calls: ToolCall[] = [];
    let roundText = "";
    let reported = false;
    run.modelCalls += 1;
    for await (const part of run.provider.stream({
      model: run.model.id,
      messages: run.prompt,
      temperature: app.temperature,
      language: turn.language,
      audience: run.audience,
      ...(run.knowledge ? { knowledge: run.knowledge } : {}),
      ...(run.prepared.maxOutputTokens ? { maxOutputTokens: run.prepared.maxOutputTokens } : {}),
      ...(offerTools ? { tools: run.offered } : {}),
      ...(turn.signal ? { signal: turn.signal } : {}),
    })) {
      if (part.type === "text-delta") {
        roundText += part.text;
        if (holdBack) continue;
        run.answer += part.text;
        yield { type: "text-delta", text: part.text };
      } else if (part.type === "tool-call") {
        calls.push(part.call);
      } else {
        reported = true;
        run.usage.promptTokens += part.usage.promptTokens;
        run.usage.completionTokens += part.usage.completionTokens;
        run.finishReason = part.reason;
      }
    }
    if (!reported) run.usage.completionTokens += estimateTokens(roundText);
    if (holdBack) {
      if (calls.length === 0 || !offerTools) return { toolCalled: false, draft: roundText };
      if (roundText) {
        run.answer += roundText;
        yield { type: "text-delta", text: roundText };
      }
    }
    if (calls.length === 0 || !offerTools) break;
    if (run.clientTools) {
      // The caller runs its own tools: hand the calls back and end the turn.
      for (const call of calls) {
        run.toolLog.push({ call, ok: true, content: "" });
        yield { type: "tool-call", id: call.id, name: call.name, arguments: call.arguments };
      }
      run.finishReason = "tool-calls";
      break;
    }
    run.prompt.push({ role: "assistant", content: roundText, toolCalls: calls });
    yield* runTools(run, calls);
    run.finishReason = "stop";
    if (run.awaitingConfirmation) {
      // The write waits for the user: the turn ends with its card rather than another model round.
      run.answer += run.awaitingConfirmation;
      yield { type: "text-delta", text: run.awaitingConfirmation };
      break;
    }
  }
  return { toolCalled: run.toolLog.length > 0, draft: "" };
}

/** Runs the plugin tools the model called; their results join the prompt for the next round. */
async function* runTools(run: ModelRun, calls: ToolCall[]): AsyncGenerator<ChatEvent> {
  const { deps, app, turn } = run;
  for (const call of calls) {
    yield { type: "tool-call", id: call.id, name: call.name, arguments: call.arguments };
    if (call.name === DATABASE_TOOL && run.databases.length > 0) {
      const started = Date.now();
      const result = await executeDatabaseTool(deps, {
        app,
        conversationId: run.conversationId,
        targets: run.databases,
        arguments: call.arguments,
        language: turn.language,
      });
      run.statements.push(result.record);
      run.toolLog.push({ call, ok: result.ok, content: result.content });
      if (result.confirmation) run.awaitingConfirmation = messageText(turn.language, "chat_database_confirm", { database: result.confirmation.databaseName });
      yield {
        type: "tool-result",
        id: call.id,
        name: call.name,
        ok: result.ok,
        content: result.content,
        durationMs: Date.now() - started,
        ...(result.table ? { table: result.table } : {}),
        ...(result.confirmation ? { confirmation: result.confirmation } : {}),
      };
      run.prompt.push({ role: "tool", toolCallId: call.id, name: call.name, content: result.content });
      continue;
    }
    const tool = run.toolByName.get(call.name);
    const result = tool
      ? await deps.plugins.execute({ spaceId: app.spaceId, tool, arguments: call.arguments, ...(turn.signal ? { signal: turn.signal } : {}) })
      : { ok: false, content: `Unknown tool ${call.name}`, durationMs: 0 };
    run.toolLog.push({ call, ok: result.ok, content: result.content });
    yield { type: "tool-result", id: call.id, name: call.name, ok: result.ok, content: result.content, durationMs: result.durationMs };
    run.prompt.push({ role: "tool", toolCallId: call.id, name: call.name, content: result.content });
  }
}

/** A stop by the reader ends the answer as delivered; anything else fails the turn. Usage is estimated where the model reported none. */
function recordFailure(run: ModelRun, error: unknown) {
  if (run.turn.signal?.aborted || (error instanceof ModelError && error.kind === "aborted")) {
    run.finishReason = "stopped";
  } else {
    run.failure = modelFailure(error, run.turn.language);
    if (!(error instanceof ModelError)) run.deps.logger.error("chat turn failed", { app: run.app.code, error: String(error) });
  }
  run.usage.completionTokens = Math.max(run.usage.completionTokens, estimateTokens(run.answer));
  if (run.usage.promptTokens === 0) run.usage.promptTokens = estimateTokens(run.prompt.map((message) => message.content).join("\n"));
}

function modelFailure(error: unknown, language: Language): { code: number; message: string } {
  if (error instanceof ModelError) {
    const code = error.kind === "timeout" ? 504 : error.kind === "rate_limited" ? 429 : error.kind === "context_length" ? 400 : 502;
    return { code, message: renderMessage(language, `chat_model_${error.kind}`, { seconds: error.details.retryAfterSeconds ?? 0 }) };
  }
  return { code: 500, message: messageText(language, "chat_failed") };
}

/** What the turn came to, for the core to store, meter and close with. */
function outcomeOf(run: ModelRun): TurnOutcome {
  // A no-hit reply the model did not write is recorded under what answered it.
  const model = run.noHit && run.modelCalls === 0 ? (run.noHit.handover ? "handover" : "no-hit") : run.model.id;
  return {
    text: run.answer,
    status: run.failure ? "error" : run.finishReason === "stopped" ? "stopped" : "complete",
    model,
    finishReason: run.finishReason,
    usage: run.usage,
    ...(run.failure ? { failure: run.failure } : {}),
    ...(run.toolLog.length ? { toolCalls: run.toolLog } : {}),
    citations: run.failure ? [] : run.citations,
    knowledgeHits: run.knowledgeHits,
    databaseStatements: run.statements.length > 0 ? JSON.stringify(run.statements) : null,
    handover: run.handover,
  };
}
