import { type NodeType, nodeTypes, type WorkflowGraph, type WorkflowLine } from "./model";

const TYPES = new Set<string>(nodeTypes);

/** Whether a string is one of the fourteen node types. */
export function isNodeType(type: string): type is NodeType {
  return TYPES.has(type);
}

/** Branch entries of a branch node (logic branches or intentions), if it is one. */
export function branchesOf(element: { type: string; config: Record<string, unknown> }): Array<{ id: string; node_id?: string | null; [key: string]: unknown }> {
  const list = element.type === "logic_branch" ? element.config.branches : element.type === "intent_branch" ? element.config.intentions : undefined;
  return Array.isArray(list) ? (list as Array<{ id: string; node_id?: string | null }>) : [];
}

/**
 * Removes a node: its lines go, and branches or intentions that led to it lose their target
 * (spec §4: deleting a node clears branch targets in lines pointing to it).
 */
export function removeNode(graph: WorkflowGraph, nodeId: string): WorkflowGraph {
  const elements = graph.elements
    .filter((element) => element.id !== nodeId)
    .map((element) => {
      const key = element.type === "logic_branch" ? "branches" : element.type === "intent_branch" ? "intentions" : undefined;
      if (!key || !Array.isArray(element.config[key])) return element;
      const list = (element.config[key] as Array<{ node_id?: string | null }>).map((branch) =>
        branch.node_id === nodeId ? { ...branch, node_id: null } : branch,
      );
      return { ...element, config: { ...element.config, [key]: list } };
    });
  const lines = graph.lines.filter((line) => line.source !== nodeId && line.target !== nodeId);
  return { elements, lines };
}

/**
 * Makes each branch's `node_id` mirror the line leaving its handle (lines are what the engine
 * follows; the field is kept for editors that read it).
 */
export function syncBranchTargets(graph: WorkflowGraph): WorkflowGraph {
  const byHandle = new Map<string, string>();
  for (const line of graph.lines) if (line.sourceHandle) byHandle.set(`${line.source}\u0000${line.sourceHandle}`, line.target);
  const elements = graph.elements.map((element) => {
    const key = element.type === "logic_branch" ? "branches" : element.type === "intent_branch" ? "intentions" : undefined;
    if (!key || !Array.isArray(element.config[key])) return element;
    const list = (element.config[key] as Array<{ id: string; node_id?: string | null }>).map((branch) => ({
      ...branch,
      node_id: byHandle.get(`${element.id}\u0000${branch.id}`) ?? null,
    }));
    return { ...element, config: { ...element.config, [key]: list } };
  });
  return { elements, lines: graph.lines };
}

/** Outgoing lines per node id. */
export function outgoing(lines: WorkflowLine[]): Map<string, WorkflowLine[]> {
  const map = new Map<string, WorkflowLine[]>();
  for (const line of lines) {
    const list = map.get(line.source);
    if (list) list.push(line);
    else map.set(line.source, [line]);
  }
  return map;
}

/** Incoming lines per node id. */
export function incoming(lines: WorkflowLine[]): Map<string, WorkflowLine[]> {
  const map = new Map<string, WorkflowLine[]>();
  for (const line of lines) {
    const list = map.get(line.target);
    if (list) list.push(line);
    else map.set(line.target, [line]);
  }
  return map;
}

/** A node on a cycle, if the lines form one (only lines between known nodes count). */
export function findCycle(elements: Array<{ id: string }>, lines: WorkflowLine[]): string | undefined {
  const ids = new Set(elements.map((element) => element.id));
  const next = outgoing(lines.filter((line) => ids.has(line.source) && ids.has(line.target)));
  const state = new Map<string, 1 | 2>();
  for (const element of elements) {
    if (state.has(element.id)) continue;
    // Iterative depth-first search: a 2,000-node chain must not overflow the stack.
    const stack: Array<{ id: string; index: number }> = [{ id: element.id, index: 0 }];
    state.set(element.id, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const edges = next.get(top.id) ?? [];
      if (top.index >= edges.length) {
        state.set(top.id, 2);
        stack.pop();
        continue;
      }
      const target = edges[top.index++]!.target;
      const seen = state.get(target);
      if (seen === 1) return target;
      if (seen === undefined) {
        state.set(target, 1);
        stack.push({ id: target, index: 0 });
      }
    }
  }
  return undefined;
}

/** Node ids reachable from a node along the lines. */
export function reachableFrom(start: string, lines: WorkflowLine[]): Set<string> {
  const next = outgoing(lines);
  const seen = new Set<string>([start]);
  const queue = [start];
  while (queue.length > 0) {
    const id = queue.pop()!;
    for (const line of next.get(id) ?? []) {
      if (!seen.has(line.target)) {
        seen.add(line.target);
        queue.push(line.target);
      }
    }
  }
  return seen;
}

/** The display label of a node in messages: its name and id. */
export function nodeLabel(element: { id: string; type: string; config?: Record<string, unknown> }): string {
  const name = typeof element.config?.name === "string" && element.config.name.trim() ? element.config.name.trim() : element.type;
  return `${name} (${element.id})`;
}
