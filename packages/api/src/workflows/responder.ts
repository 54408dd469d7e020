import { chatFileView } from "../chat/files/service";
import type { ChatEvent } from "../chat/events";
import type { Responder, ResponderContext, TurnOutcome } from "../conversation/types";
import { ServiceError } from "../errors";
import type { Deps } from "../kernel";
import { asText } from "./engine/template";
import { runInline } from "./engine/runner";
import { loadRunView, startRun } from "./service/runs";
import { workflowOfApp } from "./service/workflows";
import { messageText } from "../i18n/catalogue";

/**
 * How a WORKFLOW app answers a chat turn: its workflow runs (the person's message is
 * {{sys.query}}, the end node's output is the answer). Its model nodes hold credits call by call,
 * so the conversation core only checks a balance is left; it keeps no memory of its own.
 */
export const workflowResponder: Responder = {
  policy: { credits: "per-call", memory: false, rateLimitReply: false, storeStatelessPrompt: false },
  modelOf: () => ({ model: "workflow", offline: false }),
  respond: runWorkflowTurn,
};

const NO_USAGE = { promptTokens: 0, completionTokens: 0 };

/** A failed run: nothing is answered, the stream ends with the reason. */
const failed = (code: number, message: string): TurnOutcome => ({
  text: "",
  status: "error",
  model: "workflow",
  finishReason: "stop",
  usage: NO_USAGE,
  failure: { code, message },
});

/** One turn of a WORKFLOW app: a FLOW run executed now, in this process, under a durable job. */
async function* runWorkflowTurn(deps: Deps, { turn, prepared, conversation }: ResponderContext): AsyncGenerator<ChatEvent, TurnOutcome> {
  const { app } = turn;
  const workflow = await workflowOfApp(deps, app.id);
  if (!workflow) return failed(404, messageText(turn.language, "workflow_app_unbound"));
  let runId: string;
  try {
    runId = await startRun(deps, workflow, {
      type: "FLOW",
      query: prepared.query,
      // The person's attachments reach the start node as {{sys.files}}: their signed addresses (valid 24 hours).
      ...(prepared.files.length ? { files: prepared.files.map((file) => `${deps.config.publicUrl}${chatFileView(deps, file).url}`) } : {}),
      trigger: {
        by: "chat",
        endUserId: turn.endUserId,
        conversationId: conversation.id,
        appId: app.id,
        language: turn.language,
        ...(turn.memberUserId ? { memberUserId: turn.memberUserId } : {}),
      },
    });
  } catch (error) {
    const reason = error instanceof ServiceError ? messageText(turn.language, error.messageId, error.params) : String(error);
    return failed(400, messageText(turn.language, "workflow_run_failed_answer", { reason }));
  }
  await runInline(deps, runId, workflow.spaceId);
  const run = await loadRunView(deps, runId);
  if (run.status === "failure") return failed(500, messageText(turn.language, "workflow_run_failed_answer", { reason: run.error ?? "" }));
  const answer = run.status === "success" ? asText(run.output) : messageText(turn.language, "workflow_run_waiting_answer");
  if (answer) yield { type: "text-delta", text: answer };
  return { text: answer, status: "complete", model: "workflow", finishReason: "stop", usage: NO_USAGE };
}
