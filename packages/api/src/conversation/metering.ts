import { sql } from "drizzle-orm";
import { creditCreator } from "../benefits/service/creator";
import { extendHold, releaseHold, settleHold, takeHold } from "../billing/service/holds";
import type { ChatEvent } from "../chat/events";
import { newId } from "../crypto";
import { prepared as preparedQuery } from "../db/prepared";
import { rollUpRecord } from "../analysis/service/rollup";
import { usageRecords } from "../db/schema/index";
import type { Deps } from "../kernel";
import { creditsFor, priceOf } from "../models/pricing";
import { estimateTokens } from "../platform/llm/tokens";
import type { ModelMessage } from "../platform/llm/types";
import type { ChatTurn, PreparedTurn, TurnOutcome } from "./types";

/*
 * Metering, a policy of the conversation core: credits are held before a turn's model is called
 * (decision 0011), extended while it streams, settled for what was delivered, and each turn leaves
 * a usage record. The answer so far is written while it streams, so a crash loses nothing seen.
 */

/** The most a turn's model call may write: the credit hold is sized for it (decision 0011). */
export const TURN_MAX_OUTPUT_TOKENS = 4096;
/** A turn is refused when the credits left cannot pay for even this many tokens of answer. */
export const TURN_MIN_OUTPUT_TOKENS = 16;
/** How often an answer's text so far is written while it streams. */
export const PARTIAL_SAVE_MS = 500;
/** A hold of a running turn is extended this often (its expiry is what frees it after a crash). */
const HOLD_EXTEND_MS = 60_000;

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
  "knowledgeHitCount",
  "databaseStatements",
  "createdAt",
] as const;

/**
 * Reserves the credits of a turn, in one statement so concurrent turns cannot all pass a check
 * and overrun the balance; the answer is capped at what the hold pays for. Throws
 * `insufficient_credits` when not even a short answer is covered.
 */
export async function holdForTurn(
  deps: Pick<Deps, "config" | "db" | "logger" | "mail" | "now" | "sms">,
  turn: ChatTurn,
  modelId: string,
  promptTokens: number,
) {
  const hold = await takeHold(deps, {
    spaceId: turn.app.spaceId,
    userKeyId: turn.userKeyId ?? null,
    memberUserId: turn.memberUserId ?? null,
    amount: creditsFor(modelId, { promptTokens, completionTokens: TURN_MAX_OUTPUT_TOKENS }),
    minimum: creditsFor(modelId, { promptTokens, completionTokens: TURN_MIN_OUTPUT_TOKENS }),
    reference: turn.app.id,
  });
  const price = priceOf(modelId);
  const maxOutputTokens =
    price.completion > 0
      ? Math.max(1, Math.min(TURN_MAX_OUTPUT_TOKENS, Math.floor((hold.amount * 1000 - promptTokens * price.prompt) / price.completion)))
      : TURN_MAX_OUTPUT_TOKENS;
  return { hold, maxOutputTokens };
}

/**
 * The meter of one turn. While the responder streams, the answer so far is written at most every
 * PARTIAL_SAVE_MS (one write at a time, off the stream's path, so a crash leaves what the reader
 * saw, marked interrupted at the next start) and the hold is kept alive. Closing it after a
 * reader went away mid-answer charges what was delivered, frees the rest of the hold and marks
 * the partial answer stopped.
 */
export class TurnMeter {
  /** The hold was settled or released (the turn charged what it cost). */
  private settled = false;
  /** The answer's final row is being written: partial writes must stop. */
  private stored = false;
  private answer = "";
  private answerAt: { conversationId: string; messageId: string } | undefined;
  private writing: Promise<void> = Promise.resolve();
  private savedAt = 0;
  private extendedAt = Date.now();
  private inserted = false;

  private readonly deps: Deps;
  private readonly turn: ChatTurn;
  private readonly prepared: PreparedTurn;

  constructor(deps: Deps, turn: ChatTurn, prepared: PreparedTurn) {
    this.deps = deps;
    this.turn = turn;
    this.prepared = prepared;
  }

  /** Where the answer goes: partial writes need its conversation and id. */
  answering(conversationId: string, messageId: string): void {
    this.answerAt = { conversationId, messageId };
  }

  /** Passes the responder's events on, writing the answer so far and keeping the hold alive. */
  async *watch<R>(events: AsyncGenerator<ChatEvent, R>): AsyncGenerator<ChatEvent, R> {
    try {
      for (;;) {
        const next = await events.next();
        if (next.done) return next.value;
        const event = next.value;
        if (event.type === "text-delta" && !this.stored) this.delivered(event.text);
        yield event;
      }
    } finally {
      // A reader that went away stops the responder too.
      await events.return(undefined as R);
    }
  }

  private delivered(text: string) {
    this.answer += text;
    const now = Date.now();
    if (now - this.savedAt >= PARTIAL_SAVE_MS) {
      this.savedAt = now;
      this.savePartial();
    }
    const { hold } = this.prepared;
    if (hold && now - this.extendedAt >= HOLD_EXTEND_MS) {
      this.extendedAt = now;
      void extendHold(this.deps, hold).catch(() => {});
    }
  }

  private savePartial() {
    if (!this.answerAt) return;
    const { conversationId, messageId: id } = this.answerAt;
    const input = { id, conversationId, spaceId: this.turn.app.spaceId, content: this.answer, model: this.prepared.resolved.model.id, first: !this.inserted };
    this.inserted = true;
    this.writing = this.writing
      .then(() => writePartialAnswer(this.deps, input))
      .catch((error: unknown) => this.deps.logger.warn("could not store a partial answer", { error: String(error) }));
  }

  /** The final row of the answer is about to be written: no more partial writes. */
  storing(): void {
    this.stored = true;
  }

  /** Gives back the hold unspent (no model was called). */
  async release(): Promise<void> {
    if (this.prepared.hold) await releaseHold(this.deps, this.prepared.hold);
    this.settled = true;
  }

  /**
   * Charges a finished turn: what was delivered is settled against the hold (nothing when a
   * failed call produced nothing) and the usage record written. Answers the credits charged and
   * the balance after them.
   */
  async charge(input: {
    conversationId: string;
    messageId: string;
    history: ModelMessage[];
    outcome: TurnOutcome;
  }): Promise<{ credits: number; balance: number | null }> {
    const { deps, turn, prepared } = this;
    const { outcome, messageId } = input;
    const credits = outcome.failure && outcome.text === "" ? 0 : creditsFor(prepared.resolved.model.id, outcome.usage);
    let balance: number | null = null;
    let charged = credits;
    if (prepared.hold) {
      ({ charged, balance } = await settleHold(deps, prepared.hold, { credits, reference: messageId }));
      this.settled = true;
    }
    await writeUsageRecord(deps, { turn, prepared, ...input, credits: charged });
    await creditCreator(deps, { app: turn.app, endUserId: turn.endUserId, charged, reference: messageId });
    return { credits: charged, balance };
  }

  /** Ends the turn's metering, whatever happened: a hold not settled is charged for what was delivered, a partial answer marked stopped. */
  async close(): Promise<void> {
    const { deps, prepared } = this;
    await this.writing;
    if (prepared.hold && !this.settled) {
      const usage = {
        promptTokens: estimateTokens(prepared.text) + estimateTokens(this.turn.app.settingsPrompt),
        completionTokens: estimateTokens(this.answer),
      };
      const credits = this.answer ? creditsFor(prepared.resolved.model.id, usage) : 0;
      await settleHold(deps, prepared.hold, { credits, reference: this.answerAt?.messageId ?? prepared.hold.id }).catch((error: unknown) =>
        deps.logger.warn("could not settle a credit hold; it lapses on expiry", { error: String(error) }),
      );
    }
    if (!this.stored && this.inserted && this.answerAt) {
      await Promise.resolve(
        deps.db.run(sql`UPDATE messages SET content = ${this.answer}, status = 'stopped' WHERE id = ${this.answerAt.messageId} AND status = 'streaming'`),
      ).catch(() => {});
    }
  }
}

/** How many knowledge chunks a turn's retrieval found; null when it retrieved nothing at all. */
function hitCountOf(knowledgeHits: string | null | undefined): number | null {
  if (knowledgeHits == null) return null;
  try {
    const hits: unknown = JSON.parse(knowledgeHits);
    return Array.isArray(hits) ? hits.length : null;
  } catch {
    return null;
  }
}

/** The usage record of a turn, and its question's words for the dashboard. */
async function writeUsageRecord(
  deps: Pick<Deps, "db" | "logger" | "now">,
  input: { turn: ChatTurn; prepared: PreparedTurn; conversationId: string; messageId: string; history: ModelMessage[]; outcome: TurnOutcome; credits: number },
) {
  const { turn, prepared, outcome } = input;
  const createdAt = deps.now().toISOString();
  await preparedQuery(deps.db, "chat.insertUsage", () =>
    deps.db
      .insert(usageRecords)
      .values(Object.fromEntries(USAGE_COLUMNS.map((column) => [column, sql.placeholder(column)])) as unknown as typeof usageRecords.$inferInsert)
      .prepare(),
  ).run({
    id: newId("use"),
    spaceId: turn.app.spaceId,
    appId: turn.app.id,
    conversationId: input.conversationId,
    messageId: input.messageId,
    endUserId: turn.endUserId,
    channel: turn.channel,
    prompt: prepared.text,
    answer: outcome.text,
    model: outcome.model,
    promptTokens: outcome.usage.promptTokens,
    completionTokens: outcome.usage.completionTokens,
    credits: input.credits,
    context: JSON.stringify(input.history),
    knowledgeHits: outcome.knowledgeHits ?? null,
    knowledgeHitCount: hitCountOf(outcome.knowledgeHits),
    databaseStatements: outcome.databaseStatements ?? null,
    createdAt,
  });
  const knowledgeHitCount = hitCountOf(outcome.knowledgeHits);
  await rollUpRecord(deps, {
    spaceId: turn.app.spaceId,
    appId: turn.app.id,
    channel: turn.channel,
    endUserId: turn.endUserId,
    credits: input.credits,
    notHit: knowledgeHitCount === 0,
    text: prepared.text,
    at: createdAt,
  }).catch((error: unknown) => deps.logger.warn("could not add the turn to the dashboard's rollup", { error: String(error) }));
}

/** Writes the answer so far as a `streaming` message: inserted on the first write, then updated while still streaming. */
async function writePartialAnswer(
  deps: Pick<Deps, "db" | "now">,
  input: { id: string; conversationId: string; spaceId: string; content: string; model: string; first: boolean },
) {
  if (input.first) {
    await deps.db.run(sql`INSERT INTO messages (id, space_id, conversation_id, role, content, status, model, created_at)
      VALUES (${input.id}, ${input.spaceId}, ${input.conversationId}, 'assistant', ${input.content}, 'streaming', ${input.model}, ${deps.now().toISOString()})
      ON CONFLICT (id) DO NOTHING`);
  } else {
    await deps.db.run(sql`UPDATE messages SET content = ${input.content} WHERE id = ${input.id} AND status = 'streaming'`);
  }
}

/** Marks answers left `streaming` by a process that died as `interrupted`; run at start-up. Answers how many. */
export async function markInterruptedAnswers(deps: Pick<Deps, "db">): Promise<number> {
  const rows = await deps.db.all<{ id: string }>(sql`UPDATE messages SET status = 'interrupted' WHERE status = 'streaming' RETURNING id`);
  return rows.length;
}
