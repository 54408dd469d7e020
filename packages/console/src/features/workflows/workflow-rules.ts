import { branchesOf, type NodeConfig, type OutputVariable, type StartVariable, type WorkflowElement, type WorkflowGraph } from "./workflow-model";

/** One problem found in a workflow: the i18n key of its message, the node and field it names. */
export interface WorkflowIssue {
  /** i18n key under workflows.rules. */
  key: string;
  /** The offending node, when the problem is on a node. */
  nodeId?: string;
  /** The offending field, e.g. `variables.1.identifier` or `model`. */
  field?: string;
  params?: Record<string, string | number>;
}

/** Identifier rule of start variables (spec §5): letters, digits and underscore. */
export const IDENTIFIER_PATTERN = /^[A-Za-z0-9_]+$/;

/** Workflow card fields (spec §5: name, description, avatar, category required). */
export interface WorkflowInfo {
  name?: string;
  description?: string;
  avatarUrl?: string;
  category?: string;
}

const blank = (value: unknown) => typeof value !== "string" || value.trim() === "";

/** The card rules: each required field that is empty. */
export function checkInfo(info: WorkflowInfo): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  if (blank(info.name)) issues.push({ key: "workflows.rules.nameRequired", field: "name" });
  if (blank(info.description)) issues.push({ key: "workflows.rules.descriptionRequired", field: "description" });
  if (blank(info.avatarUrl)) issues.push({ key: "workflows.rules.avatarRequired", field: "avatarUrl" });
  if (blank(info.category)) issues.push({ key: "workflows.rules.categoryRequired", field: "category" });
  return issues;
}

/** The start variable rules: identifier present, well-formed and unique; select options present. */
export function checkStartVariables(nodeId: string, variables: readonly StartVariable[]): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const seen = new Map<string, number>();
  variables.forEach((variable, index) => {
    const identifier = variable.identifier?.trim() ?? "";
    const field = `variables.${index}.identifier`;
    if (!identifier) issues.push({ key: "workflows.rules.identifierRequired", nodeId, field });
    else if (!IDENTIFIER_PATTERN.test(identifier)) issues.push({ key: "workflows.rules.identifierCharacters", nodeId, field, params: { identifier } });
    else if (seen.has(identifier)) issues.push({ key: "workflows.rules.identifierRepeated", nodeId, field, params: { identifier } });
    else seen.set(identifier, index);
    if (variable.type === "select") {
      const options = (variable.options ?? []).filter((option) => option.trim() !== "");
      if (options.length === 0) issues.push({ key: "workflows.rules.optionsEmpty", nodeId, field: `variables.${index}.options`, params: { identifier } });
    }
  });
  return issues;
}

/** Structured output variables of an llm node: names present and not repeated. */
export function checkOutputVariables(nodeId: string, outputs: readonly OutputVariable[]): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const seen = new Set<string>();
  outputs.forEach((output, index) => {
    const name = output.name?.trim() ?? "";
    const field = `outputs.${index}.name`;
    if (!name) issues.push({ key: "workflows.rules.outputNameRequired", nodeId, field });
    else if (!IDENTIFIER_PATTERN.test(name)) issues.push({ key: "workflows.rules.outputNameCharacters", nodeId, field, params: { name } });
    else if (seen.has(name)) issues.push({ key: "workflows.rules.outputRepeated", nodeId, field, params: { name } });
    else seen.add(name);
  });
  return issues;
}

/** Fields a node type requires, with the message naming each (spec §5 node checks). */
const REQUIRED_FIELDS: Partial<Record<WorkflowElement["type"], Array<{ field: string; key: string }>>> = {
  app: [
    { field: "appId", key: "workflows.rules.appRequired" },
    { field: "input", key: "workflows.rules.inputRequired" },
  ],
  llm: [
    { field: "model", key: "workflows.rules.modelRequired" },
    { field: "input", key: "workflows.rules.inputRequired" },
  ],
  knowledge_base: [
    { field: "knowledgeBaseIds", key: "workflows.rules.knowledgeBaseRequired" },
    { field: "input", key: "workflows.rules.inputRequired" },
  ],
  database: [
    { field: "databaseId", key: "workflows.rules.databaseRequired" },
    { field: "input", key: "workflows.rules.inputRequired" },
  ],
  plugin: [{ field: "pluginCode", key: "workflows.rules.pluginRequired" }],
  code_block: [{ field: "code", key: "workflows.rules.inputRequired" }],
  intent_branch: [
    { field: "model", key: "workflows.rules.modelRequired" },
    { field: "input", key: "workflows.rules.inputRequired" },
  ],
  fixed_reply: [{ field: "content", key: "workflows.rules.inputRequired" }],
  channel_send: [{ field: "content", key: "workflows.rules.inputRequired" }],
};

const empty = (value: unknown) =>
  Array.isArray(value) ? value.length === 0 : value === undefined || value === null || (typeof value === "string" && value.trim() === "");

const REFERENCE = /\{\{\s*([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)\s*\}\}/g;

/** Every {{reference}} in a config value (strings, arrays and objects, deeply). */
export function referencesIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === "string") for (const match of value.matchAll(REFERENCE)) into.push(match[1] ?? "");
  else if (Array.isArray(value)) for (const item of value) referencesIn(item, into);
  else if (value && typeof value === "object") for (const item of Object.values(value)) referencesIn(item, into);
  return into;
}

/** References to nodes that are not in the graph (`sys` and `start` always exist). */
function checkReferences(element: WorkflowElement, knownIds: ReadonlySet<string> | undefined): WorkflowIssue[] {
  if (!knownIds) return [];
  const issues: WorkflowIssue[] = [];
  for (const [field, value] of Object.entries(element.config)) {
    for (const reference of referencesIn(value)) {
      const head = reference.split(".")[0] ?? "";
      if (head === "sys" || head === "start" || knownIds.has(head)) continue;
      issues.push({ key: "workflows.rules.referenceUnknown", nodeId: element.id, field, params: { reference: `{{${reference}}}` } });
    }
  }
  return issues;
}

/** The checks of one node, by its type; with `knownIds`, template references are checked too. */
export function checkNode(element: WorkflowElement, knownIds?: ReadonlySet<string>): WorkflowIssue[] {
  const { id: nodeId, config } = element;
  const issues: WorkflowIssue[] = [];
  for (const { field, key } of REQUIRED_FIELDS[element.type] ?? []) if (empty(config[field])) issues.push({ key, nodeId, field });
  if (element.type === "start") issues.push(...checkStartVariables(nodeId, (config.variables as StartVariable[] | undefined) ?? []));
  if (element.type === "llm") issues.push(...checkOutputVariables(nodeId, (config.structuredOutput as OutputVariable[] | undefined) ?? []));
  if (element.type === "intent_branch" || element.type === "logic_branch") issues.push(...checkBranches(element));
  if (element.type === "channel_send") {
    if (config.mode === "webhook") {
      if (blank(config.webhookUrl)) issues.push({ key: "workflows.rules.webhookUrlRequired", nodeId, field: "webhookUrl" });
      else if (!/^https?:\/\//i.test(String(config.webhookUrl).trim())) issues.push({ key: "workflows.rules.webhookUrlInvalid", nodeId, field: "webhookUrl" });
      if (blank(config.webhookSecret)) issues.push({ key: "workflows.rules.webhookSecretRequired", nodeId, field: "webhookSecret" });
    } else {
      if (blank(config.clientId)) issues.push({ key: "workflows.rules.clientRequired", nodeId, field: "clientId" });
      if (blank(config.receiver)) issues.push({ key: "workflows.rules.receiverRequired", nodeId, field: "receiver" });
    }
  }
  issues.push(...checkReferences(element, knownIds));
  if (element.type === "timer" && blank(config.until)) {
    const seconds = Number(config.delaySeconds);
    if (config.delaySeconds === undefined || config.delaySeconds === "" || !Number.isInteger(seconds) || seconds < 0) {
      issues.push({ key: "workflows.rules.timerDelay", nodeId, field: "delaySeconds" });
    }
  }
  return issues;
}

function checkBranches(element: WorkflowElement): WorkflowIssue[] {
  const key = element.type === "intent_branch" ? "intentions" : "branches";
  const list = branchesOf(element);
  const issues: WorkflowIssue[] = [];
  if (list.filter((branch) => !branch.isElse).length === 0) issues.push({ key: "workflows.rules.branchesEmpty", nodeId: element.id, field: key });
  if (list.filter((branch) => branch.isElse).length > 1) issues.push({ key: "workflows.rules.elseRepeated", nodeId: element.id, field: key });
  list.forEach((branch, index) => {
    if (branch.isElse) return;
    if (element.type === "logic_branch" && (branch.conditions ?? []).length === 0) {
      issues.push({ key: "workflows.rules.conditionsEmpty", nodeId: element.id, field: `${key}.${index}.conditions` });
    }
  });
  return issues;
}

/** Node ids reachable from `start` along the lines. */
function reachableFrom(start: string, lines: WorkflowGraph["lines"]): Set<string> {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    const id = queue.pop() ?? "";
    for (const line of lines) {
      if (line.source === id && !seen.has(line.target)) {
        seen.add(line.target);
        queue.push(line.target);
      }
    }
  }
  return seen;
}

/**
 * Every §5 rule the console can check before saving: at most one start and one end node, the
 * end reachable from the start, then each node's own checks and its template references. The
 * server checks the same (and that models, apps, knowledge bases … exist) and has the last word.
 */
export function checkGraph(graph: WorkflowGraph): WorkflowIssue[] {
  const issues: WorkflowIssue[] = [];
  const starts = graph.elements.filter((element) => element.type === "start");
  const ends = graph.elements.filter((element) => element.type === "end");
  if (starts.length === 0) issues.push({ key: "workflows.rules.startMissing" });
  for (const extra of starts.slice(1)) issues.push({ key: "workflows.rules.startRepeated", nodeId: extra.id });
  if (ends.length === 0) issues.push({ key: "workflows.rules.endMissing" });
  for (const extra of ends.slice(1)) issues.push({ key: "workflows.rules.endRepeated", nodeId: extra.id });
  const start = starts[0];
  const end = ends[0];
  if (start && end && !reachableFrom(start.id, graph.lines).has(end.id)) issues.push({ key: "workflows.rules.endNotConnected", nodeId: end.id });
  const ids = new Set(graph.elements.map((element) => element.id));
  for (const element of graph.elements) issues.push(...checkNode(element, ids));
  return issues;
}

/** Issues grouped by node id ('' for the whole graph). */
export function issuesByNode(issues: readonly WorkflowIssue[]): Map<string, WorkflowIssue[]> {
  const grouped = new Map<string, WorkflowIssue[]>();
  for (const issue of issues) {
    const key = issue.nodeId ?? "";
    grouped.set(key, [...(grouped.get(key) ?? []), issue]);
  }
  return grouped;
}

/** The issue on one field of a node, if any. */
export function issueOn(issues: readonly WorkflowIssue[], nodeId: string, field: string): WorkflowIssue | undefined {
  return issues.find((issue) => issue.nodeId === nodeId && issue.field === field);
}

/** The cron rule (spec §5, §9): not empty, exactly five fields. */
export function checkCron(expression: string | undefined): string | undefined {
  const trimmed = expression?.trim() ?? "";
  if (!trimmed) return "workflows.rules.cronRequired";
  if (trimmed.split(/\s+/).length !== 5) return "workflows.rules.cronFields";
  return undefined;
}

/** A shallow config copy with one field set, for forms. */
export function setField(config: NodeConfig, field: string, value: unknown): NodeConfig {
  return { ...config, [field]: value };
}
