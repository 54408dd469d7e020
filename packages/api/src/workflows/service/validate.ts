import { and, eq, inArray } from "drizzle-orm";
import { apps, channelClients, knowledgeBases } from "../../db/schema/index";
import type { Deps } from "../../kernel";
import type { RangeCaller } from "../../access/follow";
import { rangeCondition } from "../../access/range";
import type { MessageId } from "../../i18n/catalogue";
import { branchesOf, findCycle, isNodeType, nodeLabel, reachableFrom } from "../graph";
import { nodeConfigSchemas, type WorkflowElement, type WorkflowLine } from "../model";
import { cronIssue } from "../scheduler/cron";
import { referencesIn } from "../engine/template";
import { WORKFLOW_LIMITS } from "../schemas";

/** One broken rule: a message id with its parameters, and the field (and node) at fault. */
export interface WorkflowIssue {
  code: MessageId;
  field: string;
  nodeId: string | null;
  params: Record<string, string | number>;
}

/** An element as the editor sends it, before the rules looked at it. */
export interface RawElement {
  id: string;
  type: string;
  config: Record<string, unknown>;
  position?: { x: number; y: number } | undefined;
}

/** What the rules look at; each part is optional so that info edit, save and schedule reuse them. */
export interface ValidationInput {
  info?: { name?: string | undefined; description?: string | undefined; avatarUrl?: string | undefined; category?: string | undefined };
  graph?: { elements: RawElement[]; lines: WorkflowLine[] };
  cron?: string | null;
}

const IDENTIFIER = /^[A-Za-z0-9_]+$/;
const NODE_ID = /^[A-Za-z0-9_-]+$/;

/** Node types whose main input (the field named) cannot be empty (spec §5: node input not empty). */
const INPUT_FIELDS: Partial<Record<string, string>> = {
  app: "input",
  llm: "input",
  knowledge_base: "input",
  database: "input",
  intent_branch: "input",
  code_block: "code",
  fixed_reply: "content",
  channel_send: "content",
};

const blank = (value: unknown) => typeof value !== "string" || value.trim() === "";

/** The card rules: name, description, avatar and category required, within their lengths. */
export function infoIssues(info: NonNullable<ValidationInput["info"]>, partial = false): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const fields = [
    ["name", "workflow_name_required", WORKFLOW_LIMITS.nameMax],
    ["description", "workflow_description_required", WORKFLOW_LIMITS.descriptionMax],
    ["avatarUrl", "workflow_avatar_required", WORKFLOW_LIMITS.avatarUrlMax],
    ["category", "workflow_category_required", WORKFLOW_LIMITS.categoryMax],
  ] as const;
  for (const [field, code, max] of fields) {
    const value = info[field];
    if (partial && value === undefined) continue;
    if (blank(value)) issues.push({ code, field, nodeId: null, params: {} });
    else if (value!.length > max) issues.push({ code: "workflow_text_too_long", field, nodeId: null, params: { field, max } });
  }
  return issues;
}

/**
 * Structure rules that need no database: known types and config shapes, unique ids, at most one
 * start and one end, the end reachable from the start, no dangling lines, no cycles, and the
 * per-node rules of spec §5. Answers the parsed elements too.
 */
export function graphIssues(graph: NonNullable<ValidationInput["graph"]>): { issues: WorkflowIssue[]; elements: WorkflowElement[] } {
  const issues: WorkflowIssue[] = [];
  const elements: WorkflowElement[] = [];
  const ids = new Set<string>();
  for (const raw of graph.elements) {
    const label = nodeLabel(raw);
    const field = `elements.${raw.id}`;
    if (!NODE_ID.test(raw.id)) {
      issues.push({ code: "workflow_node_id_invalid", field, nodeId: raw.id, params: { node: label } });
      continue;
    }
    if (ids.has(raw.id)) {
      issues.push({ code: "workflow_node_id_duplicate", field, nodeId: raw.id, params: { node: raw.id } });
      continue;
    }
    ids.add(raw.id);
    if (!isNodeType(raw.type)) {
      issues.push({ code: "workflow_node_type_unknown", field: `${field}.type`, nodeId: raw.id, params: { node: label, type: raw.type } });
      continue;
    }
    const parsed = nodeConfigSchemas[raw.type].safeParse(raw.config ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const key = issue.path.map(String).join(".") || "config";
      issues.push({
        code: "workflow_node_config_invalid",
        field: `${field}.config.${key}`,
        nodeId: raw.id,
        params: { node: label, key, reason: issue.message },
      });
      continue;
    }
    elements.push({ id: raw.id, type: raw.type, config: parsed.data as WorkflowElement["config"], ...(raw.position ? { position: raw.position } : {}) });
  }

  const lineIds = new Set<string>();
  const byId = new Map(elements.map((element) => [element.id, element]));
  const usable: WorkflowLine[] = [];
  for (const line of graph.lines) {
    const field = `lines.${line.id}`;
    if (lineIds.has(line.id)) {
      issues.push({ code: "workflow_line_duplicate", field, nodeId: null, params: { line: line.id } });
      continue;
    }
    lineIds.add(line.id);
    const missing = [line.source, line.target].filter((id) => !ids.has(id));
    if (missing.length > 0) {
      issues.push({ code: "workflow_line_dangling", field, nodeId: null, params: { line: line.id, missing: missing.join(", ") } });
      continue;
    }
    const source = byId.get(line.source);
    if (source && line.sourceHandle && (source.type === "logic_branch" || source.type === "intent_branch")) {
      if (!branchesOf(source).some((branch) => branch.id === line.sourceHandle)) {
        issues.push({
          code: "workflow_line_handle_unknown",
          field,
          nodeId: source.id,
          params: { line: line.id, node: nodeLabel(source), handle: line.sourceHandle },
        });
        continue;
      }
    }
    usable.push(line);
  }

  const starts = elements.filter((element) => element.type === "start");
  const ends = elements.filter((element) => element.type === "end");
  for (const extra of starts.slice(1))
    issues.push({ code: "workflow_start_duplicate", field: `elements.${extra.id}`, nodeId: extra.id, params: { node: nodeLabel(extra) } });
  for (const extra of ends.slice(1))
    issues.push({ code: "workflow_end_duplicate", field: `elements.${extra.id}`, nodeId: extra.id, params: { node: nodeLabel(extra) } });
  if (starts.length === 0) issues.push({ code: "workflow_start_missing", field: "elements", nodeId: null, params: {} });
  if (ends.length === 0) issues.push({ code: "workflow_end_missing", field: "elements", nodeId: null, params: {} });

  const cycleAt = findCycle(elements, usable);
  if (cycleAt) {
    const at = byId.get(cycleAt)!;
    issues.push({ code: "workflow_cycle", field: `elements.${cycleAt}`, nodeId: cycleAt, params: { node: nodeLabel(at) } });
  }
  if (starts.length > 0 && ends.length > 0) {
    const reachable = reachableFrom(starts[0]!.id, usable);
    for (const end of ends.slice(0, 1)) {
      if (!reachable.has(end.id))
        issues.push({ code: "workflow_end_unconnected", field: `elements.${end.id}`, nodeId: end.id, params: { node: nodeLabel(end) } });
    }
  }

  const startAlias = starts[0]?.id;
  for (const element of elements) issues.push(...nodeIssues(element, ids, startAlias));
  return { issues, elements };
}

/** The per-node rules that need no database. */
function nodeIssues(element: WorkflowElement, ids: Set<string>, startId: string | undefined): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const node = nodeLabel(element);
  const config = element.config as Record<string, unknown>;
  const at = (key: string) => `elements.${element.id}.config.${key}`;
  const add = (code: MessageId, key: string, params: Record<string, string | number> = {}) =>
    issues.push({ code, field: at(key), nodeId: element.id, params: { node, ...params } });

  const inputField = INPUT_FIELDS[element.type];
  if (inputField && blank(config[inputField])) add("workflow_node_input_required", inputField);

  switch (element.type) {
    case "start": {
      const seen = new Set<string>();
      const variables = (config.variables ?? []) as Array<{ identifier: string; type: string; options?: string[] }>;
      variables.forEach((variable, index) => {
        if (!IDENTIFIER.test(variable.identifier))
          add("workflow_variable_identifier_invalid", `variables.${index}.identifier`, { identifier: variable.identifier });
        else if (seen.has(variable.identifier))
          add("workflow_variable_identifier_duplicate", `variables.${index}.identifier`, { identifier: variable.identifier });
        seen.add(variable.identifier);
        if (variable.type === "select" && (!variable.options || variable.options.filter((option) => option.trim() !== "").length === 0)) {
          add("workflow_variable_options_empty", `variables.${index}.options`, { identifier: variable.identifier });
        }
      });
      break;
    }
    case "llm": {
      if (blank(config.model)) add("workflow_node_model_required", "model");
      const seen = new Set<string>();
      ((config.structuredOutput ?? []) as Array<{ name: string }>).forEach((variable, index) => {
        if (!IDENTIFIER.test(variable.name)) add("workflow_output_variable_invalid", `structuredOutput.${index}.name`, { name: variable.name });
        else if (seen.has(variable.name)) add("workflow_output_variable_duplicate", `structuredOutput.${index}.name`, { name: variable.name });
        seen.add(variable.name);
      });
      break;
    }
    case "intent_branch": {
      if (blank(config.model)) add("workflow_node_model_required", "model");
      const intentions = (config.intentions ?? []) as Array<{ name: string; isElse?: boolean }>;
      if (intentions.filter((intention) => !intention.isElse).length === 0) add("workflow_node_intentions_empty", "intentions");
      if (intentions.filter((intention) => intention.isElse).length > 1) add("workflow_node_else_duplicate", "intentions");
      break;
    }
    case "logic_branch": {
      const branches = (config.branches ?? []) as Array<{ id: string; name?: string; isElse?: boolean; conditions?: unknown[] }>;
      if (branches.filter((branch) => !branch.isElse).length === 0) add("workflow_node_branches_empty", "branches");
      if (branches.filter((branch) => branch.isElse).length > 1) add("workflow_node_else_duplicate", "branches");
      branches.forEach((branch, index) => {
        if (!branch.isElse && (!branch.conditions || branch.conditions.length === 0))
          add("workflow_node_conditions_empty", `branches.${index}.conditions`, { branch: branch.name || branch.id });
      });
      break;
    }
    case "knowledge_base":
      if (!Array.isArray(config.knowledgeBaseIds) || config.knowledgeBaseIds.length === 0) add("workflow_node_knowledge_base_required", "knowledgeBaseIds");
      break;
    case "app":
      if (blank(config.appId)) add("workflow_node_app_required", "appId");
      break;
    case "plugin":
      if (blank(config.pluginCode)) add("workflow_node_plugin_required", "pluginCode");
      break;
    case "database":
      if (blank(config.databaseId)) add("workflow_node_database_required", "databaseId");
      break;
    case "channel_send":
      if ((config.mode ?? "client") === "client") {
        if (blank(config.clientId)) add("workflow_node_client_required", "clientId");
        if (blank(config.receiver)) add("workflow_node_receiver_required", "receiver");
      } else {
        if (blank(config.webhookUrl) || !/^https?:\/\/[^\s]+$/i.test(String(config.webhookUrl))) add("workflow_node_webhook_url_required", "webhookUrl");
        if (blank(config.webhookSecret)) add("workflow_node_webhook_secret_required", "webhookSecret");
      }
      break;
    case "timer":
      if ((config.delaySeconds === undefined || config.delaySeconds === null) && blank(config.until)) add("workflow_node_timer_required", "delaySeconds");
      break;
    default:
      break;
  }

  for (const [key, value] of Object.entries(config)) {
    // A code block's source is JavaScript, not a template: its inputs carry the references.
    if (element.type === "code_block" && key === "code") continue;
    for (const reference of referencesIn(value)) {
      const head = reference.split(".")[0]!;
      if (head === "sys" || head === "start" || head === startId || ids.has(head)) continue;
      add("workflow_reference_unknown", key, { reference: `{{${reference}}}` });
    }
  }
  return issues;
}

/**
 * Every rule of spec §5 on what is given: the card, the graph (with the checks that read the
 * space's apps, knowledge bases, models and channel clients), and the cron expression.
 */
export async function validateWorkflow(
  deps: Pick<Deps, "db" | "models" | "plugins">,
  scope: string | RangeCaller,
  input: ValidationInput,
): Promise<{ issues: WorkflowIssue[]; elements: WorkflowElement[] }> {
  const issues: WorkflowIssue[] = [];
  if (input.info) issues.push(...infoIssues(input.info));
  let elements: WorkflowElement[] = [];
  if (input.graph) {
    const structural = graphIssues(input.graph);
    elements = structural.elements;
    issues.push(...structural.issues);
    issues.push(...(await referenceIssues(deps, scope, elements)));
  }
  if (input.cron !== undefined && input.cron !== null) {
    const problem = cronIssue(input.cron);
    if (problem) issues.push({ code: problem.code, field: "cron", nodeId: null, params: problem.params });
  }
  return { issues, elements };
}

/** Checks that what nodes name exists: models in the catalogue, the space's knowledge bases, apps, plugins and channel clients. */
async function referenceIssues(
  deps: Pick<Deps, "db" | "models" | "plugins">,
  scope: string | RangeCaller,
  elements: WorkflowElement[],
): Promise<WorkflowIssue[]> {
  // A member saving a graph may name only the apps, knowledge bases and clients of their data range; a run checks against the space.
  const spaceId = typeof scope === "string" ? scope : scope.spaceId;
  const ranged = typeof scope === "string" ? undefined : scope;
  const issues: WorkflowIssue[] = [];
  const add = (element: WorkflowElement, code: MessageId, key: string, params: Record<string, string | number>) =>
    issues.push({ code, field: `elements.${element.id}.config.${key}`, nodeId: element.id, params: { node: nodeLabel(element), ...params } });
  // The configured default model always counts: without a provider the offline responder stands in for it (as for apps).
  const known = new Set([...deps.models.list().map((model) => model.id), deps.models.defaultModelId]);
  const wanted = { kb: new Set<string>(), app: new Set<string>(), client: new Set<string>(), plugin: new Set<string>() };
  for (const element of elements) {
    const config = element.config as Record<string, unknown>;
    if (
      (element.type === "llm" || element.type === "intent_branch") &&
      !blank(config.model) &&
      !known.has(String(config.model)) &&
      !deps.models.resolve(String(config.model))
    ) {
      add(element, "workflow_node_model_unknown", "model", { model: String(config.model) });
    }
    if (element.type === "knowledge_base") for (const id of (config.knowledgeBaseIds as string[] | undefined) ?? []) wanted.kb.add(id);
    if (element.type === "app" && !blank(config.appId)) wanted.app.add(String(config.appId));
    if (element.type === "channel_send" && (config.mode ?? "client") === "client" && !blank(config.clientId)) wanted.client.add(String(config.clientId));
    if (element.type === "plugin" && !blank(config.pluginCode)) wanted.plugin.add(String(config.pluginCode));
  }
  const found = {
    kb: new Set(
      wanted.kb.size
        ? (
            await deps.db
              .select({ id: knowledgeBases.id })
              .from(knowledgeBases)
              .where(
                and(
                  eq(knowledgeBases.spaceId, spaceId),
                  inArray(knowledgeBases.id, [...wanted.kb]),
                  ranged && rangeCondition(ranged, "knowledgeBase", knowledgeBases),
                ),
              )
          ).map((row) => row.id)
        : [],
    ),
    app: new Set(
      wanted.app.size
        ? (
            await deps.db
              .select({ id: apps.id, type: apps.type })
              .from(apps)
              .where(and(eq(apps.spaceId, spaceId), inArray(apps.id, [...wanted.app]), ranged && rangeCondition(ranged, "app", apps)))
          )
            .filter((row) => row.type !== "WORKFLOW")
            .map((row) => row.id)
        : [],
    ),
    client: new Set(
      wanted.client.size
        ? (
            await deps.db
              .select({ id: channelClients.id })
              .from(channelClients)
              .where(
                and(
                  eq(channelClients.spaceId, spaceId),
                  inArray(channelClients.id, [...wanted.client]),
                  ranged && rangeCondition(ranged, "client", channelClients),
                ),
              )
          ).map((row) => row.id)
        : [],
    ),
    plugin: new Set<string>(),
  };
  if (wanted.plugin.size) {
    const tools = await deps.plugins.toolsFor({ spaceId, pluginCodes: [...wanted.plugin] }).catch(() => []);
    for (const tool of tools) found.plugin.add(tool.code);
  }
  for (const element of elements) {
    const config = element.config as Record<string, unknown>;
    if (element.type === "knowledge_base") {
      for (const id of (config.knowledgeBaseIds as string[] | undefined) ?? [])
        if (!found.kb.has(id)) add(element, "workflow_node_knowledge_base_unknown", "knowledgeBaseIds", { id });
    }
    if (element.type === "app" && !blank(config.appId) && !found.app.has(String(config.appId)))
      add(element, "workflow_node_app_unknown", "appId", { id: String(config.appId) });
    if (element.type === "channel_send" && (config.mode ?? "client") === "client" && !blank(config.clientId) && !found.client.has(String(config.clientId))) {
      add(element, "workflow_node_client_unknown", "clientId", { id: String(config.clientId) });
    }
    if (element.type === "plugin" && !blank(config.pluginCode) && !found.plugin.has(String(config.pluginCode))) {
      add(element, "workflow_node_plugin_unknown", "pluginCode", { id: String(config.pluginCode) });
    }
  }
  return issues;
}
