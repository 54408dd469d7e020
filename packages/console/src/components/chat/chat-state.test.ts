import type { ChatEvent } from "@parley/sdk";
import { describe, expect, it } from "vitest";
import { applyChatEvent, type ChatTurn, settleTurn } from "./chat-state";

const start: ChatTurn = { id: "a1", role: "assistant", content: "", status: "streaming" };

function run(events: ChatEvent[]): ChatTurn {
  return events.reduce(applyChatEvent, start);
}

describe("applyChatEvent", () => {
  it("streams text deltas into the answer and completes on message-end", () => {
    const turn = run([
      { type: "message-start", conversationId: "c1", messageId: "m1", model: "gpt-4.1-mini", offline: false },
      { type: "text-delta", text: "Hello " },
      { type: "text-delta", text: "there" },
      { type: "message-end", finishReason: "stop", usage: { promptTokens: 1, completionTokens: 2 }, credits: 1, balance: 10 },
    ]);
    expect(turn).toMatchObject({ content: "Hello there", status: "complete", model: "gpt-4.1-mini" });
  });

  it("tracks plugin calls and citations", () => {
    const turn = run([
      { type: "tool-call", id: "t1", name: "current_time", arguments: "{}" },
      { type: "tool-result", id: "t1", name: "current_time", ok: true, content: "now", durationMs: 3 },
      { type: "citation", index: 1, source: "faq.md", content: "Returns within 30 days" },
    ]);
    expect(turn.tools).toEqual([{ id: "t1", name: "current_time", status: "ok" }]);
    expect(turn.citations).toEqual([{ index: 1, source: "faq.md", content: "Returns within 30 days" }]);
  });

  it("keeps a database read's rows as a table and a write waiting for confirmation", () => {
    const turn = run([
      { type: "tool-call", id: "q1", name: "query_database", arguments: "{}" },
      {
        type: "tool-result",
        id: "q1",
        name: "query_database",
        ok: true,
        content: "name | price",
        durationMs: 4,
        table: { columns: ["name", "price"], rows: [["Tea", 3.5]], truncated: true },
      },
      {
        type: "tool-result",
        id: "q2",
        name: "query_database",
        ok: true,
        content: "awaits",
        durationMs: 1,
        confirmation: { id: "dbw_1", databaseName: "Shop", kind: "delete", sql: "DELETE FROM t WHERE id = 1", expiresAt: "2026-11-26T00:00:00.000Z" },
      },
    ]);
    expect(turn.tables).toEqual([{ id: "q1", columns: ["name", "price"], rows: [["Tea", 3.5]], truncated: true }]);
    expect(turn.confirmations).toEqual([{ id: "dbw_1", databaseName: "Shop", kind: "delete", sql: "DELETE FROM t WHERE id = 1" }]);
  });

  it("keeps the error code (870: points not enough) for the inline message", () => {
    const turn = run([{ type: "error", code: 870, message: "Points not enough" }]);
    expect(turn).toMatchObject({ status: "error", error: { code: 870 } });
  });

  it("marks stopped and rate-limited endings", () => {
    const usage = { promptTokens: 0, completionTokens: 0 };
    expect(run([{ type: "message-end", finishReason: "stopped", usage, credits: 0, balance: null }]).status).toBe("stopped");
    expect(run([{ type: "message-end", finishReason: "rate-limited", usage, credits: 0, balance: null }]).rateLimited).toBe(true);
  });

  it("keeps the similarity of a citation and marks a handover ending", () => {
    const usage = { promptTokens: 0, completionTokens: 0 };
    const turn = run([
      { type: "citation", index: 2, source: "store-guide", content: "Express arrives next day", score: 0.82 },
      { type: "message-end", finishReason: "handover", usage, credits: 0, balance: null },
    ]);
    expect(turn.citations).toEqual([{ index: 2, source: "store-guide", content: "Express arrives next day", score: 0.82 }]);
    expect(turn).toMatchObject({ status: "complete", handover: true });
  });

  it("settleTurn only changes an answer that is still streaming", () => {
    expect(settleTurn(start, "stopped").status).toBe("stopped");
    expect(settleTurn({ ...start, status: "error" }, "stopped").status).toBe("error");
  });
});
