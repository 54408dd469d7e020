import type { ServerIssue, Workflow } from "../../lib/api/workflows";
import type { WorkflowElement, WorkflowGraph } from "./workflow-model";

/** The graph of a workflow as the server answers it. */
export function graphOf(workflow: Pick<Workflow, "elements" | "lines">): WorkflowGraph {
  return {
    elements: (workflow.elements as unknown as WorkflowElement[]).map((element) => ({
      ...element,
      config: { ...element.config, name: element.config.name ?? "" },
    })),
    lines: workflow.lines.map((line) => ({ id: line.id, source: line.source, sourceHandle: line.sourceHandle ?? null, target: line.target })),
  };
}

/** The save body of a graph. */
export function wireOf(graph: WorkflowGraph) {
  return {
    elements: graph.elements.map((element) => ({
      id: element.id,
      type: element.type,
      config: element.config as Record<string, unknown>,
      ...(element.position ? { position: element.position } : {}),
    })),
    lines: graph.lines.map((line) => ({ id: line.id, source: line.source, sourceHandle: line.sourceHandle ?? null, target: line.target })),
  };
}

/** The node field a server issue names: `elements.llm_1.config.model` → `model`; '' for the node itself. */
export function fieldOfIssue(issue: Pick<ServerIssue, "field" | "nodeId">): string {
  if (!issue.nodeId) return issue.field;
  const prefix = `elements.${issue.nodeId}.config.`;
  if (issue.field.startsWith(prefix)) return issue.field.slice(prefix.length);
  return "";
}
