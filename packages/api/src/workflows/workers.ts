import type { Deps } from "../kernel";
import { createWorkflowRunner, type WorkflowRunnerOptions } from "./engine/runner";
import { createWorkflowScheduler, type WorkflowSchedulerOptions } from "./scheduler/loop";

/** Starts this process's workflow runner and cron scheduler; `stop` ends both (runs in hand go back to the queue). */
export function startWorkflowWorkers(deps: Deps, options: { runner?: WorkflowRunnerOptions; scheduler?: WorkflowSchedulerOptions } = {}) {
  const runner = createWorkflowRunner(deps, options.runner);
  const scheduler = createWorkflowScheduler(deps, options.scheduler);
  runner.start();
  scheduler.start();
  return {
    runner,
    scheduler,
    async stop() {
      await scheduler.stop();
      await runner.stop();
    },
  };
}
