import { describe, expect, it } from "vitest";
import { missingVariables, nodeReferences, variableValues } from "./run-inputs";
import { runAnswer, showValue } from "./run-values";
import { createElement, type StartVariable } from "./workflow-model";
import { fieldOfIssue, graphOf, wireOf } from "./workflow-wire";

describe("server issues on nodes", () => {
  it("maps the issue field to the node form field", () => {
    expect(fieldOfIssue({ field: "elements.llm_1.config.model", nodeId: "llm_1" })).toBe("model");
    expect(fieldOfIssue({ field: "elements.start.config.variables.1.identifier", nodeId: "start" })).toBe("variables.1.identifier");
    expect(fieldOfIssue({ field: "elements.end", nodeId: "end" })).toBe("");
    expect(fieldOfIssue({ field: "name", nodeId: null })).toBe("name");
  });
});

describe("graph on the wire", () => {
  it("round-trips elements and lines, null handles kept", () => {
    const llm = createElement("llm", { x: 10, y: 20 }, "LLM");
    const wire = wireOf({ elements: [llm], lines: [{ id: "l1", source: "start", target: llm.id }] });
    expect(wire.lines).toEqual([{ id: "l1", source: "start", sourceHandle: null, target: llm.id }]);
    expect(wire.elements[0]).toEqual({ id: llm.id, type: "llm", config: llm.config, position: { x: 10, y: 20 } });
    const back = graphOf(wire as never);
    expect(back.elements[0]!.config.name).toBe("LLM");
    expect(back.lines[0]!.sourceHandle).toBeNull();
  });
});

describe("run inputs", () => {
  const variables: StartVariable[] = [
    { identifier: "city", displayName: "City", type: "text", required: true },
    { identifier: "days", displayName: "Days", type: "number", required: false },
    { identifier: "note", displayName: "Note", type: "paragraph", required: false },
  ];
  it("sends numbers as numbers and leaves empty values out", () => {
    expect(variableValues(variables, { city: "Paris", days: "3", note: "" })).toEqual({ city: "Paris", days: 3 });
  });
  it("names the required variables left empty", () => {
    expect(missingVariables(variables, { days: 2 })).toEqual(["city"]);
    expect(missingVariables(variables, { city: "Paris" })).toEqual([]);
  });
  it("lists what a node reads, once each", () => {
    const element = createElement("llm", { x: 0, y: 0 }, "LLM");
    element.config.systemPrompt = "About {{start.city}}";
    element.config.input = "{{sys.query}} in {{start.city}}";
    expect(nodeReferences(element)).toEqual(["start.city", "sys.query"]);
  });
});

describe("run values", () => {
  it("shows the end output alone and other values as JSON", () => {
    expect(runAnswer({ output: "Hello" })).toBe("Hello");
    expect(runAnswer({ output: "Hello", extra: 1 })).toBe('{\n  "output": "Hello",\n  "extra": 1\n}');
    expect(showValue(null)).toBe("");
    expect(showValue([1])).toBe("[\n  1\n]");
  });
});
