import { eq } from "drizzle-orm";
import { storeMessage } from "../../conversation/store";
import { conversations } from "../../db/schema/index";
import type { Deps } from "../../kernel";
import { endAfterError, type ExecuteOptions, type ExecutionOutcome, loadRunningRun, openExecution, runSingleNode, walkGraph } from "./execution";

export { baseScope, type ExecuteOptions, type ExecutionOutcome, Interrupted, type RunInputs } from "./execution";

/**
 * Executes (or resumes) a run. Nodes already finished in an earlier attempt are not run again:
 * their outputs are read back and the run continues after the last completed node; a node that
 * was running when the process died runs again. Each node's state is written as it starts and
 * ends. A failing node fails the run with its reason; a timer parks it (the caller schedules
 * the wake-up); nodes on branches not taken end as "no execution".
 */
export async function executeRun(deps: Deps, runId: string, options: ExecuteOptions = {}): Promise<ExecutionOutcome> {
  const loaded = await loadRunningRun(deps, runId);
  if ("outcome" in loaded) return loaded.outcome;
  const execution = await openExecution(deps, loaded.run, options, { answerLater: (conversationId, text) => answerLater(deps, conversationId, text) });
  try {
    return loaded.run.type === "NODE" ? await runSingleNode(execution) : await walkGraph(execution);
  } catch (error) {
    return endAfterError(execution, error);
  }
}

/** Adds a late answer to a conversation; through its channel client when it came from one. */
async function answerLater(deps: Deps, conversationId: string, text: string) {
  if (!text) return;
  const conversation = await deps.db.select().from(conversations).where(eq(conversations.id, conversationId)).get();
  if (!conversation) return;
  // In a platform's session the answer goes out through its channel: the channels listen for pending messages.
  await storeMessage(deps, {
    conversation,
    role: "assistant",
    content: text,
    model: "workflow",
    ...(conversation.clientId ? { delivery: "pending" as const } : {}),
  });
}
