import { newId } from "../crypto";
import type { ChatEvent } from "../chat/events";
import { openConversation, storeMessage } from "../chat/service/conversations";
import { type ChatTurn, type prepareTurn, runTurn } from "../chat/service/engine";
import { ServiceError } from "../errors";
import type { Deps } from "../http/context";
import { translate } from "../http/messages";
import { handoverGate } from "../inbox/handover";
import { asText } from "./engine/template";
import { runInline } from "./engine/runner";
import { loadRunView, startRun } from "./service/runs";
import { workflowOfApp } from "./service/workflows";

/**
 * Answers a chat turn with the app: a WORKFLOW app runs its workflow (the person's message is
 * {{sys.query}}, the end node's output is the answer); every other app goes to the chat engine.
 */
export async function* runAppTurn(deps: Deps, turn: ChatTurn, prepared: Awaited<ReturnType<typeof prepareTurn>>): AsyncGenerator<ChatEvent> {
  if (turn.app.type !== "WORKFLOW") {
    yield* runTurn(deps, turn, prepared);
    return;
  }
  yield* runWorkflowTurn(deps, turn, prepared.text);
}

/** One turn of a WORKFLOW app: a FLOW run executed now, in this process, under a durable job. */
async function* runWorkflowTurn(deps: Deps, turn: ChatTurn, text: string): AsyncGenerator<ChatEvent> {
  const { app } = turn;
  const query = (turn.messages ? turn.text : text).trim();
  const conversation = await openConversation(deps, { app, endUserId: turn.endUserId, channel: turn.channel, title: query, ...(turn.conversationId ? { conversationId: turn.conversationId } : {}) });
  const userMessageId = turn.storedMessageId ?? (turn.messages ? undefined : await storeMessage(deps, { conversation, role: "user", content: query, touch: false }));
  const messageId = newId("msg");
  yield { type: "message-start", conversationId: conversation.id, messageId, model: "workflow", offline: false };
  // Inbox sessions a person has (or that a trigger hands over now) are not answered by the workflow either.
  if (conversation.clientId && userMessageId && !turn.skipHandover) {
    const gate = await handoverGate(deps, app, conversation, { text: query, messageId: userMessageId, language: turn.language });
    if (gate.kind === "hold") {
      if (gate.reply) {
        yield { type: "text-delta", text: gate.reply };
        await storeMessage(deps, { conversation, role: "assistant", content: gate.reply, id: messageId, model: "handover" });
      }
      yield { type: "message-end", finishReason: "handover", usage: { promptTokens: 0, completionTokens: 0 }, credits: 0, balance: null };
      return;
    }
  }
  const fail = async (code: number, message: string): Promise<ChatEvent> => {
    await storeMessage(deps, { conversation, role: "assistant", content: "", status: "error", model: "workflow", id: messageId });
    return { type: "error", code, message };
  };
  const workflow = await workflowOfApp(deps, app.id);
  if (!workflow) {
    yield await fail(404, translate(turn.language, "workflow_app_unbound"));
    return;
  }
  let runId: string;
  try {
    runId = await startRun(deps, workflow, {
      type: "FLOW",
      query,
      trigger: { by: "chat", endUserId: turn.endUserId, conversationId: conversation.id, appId: app.id, language: turn.language },
    });
  } catch (error) {
    const reason = error instanceof ServiceError ? translate(turn.language, error.messageId, error.params) : String(error);
    yield await fail(400, translate(turn.language, "workflow_run_failed_answer", { reason }));
    return;
  }
  await runInline(deps, runId, workflow.spaceId);
  const run = await loadRunView(deps, runId);
  if (run.status === "failure") {
    yield await fail(500, translate(turn.language, "workflow_run_failed_answer", { reason: run.error ?? "" }));
    return;
  }
  const answer = run.status === "success" ? asText(run.output) : translate(turn.language, "workflow_run_waiting_answer");
  if (answer) yield { type: "text-delta", text: answer };
  await storeMessage(deps, { conversation, role: "assistant", content: answer, status: "complete", model: "workflow", id: messageId });
  yield { type: "message-end", finishReason: "stop", usage: { promptTokens: 0, completionTokens: 0 }, credits: 0, balance: null };
}
