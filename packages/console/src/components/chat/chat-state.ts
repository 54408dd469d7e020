import type { ChatEvent } from "@parley/sdk";
import type { AttachedFile } from "./pending-files";

/** One activity of a plugin during an answer. */
export interface ToolActivity {
  id: string;
  name: string;
  status: "running" | "ok" | "failed";
}

/** A cited source of an answer: its number [index] in the answer, file name, excerpt and similarity. */
export interface Citation {
  index: number;
  source: string;
  content: string;
  /** Similarity of a semantic hit; absent for a full-text-only hit. */
  score?: number;
}

/** Rows a database read answered during an answer, shown as a table. */
export interface ResultTable {
  id: string;
  columns: string[];
  rows: Array<Array<string | number | boolean | null>>;
  truncated: boolean;
}

/** A database write the model asked for, waiting for the person's confirmation. */
export interface WriteConfirmation {
  id: string;
  databaseName: string;
  kind: "insert" | "update" | "delete";
  sql: string;
}

/** One line of a chat as the console shows it. */
export interface ChatTurn {
  id: string;
  /** `divider` marks where the context was deleted. */
  role: "user" | "assistant" | "divider";
  content: string;
  /** `interrupted`: the server stopped mid-answer (history keeps what had been sent). */
  status: "streaming" | "complete" | "stopped" | "error" | "interrupted";
  /** Why the answer failed (code 870: points not enough). */
  error?: { code?: number; message: string };
  model?: string;
  tools?: ToolActivity[];
  citations?: Citation[];
  /** Database rows read during the answer. */
  tables?: ResultTable[];
  /** Database writes waiting for confirmation. */
  confirmations?: WriteConfirmation[];
  /** The answer ended because a rate limit was hit. */
  rateLimited?: boolean;
  /** Nothing was found and the app handed the conversation to a person. */
  handover?: boolean;
  /** Files and images sent with the person's message. */
  attachments?: AttachedFile[];
}

/** Applies one stream event to the answer being written; pure, so it is tested without a server. */
export function applyChatEvent(turn: ChatTurn, event: ChatEvent): ChatTurn {
  switch (event.type) {
    case "message-start":
      return { ...turn, model: event.model };
    case "text-delta":
      return { ...turn, content: turn.content + event.text };
    case "tool-call":
      return { ...turn, tools: [...(turn.tools ?? []), { id: event.id, name: event.name, status: "running" }] };
    case "tool-result":
      return {
        ...turn,
        tools: (turn.tools ?? []).map((tool) => (tool.id === event.id ? { ...tool, status: event.ok ? "ok" : "failed" } : tool)),
        ...(event.table ? { tables: [...(turn.tables ?? []), { id: event.id, ...event.table }] } : {}),
        ...(event.confirmation
          ? {
              confirmations: [
                ...(turn.confirmations ?? []),
                { id: event.confirmation.id, databaseName: event.confirmation.databaseName, kind: event.confirmation.kind, sql: event.confirmation.sql },
              ],
            }
          : {}),
      };
    case "citation":
      return {
        ...turn,
        citations: [
          ...(turn.citations ?? []),
          { index: event.index, source: event.source, content: event.content, ...(event.score !== undefined ? { score: event.score } : {}) },
        ],
      };
    case "message-end":
      return {
        ...turn,
        status: event.finishReason === "stopped" ? "stopped" : "complete",
        ...(event.finishReason === "rate-limited" ? { rateLimited: true } : {}),
        ...(event.finishReason === "handover" ? { handover: true } : {}),
      };
    case "error":
      return { ...turn, status: "error", error: { code: event.code, message: event.message } };
    default:
      return turn;
  }
}

/** Ends an answer that was still streaming when the reader stopped it or the stream broke off. */
export function settleTurn(turn: ChatTurn, reason: "stopped" | "complete"): ChatTurn {
  return turn.status === "streaming" ? { ...turn, status: reason } : turn;
}
