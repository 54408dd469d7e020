import { createHmac } from "node:crypto";
import { and, desc, eq, or } from "drizzle-orm";
import { getAppForChat } from "../../apps/service/index";
import { releaseHold, settleHold, takeHold } from "../../billing/service/holds";
import { answerTurn } from "../../conversation/answer";
import { TURN_MAX_OUTPUT_TOKENS } from "../../conversation/metering";
import { requestHandover, storeMessage } from "../../conversation/store";
import { channelClients, conversations } from "../../db/schema/index";
import { ServiceError } from "../../errors";
import type { Deps } from "../../kernel";
import { messageText } from "../../i18n/catalogue";
import { transferToHuman } from "../../inbox/handover";
import { retrieveFromKnowledgeBases } from "../../knowledge/service/retrieval";
import { creditsFor, priceOf } from "../../models/pricing";
import { guardedFetch, outboundPolicy } from "../../plugins/service/network";
import type { ModelMessage } from "../../platform/llm/types";
import { estimateTokens } from "../../platform/llm/tokens";
import type { NodeConfig, NodeType } from "../model";
import { DEFAULT_SANDBOX_LIMITS, runInSandbox } from "./sandbox";
import { asText, render, renderDeep, renderText } from "./template";
import { type NodeContext, type NodeExecutor, NodeFailure } from "./types";

const configOf = <T extends NodeType>(context: NodeContext) => context.element.config as NodeConfig<T>;

/**
 * Whose allocation pays a run's model calls (decision 0019): the person who started it from the
 * console or the API, or the signed-in person a chat run answers. Schedules are the space's own.
 */
function spenderOf(run: NodeContext["run"]): string | null {
  if (run.trigger.by === "user" || run.trigger.by === "api") return run.trigger.userId ?? null;
  return run.trigger.memberUserId ?? null;
}

/** Asks a model of the catalogue (the offline responder when it is not served); answers the text. */
async function askModel(context: NodeContext, modelId: string | undefined, messages: ModelMessage[], temperature = 0.7) {
  const { deps } = context;
  const resolved = (modelId ? deps.models.resolve(modelId) : undefined) ?? deps.models.fallback();
  const reference = `${context.run.id}:${context.element.id}`;
  // A model that costs credits is called only under a hold (decision 0011), as a chat turn is.
  const price = priceOf(resolved.model.id);
  let hold;
  let maxOutputTokens: number | undefined;
  if (price.prompt + price.completion > 0) {
    const promptTokens = estimateTokens(messages.map((message) => message.content).join("\n"));
    try {
      hold = await takeHold(deps, {
        spaceId: context.run.spaceId,
        amount: creditsFor(resolved.model.id, { promptTokens, completionTokens: TURN_MAX_OUTPUT_TOKENS }),
        minimum: creditsFor(resolved.model.id, { promptTokens, completionTokens: 16 }),
        memberUserId: spenderOf(context.run),
        reference,
      });
    } catch (error) {
      if (error instanceof ServiceError) throw new NodeFailure(messageText(context.run.language, "insufficient_credits"));
      throw error;
    }
    if (price.completion > 0)
      maxOutputTokens = Math.max(1, Math.min(TURN_MAX_OUTPUT_TOKENS, Math.floor((hold.amount * 1000 - promptTokens * price.prompt) / price.completion)));
  }
  let text = "";
  let usage = { promptTokens: 0, completionTokens: 0 };
  try {
    for await (const part of resolved.provider.stream({
      model: resolved.model.id,
      messages,
      temperature,
      language: context.run.language,
      signal: context.signal,
      ...(maxOutputTokens ? { maxOutputTokens } : {}),
    })) {
      if (part.type === "text-delta") text += part.text;
      else if (part.type !== "tool-call") usage = part.usage;
    }
  } catch (error) {
    if (hold) await releaseHold(deps, hold);
    throw error;
  }
  if (hold) await settleHold(deps, hold, { credits: creditsFor(resolved.model.id, usage), reference });
  return { text, model: resolved.model.id, offline: resolved.model.offline, usage };
}

/** Reads a JSON object out of a model's answer (fenced or bare). */
function jsonObjectIn(text: string): Record<string, unknown> | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text)?.[1] ?? text;
  const start = fenced.indexOf("{");
  const end = fenced.lastIndexOf("}");
  if (start < 0 || end <= start) return undefined;
  try {
    const value = JSON.parse(fenced.slice(start, end + 1)) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Words of a text for lexical matching: Latin words, and single CJK characters plus their pairs. */
export function wordsOf(text: string): Set<string> {
  const words = new Set<string>();
  const lower = text.toLowerCase();
  for (const word of lower.match(/[a-z0-9]+/g) ?? [])
    if (word.length > 1 || /\d/.test(word)) words.add(word.length > 4 ? word.replace(/(ing|ed|es|s)$/, "") : word);
  for (const run of lower.match(/[\u3400-\u9fff]+/g) ?? []) {
    for (let index = 0; index < run.length; index++) {
      words.add(run[index]!);
      if (index + 1 < run.length) words.add(run.slice(index, index + 2));
    }
  }
  return words;
}

/**
 * The offline intent rule: the intention whose name shares the largest share of its words with
 * the text (ties: the earlier intention); none when no word is shared.
 */
export function lexicalIntent(text: string, intentions: Array<{ id: string; name: string }>): string | undefined {
  const words = wordsOf(text);
  let best: { id: string; score: number } | undefined;
  for (const intention of intentions) {
    const own = wordsOf(intention.name);
    if (own.size === 0) continue;
    let shared = 0;
    for (const word of own) if (words.has(word)) shared += 1;
    const score = shared / own.size;
    if (shared > 0 && (!best || score > best.score)) best = { id: intention.id, score };
  }
  return best?.id;
}

/** Compares two values as numbers when both read as numbers. */
function numeric(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isFinite(value) ? value : undefined;
  if (typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

const isEmpty = (value: unknown) =>
  value === undefined ||
  value === null ||
  (typeof value === "string" && value.trim() === "") ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0);

/** Evaluates one logic branch condition. */
export function evaluateCondition(left: unknown, operator: string, right: unknown): boolean {
  switch (operator) {
    case "empty":
      return isEmpty(left);
    case "not_empty":
      return !isEmpty(left);
    case "equals":
    case "not_equals": {
      const a = numeric(left);
      const b = numeric(right);
      const same = a !== undefined && b !== undefined ? a === b : asText(left) === asText(right);
      return operator === "equals" ? same : !same;
    }
    case "contains":
    case "not_contains": {
      const has = Array.isArray(left) ? left.some((item) => asText(item) === asText(right)) : asText(left).includes(asText(right));
      return operator === "contains" ? has : !has;
    }
    case "gt":
    case "lt":
    case "gte":
    case "lte": {
      const a = numeric(left);
      const b = numeric(right);
      if (a === undefined || b === undefined) return false;
      return operator === "gt" ? a > b : operator === "lt" ? a < b : operator === "gte" ? a >= b : a <= b;
    }
    default:
      return false;
  }
}

function messageOf(context: NodeContext, error: unknown): string {
  if (error instanceof ServiceError) return messageText(context.run.language, error.messageId, error.params);
  return error instanceof Error ? error.message : String(error);
}

/** Posts to a group robot's webhook, signed the way DingTalk and Feishu expect; others get JSON with an HMAC header. */
async function postToRobot(deps: Pick<Deps, "config" | "now">, url: string, secret: string, text: string, signal: AbortSignal) {
  const nowMs = deps.now().getTime();
  let target = url;
  let body: unknown;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (/dingtalk\.com/i.test(url)) {
    const timestamp = String(nowMs);
    const sign = createHmac("sha256", secret).update(`${timestamp}\n${secret}`).digest("base64");
    target += `${url.includes("?") ? "&" : "?"}timestamp=${timestamp}&sign=${encodeURIComponent(sign)}`;
    body = { msgtype: "text", text: { content: text } };
  } else if (/feishu\.cn|larksuite\.com/i.test(url)) {
    const timestamp = String(Math.floor(nowMs / 1000));
    body = { timestamp, sign: createHmac("sha256", `${timestamp}\n${secret}`).update("").digest("base64"), msg_type: "text", content: { text } };
  } else {
    body = { msgtype: "text", text: { content: text } };
    const timestamp = String(Math.floor(nowMs / 1000));
    headers["x-parley-timestamp"] = timestamp;
    headers["x-parley-signature"] = createHmac("sha256", secret)
      .update(`${timestamp}.${JSON.stringify(body)}`)
      .digest("hex");
  }
  if (signal.aborted) throw new NodeFailure("stopped");
  const response = await guardedFetch(
    { method: "POST", url: target, headers, body: JSON.stringify(body) },
    { policy: outboundPolicy(deps.config), timeoutMs: 10_000, maxBytes: 64 * 1024 },
  );
  if (response.status >= 300) throw new NodeFailure(`The robot webhook answered HTTP ${response.status}`);
  return response.status;
}

/** The executors of the fourteen node types. */
export const nodeExecutors: Record<NodeType, NodeExecutor> = {
  start(context) {
    // The start node's outputs are prepared when the run starts (query, files, variables).
    const outputs = (context.scope.start ?? {}) as Record<string, unknown>;
    return { inputs: outputs, outputs };
  },

  end(context) {
    const config = configOf<"end">(context);
    const output = config.output === undefined ? "" : render(config.output, context.scope);
    return { outputs: { output } };
  },

  fixed_reply(context) {
    const text = renderText(configOf<"fixed_reply">(context).content, context.scope);
    return { outputs: { output: text } };
  },

  async llm(context) {
    const config = configOf<"llm">(context);
    const input = renderText(config.input, context.scope);
    const system = renderText(config.systemPrompt, context.scope);
    const structured = config.structuredOutput ?? [];
    const instructions = structured.length
      ? `\n\nAnswer with one JSON object only, with these keys: ${structured.map((variable) => `"${variable.name}" (${variable.type}${variable.description ? `: ${variable.description}` : ""})`).join(", ")}.`
      : "";
    const messages: ModelMessage[] = [
      ...(system || instructions ? [{ role: "system" as const, content: `${system}${instructions}`.trim() }] : []),
      { role: "user", content: input },
    ];
    const answer = await askModel(context, config.model, messages, config.temperature ?? 0.7);
    const outputs: Record<string, unknown> = { output: answer.text, model: answer.model };
    if (structured.length) {
      const parsed = jsonObjectIn(answer.text) ?? {};
      for (const variable of structured) outputs[variable.name] = parsed[variable.name] ?? null;
    }
    return { inputs: { model: config.model, system, input }, outputs };
  },

  async app(context) {
    const config = configOf<"app">(context);
    const text = renderText(config.input, context.scope);
    const { deps, run } = context;
    try {
      const app = await getAppForChat(deps, { appId: config.appId ?? "", spaceId: run.spaceId });
      if (app.type === "WORKFLOW") throw new NodeFailure("A workflow app cannot be called from a workflow node");
      const member = spenderOf(run);
      const turn = {
        app,
        endUserId: `workflow:${run.id}`,
        channel: "workflow",
        text,
        language: run.language,
        signal: context.signal,
        ...(member ? { memberUserId: member } : {}),
      };
      const events = await answerTurn(deps, turn);
      let answer = "";
      let conversationId: string | undefined;
      for await (const event of events) {
        if (event.type === "message-start") conversationId = event.conversationId;
        else if (event.type === "text-delta") answer += event.text;
        else if (event.type === "error") throw new NodeFailure(event.message);
      }
      return { inputs: { appId: config.appId, input: text }, outputs: { output: answer, conversationId } };
    } catch (error) {
      throw new NodeFailure(messageOf(context, error));
    }
  },

  async knowledge_base(context) {
    const config = configOf<"knowledge_base">(context);
    const query = renderText(config.input, context.scope);
    const chunks = await retrieveFromKnowledgeBases(context.deps, context.run.spaceId, config.knowledgeBaseIds ?? [], {
      query,
      mode: "hybrid",
      semanticCount: config.topK ?? 3,
      fullTextCount: 1,
      ...(config.threshold !== undefined ? { similarityThreshold: config.threshold } : {}),
    });
    const results = chunks.map((chunk) => ({
      content: chunk.content,
      source: chunk.fileName,
      score: chunk.similarity ?? chunk.score,
      knowledgeBaseId: chunk.knowledgeBaseId,
    }));
    return { inputs: { query, knowledgeBaseIds: config.knowledgeBaseIds }, outputs: { output: results.map((result) => result.content).join("\n\n"), results } };
  },

  async database(context) {
    const config = configOf<"database">(context);
    const input = renderText(config.input, context.scope);
    const answer = await context.ports.databases.query({
      deps: context.deps,
      spaceId: context.run.spaceId,
      databaseId: config.databaseId ?? "",
      input,
      signal: context.signal,
      // A question is turned into SQL by the default model, paid like an LLM node.
      ask: async (messages) => (await askModel(context, context.deps.models.defaultModel().id, messages, 0)).text,
    });
    return {
      inputs: { databaseId: config.databaseId, input, ...(answer.sql ? { sql: answer.sql } : {}) },
      outputs: { output: answer.output, rows: answer.rows ?? [], sql: answer.sql ?? "" },
    };
  },

  async plugin(context) {
    const config = configOf<"plugin">(context);
    const args = renderDeep(config.arguments ?? {}, context.scope) as Record<string, unknown>;
    const tools = await context.deps.plugins.toolsFor({ spaceId: context.run.spaceId, pluginCodes: [config.pluginCode ?? ""] });
    // An MCP plugin has one tool per enabled server tool: `toolName` is the server's name for it (or the function name).
    const tool =
      tools.find((candidate) => !config.toolName || candidate.definition.name === config.toolName || candidate.mcpTool === config.toolName) ??
      (config.toolName && tools.some((candidate) => candidate.mcpTool !== undefined) ? undefined : tools[0]);
    if (!tool) {
      throw new NodeFailure(
        config.toolName && tools.length > 0
          ? `The plugin ${config.pluginCode} has no enabled tool ${config.toolName}`
          : `The plugin ${config.pluginCode} is not available in this space`,
      );
    }
    const result = await context.deps.plugins.execute({ spaceId: context.run.spaceId, tool, arguments: JSON.stringify(args), signal: context.signal });
    if (!result.ok) throw new NodeFailure(`The plugin failed: ${result.content.slice(0, 1000)}`);
    let parsed: unknown = result.content;
    try {
      parsed = JSON.parse(result.content) as unknown;
    } catch {
      // Plain-text answers stay text.
    }
    return {
      inputs: { plugin: tool.code, tool: tool.mcpTool ?? tool.definition.name, arguments: args },
      outputs: { output: parsed, durationMs: result.durationMs },
    };
  },

  async code_block(context) {
    const config = configOf<"code_block">(context);
    const input = Object.fromEntries((config.inputs ?? []).map((entry) => [entry.name, render(entry.value, context.scope) ?? null]));
    const limits = {
      timeoutMs: config.timeoutMs ?? DEFAULT_SANDBOX_LIMITS.timeoutMs,
      memoryBytes: (config.memoryLimitMb ?? DEFAULT_SANDBOX_LIMITS.memoryBytes / 1024 / 1024) * 1024 * 1024,
    };
    let result: unknown;
    try {
      result = await runInSandbox(config.code ?? "", input, limits);
    } catch (error) {
      throw new NodeFailure(`Code failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    const outputs: Record<string, unknown> = { output: result };
    if (result && typeof result === "object" && !Array.isArray(result)) Object.assign(outputs, result, { output: result });
    return { inputs: input, outputs };
  },

  async intent_branch(context) {
    const config = configOf<"intent_branch">(context);
    const text = renderText(config.input, context.scope);
    const intentions = config.intentions ?? [];
    const named = intentions.filter((intention) => !intention.isElse);
    const fallbackBranch = intentions.find((intention) => intention.isElse)?.id ?? null;
    const resolved = (config.model ? context.deps.models.resolve(config.model) : undefined) ?? context.deps.models.fallback();
    let chosen: string | undefined;
    let by: "model" | "lexical" = "lexical";
    if (!resolved.model.offline && named.length > 0) {
      const list = named.map((intention, index) => `${index + 1}. ${intention.name}`).join("\n");
      const answer = await askModel(
        context,
        config.model,
        [
          {
            role: "system",
            content: `Which intention does the user's message express? Intentions:\n${list}\nAnswer with the number only, or 0 when none fits.`,
          },
          { role: "user", content: text },
        ],
        0,
      );
      const number = Number(/\d+/.exec(answer.text)?.[0] ?? "NaN");
      if (Number.isInteger(number) && number >= 0 && number <= named.length) {
        chosen = number === 0 ? undefined : named[number - 1]!.id;
        by = "model";
      } else chosen = lexicalIntent(text, named);
    } else {
      chosen = lexicalIntent(text, named);
    }
    const branch = chosen ?? fallbackBranch;
    const intention = intentions.find((candidate) => candidate.id === branch);
    return { inputs: { input: text }, outputs: { output: intention?.name ?? "", intentionId: branch, by }, branch };
  },

  logic_branch(context) {
    const config = configOf<"logic_branch">(context);
    const branches = config.branches ?? [];
    const evaluated: Array<{ branch: string; matched: boolean }> = [];
    let taken: string | null = null;
    for (const branch of branches) {
      if (branch.isElse) continue;
      const results = (branch.conditions ?? []).map((condition) =>
        evaluateCondition(
          render(condition.left, context.scope),
          condition.operator,
          condition.right === undefined ? undefined : render(condition.right, context.scope),
        ),
      );
      const matched = results.length > 0 && ((branch.logic ?? "and") === "and" ? results.every(Boolean) : results.some(Boolean));
      evaluated.push({ branch: branch.id, matched });
      if (matched) {
        taken = branch.id;
        break;
      }
    }
    taken ??= branches.find((branch) => branch.isElse)?.id ?? null;
    return { inputs: { evaluated }, outputs: { output: taken }, branch: taken };
  },

  async channel_send(context) {
    const config = configOf<"channel_send">(context);
    const text = renderText(config.content, context.scope);
    const { deps, run } = context;
    if ((config.mode ?? "client") === "webhook") {
      const status = await postToRobot(deps, config.webhookUrl ?? "", config.webhookSecret ?? "", text, context.signal);
      return { inputs: { mode: "webhook", content: text }, outputs: { output: "sent", status } };
    }
    const receiver = renderText(config.receiver, context.scope);
    const client = await deps.db
      .select()
      .from(channelClients)
      .where(and(eq(channelClients.id, config.clientId ?? ""), eq(channelClients.spaceId, run.spaceId)))
      .get();
    if (!client) throw new NodeFailure(`The channel client ${config.clientId} does not exist in this space`);
    if (!client.enabled) throw new NodeFailure(`The channel client ${client.name} is turned off`);
    // Platforms let a bot write only where it has a conversation: the receiver's latest one on this client.
    const conversation = await deps.db
      .select()
      .from(conversations)
      .where(and(eq(conversations.clientId, client.id), or(eq(conversations.externalConversationId, receiver), eq(conversations.endUserId, receiver))))
      .orderBy(desc(conversations.updatedAt))
      .get();
    if (!conversation)
      throw new NodeFailure(`No conversation with ${receiver} on ${client.name} yet: the platform only lets the bot write to someone who wrote to it`);
    // Stored as pending, it goes out through the client's channel (the channels listen for it).
    const messageId = await storeMessage(deps, {
      conversation,
      role: "assistant",
      content: text,
      delivery: "pending",
      model: "workflow",
      ...(config.sender ? { senderName: config.sender } : {}),
    });
    return {
      inputs: { mode: "client", clientId: client.id, receiver, content: text },
      outputs: { output: "queued", conversationId: conversation.id, messageId },
    };
  },

  async manual(context) {
    const config = configOf<"manual">(context);
    const note = renderText(config.content, context.scope);
    const { deps, run } = context;
    const conversationId = run.trigger.conversationId;
    if (!conversationId)
      return { inputs: { content: note }, outputs: { output: note, handedOver: false, reason: "The run has no conversation to hand over; recorded only" } };
    const conversation = await deps.db.select().from(conversations).where(eq(conversations.id, conversationId)).get();
    if (!conversation) return { inputs: { content: note }, outputs: { output: note, handedOver: false, reason: "The conversation no longer exists" } };
    if (conversation.clientId) {
      const app = await getAppForChat(deps, { appId: conversation.appId });
      const reply = await transferToHuman(deps, app, conversation, { reason: "intent", detail: note || "workflow", language: run.language });
      return { inputs: { content: note }, outputs: { output: reply ?? note, handedOver: true, conversationId } };
    }
    await requestHandover(deps, conversationId);
    return { inputs: { content: note }, outputs: { output: note, handedOver: true, conversationId } };
  },

  timer(context) {
    const config = configOf<"timer">(context);
    const previous = context.previousInputs as { wakeAt?: string } | undefined;
    let wakeAt: Date;
    if (previous?.wakeAt) wakeAt = new Date(previous.wakeAt);
    else if (config.until && renderText(config.until, context.scope).trim()) {
      const text = renderText(config.until, context.scope).trim();
      wakeAt = new Date(text);
      if (Number.isNaN(wakeAt.getTime())) throw new NodeFailure(`The timer's time "${text}" is not a date`);
    } else wakeAt = new Date(context.deps.now().getTime() + (config.delaySeconds ?? 0) * 1000);
    const inputs = { wakeAt: wakeAt.toISOString() };
    if (wakeAt.getTime() > context.deps.now().getTime()) return { inputs, outputs: {}, parkUntil: wakeAt };
    return { inputs, outputs: { output: wakeAt.toISOString(), waitedUntil: wakeAt.toISOString() } };
  },
};
