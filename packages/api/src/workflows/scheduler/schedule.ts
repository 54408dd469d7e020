import { eq } from "drizzle-orm";
import { ServiceError } from "../../errors";
import { workflows } from "../../db/schema/index";
import type { Auth, Deps } from "../../kernel";
import { checkWorkflow, issueError, loadWorkflow, type WorkflowRow } from "../service/workflows";
import { cronIssue, nextRuns } from "./cron";

function scheduleView(deps: Pick<Deps, "now">, row: Pick<WorkflowRow, "id" | "cron" | "cronTimezone" | "cronEnabled">) {
  const firing = row.cron !== null && row.cronEnabled && !cronIssue(row.cron, row.cronTimezone);
  return {
    workflowId: row.id,
    cron: row.cron,
    cronTimezone: row.cronTimezone,
    cronEnabled: row.cronEnabled,
    nextRuns: firing ? nextRuns(row.cron!, row.cronTimezone, deps.now()).map((date) => date.toISOString()) : [],
  };
}

/** Scheduler detail. */
export async function getSchedule(deps: Pick<Deps, "db" | "now">, auth: Auth, workflowId: string) {
  return scheduleView(deps, await loadWorkflow(deps, auth, workflowId));
}

/**
 * Scheduler save: creates or changes the timer. The expression must have exactly 5 fields; a
 * timer that fires also needs a workflow that passes every rule (a scheduled run has nobody to
 * tell what is missing).
 */
export async function saveSchedule(
  deps: Pick<Deps, "db" | "models" | "now" | "plugins">,
  auth: Auth,
  workflowId: string,
  input: { cron: string; cronTimezone?: string | undefined; enabled?: boolean | undefined },
) {
  const row = await loadWorkflow(deps, auth, workflowId);
  const timezone = input.cronTimezone?.trim() || row.cronTimezone || "UTC";
  const problem = cronIssue(input.cron, timezone);
  if (problem)
    throw new ServiceError("validation", problem.code, problem.params, { field: problem.code === "workflow_cron_timezone_invalid" ? "cronTimezone" : "cron" });
  const enabled = input.enabled ?? true;
  if (enabled) {
    const issues = await checkWorkflow(deps, auth, workflowId);
    const blocking = issues.find((issue) => issue.field !== "cron");
    if (blocking) throw issueError(blocking);
  }
  const cron = input.cron.trim().split(/\s+/).join(" ");
  await deps.db
    .update(workflows)
    .set({ cron, cronTimezone: timezone, cronEnabled: enabled, updatedAt: deps.now().toISOString() })
    .where(eq(workflows.id, row.id));
  return getSchedule(deps, auth, workflowId);
}

/** Clears the timer: it stops firing, the expression stays. */
export async function clearSchedule(deps: Pick<Deps, "db" | "now">, auth: Auth, workflowId: string) {
  const row = await loadWorkflow(deps, auth, workflowId);
  await deps.db.update(workflows).set({ cronEnabled: false, updatedAt: deps.now().toISOString() }).where(eq(workflows.id, row.id));
  return getSchedule(deps, auth, workflowId);
}

/** Deletes the timer and its expression. */
export async function deleteSchedule(deps: Pick<Deps, "db" | "now">, auth: Auth, workflowId: string) {
  const row = await loadWorkflow(deps, auth, workflowId);
  await deps.db.update(workflows).set({ cron: null, cronEnabled: false, updatedAt: deps.now().toISOString() }).where(eq(workflows.id, row.id));
  return getSchedule(deps, auth, workflowId);
}
