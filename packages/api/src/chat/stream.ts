import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import { answerTurn } from "../conversation/answer";
import type { ChatTurn } from "../conversation/types";
import type { Deps } from "../kernel";

/**
 * Asks the conversation core for a turn (refusals such as unknown model or no credits throw
 * before anything is sent, so they answer as envelopes) and streams its events as SSE, each
 * named after its type with one ChatEvent as JSON. A client that goes away aborts the turn
 * through `stop`.
 */
export async function streamChatTurn(c: Context, deps: Deps, turn: ChatTurn, stop: AbortController) {
  const events = await answerTurn(deps, turn);
  return streamSSE(c, async (stream) => {
    stream.onAbort(() => stop.abort());
    for await (const event of events) {
      await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
    }
  });
}
