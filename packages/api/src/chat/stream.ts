import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { Deps } from "../http/context";
import { runAppTurn } from "../workflows/chat-turn";
import { type ChatTurn, prepareTurn } from "./service/engine";

/**
 * Prepares a chat turn (refusals such as unknown model or no credits throw before anything is
 * sent, so they answer as envelopes) and streams its events as SSE, each named after its type
 * with one ChatEvent as JSON. A client that goes away aborts the turn through `stop`.
 */
export async function streamChatTurn(c: Context, deps: Deps, turn: ChatTurn, stop: AbortController) {
  const prepared = await prepareTurn(deps, turn);
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => stop.abort());
    // A WORKFLOW app answers through its workflow; every other app through the chat engine.
    for await (const event of runAppTurn(deps, turn, prepared)) {
      await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
    }
  });
}
