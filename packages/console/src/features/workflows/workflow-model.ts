/**
 * The workflow graph as the editor holds it (spec §3 Workflow): elements (id, type, config,
 * position) and lines (id, source, sourceHandle, target). Pure functions only, so the rules
 * that change the graph (add, connect, delete) are unit-tested without a browser.
 */

/** Palette groups of spec §3, in order. */
export const NODE_GROUPS = ["basic", "branch", "individuality"] as const;
/** A palette group. */
export type NodeGroup = (typeof NODE_GROUPS)[number];

/** Every node type of spec §3, by palette group. */
export const NODE_TYPES_BY_GROUP = {
  basic: ["start", "end", "app", "llm", "knowledge_base", "database", "plugin", "code_block"],
  branch: ["intent_branch", "logic_branch"],
  individuality: ["fixed_reply", "channel_send", "manual", "timer"],
} as const satisfies Record<NodeGroup, readonly string[]>;

/** A node type. */
export type NodeType = (typeof NODE_TYPES_BY_GROUP)[NodeGroup][number];

/** Every node type, in palette order. */
export const NODE_TYPES: readonly NodeType[] = NODE_GROUPS.flatMap((group) => NODE_TYPES_BY_GROUP[group]);

/** Whether a string names a node type. */
export function isNodeType(value: unknown): value is NodeType {
  return typeof value === "string" && (NODE_TYPES as readonly string[]).includes(value);
}

/** The palette group of a node type. */
export function groupOf(type: NodeType): NodeGroup {
  return NODE_GROUPS.find((group) => (NODE_TYPES_BY_GROUP[group] as readonly string[]).includes(type)) ?? "basic";
}

/** Types of the start node's custom variables. */
export const VARIABLE_TYPES = ["text", "paragraph", "number", "select", "boolean"] as const;
/** A start variable's type. */
export type VariableType = (typeof VARIABLE_TYPES)[number];

/** A custom variable of the start node. */
export interface StartVariable {
  identifier: string;
  displayName: string;
  type: VariableType;
  required: boolean;
  prompt?: string;
  options?: string[];
  default?: string | number | boolean | null;
}

/** Comparison operators of a logic branch condition (as the server names them). */
export const CONDITION_OPERATORS = ["equals", "not_equals", "contains", "not_contains", "empty", "not_empty", "gt", "lt", "gte", "lte"] as const;
/** One condition of a logic branch. */
export interface Condition {
  left: string;
  operator: (typeof CONDITION_OPERATORS)[number];
  right?: string;
}

/** A branch of a logic branch node, or an intention of an intent branch node. */
export interface Branch {
  id: string;
  name: string;
  /** The node this branch leads to (mirrors the line leaving its handle), null when not connected. */
  node_id: string | null;
  /** The branch taken when no other matches. */
  isElse?: boolean;
  /** Logic branch: how the conditions combine, and the conditions. */
  logic?: "and" | "or";
  conditions?: Condition[];
}

/** Types of structured output variables. */
export const OUTPUT_TYPES = ["string", "number", "boolean", "object", "array"] as const;

/** A structured output variable of the llm node. */
export interface OutputVariable {
  name: string;
  type: string;
  description?: string;
}

/** Config of any node: name and description, plus the fields of its type. */
export interface NodeConfig {
  name: string;
  desc?: string;
  branches?: Branch[];
  intentions?: Branch[];
  [field: string]: unknown;
}

/** An element of the graph. */
export interface WorkflowElement {
  id: string;
  type: NodeType;
  config: NodeConfig;
  position?: { x: number; y: number };
}

/** A line from a node (and, for branch nodes, one of its branches) to another node. */
export interface WorkflowLine {
  id: string;
  source: string;
  /** The branch or intention id for branch nodes; null (or absent) otherwise. */
  sourceHandle?: string | null;
  target: string;
}

/** A whole graph. */
export interface WorkflowGraph {
  elements: WorkflowElement[];
  lines: WorkflowLine[];
}

let counter = 0;
/** A short id unique within a graph (time + counter + random). */
export function newId(prefix: string): string {
  counter = (counter + 1) % 1_000_000;
  return `${prefix}_${Date.now().toString(36)}${counter.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** The branches (or intentions) of a branch node; empty for other types. */
export function branchesOf(element: Pick<WorkflowElement, "type" | "config">): Branch[] {
  if (element.type === "intent_branch") return element.config.intentions ?? [];
  if (element.type === "logic_branch") return element.config.branches ?? [];
  return [];
}

/**
 * The source handles of a node: one per branch or intention for branch nodes (the else branch
 * is one of them), a single unnamed handle (null) for the others, none for the end node.
 */
export function sourceHandlesOf(element: Pick<WorkflowElement, "type" | "config">): Array<string | null> {
  if (element.type === "end") return [];
  if (element.type === "intent_branch" || element.type === "logic_branch") return branchesOf(element).map((branch) => branch.id);
  return [null];
}

/** Whether a node takes incoming lines (all but start). */
export function hasTargetHandle(type: NodeType): boolean {
  return type !== "start";
}

/** The config a node of `type` starts with (the server's Workflow…Config shapes); `name` is its display name. */
export function defaultConfig(type: NodeType, name: string, elseName = "Else"): NodeConfig {
  const query = "{{sys.query}}";
  switch (type) {
    case "start":
      return { name, desc: "", inputs: { text: true, image: false, file: false }, variables: [] };
    case "end":
      return { name, desc: "", output: "" };
    case "app":
      return { name, desc: "", appId: "", input: query };
    case "llm":
      return { name, desc: "", model: "", systemPrompt: "", input: query, temperature: 0.7, structuredOutput: [] };
    case "knowledge_base":
      return { name, desc: "", knowledgeBaseIds: [], input: query, topK: 3 };
    case "database":
      return { name, desc: "", databaseId: "", input: query };
    case "plugin":
      return { name, desc: "", pluginCode: "", toolName: "", arguments: {} };
    case "code_block":
      return { name, desc: "", code: "function main(input) {\n  return { text: input.text };\n}\n", inputs: [{ name: "text", value: query }], timeoutMs: 1000 };
    case "intent_branch":
      return {
        name,
        desc: "",
        model: "",
        input: query,
        intentions: [
          { id: newId("intent"), name: "", node_id: null },
          { id: newId("intent"), name: elseName, node_id: null, isElse: true },
        ],
      };
    case "logic_branch":
      return {
        name,
        desc: "",
        branches: [
          { id: newId("branch"), name: "", node_id: null, logic: "and", conditions: [{ left: query, operator: "equals", right: "" }] },
          { id: newId("branch"), name: elseName, node_id: null, isElse: true, conditions: [] },
        ],
      };
    case "fixed_reply":
      return { name, desc: "", content: "" };
    case "channel_send":
      return { name, desc: "", mode: "client", clientId: "", sender: "", receiver: "", webhookUrl: "", webhookSecret: "", content: "" };
    case "manual":
      return { name, desc: "", content: "" };
    case "timer":
      return { name, desc: "", delaySeconds: 60 };
  }
}

/** An id for a new node: `start` and `end` for those, else `<type>_<n>` not yet taken (templates read {{llm_1.output}}). */
export function nodeIdFor(type: NodeType, taken: ReadonlySet<string>): string {
  if ((type === "start" || type === "end") && !taken.has(type)) return type;
  for (let index = 1; ; index += 1) if (!taken.has(`${type}_${index}`)) return `${type}_${index}`;
}

/** A new element of `type` at `position`, named `name`. */
export function createElement(
  type: NodeType,
  position: { x: number; y: number },
  name: string,
  taken: ReadonlySet<string> = new Set(),
  elseName?: string,
): WorkflowElement {
  return { id: nodeIdFor(type, taken), type, config: defaultConfig(type, name, elseName), position };
}

/** Adds a new node of `type` to the graph; answers the graph and the new node. */
export function addNode(
  graph: WorkflowGraph,
  type: NodeType,
  position: { x: number; y: number },
  name: string,
  elseName?: string,
): { graph: WorkflowGraph; element: WorkflowElement } {
  const element = createElement(type, position, uniqueName(graph, name), new Set(graph.elements.map((item) => item.id)), elseName);
  return { graph: { ...graph, elements: [...graph.elements, element] }, element };
}

/** Sets `node_id` of the branch `handle` on `element` (no-op for other nodes). */
function withBranchTarget(element: WorkflowElement, handle: string | null | undefined, target: string | null): WorkflowElement {
  const key = element.type === "intent_branch" ? "intentions" : element.type === "logic_branch" ? "branches" : undefined;
  if (!key || handle === null || handle === undefined) return element;
  const list = element.config[key] ?? [];
  if (!list.some((branch) => branch.id === handle)) return element;
  return { ...element, config: { ...element.config, [key]: list.map((branch) => (branch.id === handle ? { ...branch, node_id: target } : branch)) } };
}

/**
 * Connects `source` (at `sourceHandle`) to `target`. A source handle leads to one node, so an
 * existing line from the same handle is replaced; a branch's node_id follows the line. Lines to
 * itself, from the end node or into the start node are refused (the graph comes back unchanged).
 */
export function connect(graph: WorkflowGraph, source: string, sourceHandle: string | null, target: string): WorkflowGraph {
  const from = graph.elements.find((element) => element.id === source);
  const to = graph.elements.find((element) => element.id === target);
  if (!from || !to || source === target || from.type === "end" || !hasTargetHandle(to.type)) return graph;
  const handle = sourceHandle ?? null;
  const lines = graph.lines.filter((line) => !(line.source === source && (line.sourceHandle ?? null) === handle));
  lines.push({ id: newId("line"), source, sourceHandle: handle, target });
  const elements = graph.elements.map((element) => (element.id === source ? withBranchTarget(element, handle, target) : element));
  return { elements, lines };
}

/** Removes lines by id; a branch whose line goes clears its node_id. */
export function removeLines(graph: WorkflowGraph, ids: readonly string[]): WorkflowGraph {
  const removed = graph.lines.filter((line) => ids.includes(line.id));
  if (removed.length === 0) return graph;
  let elements = graph.elements;
  for (const line of removed) elements = elements.map((element) => (element.id === line.source ? withBranchTarget(element, line.sourceHandle, null) : element));
  return { elements, lines: graph.lines.filter((line) => !ids.includes(line.id)) };
}

/**
 * Deletes a node (spec §4): its lines go, and every branch or intention that led to it is
 * cleared (node_id null).
 */
export function removeNode(graph: WorkflowGraph, nodeId: string): WorkflowGraph {
  const elements = graph.elements
    .filter((element) => element.id !== nodeId)
    .map((element) => {
      const key = element.type === "intent_branch" ? "intentions" : element.type === "logic_branch" ? "branches" : undefined;
      if (!key) return element;
      const list = element.config[key] ?? [];
      if (!list.some((branch) => branch.node_id === nodeId)) return element;
      return { ...element, config: { ...element.config, [key]: list.map((branch) => (branch.node_id === nodeId ? { ...branch, node_id: null } : branch)) } };
    });
  return { elements, lines: graph.lines.filter((line) => line.source !== nodeId && line.target !== nodeId) };
}

/**
 * Replaces a node's config. When branches or intentions were removed, their lines go too;
 * lines from remaining branches keep node_id in step.
 */
export function updateConfig(graph: WorkflowGraph, nodeId: string, config: NodeConfig): WorkflowGraph {
  const elements = graph.elements.map((element) => (element.id === nodeId ? { ...element, config } : element));
  const element = elements.find((item) => item.id === nodeId);
  if (!element || (element.type !== "intent_branch" && element.type !== "logic_branch")) return { ...graph, elements };
  const handles = new Set(sourceHandlesOf(element));
  const lines = graph.lines.filter((line) => line.source !== nodeId || handles.has(line.sourceHandle ?? null));
  let next: WorkflowGraph = { elements, lines };
  for (const branch of branchesOf(element)) {
    const line = lines.find((item) => item.source === nodeId && item.sourceHandle === branch.id);
    next = { ...next, elements: next.elements.map((item) => (item.id === nodeId ? withBranchTarget(item, branch.id, line?.target ?? null) : item)) };
  }
  return next;
}

/** Moves a node. */
export function moveNode(graph: WorkflowGraph, nodeId: string, position: { x: number; y: number }): WorkflowGraph {
  return { ...graph, elements: graph.elements.map((element) => (element.id === nodeId ? { ...element, position } : element)) };
}

/** The graph a new workflow starts with: a start node and an end node. */
export function initialGraph(startName: string, endName: string): WorkflowGraph {
  return {
    elements: [createElement("start", { x: 80, y: 200 }, startName), createElement("end", { x: 720, y: 200 }, endName)],
    lines: [],
  };
}

/** A name for a new node of a type not yet taken in the graph: "LLM", "LLM 2", … */
export function uniqueName(graph: WorkflowGraph, base: string): string {
  const taken = new Set(graph.elements.map((element) => element.config.name));
  if (!taken.has(base)) return base;
  for (let index = 2; ; index += 1) if (!taken.has(`${base} ${index}`)) return `${base} ${index}`;
}

/** The room a node takes on the canvas (a card is 220 px wide; branch nodes grow taller). */
export const NODE_SPACING = { x: 280, y: 150 } as const;

/** Where a node added by a click goes: after which node (and branch), and before which node. */
interface Insertion {
  after: WorkflowElement;
  handle: string | null;
  before?: WorkflowElement;
}

function outgoing(graph: WorkflowGraph, nodeId: string, handle: string | null): WorkflowLine | undefined {
  return graph.lines.find((line) => line.source === nodeId && (line.sourceHandle ?? null) === handle);
}

/** The handle of `element` a new node hangs from: its only one, or its first free branch. */
function handleFor(graph: WorkflowGraph, element: WorkflowElement): string | null | undefined {
  const handles = sourceHandlesOf(element);
  if (handles.length === 0) return undefined;
  return handles.find((handle) => !outgoing(graph, element.id, handle)) ?? handles[0];
}

/**
 * Where a clicked palette node belongs: after the selected node (between it and what follows
 * it); with nothing usable selected, just before the end node (after the node leading into it),
 * or at the end of the chain from the start node.
 */
function insertionPoint(graph: WorkflowGraph, selectedId?: string): Insertion | undefined {
  const byId = new Map(graph.elements.map((element) => [element.id, element]));
  const end = graph.elements.find((element) => element.type === "end");
  const around = (after: WorkflowElement, handle: string | null): Insertion => {
    const line = outgoing(graph, after.id, handle);
    const before = line ? byId.get(line.target) : end && !graph.lines.some((item) => item.target === end.id) ? end : undefined;
    return { after, handle, ...(before && before.id !== after.id ? { before } : {}) };
  };

  const selected = selectedId ? byId.get(selectedId) : undefined;
  if (selected) {
    const handle = handleFor(graph, selected);
    if (handle !== undefined) return around(selected, handle);
  }
  const intoEnd = end ? graph.lines.find((line) => line.target === end.id) : undefined;
  const beforeEnd = intoEnd ? byId.get(intoEnd.source) : undefined;
  if (beforeEnd && intoEnd) return around(beforeEnd, intoEnd.sourceHandle ?? null);

  // Follow the first line out of each node from the start, to the last node of that chain.
  let last = graph.elements.find((element) => element.type === "start");
  const seen = new Set<string>();
  while (last && !seen.has(last.id)) {
    seen.add(last.id);
    const handle = handleFor(graph, last);
    if (handle === undefined) return undefined;
    const next = outgoing(graph, last.id, handle);
    const target = next ? byId.get(next.target) : undefined;
    if (!target || target.type === "end") return around(last, handle);
    last = target;
  }
  return undefined;
}

function overlaps(a: { x: number; y: number }, b: { x: number; y: number }): boolean {
  return Math.abs(a.x - b.x) < NODE_SPACING.x - 20 && Math.abs(a.y - b.y) < NODE_SPACING.y - 20;
}

/**
 * Adds a node clicked in the palette where it is useful: connected after the selected node
 * (or before the end node) and, when that node led somewhere, on to it, so the flow runs
 * through the new node. Nodes right of the insertion move right to make room; the new node
 * moves down until it overlaps no other. With no place to insert (an empty graph, a second
 * start node) it goes right of the rightmost node, unconnected.
 */
export function insertNode(
  graph: WorkflowGraph,
  type: NodeType,
  name: string,
  options: { selectedId?: string; elseName?: string } = {},
): { graph: WorkflowGraph; element: WorkflowElement } {
  const point = type === "start" ? undefined : insertionPoint(graph, options.selectedId);
  const positionOf = (element: WorkflowElement, index: number) => element.position ?? { x: 80 + index * NODE_SPACING.x, y: 200 };

  if (!point) {
    const positions = graph.elements.map(positionOf);
    const x = positions.length > 0 ? Math.min(...positions.map((position) => position.x)) - NODE_SPACING.x : 80;
    const spot = type === "start" ? { x, y: 200 } : { x: Math.max(80, ...positions.map((position) => position.x + NODE_SPACING.x)), y: 200 };
    return addNode(graph, type, spot, name, options.elseName);
  }

  const afterAt = positionOf(point.after, graph.elements.indexOf(point.after));
  let spot = { x: afterAt.x + NODE_SPACING.x, y: afterAt.y };
  // Make room: everything from the new node's column rightwards moves one column right,
  // when the node after the insertion sits closer than a column.
  const beforeAt = point.before ? positionOf(point.before, graph.elements.indexOf(point.before)) : undefined;
  const shift = beforeAt && beforeAt.x < spot.x + NODE_SPACING.x && beforeAt.x > afterAt.x ? spot.x + NODE_SPACING.x - beforeAt.x : 0;
  const elements = graph.elements.map((element, index) => {
    const position = positionOf(element, index);
    return shift > 0 && element.id !== point.after.id && position.x > afterAt.x
      ? { ...element, position: { x: position.x + shift, y: position.y } }
      : { ...element, position };
  });
  for (let tries = 0; tries < 50 && elements.some((element) => overlaps(element.position!, spot)); tries += 1) spot = { x: spot.x, y: spot.y + NODE_SPACING.y };

  const added = addNode({ ...graph, elements }, type, spot, name, options.elseName);
  let next = connect(added.graph, point.after.id, point.handle, added.element.id);
  const onward = sourceHandlesOf(added.element);
  if (point.before && onward.length === 1 && onward[0] === null) next = connect(next, added.element.id, null, point.before.id);
  return { graph: next, element: next.elements.find((element) => element.id === added.element.id) ?? added.element };
}
