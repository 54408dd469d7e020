import { and, count, desc, eq } from "drizzle-orm";
import { newId } from "../../crypto";
import { workflowNodeRuns, workflowRuns } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { followsWorkflow } from "../../access/follow";
import { messageText } from "../../i18n/catalogue";
import type { Language } from "../../i18n/language";
import { nodeLabel } from "../graph";
import type { NodeConfig, WorkflowElement, WorkflowGraph } from "../model";
import type { RunInputs } from "../engine/execute";
import { cancelRun, enqueueRun, runInline, runnerOf } from "../engine/runner";
import { users } from "../../db/schema/index";
import type { RunTrigger } from "../engine/types";
import { validateWorkflow } from "./validate";
import { graphOf, issueError, loadWorkflow, type WorkflowRow } from "./workflows";

type RunRow = typeof workflowRuns.$inferSelect;
type NodeRow = typeof workflowNodeRuns.$inferSelect;

const PAGE_SIZE = 20;
/** Longest a request waits for a run (`wait`). */
export const MAX_WAIT_MS = 60_000;

/** What starting a run takes. */
export interface StartRunInput {
  type: "FLOW" | "TIME" | "NODE";
  query?: string | undefined;
  variables?: Record<string, unknown> | undefined;
  files?: string[] | undefined;
  nodeId?: string | undefined;
  nodeInputs?: Record<string, unknown> | undefined;
  trigger: RunTrigger;
}

/** Start variables with defaults applied and types read; a required one missing is refused. */
function startVariables(graph: WorkflowGraph, given: Record<string, unknown>): Record<string, unknown> {
  const start = graph.elements.find((element) => element.type === "start");
  const variables = (start?.config as NodeConfig<"start"> | undefined)?.variables ?? [];
  const out: Record<string, unknown> = {};
  for (const variable of variables) {
    let value = given[variable.identifier];
    if (value === undefined || value === null || value === "") value = variable.default ?? undefined;
    if (value === undefined || value === null || value === "") {
      if (variable.required)
        throw new ServiceError(
          "validation",
          "workflow_run_variable_required",
          { identifier: variable.identifier },
          { field: `variables.${variable.identifier}` },
        );
      out[variable.identifier] = variable.type === "boolean" ? false : "";
      continue;
    }
    if (variable.type === "number") {
      const number = Number(value);
      if (!Number.isFinite(number))
        throw new ServiceError(
          "validation",
          "validation_failed",
          { field: `variables.${variable.identifier}`, reason: "not a number" },
          { field: `variables.${variable.identifier}` },
        );
      value = number;
    } else if (variable.type === "boolean") value = value === true || value === "true";
    else if (variable.type === "select" && !(variable.options ?? []).includes(String(value))) {
      throw new ServiceError(
        "validation",
        "validation_failed",
        { field: `variables.${variable.identifier}`, reason: `one of ${(variable.options ?? []).join(", ")}` },
        { field: `variables.${variable.identifier}` },
      );
    } else value = String(value);
    out[variable.identifier] = value;
  }
  // Values for variables the start node does not declare pass through (the OpenAI API sends none).
  for (const [key, value] of Object.entries(given)) if (!(key in out)) out[key] = value;
  return out;
}

/**
 * Starts a run of a workflow: the graph must pass every rule (a NODE run: that node's rules),
 * the start variables are checked, the graph is kept with the run, and a durable job is queued
 * to execute it. Answers the run id.
 */
export async function startRun(deps: Pick<Deps, "db" | "models" | "now" | "plugins">, workflow: WorkflowRow, input: StartRunInput): Promise<string> {
  const graph = graphOf(workflow);
  const { issues } = await validateWorkflow(deps, workflow.spaceId, { graph: { elements: graph.elements as never, lines: graph.lines } });
  if (input.type === "NODE") {
    if (!input.nodeId) throw new ServiceError("validation", "workflow_run_node_required", {}, { field: "nodeId" });
    const element = graph.elements.find((candidate) => candidate.id === input.nodeId);
    if (!element) throw fail.notFound("workflow_node");
    const own = issues.find((issue) => issue.nodeId === element.id && issue.code !== "workflow_end_unconnected" && issue.code !== "workflow_reference_unknown");
    if (own) throw issueError(own);
  } else if (issues.length > 0) throw issueError(issues[0]!);

  const inputs: RunInputs = {
    query: input.query ?? "",
    files: input.files ?? [],
    variables: input.type === "NODE" ? (input.variables ?? {}) : startVariables(graph, input.variables ?? {}),
    ...(input.nodeInputs ? { nodeInputs: input.nodeInputs } : {}),
  };
  const start = graph.elements.find((element) => element.type === "start");
  const takesText = (start?.config as NodeConfig<"start"> | undefined)?.inputs?.text;
  if (input.type === "FLOW" && takesText && input.trigger.by !== "schedule" && !(input.query ?? "").trim() && (inputs.files?.length ?? 0) === 0) {
    const needsQuery = JSON.stringify(graph.elements).includes("sys.query");
    if (needsQuery) throw new ServiceError("validation", "workflow_run_input_required", {}, { field: "query" });
  }
  const now = deps.now().toISOString();
  const id = newId("wfr");
  await deps.db.insert(workflowRuns).values({
    id,
    spaceId: workflow.spaceId,
    workflowId: workflow.id,
    type: input.type,
    status: "running",
    nodeId: input.type === "NODE" ? (input.nodeId ?? null) : null,
    inputs: JSON.stringify(inputs),
    graph: JSON.stringify(graph),
    trigger: JSON.stringify(input.trigger),
    startedAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** Starts a run from the console or an API call: queued for the runner, or executed now when `wait`. */
export async function startRunFromRequest(
  deps: Deps,
  auth: Auth,
  workflowId: string,
  body: {
    type?: "FLOW" | "NODE" | undefined;
    query?: string | undefined;
    variables?: Record<string, unknown> | undefined;
    files?: string[] | undefined;
    nodeId?: string | undefined;
    nodeInputs?: Record<string, unknown> | undefined;
    wait?: boolean | undefined;
  },
  language: Language,
) {
  const workflow = await loadWorkflow(deps, auth, workflowId);
  const runId = await startRun(deps, workflow, {
    type: body.type ?? "FLOW",
    query: body.query,
    variables: body.variables,
    files: body.files,
    nodeId: body.nodeId,
    nodeInputs: body.nodeInputs,
    trigger: { by: auth.via === "api-key" ? "api" : "user", userId: auth.userId, language },
  });
  if (body.wait) {
    // Executed here and now (a debugging run answers its outcome); a timer still parks it durably.
    const work = runInline(deps, runId, workflow.spaceId);
    await Promise.race([work, new Promise((resolve) => setTimeout(resolve, MAX_WAIT_MS).unref?.())]);
  } else {
    await enqueueRun(deps, { runId, spaceId: workflow.spaceId });
    if (!runnerOf(deps)) deps.logger.debug?.("workflow run queued with no runner in this process", { runId });
  }
  return getRun(deps, auth, runId);
}

function summaryView(row: RunRow) {
  return {
    id: row.id,
    workflowId: row.workflowId,
    type: row.type,
    status: row.status,
    nodeId: row.nodeId,
    waitingUntil: row.waitingUntil,
    error: row.error,
    steps: row.steps,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    durationMs: row.finishedAt ? Math.max(0, Date.parse(row.finishedAt) - Date.parse(row.startedAt)) : null,
  };
}

const parse = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));

/** A run with every node of its graph: executed nodes with their record, the rest "no execution". */
export function runView(row: RunRow, nodes: NodeRow[]) {
  const graph = JSON.parse(row.graph) as WorkflowGraph;
  const byNode = new Map(nodes.map((node) => [node.nodeId, node]));
  const inGraph: WorkflowElement[] = row.type === "NODE" ? graph.elements.filter((element) => element.id === row.nodeId) : graph.elements;
  const elements = inRunOrder(inGraph, byNode);
  return {
    ...summaryView(row),
    inputs: parse(row.inputs),
    output: parse(row.output),
    trigger: parse(row.trigger),
    nodes: elements.map((element) => {
      const node = byNode.get(element.id);
      return {
        nodeId: element.id,
        nodeType: element.type,
        nodeName: node?.nodeName ?? nodeLabel(element),
        status: node?.status ?? ("no_execution" as const),
        inputs: parse(node?.inputs ?? null),
        outputs: parse(node?.outputs ?? null),
        branch: node?.branch ?? null,
        error: node?.error ?? null,
        startedAt: node?.startedAt ?? null,
        finishedAt: node?.finishedAt ?? null,
        durationMs: node?.durationMs ?? null,
      };
    }),
  };
}

/**
 * The graph's nodes in the order they ran: by start time, ties (same millisecond, or a frozen
 * clock) by `sequence`, the order they finished, a node still running after those; then the
 * nodes that did not run, in graph order. Graph order says nothing about what ran when.
 */
function inRunOrder(elements: WorkflowElement[], byNode: ReadonlyMap<string, NodeRow>): WorkflowElement[] {
  const ran = (element: WorkflowElement) => byNode.get(element.id);
  const finishOrder = (node: NodeRow) => (node.sequence > 0 ? node.sequence : Number.MAX_SAFE_INTEGER);
  return elements
    .map((element, index) => ({ node: ran(element), element, index }))
    .sort((a, b) => {
      if (a.node && b.node)
        return (a.node.startedAt ?? "").localeCompare(b.node.startedAt ?? "") || finishOrder(a.node) - finishOrder(b.node) || a.index - b.index;
      if (a.node || b.node) return a.node ? -1 : 1;
      return a.index - b.index;
    })
    .map((entry) => entry.element);
}

/** Loads a run with its nodes (any space: internal callers). */
export async function loadRunView(deps: Pick<Deps, "db">, runId: string) {
  const row = await deps.db.select().from(workflowRuns).where(eq(workflowRuns.id, runId)).get();
  if (!row) throw fail.notFound("workflow_run");
  const nodes = await deps.db.select().from(workflowNodeRuns).where(eq(workflowNodeRuns.runId, runId));
  return runView(row, nodes);
}

/** Run detail, in the caller's space. */
export async function getRun(deps: Pick<Deps, "db">, auth: Auth, runId: string) {
  const row = await deps.db
    .select()
    .from(workflowRuns)
    .where(and(eq(workflowRuns.id, runId), eq(workflowRuns.spaceId, auth.spaceId), followsWorkflow(auth, workflowRuns.workflowId)))
    .get();
  if (!row) throw fail.notFound("workflow_run");
  const nodes = await deps.db.select().from(workflowNodeRuns).where(eq(workflowNodeRuns.runId, runId));
  return runView(row, nodes);
}

/** Run history of a workflow, newest first. */
export async function listRuns(
  deps: Pick<Deps, "db">,
  auth: Auth,
  workflowId: string,
  query: { pageNo?: number | undefined; pageSize?: number | undefined; type?: RunRow["type"] | undefined; status?: RunRow["status"] | undefined },
) {
  const workflow = await loadWorkflow(deps, auth, workflowId);
  const pageSize = Math.min(100, Math.max(1, Number(query.pageSize ?? PAGE_SIZE)));
  const pageNo = Math.max(1, Number(query.pageNo ?? 1));
  const where = and(
    eq(workflowRuns.workflowId, workflow.id),
    query.type ? eq(workflowRuns.type, query.type) : undefined,
    query.status ? eq(workflowRuns.status, query.status) : undefined,
  );
  const [rows, total] = await Promise.all([
    deps.db
      .select()
      .from(workflowRuns)
      .where(where)
      .orderBy(desc(workflowRuns.startedAt), desc(workflowRuns.id))
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize),
    deps.db.select({ value: count() }).from(workflowRuns).where(where).get(),
  ]);
  return { items: rows.map(summaryView), total: total?.value ?? 0, pageNo, pageSize };
}

/** Cancels a run of the caller's space (nothing happens to a run that already ended); answers the run. */
export async function cancelRunFromRequest(deps: Pick<Deps, "db" | "now" | "realtime">, auth: Auth, runId: string, language: Language) {
  await getRun(deps, auth, runId);
  const user = await deps.db.select({ name: users.name }).from(users).where(eq(users.id, auth.userId)).get();
  await cancelRun(deps, runId, messageText(language, "workflow_run_cancelled", { name: user?.name ?? auth.userId }));
  return getRun(deps, auth, runId);
}

/** Runs the timer's workflow now, as the schedule would (a TIME run through the queue). */
export async function runScheduleNow(deps: Deps, auth: Auth, workflowId: string, language: Language) {
  const workflow = await loadWorkflow(deps, auth, workflowId);
  const runId = await startRun(deps, workflow, { type: "TIME", trigger: { by: "schedule", userId: auth.userId, language, tick: deps.now().toISOString() } });
  await enqueueRun(deps, { runId, spaceId: workflow.spaceId });
  return getRun(deps, auth, runId);
}
