import { describe, expect, it } from "vitest";
import {
  addNode,
  branchesOf,
  connect,
  createElement,
  groupOf,
  initialGraph,
  insertNode,
  NODE_SPACING,
  NODE_TYPES,
  removeLines,
  removeNode,
  sourceHandlesOf,
  uniqueName,
  updateConfig,
  type WorkflowElement,
  type WorkflowGraph,
} from "./workflow-model";

const at = { x: 0, y: 0 };

function withBranch(): { graph: WorkflowGraph; branch: WorkflowElement; reply: WorkflowElement; start: WorkflowElement } {
  const base = initialGraph("Start", "End");
  const start = base.elements[0]!;
  const branch = createElement("logic_branch", at, "If");
  branch.config.branches = [
    { id: "b1", name: "Yes", node_id: null },
    { id: "b2", name: "No", node_id: null, isElse: true },
  ];
  const reply = createElement("fixed_reply", at, "Reply");
  let graph: WorkflowGraph = { ...base, elements: [...base.elements, branch, reply] };
  graph = connect(graph, start.id, null, branch.id);
  graph = connect(graph, branch.id, "b1", reply.id);
  return { graph, branch, reply, start };
}

describe("palette", () => {
  it("has the fourteen node types of spec §3 in three groups", () => {
    expect(NODE_TYPES).toHaveLength(14);
    expect(groupOf("code_block")).toBe("basic");
    expect(groupOf("intent_branch")).toBe("branch");
    expect(groupOf("timer")).toBe("individuality");
  });
});

describe("handles", () => {
  it("gives branch nodes one handle per branch (else included), the end node none", () => {
    const { branch } = withBranch();
    expect(sourceHandlesOf(branch)).toEqual(["b1", "b2"]);
    expect(sourceHandlesOf(createElement("end", at, "End"))).toEqual([]);
    expect(sourceHandlesOf(createElement("llm", at, "LLM"))).toEqual([null]);
  });
});

describe("connect", () => {
  it("sets the branch target and replaces an earlier line from the same handle", () => {
    const { graph, branch, reply } = withBranch();
    expect(branchesOf(graph.elements.find((element) => element.id === branch.id)!)[0]!.node_id).toBe(reply.id);
    const end = graph.elements.find((element) => element.type === "end")!;
    const next = connect(graph, branch.id, "b1", end.id);
    expect(next.lines.filter((line) => line.source === branch.id)).toEqual([expect.objectContaining({ sourceHandle: "b1", target: end.id })]);
    expect(branchesOf(next.elements.find((element) => element.id === branch.id)!)[0]!.node_id).toBe(end.id);
  });
  it("refuses lines into the start node, out of the end node and to itself", () => {
    const { graph, start, reply } = withBranch();
    const end = graph.elements.find((element) => element.type === "end")!;
    expect(connect(graph, reply.id, null, start.id)).toBe(graph);
    expect(connect(graph, end.id, null, reply.id)).toBe(graph);
    expect(connect(graph, reply.id, null, reply.id)).toBe(graph);
  });
  it("clears a branch target when its line is removed", () => {
    const { graph, branch } = withBranch();
    const line = graph.lines.find((item) => item.source === branch.id)!;
    const next = removeLines(graph, [line.id]);
    expect(branchesOf(next.elements.find((element) => element.id === branch.id)!)[0]!.node_id).toBeNull();
  });
});

describe("deleting a node (spec §4)", () => {
  it("removes its lines and clears branch targets pointing to it", () => {
    const { graph, branch, reply } = withBranch();
    const next = removeNode(graph, reply.id);
    expect(next.elements.some((element) => element.id === reply.id)).toBe(false);
    expect(next.lines.some((line) => line.source === reply.id || line.target === reply.id)).toBe(false);
    expect(branchesOf(next.elements.find((element) => element.id === branch.id)!).map((item) => item.node_id)).toEqual([null, null]);
    expect(next.lines).toHaveLength(1);
  });
});

describe("editing branches", () => {
  it("drops the lines of removed branches", () => {
    const { graph, branch } = withBranch();
    const next = updateConfig(graph, branch.id, { ...branch.config, branches: [{ id: "b2", name: "No", node_id: null, isElse: true }] });
    expect(next.lines.some((line) => line.source === branch.id)).toBe(false);
  });
});

describe("ids and names", () => {
  it("gives readable ids templates can refer to", () => {
    let graph = initialGraph("Start", "End");
    expect(graph.elements.map((element) => element.id)).toEqual(["start", "end"]);
    const first = addNode(graph, "llm", at, "LLM");
    graph = first.graph;
    const second = addNode(graph, "llm", at, "LLM");
    expect([first.element.id, second.element.id]).toEqual(["llm_1", "llm_2"]);
    expect(second.element.config.name).toBe("LLM 2");
  });
  it("numbers repeated names", () => {
    const graph = initialGraph("Start", "End");
    expect(uniqueName(graph, "LLM")).toBe("LLM");
    expect(uniqueName(graph, "Start")).toBe("Start 2");
  });
});

describe("a node clicked in the palette", () => {
  const chain = (graph: WorkflowGraph) => {
    const order: string[] = [];
    let at: string | undefined = "start";
    while (at && !order.includes(at)) {
      order.push(at);
      at = graph.lines.find((line) => line.source === at)?.target;
    }
    return order;
  };
  /** No two nodes overlap (only the new one against the others when `only` is given). */
  const noOverlap = (graph: WorkflowGraph, only?: string) => {
    for (const a of graph.elements.filter((element) => !only || element.id === only)) {
      for (const b of graph.elements) {
        if (a === b) continue;
        const apart = Math.abs(a.position!.x - b.position!.x) >= NODE_SPACING.x - 20 || Math.abs(a.position!.y - b.position!.y) >= NODE_SPACING.y - 20;
        expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
      }
    }
  };

  it("goes between start and an unconnected end, connected both ways, off the start → end line", () => {
    const { graph, element } = insertNode(initialGraph("Start", "End"), "llm", "LLM");
    expect(chain(graph)).toEqual(["start", element.id, "end"]);
    noOverlap(graph);
  });

  it("goes after the selected node, before what followed it; later nodes move right to make room", () => {
    const first = insertNode(initialGraph("Start", "End"), "llm", "LLM");
    const second = insertNode(first.graph, "fixed_reply", "Reply", { selectedId: first.element.id });
    expect(chain(second.graph)).toEqual(["start", first.element.id, second.element.id, "end"]);
    noOverlap(second.graph);
    const x = (id: string) => second.graph.elements.find((element) => element.id === id)!.position!.x;
    expect(x(second.element.id)).toBeGreaterThan(x(first.element.id));
    expect(x("end")).toBeGreaterThan(x(second.element.id));
  });

  it("with nothing selected goes just before the end node", () => {
    const first = insertNode(initialGraph("Start", "End"), "llm", "LLM");
    const second = insertNode(first.graph, "code_block", "Code");
    expect(chain(second.graph)).toEqual(["start", first.element.id, second.element.id, "end"]);
  });

  it("after a branch node hangs from its first free branch and leads nowhere yet", () => {
    const { graph, branch } = withBranch();
    const { graph: next, element } = insertNode(graph, "fixed_reply", "Reply", { selectedId: branch.id });
    expect(next.lines).toContainEqual(expect.objectContaining({ source: branch.id, sourceHandle: "b2", target: element.id }));
    expect(branchesOf(next.elements.find((item) => item.id === branch.id)!).find((item) => item.id === "b2")!.node_id).toBe(element.id);
    noOverlap(next, element.id);
  });

  it("a branch node inserted before the end gets the line in, and its branches stay for the user to lead", () => {
    const first = insertNode(initialGraph("Start", "End"), "intent_branch", "Intent");
    expect(first.graph.lines.map((line) => [line.source, line.target])).toEqual([["start", first.element.id]]);
  });
});
