// Workflow engine benchmark: the engine's own cost per node on a 1,000-node chain of
// pass-through nodes (each fixed_reply reads the previous node's output through a template),
// and throughput of 100 runs started at once through the durable run queue. Everything real:
// a SQLite file with the migrations, the node-state writes of every node, the job claims.
// Prints name=value lines; the last two are per_node_ms and concurrent_runs_per_s.
import { eq } from "drizzle-orm";
import { workflowRuns } from "../../packages/api/src/db/schema/index";
import { createTestContext, registerUser, type TestUser } from "../../packages/api/src/testing/harness";
import { executeRun } from "../../packages/api/src/workflows/engine/execute";
import { createWorkflowRunner, enqueueRun } from "../../packages/api/src/workflows/engine/runner";
import { startRun } from "../../packages/api/src/workflows/service/runs";
import { createWorkflow, loadWorkflow, saveWorkflowGraph } from "../../packages/api/src/workflows/service/workflows";

const CHAIN = 1000;
const CHAIN_REPEATS = 5;
const CONCURRENT = 100;
const SPACES = 10;

const ctx = await createTestContext({ PARLEY_LOG_LEVEL: "silent" });

function auth(user: TestUser) {
  return { userId: user.user.id, spaceId: user.user.spaceId, role: "owner" as const, via: "session" as const };
}

function chainGraph(length: number) {
  const elements: Array<{ id: string; type: string; config: Record<string, unknown> }> = [{ id: "start", type: "start", config: { name: "Start" } }];
  const lines: Array<{ id: string; source: string; target: string; sourceHandle: null }> = [];
  let previous = "start";
  for (let index = 1; index < length - 1; index++) {
    const id = `n${index}`;
    elements.push({ id, type: "fixed_reply", config: { name: id, content: index === 1 ? "{{sys.query}}" : `{{${previous}.output}}` } });
    lines.push({ id: `l${index}`, source: previous, target: id, sourceHandle: null });
    previous = id;
  }
  elements.push({ id: "end", type: "end", config: { name: "End", output: `{{${previous}.output}}` } });
  lines.push({ id: "l_end", source: previous, target: "end", sourceHandle: null });
  return { elements, lines };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  const owner = await registerUser(ctx, "bench-workflow@example.com");
  const chain = await createWorkflow(ctx.deps, auth(owner), {
    name: "Chain",
    description: "1,000 pass-through nodes",
    avatarUrl: "https://example.com/a.png",
    category: "bench",
  });
  await saveWorkflowGraph(ctx.deps, auth(owner), chain.id, chainGraph(CHAIN));
  const row = await loadWorkflow(ctx.deps, owner.user.spaceId, chain.id);

  // Warm-up: statements prepared, code paths compiled.
  await executeRun(ctx.deps, await startRun(ctx.deps, row, { type: "FLOW", query: "warm", trigger: { by: "user" } }));
  const executeMs: number[] = [];
  const totalMs: number[] = [];
  const cpuMs: number[] = [];
  for (let repeat = 0; repeat < CHAIN_REPEATS; repeat++) {
    const started = performance.now();
    const runId = await startRun(ctx.deps, row, { type: "FLOW", query: `payload ${repeat}`, trigger: { by: "user" } });
    const executing = performance.now();
    const cpu = process.cpuUsage();
    const outcome = await executeRun(ctx.deps, runId);
    const finished = performance.now();
    const used = process.cpuUsage(cpu);
    const stored = await ctx.deps.db.select().from(workflowRuns).where(eq(workflowRuns.id, runId)).get();
    if (outcome.state !== "finished" || stored?.status !== "success" || JSON.parse(stored.output ?? "null") !== `payload ${repeat}`) {
      throw new Error(`chain run did not succeed: ${JSON.stringify(outcome)} ${stored?.error}`);
    }
    executeMs.push(finished - executing);
    totalMs.push(finished - started);
    cpuMs.push((used.user + used.system) / 1000);
  }
  console.log(`chain_nodes=${CHAIN}`);
  console.log(`chain_execute_ms=${median(executeMs).toFixed(1)}`);
  console.log(`chain_start_and_execute_ms=${median(totalMs).toFixed(1)}`);
  // CPU time of the execution: steadier than the wall clock on a shared machine.
  console.log(`chain_execute_cpu_ms=${median(cpuMs).toFixed(1)}`);

  // 100 runs at once, in 10 spaces, through the queue and the runner (8 lanes, 4 per space).
  const users = [owner];
  for (let index = 1; index < SPACES; index++) users.push(await registerUser(ctx, `bench-workflow-${index}@example.com`));
  const small = [];
  for (const user of users) {
    const workflow = await createWorkflow(ctx.deps, auth(user), {
      name: "Small",
      description: "start, two replies, end",
      avatarUrl: "https://example.com/a.png",
      category: "bench",
    });
    await saveWorkflowGraph(ctx.deps, auth(user), workflow.id, chainGraph(4));
    small.push(await loadWorkflow(ctx.deps, user.user.spaceId, workflow.id));
  }
  const runner = createWorkflowRunner(ctx.deps, { concurrency: 8, perSpace: 4, idleMs: 5 });
  const started = performance.now();
  const concurrentCpu = process.cpuUsage();
  const runIds: string[] = [];
  for (let index = 0; index < CONCURRENT; index++) {
    const workflow = small[index % small.length]!;
    const runId = await startRun(ctx.deps, workflow, { type: "FLOW", query: `run ${index}`, trigger: { by: "user" } });
    await enqueueRun(ctx.deps, { runId, spaceId: workflow.spaceId });
    runIds.push(runId);
  }
  runner.start();
  for (;;) {
    const pending = (await ctx.deps.db.select({ status: workflowRuns.status }).from(workflowRuns).where(eq(workflowRuns.status, "running"))).length;
    if (pending === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const elapsed = performance.now() - started;
  const concurrentUsed = process.cpuUsage(concurrentCpu);
  await runner.stop();
  const failed = (await ctx.deps.db.select().from(workflowRuns).where(eq(workflowRuns.status, "failure"))).length;
  if (failed > 0) throw new Error(`${failed} runs failed`);
  console.log(`concurrent_runs=${CONCURRENT}`);
  console.log(`concurrent_runs_total_ms=${elapsed.toFixed(1)}`);
  console.log(`concurrent_runs_cpu_ms=${((concurrentUsed.user + concurrentUsed.system) / 1000).toFixed(1)}`);
  console.log(`per_node_ms=${(median(executeMs) / CHAIN).toFixed(3)}`);
  console.log(`concurrent_runs_per_s=${((CONCURRENT / elapsed) * 1000).toFixed(1)}`);
} finally {
  await ctx.close();
}
