import { describe, expect, it } from "vitest";
import { connect, createElement, initialGraph, type WorkflowElement, type WorkflowGraph } from "./workflow-model";
import { checkCron, checkGraph, checkInfo, checkNode, checkOutputVariables, checkStartVariables, issueOn } from "./workflow-rules";

const keys = (issues: Array<{ key: string }>) => issues.map((issue) => issue.key);

/** start → llm → end, everything filled. */
function validGraph(): { graph: WorkflowGraph; start: WorkflowElement; llm: WorkflowElement; end: WorkflowElement } {
  let graph = initialGraph("Start", "End");
  const [start, end] = graph.elements as [WorkflowElement, WorkflowElement];
  const llm = createElement("llm", { x: 300, y: 200 }, "LLM");
  llm.config.model = "offline";
  graph = { ...graph, elements: [...graph.elements, llm] };
  graph = connect(graph, start.id, null, llm.id);
  graph = connect(graph, llm.id, null, end.id);
  return { graph, start, llm, end };
}

describe("workflow card (spec §5)", () => {
  it("requires name, description, avatar and category", () => {
    expect(keys(checkInfo({}))).toEqual([
      "workflows.rules.nameRequired",
      "workflows.rules.descriptionRequired",
      "workflows.rules.avatarRequired",
      "workflows.rules.categoryRequired",
    ]);
    expect(checkInfo({ name: "Digest", description: "Daily digest", avatarUrl: "https://x/a.png", category: "office" })).toEqual([]);
    expect(keys(checkInfo({ name: "  ", description: "d", avatarUrl: "a", category: "c" }))).toEqual(["workflows.rules.nameRequired"]);
  });
});

describe("graph rules (spec §5)", () => {
  it("accepts start → llm → end", () => {
    expect(checkGraph(validGraph().graph)).toEqual([]);
  });
  it("allows at most one start node and one end node", () => {
    const { graph } = validGraph();
    const extraStart = createElement("start", { x: 0, y: 0 }, "Start 2");
    const extraEnd = createElement("end", { x: 0, y: 0 }, "End 2");
    const issues = checkGraph({ ...graph, elements: [...graph.elements, extraStart, extraEnd] });
    expect(issues).toContainEqual({ key: "workflows.rules.startRepeated", nodeId: extraStart.id });
    expect(issues).toContainEqual({ key: "workflows.rules.endRepeated", nodeId: extraEnd.id });
  });
  it("requires the end to be connected to the start", () => {
    const { graph, end, start } = validGraph();
    const issues = checkGraph({ ...graph, lines: graph.lines.filter((line) => line.target !== end.id) });
    expect(issues).toEqual([{ key: "workflows.rules.endNotConnected", nodeId: end.id }]);
    // A line into the end that the start cannot reach does not count.
    const island = createElement("fixed_reply", { x: 0, y: 0 }, "Island");
    island.config.content = "x";
    const cut = {
      elements: [...graph.elements, island],
      lines: [...graph.lines.filter((line) => line.target !== end.id), { id: "l", source: island.id, target: end.id }],
    };
    expect(checkGraph(cut)).toEqual([{ key: "workflows.rules.endNotConnected", nodeId: end.id }]);
    expect(start.id).toBe("start");
  });
  it("names a missing start or end", () => {
    expect(keys(checkGraph({ elements: [], lines: [] }))).toEqual(["workflows.rules.startMissing", "workflows.rules.endMissing"]);
  });
});

describe("start variables (spec §5)", () => {
  const variable = (identifier: string, extra: object = {}) => ({
    identifier,
    displayName: identifier || "x",
    type: "text" as const,
    required: false,
    ...extra,
  });
  it("accepts letters, digits and underscore", () => {
    expect(checkStartVariables("s", [variable("city_2"), variable("Name")])).toEqual([]);
  });
  it("refuses other characters, naming the field", () => {
    expect(checkStartVariables("s", [variable("ok"), variable("my-city")])).toEqual([
      { key: "workflows.rules.identifierCharacters", nodeId: "s", field: "variables.1.identifier", params: { identifier: "my-city" } },
    ]);
    expect(keys(checkStartVariables("s", [variable("城市")]))).toEqual(["workflows.rules.identifierCharacters"]);
    expect(keys(checkStartVariables("s", [variable("a b")]))).toEqual(["workflows.rules.identifierCharacters"]);
  });
  it("requires an identifier and refuses repeats", () => {
    expect(keys(checkStartVariables("s", [variable("")]))).toEqual(["workflows.rules.identifierRequired"]);
    expect(checkStartVariables("s", [variable("city"), variable("city")])).toEqual([
      { key: "workflows.rules.identifierRepeated", nodeId: "s", field: "variables.1.identifier", params: { identifier: "city" } },
    ]);
  });
  it("requires options for a select variable", () => {
    expect(keys(checkStartVariables("s", [variable("size", { type: "select", options: [] })]))).toEqual(["workflows.rules.optionsEmpty"]);
    expect(keys(checkStartVariables("s", [variable("size", { type: "select", options: ["  "] })]))).toEqual(["workflows.rules.optionsEmpty"]);
    expect(checkStartVariables("s", [variable("size", { type: "select", options: ["S", "M"] })])).toEqual([]);
  });
});

describe("structured output (spec §5)", () => {
  it("refuses repeated names and empty names", () => {
    expect(
      checkOutputVariables("n", [
        { name: "title", type: "string" },
        { name: "title", type: "string" },
      ]),
    ).toEqual([{ key: "workflows.rules.outputRepeated", nodeId: "n", field: "outputs.1.name", params: { name: "title" } }]);
    expect(keys(checkOutputVariables("n", [{ name: "", type: "string" }]))).toEqual(["workflows.rules.outputNameRequired"]);
    expect(keys(checkOutputVariables("n", [{ name: "my key", type: "string" }]))).toEqual(["workflows.rules.outputNameCharacters"]);
    expect(
      checkOutputVariables("n", [
        { name: "a", type: "string" },
        { name: "b", type: "number" },
      ]),
    ).toEqual([]);
  });
  it("is checked on llm nodes", () => {
    const element = createElement("llm", { x: 0, y: 0 }, "LLM");
    element.config.model = "offline";
    element.config.structuredOutput = [
      { name: "x", type: "string" },
      { name: "x", type: "string" },
    ];
    expect(keys(checkNode(element))).toEqual(["workflows.rules.outputRepeated"]);
  });
});

describe("node checks (spec §5)", () => {
  const at = { x: 0, y: 0 };
  it("names the required reference of each node type", () => {
    const expectations: Array<[Parameters<typeof createElement>[0], string, string]> = [
      ["llm", "model", "workflows.rules.modelRequired"],
      ["app", "appId", "workflows.rules.appRequired"],
      ["knowledge_base", "knowledgeBaseIds", "workflows.rules.knowledgeBaseRequired"],
      ["database", "databaseId", "workflows.rules.databaseRequired"],
      ["plugin", "pluginCode", "workflows.rules.pluginRequired"],
      ["intent_branch", "model", "workflows.rules.modelRequired"],
      ["channel_send", "clientId", "workflows.rules.clientRequired"],
      ["channel_send", "receiver", "workflows.rules.receiverRequired"],
      ["fixed_reply", "content", "workflows.rules.inputRequired"],
    ];
    for (const [type, field, key] of expectations) {
      const element = createElement(type, at, "Node");
      expect(issueOn(checkNode(element), element.id, field)?.key, `${type}.${field}`).toBe(key);
    }
  });
  it("requires the node input", () => {
    const element = createElement("llm", at, "LLM");
    element.config.model = "offline";
    element.config.input = "   ";
    expect(checkNode(element)).toEqual([{ key: "workflows.rules.inputRequired", nodeId: element.id, field: "input" }]);
  });
  it("names template references to nodes that do not exist", () => {
    const element = createElement("fixed_reply", at, "Reply");
    element.config.content = "Hi {{start.name}}, {{sys.query}} → {{llm_9.output}}";
    expect(checkNode(element, new Set(["start", "end"]))).toEqual([
      { key: "workflows.rules.referenceUnknown", nodeId: element.id, field: "content", params: { reference: "{{llm_9.output}}" } },
    ]);
    expect(checkNode(element, new Set(["llm_9"]))).toEqual([]);
  });
  it("requires client and receiver, or webhook URL and secret, for channel send", () => {
    const element = createElement("channel_send", at, "Send");
    element.config.content = "Hello";
    expect(keys(checkNode(element))).toEqual(["workflows.rules.clientRequired", "workflows.rules.receiverRequired"]);
    element.config.mode = "webhook";
    expect(keys(checkNode(element))).toEqual(["workflows.rules.webhookUrlRequired", "workflows.rules.webhookSecretRequired"]);
    element.config.webhookUrl = "ftp://x";
    element.config.webhookSecret = "s3cret";
    expect(keys(checkNode(element))).toEqual(["workflows.rules.webhookUrlInvalid"]);
    element.config.webhookUrl = "https://hooks.example.com/x";
    expect(checkNode(element)).toEqual([]);
  });
  it("requires a timer delay or a time", () => {
    const element = createElement("timer", at, "Wait");
    expect(checkNode(element)).toEqual([]);
    element.config.delaySeconds = -1;
    expect(keys(checkNode(element))).toEqual(["workflows.rules.timerDelay"]);
    element.config.until = "{{start.when}}";
    expect(checkNode(element)).toEqual([]);
  });
  it("requires a branch besides else, conditions on each, and at most one else", () => {
    const element = createElement("logic_branch", at, "If");
    expect(checkNode(element)).toEqual([]);
    const branches = element.config.branches!;
    element.config.branches = [{ ...branches[0]!, conditions: [] }, branches[1]!, { ...branches[1]!, id: "else2" }];
    expect(keys(checkNode(element))).toEqual(["workflows.rules.elseRepeated", "workflows.rules.conditionsEmpty"]);
    element.config.branches = [branches[1]!];
    expect(keys(checkNode(element))).toEqual(["workflows.rules.branchesEmpty"]);
    const intent = createElement("intent_branch", at, "Intent");
    intent.config.model = "offline";
    intent.config.intentions = intent.config.intentions!.filter((item) => item.isElse);
    expect(checkNode(intent)).toEqual([{ key: "workflows.rules.branchesEmpty", nodeId: intent.id, field: "intentions" }]);
  });
});

describe("cron (spec §5, §9)", () => {
  it("needs five fields and not empty", () => {
    expect(checkCron("")).toBe("workflows.rules.cronRequired");
    expect(checkCron("0 9 * * 1-5")).toBeUndefined();
    expect(checkCron("  0   9 * *   1-5 ")).toBeUndefined();
    expect(checkCron("0 0 9 * * 1-5")).toBe("workflows.rules.cronFields");
    expect(checkCron("0 9 * *")).toBe("workflows.rules.cronFields");
  });
});
