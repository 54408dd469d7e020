import { and, eq, sql } from "drizzle-orm";
import { prepared } from "../../db/prepared";
import { workflowNodeRuns, workflowRuns } from "../../db/schema/index";
import type { Deps } from "../../kernel/deps";
import { incoming, nodeLabel, outgoing } from "../graph";
import type { NodeType, WorkflowElement, WorkflowGraph, WorkflowLine } from "../model";
import { openGraph } from "../service/workflows";
import { nodeExecutors } from "./nodes";
import { asText, type Scope } from "./template";
import {
  DEFAULT_RUN_LIMITS,
  type EnginePorts,
  type NodeExecutor,
  type NodeResult,
  type RunInfo,
  type RunLimits,
  type RunTrigger,
  databasesPort,
} from "./types";

/** How an execution ended: the run finished, or parked on a timer until `until`. */
export type ExecutionOutcome = { state: "finished"; status: "success" | "failure" } | { state: "parked"; until: Date } | { state: "gone" };

/** Options of an execution (see executeRun). */
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

/** What the run's end hands back to whoever is waiting for it outside the engine. */
export interface ExecutionHooks {
  /** A chat answered "waiting" when the run parked hears the end node's output once it comes. */
  answerLater?: (conversationId: string, text: string) => Promise<void>;
}

/** The run was stopped from outside (shutdown): it stays running, to be resumed. */
export class Interrupted extends Error {
  override name = "Interrupted";
}

type RunRow = typeof workflowRuns.$inferSelect;
type NodeRow = typeof workflowNodeRuns.$inferSelect;
type NodeOutcome = { ok: true; result: NodeResult } | { ok: false; error: string };
type RanNode = { element: WorkflowElement; startedAtMs: number; outcome: NodeOutcome };

const HEARTBEAT_EVERY_MS = 5_000;
const MAX_STORED_CHARS = 200_000;

/** Nodes of one run executed at once (ready nodes of parallel branches). */
const MAX_PARALLEL = 8;

/** Node types without effects outside the run: no need to look for a cancel before them. */
const PURE_NODES = new Set<string>(["start", "end", "fixed_reply", "logic_branch"]);

/** Node types that answer at once: not raced against the node's time limit. */
const INSTANT_NODES = new Set<string>(["fixed_reply", "end", "start", "logic_branch"]);

const isBranchType = (type: string) => type === "logic_branch" || type === "intent_branch";

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

/** Step 1: the run to execute, or how it already ended (gone, or no longer running). */
export async function loadRunningRun(deps: Pick<Deps, "db">, runId: string): Promise<{ run: RunRow } | { outcome: ExecutionOutcome }> {
  const run = await deps.db.select().from(workflowRuns).where(eq(workflowRuns.id, runId)).get();
  if (!run) return { outcome: { state: "gone" } };
  if (run.status !== "running") return { outcome: { state: "finished", status: run.status } };
  return { run };
}

/** Step 2: an execution of the run: its graph, limits, scope and the node states of earlier attempts. */
export async function openExecution(deps: Deps, run: RunRow, options: ExecuteOptions, hooks: ExecutionHooks): Promise<RunExecution> {
  const previous = new Map<string, NodeRow>(
    (await deps.db.select().from(workflowNodeRuns).where(eq(workflowNodeRuns.runId, run.id))).map((row) => [row.nodeId, row]),
  );
  return new RunExecution(deps, run, previous, options, hooks);
}

/**
 * One execution of a run: runs nodes under the run's limits, writes each node's state as it
 * starts and ends, and ends, parks or fails the run. Consoles of the space follow it live.
 */
export class RunExecution {
  readonly graph: WorkflowGraph;
  readonly inputs: RunInputs;
  readonly trigger: RunTrigger;
  readonly scope: Scope;
  private readonly info: RunInfo;
  private readonly limits: RunLimits;
  private readonly ports: EnginePorts;
  private readonly executors: Record<NodeType, NodeExecutor>;
  private readonly writes: ReturnType<typeof nodeWrites>;
  private readonly deadline: number;
  private lastBeat: number;
  private steps: number;
  private sequence: number;

  constructor(
    private readonly deps: Deps,
    readonly run: RunRow,
    /** Node states written by earlier attempts, by node id. */
    readonly previous: Map<string, NodeRow>,
    private readonly options: ExecuteOptions,
    private readonly hooks: ExecutionHooks,
  ) {
    this.limits = { ...DEFAULT_RUN_LIMITS, ...options.limits };
    this.ports = { databases: databasesPort(), ...options.ports };
    this.executors = { ...nodeExecutors, ...options.executors };
    this.writes = nodeWrites(deps);
    this.graph = openGraph(deps, JSON.parse(run.graph) as WorkflowGraph);
    this.inputs = JSON.parse(run.inputs) as RunInputs;
    this.trigger = JSON.parse(run.trigger) as RunTrigger;
    this.info = {
      id: run.id,
      spaceId: run.spaceId,
      workflowId: run.workflowId,
      type: run.type,
      trigger: this.trigger,
      language: this.trigger.language ?? "en",
    };
    this.scope = baseScope(run, this.inputs, this.trigger);
    const started = Date.now();
    this.deadline = started + this.limits.maxRunMs;
    this.lastBeat = started;
    this.steps = run.steps;
    this.sequence = previous.size;
  }

  /** Whether the run is still running (not cancelled from elsewhere). */
  async stillRunning(): Promise<boolean> {
    return (await this.deps.db.select({ status: workflowRuns.status }).from(workflowRuns).where(eq(workflowRuns.id, this.run.id)).get())?.status === "running";
  }

  /** Whether the run was cancelled, looked up before a batch with effects (and every 100 steps). */
  async cancelledBefore(batch: WorkflowElement[]): Promise<boolean> {
    if (!batch.some((element) => !PURE_NODES.has(element.type)) && this.steps % 100 < 100 - batch.length) return false;
    return !(await this.stillRunning());
  }

  private publish(event: "workflow.node" | "workflow.run", data: Record<string, unknown>) {
    this.deps.realtime.toSpace(this.run.spaceId, event, data);
  }

  /** Runs one node with the run's limits; answers its result or the reason it failed. */
  async runNode(element: WorkflowElement): Promise<RanNode> {
    const startedAtMs = this.deps.now().getTime();
    const prior = this.previous.get(element.id);
    return { element, startedAtMs, outcome: await this.attempt(element, prior?.status === "running" ? prior : undefined) };
  }

  /** Runs nodes together; a shutdown during any of them interrupts the run. */
  async runBatch(batch: WorkflowElement[]): Promise<RanNode[]> {
    const outcomes = await Promise.allSettled(batch.map((element) => this.runNode(element)));
    const interrupted = outcomes.find((entry) => entry.status === "rejected");
    if (interrupted) throw (interrupted as PromiseRejectedResult).reason;
    return (outcomes as Array<PromiseFulfilledResult<RanNode>>).map((entry) => entry.value);
  }

  private async attempt(element: WorkflowElement, prior: NodeRow | undefined): Promise<NodeOutcome> {
    const { limits, options } = this;
    if (this.steps >= limits.maxSteps) return { ok: false, error: `The run reached its limit of ${limits.maxSteps} steps` };
    const remaining = this.deadline - Date.now();
    if (remaining <= 0) return { ok: false, error: `The run took longer than its limit of ${duration(limits.maxRunMs)} and was stopped` };
    if (options.signal?.aborted) throw new Interrupted();
    this.steps += 1;
    const startedAt = this.deps.now().toISOString();
    const priorInputs = prior?.inputs ? (JSON.parse(prior.inputs) as unknown) : undefined;
    await this.writes.start({
      runId: this.run.id,
      nodeId: element.id,
      nodeType: element.type,
      nodeName: nodeLabel(element),
      inputs: prior?.inputs ?? null,
      startedAt,
    });
    this.publish("workflow.node", { runId: this.run.id, workflowId: this.run.workflowId, nodeId: element.id, status: "running", startedAt });
    const budget = Math.min(remaining, limits.maxNodeMs);
    const controller = new AbortController();
    const onOuterAbort = () => controller.abort();
    options.signal?.addEventListener("abort", onOuterAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    try {
      const executor = this.executors[element.type];
      const pending = Promise.resolve().then(() =>
        executor({ deps: this.deps, run: this.info, element, scope: this.scope, signal: controller.signal, previousInputs: priorInputs, ports: this.ports }),
      );
      const result = INSTANT_NODES.has(element.type)
        ? await pending
        : await Promise.race([
            pending,
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => {
                controller.abort();
                const error =
                  budget < limits.maxNodeMs
                    ? `The run took longer than its limit of ${duration(limits.maxRunMs)} and was stopped`
                    : `The node took longer than ${duration(budget)} and was stopped`;
                reject(new Error(error));
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
      if (Date.now() - this.lastBeat > HEARTBEAT_EVERY_MS && options.heartbeat) {
        this.lastBeat = Date.now();
        await options.heartbeat();
      }
    }
  }

  /** Records a node that succeeded. */
  async succeed({ element, startedAtMs }: RanNode, result: NodeResult): Promise<void> {
    const finishedAt = this.deps.now();
    const durationMs = Math.max(0, finishedAt.getTime() - startedAtMs);
    await this.writes.end({
      runId: this.run.id,
      nodeId: element.id,
      status: "success",
      sequence: ++this.sequence,
      inputs: stored(result.inputs),
      outputs: stored(result.outputs),
      branch: result.branch ?? null,
      error: null,
      finishedAt: finishedAt.toISOString(),
      durationMs,
    });
    this.publish("workflow.node", {
      runId: this.run.id,
      workflowId: this.run.workflowId,
      nodeId: element.id,
      status: "success",
      branch: result.branch ?? null,
      finishedAt: finishedAt.toISOString(),
      durationMs,
    });
  }

  /** Records a node that failed, with its reason. */
  async failNode({ element, startedAtMs }: RanNode, error: string): Promise<void> {
    const finishedAt = this.deps.now();
    const reason = error.slice(0, 4000);
    await this.writes.end({
      runId: this.run.id,
      nodeId: element.id,
      status: "failure",
      sequence: ++this.sequence,
      inputs: null,
      outputs: null,
      branch: null,
      error: reason,
      finishedAt: finishedAt.toISOString(),
      durationMs: Math.max(0, finishedAt.getTime() - startedAtMs),
    });
    this.publish("workflow.node", {
      runId: this.run.id,
      workflowId: this.run.workflowId,
      nodeId: element.id,
      status: "failure",
      error: reason,
      finishedAt: finishedAt.toISOString(),
    });
  }

  /** Keeps a parked node's inputs, for when it wakes. */
  async parkNode(element: WorkflowElement, result: NodeResult): Promise<void> {
    await this.writes.park({ runId: this.run.id, nodeId: element.id, inputs: stored(result.inputs) });
  }

  /** Parks the run until `until`; a chat waiting for it is answered later. */
  async parkRun(until: Date): Promise<ExecutionOutcome> {
    const trigger = this.trigger.by === "chat" && this.trigger.conversationId ? { ...this.trigger, answerLater: true } : this.trigger;
    await this.deps.db
      .update(workflowRuns)
      .set({ waitingUntil: until.toISOString(), steps: this.steps, trigger: JSON.stringify(trigger), updatedAt: this.deps.now().toISOString() })
      .where(eq(workflowRuns.id, this.run.id));
    this.publish("workflow.run", { runId: this.run.id, workflowId: this.run.workflowId, status: "running", error: null, waitingUntil: until.toISOString() });
    return { state: "parked", until };
  }

  /** Ends the run (unless it was cancelled meanwhile) with its output or reason. */
  async finish(status: "success" | "failure", fields: { output?: unknown; error?: string }): Promise<ExecutionOutcome> {
    const now = this.deps.now().toISOString();
    await this.deps.db
      .update(workflowRuns)
      .set({
        status,
        output: stored(fields.output ?? null),
        error: fields.error ?? null,
        steps: this.steps,
        waitingUntil: null,
        finishedAt: now,
        updatedAt: now,
      })
      .where(and(eq(workflowRuns.id, this.run.id), eq(workflowRuns.status, "running")));
    this.publish("workflow.run", { runId: this.run.id, workflowId: this.run.workflowId, status, error: fields.error ?? null, waitingUntil: null });
    if (this.trigger.answerLater && this.trigger.conversationId && status === "success")
      await this.hooks.answerLater?.(this.trigger.conversationId, asText(fields.output ?? ""));
    return { state: "finished", status };
  }

  /** Keeps the steps counted so far (the run is interrupted, to be resumed). */
  async saveProgress(): Promise<void> {
    await this.deps.db.update(workflowRuns).set({ steps: this.steps, updatedAt: this.deps.now().toISOString() }).where(eq(workflowRuns.id, this.run.id));
  }
}

/** Step 3a: a NODE run executes its one node, given its references' values. */
export async function runSingleNode(execution: RunExecution): Promise<ExecutionOutcome> {
  const { graph, run, scope } = execution;
  const element = graph.elements.find((candidate) => candidate.id === run.nodeId);
  if (!element) return execution.finish("failure", { error: `The node ${run.nodeId} is not in the workflow` });
  const startId = graph.elements.find((candidate) => candidate.type === "start")?.id;
  for (const [path, value] of Object.entries(execution.inputs.nodeInputs ?? {})) assignPath(scope, path, value);
  if (startId && scope[startId] === undefined) scope[startId] = scope.start;
  const ran = await execution.runNode(element);
  if (!ran.outcome.ok) {
    await execution.failNode(ran, ran.outcome.error);
    return execution.finish("failure", { error: `${nodeLabel(element)}: ${ran.outcome.error}` });
  }
  if (ran.outcome.result.parkUntil) {
    await execution.parkNode(element, ran.outcome.result);
    return execution.parkRun(ran.outcome.result.parkUntil);
  }
  await execution.succeed(ran, ran.outcome.result);
  return execution.finish("success", { output: ran.outcome.result.outputs });
}

/**
 * Which nodes of a graph are ready: a node becomes ready when every node with a line into it is
 * decided (succeeded or skipped); it runs when a line into it is active, else it is skipped.
 */
class GraphWalk {
  private readonly into: Map<string, WorkflowLine[]>;
  private readonly next: Map<string, WorkflowLine[]>;
  private readonly byId: Map<string, WorkflowElement>;
  private readonly waiting: Map<string, number>;
  private readonly status = new Map<string, "success" | "skipped">();
  private readonly branchOf = new Map<string, string | null>();
  private readonly ready: string[];
  endOutput: unknown = null;
  failed: { element: WorkflowElement; error: string } | undefined;
  parkedUntil: Date | undefined;

  constructor(
    graph: WorkflowGraph,
    private readonly scope: Scope,
  ) {
    this.into = incoming(graph.lines);
    this.byId = new Map(graph.elements.map((element) => [element.id, element]));
    const known = graph.lines.filter((entry) => this.byId.has(entry.source) && this.byId.has(entry.target));
    this.next = outgoing(known);
    this.waiting = new Map(graph.elements.map((element) => [element.id, 0]));
    for (const entry of known) this.waiting.set(entry.target, this.waiting.get(entry.target)! + 1);
    this.ready = graph.elements.filter((element) => this.waiting.get(element.id) === 0).map((element) => element.id);
  }

  /** Whether nodes are ready and nothing failed. */
  get going(): boolean {
    return this.ready.length > 0 && !this.failed;
  }

  /** The ready nodes to run; those completed before a restart are accepted with their outputs, those on branches not taken skipped. */
  takeReady(previous: Map<string, NodeRow>): WorkflowElement[] {
    const toRun: WorkflowElement[] = [];
    for (const id of this.ready.splice(0)) {
      const element = this.byId.get(id)!;
      const prior = previous.get(id);
      if (prior?.status === "success") {
        // Completed before the restart: its outputs stand.
        this.accept(element, prior.outputs ? (JSON.parse(prior.outputs) as Record<string, unknown>) : {}, prior.branch);
        continue;
      }
      if (element.type === "start" || (this.into.get(id) ?? []).some((line) => this.lineActive(line))) toRun.push(element);
      else this.decide(id, "skipped");
    }
    return toRun;
  }

  /** A node's outputs enter the scope; the nodes after it may become ready. */
  accept(element: WorkflowElement, outputs: Record<string, unknown>, branch: string | null) {
    this.scope[element.id] = outputs;
    if (element.type === "start") this.scope.start = outputs;
    if (element.type === "end") this.endOutput = outputs.output ?? null;
    this.branchOf.set(element.id, branch);
    this.decide(element.id, "success");
  }

  private lineActive(line: WorkflowLine): boolean {
    if (this.status.get(line.source) !== "success") return false;
    const source = this.byId.get(line.source)!;
    if (!isBranchType(source.type) || !line.sourceHandle) return true;
    return this.branchOf.get(line.source) === line.sourceHandle;
  }

  private decide(id: string, state: "success" | "skipped") {
    this.status.set(id, state);
    for (const entry of this.next.get(id) ?? []) {
      const left = this.waiting.get(entry.target)! - 1;
      this.waiting.set(entry.target, left);
      if (left === 0) this.ready.push(entry.target);
    }
  }
}

/**
 * Step 3b: a FLOW run walks its graph. Ready nodes run together (parallel branches overlap), at
 * most MAX_PARALLEL at a time; a failed node fails the run, a timer parks it at its earliest
 * wake time, and the end node's output is the run's.
 */
export async function walkGraph(execution: RunExecution): Promise<ExecutionOutcome> {
  const walk = new GraphWalk(execution.graph, execution.scope);
  while (walk.going) {
    const toRun = walk.takeReady(execution.previous);
    for (let offset = 0; offset < toRun.length && !walk.failed; offset += MAX_PARALLEL) {
      const batch = toRun.slice(offset, offset + MAX_PARALLEL);
      // A run cancelled from elsewhere stops before its next node with effects (and every 100 others).
      if (await execution.cancelledBefore(batch)) return { state: "finished", status: "failure" };
      for (const ran of await execution.runBatch(batch)) await recordNode(execution, walk, ran);
    }
  }
  if (walk.failed) return execution.finish("failure", { error: `${nodeLabel(walk.failed.element)}: ${walk.failed.error}` });
  if (walk.parkedUntil) return execution.parkRun(walk.parkedUntil);
  return execution.finish("success", { output: walk.endOutput });
}

/** Writes what became of one node of a batch and moves the walk on. */
async function recordNode(execution: RunExecution, walk: GraphWalk, ran: RanNode): Promise<void> {
  const { element, outcome } = ran;
  if (!outcome.ok) {
    await execution.failNode(ran, outcome.error);
    walk.failed ??= { element, error: outcome.error };
  } else if (outcome.result.parkUntil) {
    await execution.parkNode(element, outcome.result);
    if (!walk.parkedUntil || outcome.result.parkUntil < walk.parkedUntil) walk.parkedUntil = outcome.result.parkUntil;
  } else {
    await execution.succeed(ran, outcome.result);
    walk.accept(element, outcome.result.outputs, outcome.result.branch ?? null);
  }
}

/** Step 4 (on error): an interrupted run keeps its progress and stays running; any other error fails it. */
export async function endAfterError(execution: RunExecution, error: unknown): Promise<ExecutionOutcome> {
  if (error instanceof Interrupted) {
    await execution.saveProgress();
    throw error;
  }
  return execution.finish("failure", { error: `The engine failed: ${error instanceof Error ? error.message : String(error)}` });
}

/** Prepared writes of node states: the hot path of a run (two per node). */
function nodeWrites(deps: Pick<Deps, "db">) {
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
