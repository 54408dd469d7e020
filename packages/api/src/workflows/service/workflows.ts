import { and, count, desc, eq, inArray, like } from "drizzle-orm";
import { newId, newShortCode } from "../../crypto";
import { apps, workflows } from "../../db/schema/index";
import { fail, ServiceError } from "../../errors";
import type { Auth, Deps } from "../../kernel";
import { type RangeCaller, workflowRange } from "../../access/follow";
import { referencesIn } from "../engine/template";
import { removeNode, syncBranchTargets } from "../graph";
import type { WorkflowElement, WorkflowGraph, WorkflowLine } from "../model";
import { infoIssues, type RawElement, validateWorkflow, type WorkflowIssue } from "./validate";
import { withQuota } from "../../plans/service/quotas";

/** A stored workflow row. */
export type WorkflowRow = typeof workflows.$inferSelect;

const PAGE_SIZE = 20;
/** What a secret looks like when answered: never the secret itself. */
export const REDACTED_SECRET = "••••••";
const SEALED_PREFIX = "sealed:";

/** The first issue as the error a request answers with: the message names the node, `field` the place. */
export function issueError(issue: WorkflowIssue): ServiceError {
  return new ServiceError("validation", issue.code, issue.params, { field: issue.field });
}

/** The graph of a row, secrets still sealed. */
export function graphOf(row: Pick<WorkflowRow, "elements" | "lines">): WorkflowGraph {
  return { elements: JSON.parse(row.elements) as WorkflowElement[], lines: JSON.parse(row.lines) as WorkflowLine[] };
}

/** The graph with its secrets opened, for the engine. */
export function openGraph(deps: Pick<Deps, "secrets">, graph: WorkflowGraph): WorkflowGraph {
  return {
    lines: graph.lines,
    elements: graph.elements.map((element) => {
      const secret = element.config.webhookSecret;
      if (typeof secret !== "string" || !secret.startsWith(SEALED_PREFIX)) return element;
      let opened = "";
      try {
        opened = deps.secrets.open(secret.slice(SEALED_PREFIX.length));
      } catch {
        opened = "";
      }
      return { ...element, config: { ...element.config, webhookSecret: opened } };
    }),
  };
}

/** The graph as answered: secrets replaced by a mask. */
function redactGraph(graph: WorkflowGraph): WorkflowGraph {
  return {
    lines: graph.lines,
    elements: graph.elements.map((element) =>
      typeof element.config.webhookSecret === "string" && element.config.webhookSecret !== ""
        ? { ...element, config: { ...element.config, webhookSecret: REDACTED_SECRET } }
        : element,
    ),
  };
}

/** Seals new secrets; a masked secret sent back keeps the stored one. */
function sealGraph(deps: Pick<Deps, "secrets">, elements: RawElement[], previous: WorkflowGraph | undefined): RawElement[] {
  const before = new Map(previous?.elements.map((element) => [element.id, element]) ?? []);
  return elements.map((element) => {
    const secret = element.config?.webhookSecret;
    if (typeof secret !== "string" || secret === "") return element;
    if (secret === REDACTED_SECRET) {
      const kept = before.get(element.id)?.config.webhookSecret;
      return { ...element, config: { ...element.config, webhookSecret: typeof kept === "string" ? kept : "" } };
    }
    if (secret.startsWith(SEALED_PREFIX)) return element;
    return { ...element, config: { ...element.config, webhookSecret: `${SEALED_PREFIX}${deps.secrets.seal(secret)}` } };
  });
}

/** The first graph of a new workflow: a start and an end node, joined. */
export function starterGraph(): WorkflowGraph {
  return {
    elements: [
      { id: "start", type: "start", config: { name: "Start", inputs: { text: true, image: false, file: false }, variables: [] }, position: { x: 80, y: 200 } },
      { id: "end", type: "end", config: { name: "End", output: "{{sys.query}}" }, position: { x: 480, y: 200 } },
    ],
    lines: [{ id: "line_start_end", source: "start", sourceHandle: null, target: "end" }],
  };
}

async function appCodes(deps: Pick<Deps, "db">, appIds: string[]): Promise<Map<string, string>> {
  if (appIds.length === 0) return new Map();
  const rows = await deps.db.select({ id: apps.id, code: apps.code }).from(apps).where(inArray(apps.id, appIds));
  return new Map(rows.map((row) => [row.id, row.code]));
}

function summaryView(row: WorkflowRow, codes: Map<string, string>) {
  const appCode = row.appId ? (codes.get(row.appId) ?? null) : null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    avatarUrl: row.avatarUrl,
    category: row.category,
    isPublic: row.isPublic,
    publishedAt: row.publishedAt,
    cron: row.cron,
    cronTimezone: row.cronTimezone,
    cronEnabled: row.cronEnabled,
    appId: appCode ? row.appId : null,
    appCode,
    nodeCount: (JSON.parse(row.elements) as unknown[]).length,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The full view of a workflow: card, schedule and graph (secrets masked). */
export async function workflowView(deps: Pick<Deps, "db">, row: WorkflowRow) {
  const codes = await appCodes(deps, row.appId ? [row.appId] : []);
  return { ...summaryView(row, codes), ...redactGraph(graphOf(row)) };
}

/**
 * Loads a workflow of a space; another space's is not found, nor (when a member's access is given
 * instead of a space id) one outside the member's data range.
 */
export async function loadWorkflow(deps: Pick<Deps, "db">, scope: string | RangeCaller, workflowId: string): Promise<WorkflowRow> {
  const spaceId = typeof scope === "string" ? scope : scope.spaceId;
  const row = await deps.db
    .select()
    .from(workflows)
    .where(and(eq(workflows.id, workflowId), eq(workflows.spaceId, spaceId), typeof scope === "string" ? undefined : workflowRange(scope)))
    .get();
  if (!row) throw fail.notFound("workflow");
  return row;
}

/** Checks a graph by every rule and answers it ready to store (branch targets synced, secrets sealed). */
async function checkedGraph(
  deps: Pick<Deps, "db" | "models" | "plugins" | "secrets">,
  auth: RangeCaller,
  graph: { elements: RawElement[]; lines: WorkflowLine[] },
  previous: WorkflowGraph | undefined,
  draft: boolean,
) {
  const { issues, elements } = await validateWorkflow(deps, auth, { graph });
  // A draft may break the rules of spec §5, but never be unreadable (unknown types, bad shapes, clashing ids).
  const fatal = issues.find((issue) =>
    [
      "workflow_node_type_unknown",
      "workflow_node_config_invalid",
      "workflow_node_id_duplicate",
      "workflow_node_id_invalid",
      "workflow_line_duplicate",
    ].includes(issue.code),
  );
  if (fatal) throw issueError(fatal);
  if (!draft && issues.length > 0) throw issueError(issues[0]!);
  const synced = syncBranchTargets({ elements, lines: graph.lines });
  const sealed = sealGraph(deps, synced.elements, previous);
  return { graph: { elements: sealed as WorkflowElement[], lines: synced.lines }, issues };
}

/** Creates a workflow in the caller's space: the card is required; the graph starts as start → end. */
export async function createWorkflow(
  deps: Pick<Deps, "db" | "models" | "now" | "plugins" | "secrets">,
  auth: Auth,
  input: { name: string; description: string; avatarUrl: string; category: string; elements?: RawElement[] | undefined; lines?: WorkflowLine[] | undefined },
) {
  const info = { name: input.name.trim(), description: input.description.trim(), avatarUrl: input.avatarUrl.trim(), category: input.category.trim() };
  const problems = infoIssues(info);
  if (problems.length > 0) throw issueError(problems[0]!);
  const graph = input.elements
    ? (await checkedGraph(deps, auth, { elements: input.elements, lines: input.lines ?? [] }, undefined, true)).graph
    : starterGraph();
  const now = deps.now().toISOString();
  const row: typeof workflows.$inferInsert = {
    id: newId("wf"),
    spaceId: auth.spaceId,
    ...info,
    elements: JSON.stringify(graph.elements),
    lines: JSON.stringify(graph.lines),
    createdBy: auth.userId,
    createdAt: now,
    updatedAt: now,
  };
  await withQuota(deps, auth.spaceId, { workflows: 1 }, () => deps.db.insert(workflows).values(row));
  return workflowView(deps, await loadWorkflow(deps, auth, row.id!));
}

/** Workflows of the caller's space, newest first. */
export async function listWorkflows(
  deps: Pick<Deps, "db">,
  auth: Auth,
  query: { pageNo?: number | undefined; pageSize?: number | undefined; keyword?: string | undefined },
) {
  const pageSize = Math.min(100, Math.max(1, Number(query.pageSize ?? PAGE_SIZE)));
  const pageNo = Math.max(1, Number(query.pageNo ?? 1));
  const keyword = query.keyword?.trim();
  const where = keyword
    ? and(eq(workflows.spaceId, auth.spaceId), workflowRange(auth), like(workflows.name, `%${keyword.replace(/[%_]/g, "")}%`))
    : and(eq(workflows.spaceId, auth.spaceId), workflowRange(auth));
  const [rows, total] = await Promise.all([
    deps.db
      .select()
      .from(workflows)
      .where(where)
      .orderBy(desc(workflows.createdAt), desc(workflows.id))
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize),
    deps.db.select({ value: count() }).from(workflows).where(where).get(),
  ]);
  const codes = await appCodes(
    deps,
    rows.flatMap((row) => (row.appId ? [row.appId] : [])),
  );
  return { items: rows.map((row) => summaryView(row, codes)), total: total?.value ?? 0, pageNo, pageSize };
}

/** One workflow of the caller's space. */
export async function getWorkflow(deps: Pick<Deps, "db">, auth: Auth, workflowId: string) {
  return workflowView(deps, await loadWorkflow(deps, auth, workflowId));
}

/** Info edit: the card fields given, each still required. */
export async function updateWorkflowInfo(
  deps: Pick<Deps, "db" | "now">,
  auth: Auth,
  workflowId: string,
  input: { name?: string | undefined; description?: string | undefined; avatarUrl?: string | undefined; category?: string | undefined },
) {
  const row = await loadWorkflow(deps, auth, workflowId);
  const changes = Object.fromEntries(
    Object.entries(input)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, String(value).trim()]),
  );
  const problems = infoIssues(changes, true);
  if (problems.length > 0) throw issueError(problems[0]!);
  const now = deps.now().toISOString();
  await deps.db
    .update(workflows)
    .set({ ...changes, updatedAt: now })
    .where(eq(workflows.id, row.id));
  if (row.appId && (changes.name || changes.description || changes.avatarUrl)) {
    await deps.db
      .update(apps)
      .set({
        ...(changes.name ? { name: changes.name } : {}),
        ...(changes.description ? { description: changes.description, openingIntroduction: changes.description } : {}),
        ...(changes.avatarUrl ? { avatarUrl: changes.avatarUrl } : {}),
        updatedAt: now,
      })
      .where(eq(apps.id, row.appId));
  }
  return getWorkflow(deps, auth, workflowId);
}

/**
 * Save: the whole graph. Every rule of spec §5 must hold; with `draft` the graph is kept even
 * when some do not (never when it is unreadable), and the broken rules are answered.
 */
export async function saveWorkflowGraph(
  deps: Pick<Deps, "db" | "models" | "now" | "plugins" | "secrets">,
  auth: Auth,
  workflowId: string,
  input: { elements: RawElement[]; lines: WorkflowLine[] },
  draft = false,
) {
  const row = await loadWorkflow(deps, auth, workflowId);
  const { graph, issues } = await checkedGraph(deps, auth, input, graphOf(row), draft);
  await deps.db
    .update(workflows)
    .set({ elements: JSON.stringify(graph.elements), lines: JSON.stringify(graph.lines), updatedAt: deps.now().toISOString() })
    .where(eq(workflows.id, row.id));
  return { workflow: await getWorkflow(deps, auth, workflowId), issues };
}

/** Every broken rule of the stored workflow (card, graph, cron), or of a graph sent to check. */
export async function checkWorkflow(
  deps: Pick<Deps, "db" | "models" | "plugins">,
  auth: Auth,
  workflowId: string,
  graph?: { elements: RawElement[]; lines: WorkflowLine[] },
) {
  const row = await loadWorkflow(deps, auth, workflowId);
  const stored = graphOf(row);
  const { issues } = await validateWorkflow(deps, auth, {
    info: row,
    graph: graph ?? { elements: stored.elements as RawElement[], lines: stored.lines },
    ...(row.cron !== null ? { cron: row.cron } : {}),
  });
  return issues;
}

/** Removes a node with its lines, clearing branches that led to it. */
export async function deleteWorkflowNode(deps: Pick<Deps, "db" | "now">, auth: Auth, workflowId: string, nodeId: string) {
  const row = await loadWorkflow(deps, auth, workflowId);
  const graph = graphOf(row);
  if (!graph.elements.some((element) => element.id === nodeId)) throw fail.notFound("workflow_node");
  const next = removeNode(graph, nodeId);
  await deps.db
    .update(workflows)
    .set({ elements: JSON.stringify(next.elements), lines: JSON.stringify(next.lines), updatedAt: deps.now().toISOString() })
    .where(eq(workflows.id, row.id));
  return getWorkflow(deps, auth, workflowId);
}

/** Deletes a workflow with its runs; its workflow app goes too. */
export async function deleteWorkflow(deps: Pick<Deps, "db">, auth: Auth, workflowId: string) {
  const row = await loadWorkflow(deps, auth, workflowId);
  await deps.db.delete(workflows).where(eq(workflows.id, row.id));
  if (row.appId) await deps.db.delete(apps).where(and(eq(apps.id, row.appId), eq(apps.type, "WORKFLOW")));
  return { deleted: true as const, id: row.id };
}

/** Copies a workflow: same card (name marked as a copy) and graph; not published, no timer, no app. */
export async function copyWorkflow(deps: Pick<Deps, "db" | "now">, auth: Auth, workflowId: string, nameSuffix: string) {
  const row = await loadWorkflow(deps, auth, workflowId);
  const now = deps.now().toISOString();
  const id = newId("wf");
  await withQuota(deps, auth.spaceId, { workflows: 1 }, async () =>
    deps.db.insert(workflows).values({
      id,
      spaceId: auth.spaceId,
      name: `${row.name}${nameSuffix}`.slice(0, 200),
      description: row.description,
      avatarUrl: row.avatarUrl,
      category: row.category,
      elements: row.elements,
      lines: row.lines,
      cron: row.cron,
      cronTimezone: row.cronTimezone,
      cronEnabled: false,
      createdBy: auth.userId,
      createdAt: now,
      updatedAt: now,
    }),
  );
  return getWorkflow(deps, auth, id);
}

/** Publishes to the square (the rules must hold) or takes it back. */
export async function setWorkflowPublished(deps: Pick<Deps, "db" | "models" | "now" | "plugins">, auth: Auth, workflowId: string, published: boolean) {
  const row = await loadWorkflow(deps, auth, workflowId);
  if (published) {
    const issues = await checkWorkflow(deps, auth, workflowId);
    if (issues.length > 0) throw issueError(issues[0]!);
  }
  await deps.db
    .update(workflows)
    .set({ isPublic: published, publishedAt: published ? (row.publishedAt ?? deps.now().toISOString()) : null, updatedAt: deps.now().toISOString() })
    .where(eq(workflows.id, row.id));
  return getWorkflow(deps, auth, workflowId);
}

function squareView(row: WorkflowRow) {
  const graph = redactGraph(graphOf(row));
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    avatarUrl: row.avatarUrl,
    category: row.category,
    publishedAt: row.publishedAt,
    // Robot webhook addresses carry their access tokens: the square shows that one is set, not which.
    elements: graph.elements.map((element) =>
      element.config.webhookUrl ? { ...element, config: { ...element.config, webhookUrl: REDACTED_SECRET } } : element,
    ),
    lines: graph.lines,
  };
}

/** The square's view of a published workflow; unpublished ones are not found. */
export async function getSquareWorkflow(deps: Pick<Deps, "db">, workflowId: string) {
  const row = await deps.db
    .select()
    .from(workflows)
    .where(and(eq(workflows.id, workflowId), eq(workflows.isPublic, true)))
    .get();
  if (!row) throw fail.notFound("workflow");
  return squareView(row);
}

/** Published workflows, newest first. */
export async function listSquareWorkflows(
  deps: Pick<Deps, "db">,
  query: { pageNo?: number | undefined; pageSize?: number | undefined; keyword?: string | undefined },
) {
  const pageSize = Math.min(100, Math.max(1, Number(query.pageSize ?? PAGE_SIZE)));
  const pageNo = Math.max(1, Number(query.pageNo ?? 1));
  const keyword = query.keyword?.trim();
  const where = keyword ? and(eq(workflows.isPublic, true), like(workflows.name, `%${keyword.replace(/[%_]/g, "")}%`)) : eq(workflows.isPublic, true);
  const [rows, total] = await Promise.all([
    deps.db
      .select()
      .from(workflows)
      .where(where)
      .orderBy(desc(workflows.publishedAt), desc(workflows.id))
      .limit(pageSize)
      .offset((pageNo - 1) * pageSize),
    deps.db.select({ value: count() }).from(workflows).where(where).get(),
  ]);
  return { items: rows.map(squareView), total: total?.value ?? 0, pageNo, pageSize };
}

/** Makes (once) the WORKFLOW app that answers chats and OpenAI calls through this workflow. */
export async function ensureWorkflowApp(deps: Pick<Deps, "db" | "now">, auth: Auth, workflowId: string) {
  const row = await loadWorkflow(deps, auth, workflowId);
  if (row.appId) {
    const existing = await deps.db.select({ id: apps.id, code: apps.code }).from(apps).where(eq(apps.id, row.appId)).get();
    if (existing) return { workflowId: row.id, appId: existing.id, appCode: existing.code };
  }
  const now = deps.now().toISOString();
  const appId = newId("app");
  for (let attempt = 0; ; attempt++) {
    const code = newShortCode(8);
    try {
      await deps.db.insert(apps).values({
        id: appId,
        spaceId: row.spaceId,
        code,
        name: row.name,
        type: "WORKFLOW",
        description: row.description,
        openingIntroduction: row.description,
        avatarUrl: row.avatarUrl,
        category: row.category,
        settingsPrompt: `Workflow ${row.id}`,
        createdBy: auth.userId,
        createdAt: now,
        updatedAt: now,
      });
      await deps.db.update(workflows).set({ appId, updatedAt: now }).where(eq(workflows.id, row.id));
      return { workflowId: row.id, appId, appCode: code };
    } catch (error) {
      if (attempt >= 4 || !/UNIQUE/i.test(String(error))) throw error;
    }
  }
}

/** The workflow a WORKFLOW app answers through. */
export async function workflowOfApp(deps: Pick<Deps, "db">, appId: string): Promise<WorkflowRow | undefined> {
  return deps.db.select().from(workflows).where(eq(workflows.appId, appId)).get();
}

/** The references a stored node reads, each once, in order. */
export async function nodeReferences(deps: Pick<Deps, "db">, auth: Auth, workflowId: string, nodeId: string) {
  const row = await loadWorkflow(deps, auth, workflowId);
  const element = graphOf(row).elements.find((candidate) => candidate.id === nodeId);
  if (!element) throw fail.notFound("workflow_node");
  return { nodeId, references: [...new Set(referencesIn(element.config))] };
}
