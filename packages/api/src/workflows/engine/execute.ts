import { and, eq, sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import { storeMessage } from "../../conversation/store";
import { conversations, workflowNodeRuns, workflowRuns } from "../../db/schema/index";
import type { Deps } from "../../http/context";
import type { Language } from "../../http/messages";
import { incoming, nodeLabel, outgoing } from "../graph";
import type { NodeType, WorkflowElement, WorkflowGraph, WorkflowLine } from "../model";
import { openGraph } from "../service/workflows";
import { nodeExecutors } from "./nodes";
import { asText, type Scope } from "./template";
import { DEFAULT_RUN_LIMITS, type EnginePorts, type NodeExecutor, type NodeResult, type RunInfo, type RunLimits, type RunTrigger, unboundDatabases } from "./types";

/** How an execution ended: the run finished, or parked on a timer until `until`. */
export type ExecutionOutcome = { state: "finished"; status: "success" | "failure" } | { state: "parked"; until: Date } | { state: "gone" };

/** Options of {@link executeRun}. */
export interface ExecuteOptions {
  limits?: Partial<RunLimits>;
  ports?: Partial<EnginePorts>;
  /** Replace executors (tests, benchmarks). */
  executors?: Partial<Record<NodeType, NodeExecutor>>;
  /** Called now and then while the run executes (the job's lease). */
  heartbeat?: () => Promise<void>;
  /** Stops the run (server shutting down): it is left to be resumed. */
  signal?: AbortSignal;
}

/** The stored inputs of a run. */
export interface RunInputs {
  query?: string;
  files?: string[];
  variables?: Record<string, unknown>;
  nodeInputs?: Record<string, unknown>;
}

type RunRow = typeof workflowRuns.$inferSelect;
type NodeRow = typeof workflowNodeRuns.$inferSelect;

const HEARTBEAT_EVERY_MS = 5_000;
const MAX_STORED_CHARS = 200_000;

/** A duration for a message: seconds, or milliseconds under one second. */
const duration = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

/** JSON of a value for the run's record, cut when huge. */
function stored(value: unknown): string | null {
  if (value === undefined) return null;
  const text = JSON.stringify(value);
  if (text === undefined) return null;
  return text.length > MAX_STORED_CHARS ? JSON.stringify({ truncated: true, preview: text.slice(0, 10_000) }) : text;
}

/** Builds the scope templates read: `sys`, `start` (alias of the start node) and each node's outputs. */
export function baseScope(run: Pick<RunRow, "id" | "workflowId" | "startedAt">, inputs: RunInputs, trigger: RunTrigger): Scope {
  return {
    sys: {
      query: inputs.query ?? "",
      user: trigger.endUserId ?? trigger.userId ?? "",
      time: run.startedAt,
      run_id: run.id,
      workflow_id: run.workflowId,
      conversation_id: trigger.conversationId ?? "",
      files: inputs.files ?? [],
    },
    start: { query: inputs.query ?? "", files: inputs.files ?? [], ...(inputs.variables ?? {}) },
  };
}

/** Sets `a.b.c` in a scope (NODE runs are given their references' values by path). */
function assignPath(scope: Scope, path: string, value: unknown) {
  const parts = path.replace(/^\{\{\s*|\s*\}\}$/g, "").split(".");
  let target = scope as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) {
    if (!target[part] || typeof target[part] !== "object") target[part] = {};
    target = target[part] as Record<string, unknown>;
  }
  target[parts[parts.length - 1]!] = value;
}

/** Nodes of one run executed at once (ready nodes of parallel branches). */
const MAX_PARALLEL = 8;

/** Node types without effects outside the run: no need to look for a cancel before them. */
const PURE_NODES = new Set<string>(["start", "end", "fixed_reply", "logic_branch"]);

const isBranchType = (type: string) => type === "logic_branch" || type === "intent_branch";

/**
 * Executes (or resumes) a run. Nodes already finished in an earlier attempt are not run again:
 * their outputs are read back and the run continues after the last completed node; a node that
 * was running when the process died runs again. Each node's state is written as it starts and
 * ends. A failing node fails the run with its reason; a timer parks it (the caller schedules
 * the wake-up); nodes on branches not taken end as "no execution".
 */
export async function executeRun(deps: Deps, runId: string, options: ExecuteOptions = {}): Promise<ExecutionOutcome> {
  const run = await deps.db.select().from(workflowRuns).where(eq(workflowRuns.id, runId)).get();
  if (!run) return { state: "gone" };
  if (run.status !== "running") return { state: "finished", status: run.status };
  const limits = { ...DEFAULT_RUN_LIMITS, ...options.limits };
  const ports: EnginePorts = { databases: unboundDatabases, ...options.ports };
  const executors = { ...nodeExecutors, ...options.executors };
  const graph = openGraph(deps, JSON.parse(run.graph) as WorkflowGraph);
  const inputs = JSON.parse(run.inputs) as RunInputs;
  const trigger = JSON.parse(run.trigger) as RunTrigger;
  const language: Language = trigger.language ?? "en";
  const info: RunInfo = { id: run.id, spaceId: run.spaceId, workflowId: run.workflowId, type: run.type, trigger, language };
  const previous = new Map<string, NodeRow>(
    (await deps.db.select().from(workflowNodeRuns).where(eq(workflowNodeRuns.runId, run.id))).map((row) => [row.nodeId, row]),
  );
  const scope = baseScope(run, inputs, trigger);
  const started = Date.now();
  const deadline = started + limits.maxRunMs;
  let lastBeat = started;
  let steps = run.steps;
  let sequence = previous.size;

  const writes = nodeWrites(deps);
  const stillRunning = async () => (await deps.db.select({ status: workflowRuns.status }).from(workflowRuns).where(eq(workflowRuns.id, run.id)).get())?.status === "running";
  // Consoles of the space follow a run live (`/console` namespace): node states as they change, then the run's end.
  const publish = (event: "workflow.node" | "workflow.run", data: Record<string, unknown>) => deps.realtime.toSpace(run.spaceId, event, data);
  const finish = async (status: "success" | "failure", fields: { output?: unknown; error?: string }) => {
    const now = deps.now().toISOString();
    await deps.db
      .update(workflowRuns)
      .set({ status, output: stored(fields.output ?? null), error: fields.error ?? null, steps, waitingUntil: null, finishedAt: now, updatedAt: now })
      .where(and(eq(workflowRuns.id, run.id), eq(workflowRuns.status, "running")));
    publish("workflow.run", { runId: run.id, workflowId: run.workflowId, status, error: fields.error ?? null, waitingUntil: null });
    // A chat answered "waiting" when the run parked hears the end node's output once it comes.
    if (trigger.answerLater && trigger.conversationId && status === "success") await answerLater(deps, trigger.conversationId, asText(fields.output ?? ""));
    return { state: "finished" as const, status };
  };

  /** Runs one node with the run's limits; answers its result or the reason it failed. */
  const runNode = async (element: WorkflowElement, prior: NodeRow | undefined): Promise<{ ok: true; result: NodeResult } | { ok: false; error: string }> => {
    if (steps >= limits.maxSteps) return { ok: false, error: `The run reached its limit of ${limits.maxSteps} steps` };
    const remaining = deadline - Date.now();
    if (remaining <= 0) return { ok: false, error: `The run took longer than its limit of ${duration(limits.maxRunMs)} and was stopped` };
    if (options.signal?.aborted) throw new Interrupted();
    steps += 1;
    const startedAt = deps.now();
    const priorInputs = prior?.inputs ? (JSON.parse(prior.inputs) as unknown) : undefined;
    await writes.start({ runId: run.id, nodeId: element.id, nodeType: element.type, nodeName: nodeLabel(element), inputs: prior?.inputs ?? null, startedAt: startedAt.toISOString() });
    publish("workflow.node", { runId: run.id, workflowId: run.workflowId, nodeId: element.id, status: "running", startedAt: startedAt.toISOString() });
    const budget = Math.min(remaining, limits.maxNodeMs);
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort();
    options.signal?.addEventListener("abort", onOuterAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    try {
      const executor = executors[element.type];
      const pending = Promise.resolve().then(() => executor({ deps, run: info, element, scope, signal: controller.signal, previousInputs: priorInputs, ports }));
      const result =
        element.type === "fixed_reply" || element.type === "end" || element.type === "start" || element.type === "logic_branch"
          ? await pending
          : await Promise.race([
              pending,
              new Promise<never>((_, reject) => {
                timer = setTimeout(() => {
                  controller.abort();
                  reject(
                    new Error(
                      budget < limits.maxNodeMs
                        ? `The run took longer than its limit of ${duration(limits.maxRunMs)} and was stopped`
                        : `The node took longer than ${duration(budget)} and was stopped`,
                    ),
                  );
                }, budget);
              }),
            ]);
      return { ok: true, result };
    } catch (error) {
      if (options.signal?.aborted) throw new Interrupted();
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    } finally {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onOuterAbort);
      if (Date.now() - lastBeat > HEARTBEAT_EVERY_MS && options.heartbeat) {
        lastBeat = Date.now();
        await options.heartbeat();
      }
    }
  };

  const park = async (element: WorkflowElement, result: NodeResult) => {
    await writes.park({ runId: run.id, nodeId: element.id, inputs: stored(result.inputs) });
    return parkRun(result.parkUntil!);
  };
  const parkRun = async (until: Date) => {
    const parkedTrigger = trigger.by === "chat" && trigger.conversationId ? { ...trigger, answerLater: true } : trigger;
    await deps.db
      .update(workflowRuns)
      .set({ waitingUntil: until.toISOString(), steps, trigger: JSON.stringify(parkedTrigger), updatedAt: deps.now().toISOString() })
      .where(eq(workflowRuns.id, run.id));
    publish("workflow.run", { runId: run.id, workflowId: run.workflowId, status: "running", error: null, waitingUntil: until.toISOString() });
    return { state: "parked" as const, until };
  };

  const succeed = async (element: WorkflowElement, result: NodeResult, startedAtMs: number) => {
    const finishedAt = deps.now();
    await writes.end({
      runId: run.id,
      nodeId: element.id,
      status: "success",
      sequence: ++sequence,
      inputs: stored(result.inputs),
      outputs: stored(result.outputs),
      branch: result.branch ?? null,
      error: null,
      finishedAt: finishedAt.toISOString(),
      durationMs: Math.max(0, finishedAt.getTime() - startedAtMs),
    });
    publish("workflow.node", { runId: run.id, workflowId: run.workflowId, nodeId: element.id, status: "success", branch: result.branch ?? null, finishedAt: finishedAt.toISOString(), durationMs: Math.max(0, finishedAt.getTime() - startedAtMs) });
  };
  const failNode = async (element: WorkflowElement, error: string, startedAtMs: number) => {
    const finishedAt = deps.now();
    await writes.end({ runId: run.id, nodeId: element.id, status: "failure", sequence: ++sequence, inputs: null, outputs: null, branch: null, error: error.slice(0, 4000), finishedAt: finishedAt.toISOString(), durationMs: Math.max(0, finishedAt.getTime() - startedAtMs) });
    publish("workflow.node", { runId: run.id, workflowId: run.workflowId, nodeId: element.id, status: "failure", error: error.slice(0, 4000), finishedAt: finishedAt.toISOString() });
  };

  try {
    if (run.type === "NODE") {
      const element = graph.elements.find((candidate) => candidate.id === run.nodeId);
      if (!element) return await finish("failure", { error: `The node ${run.nodeId} is not in the workflow` });
      const startId = graph.elements.find((candidate) => candidate.type === "start")?.id;
      for (const [path, value] of Object.entries(inputs.nodeInputs ?? {})) assignPath(scope, path, value);
      if (startId && scope[startId] === undefined) scope[startId] = scope.start;
      const prior = previous.get(element.id);
      const startedAtMs = deps.now().getTime();
      const outcome = await runNode(element, prior?.status === "running" ? prior : undefined);
      if (!outcome.ok) {
        await failNode(element, outcome.error, startedAtMs);
        return await finish("failure", { error: `${nodeLabel(element)}: ${outcome.error}` });
      }
      if (outcome.result.parkUntil) return await park(element, outcome.result);
      await succeed(element, outcome.result, startedAtMs);
      return await finish("success", { output: outcome.result.outputs });
    }

    const into = incoming(graph.lines);
    const status = new Map<string, "success" | "skipped">();
    const branchOf = new Map<string, string | null>();
    const byId = new Map(graph.elements.map((element) => [element.id, element]));
    const lineActive = (line: WorkflowLine) => {
      if (status.get(line.source) !== "success") return false;
      const source = byId.get(line.source)!;
      if (!isBranchType(source.type) || !line.sourceHandle) return true;
      return branchOf.get(line.source) === line.sourceHandle;
    };
    let endOutput: unknown = null;
    // Nodes become ready when every node with a line into them is decided; ready nodes run
    // together (parallel branches overlap), at most MAX_PARALLEL at a time.
    const known = graph.lines.filter((entry) => byId.has(entry.source) && byId.has(entry.target));
    const next = outgoing(known);
    const waiting = new Map(graph.elements.map((element) => [element.id, 0]));
    for (const entry of known) waiting.set(entry.target, waiting.get(entry.target)! + 1);
    const ready = graph.elements.filter((element) => waiting.get(element.id) === 0).map((element) => element.id);
    const decide = (id: string, state: "success" | "skipped") => {
      status.set(id, state);
      for (const entry of next.get(id) ?? []) {
        const left = waiting.get(entry.target)! - 1;
        waiting.set(entry.target, left);
        if (left === 0) ready.push(entry.target);
      }
    };
    const accept = (element: WorkflowElement, outputs: Record<string, unknown>, branch: string | null) => {
      scope[element.id] = outputs;
      if (element.type === "start") scope.start = outputs;
      if (element.type === "end") endOutput = outputs.output ?? null;
      branchOf.set(element.id, branch);
      decide(element.id, "success");
    };
    let failed: { element: WorkflowElement; error: string } | undefined;
    let parkedUntil: Date | undefined;
    while (ready.length > 0 && !failed) {
      const toRun: WorkflowElement[] = [];
      for (const id of ready.splice(0)) {
        const element = byId.get(id)!;
        const prior = previous.get(id);
        if (prior?.status === "success") {
          // Completed before the restart: its outputs stand.
          accept(element, prior.outputs ? (JSON.parse(prior.outputs) as Record<string, unknown>) : {}, prior.branch);
          continue;
        }
        if (element.type === "start" || (into.get(id) ?? []).some(lineActive)) toRun.push(element);
        else decide(id, "skipped");
      }
      for (let offset = 0; offset < toRun.length && !failed; offset += MAX_PARALLEL) {
        const batch = toRun.slice(offset, offset + MAX_PARALLEL);
        // A run cancelled from elsewhere stops before its next node with effects (and every 100 others).
        if ((batch.some((element) => !PURE_NODES.has(element.type)) || steps % 100 >= 100 - batch.length) && !(await stillRunning())) {
          return { state: "finished", status: "failure" };
        }
        const outcomes = await Promise.allSettled(
          batch.map(async (element) => {
            const prior = previous.get(element.id);
            const startedAtMs = deps.now().getTime();
            return { element, startedAtMs, outcome: await runNode(element, prior?.status === "running" ? prior : undefined) };
          }),
        );
        const interrupted = outcomes.find((entry) => entry.status === "rejected");
        if (interrupted) throw (interrupted as PromiseRejectedResult).reason;
        for (const entry of outcomes as Array<PromiseFulfilledResult<{ element: WorkflowElement; startedAtMs: number; outcome: Awaited<ReturnType<typeof runNode>> }>>) {
          const { element, startedAtMs, outcome } = entry.value;
          if (!outcome.ok) {
            await failNode(element, outcome.error, startedAtMs);
            failed ??= { element, error: outcome.error };
          } else if (outcome.result.parkUntil) {
            await writes.park({ runId: run.id, nodeId: element.id, inputs: stored(outcome.result.inputs) });
            if (!parkedUntil || outcome.result.parkUntil < parkedUntil) parkedUntil = outcome.result.parkUntil;
          } else {
            await succeed(element, outcome.result, startedAtMs);
            accept(element, outcome.result.outputs, outcome.result.branch ?? null);
          }
        }
      }
    }
    if (failed) return await finish("failure", { error: `${nodeLabel(failed.element)}: ${failed.error}` });
    if (parkedUntil) return await parkRun(parkedUntil);
    return await finish("success", { output: endOutput });
  } catch (error) {
    if (error instanceof Interrupted) {
      await deps.db.update(workflowRuns).set({ steps, updatedAt: deps.now().toISOString() }).where(eq(workflowRuns.id, run.id));
      throw error;
    }
    return finish("failure", { error: `The engine failed: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/** Adds a late answer to a conversation; through its channel client when it came from one. */
async function answerLater(deps: Deps, conversationId: string, text: string) {
  if (!text) return;
  const conversation = await deps.db.select().from(conversations).where(eq(conversations.id, conversationId)).get();
  if (!conversation) return;
  // In a platform's session the answer goes out through its channel: the channels listen for pending messages.
  await storeMessage(deps, { conversation, role: "assistant", content: text, model: "workflow", ...(conversation.clientId ? { delivery: "pending" as const } : {}) });
}

/** The run was stopped from outside (shutdown): it stays running, to be resumed. */
export class Interrupted extends Error {
  override name = "Interrupted";
}

/** Prepared writes of node states: the hot path of a run (two per node). */
function nodeWrites(deps: Deps) {
  const start = prepared(deps.db, "workflows.nodeStart", () =>
    deps.db
      .insert(workflowNodeRuns)
      .values({
        runId: sql.placeholder("runId"),
        nodeId: sql.placeholder("nodeId"),
        nodeType: sql.placeholder("nodeType"),
        nodeName: sql.placeholder("nodeName"),
        status: "running",
        inputs: sql.placeholder("inputs"),
        startedAt: sql.placeholder("startedAt"),
      } as never)
      .onConflictDoUpdate({
        target: [workflowNodeRuns.runId, workflowNodeRuns.nodeId],
        set: { status: "running", error: null, startedAt: sql`excluded.started_at` },
      })
      .prepare(),
  );
  const end = prepared(deps.db, "workflows.nodeEnd", () =>
    deps.db
      .update(workflowNodeRuns)
      .set({
        status: sql.placeholder("status"),
        sequence: sql.placeholder("sequence"),
        inputs: sql`coalesce(${sql.placeholder("inputs")}, ${workflowNodeRuns.inputs})`,
        outputs: sql.placeholder("outputs"),
        branch: sql.placeholder("branch"),
        error: sql.placeholder("error"),
        finishedAt: sql.placeholder("finishedAt"),
        durationMs: sql.placeholder("durationMs"),
      } as never)
      .where(and(eq(workflowNodeRuns.runId, sql.placeholder("runId")), eq(workflowNodeRuns.nodeId, sql.placeholder("nodeId"))))
      .prepare(),
  );
  const park = prepared(deps.db, "workflows.nodePark", () =>
    deps.db
      .update(workflowNodeRuns)
      .set({ inputs: sql.placeholder("inputs") } as never)
      .where(and(eq(workflowNodeRuns.runId, sql.placeholder("runId")), eq(workflowNodeRuns.nodeId, sql.placeholder("nodeId"))))
      .prepare(),
  );
  return {
    start: async (values: Record<string, unknown>) => {
      await start.run(values);
    },
    end: async (values: Record<string, unknown>) => {
      await end.run(values);
    },
    park: async (values: Record<string, unknown>) => {
      await park.run(values);
    },
  };
}
