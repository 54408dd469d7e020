import { describe, expect, it } from "vitest";
import {
  blankParameter,
  buildArguments,
  findNameProblems,
  fromApi,
  headersToApi,
  initialArguments,
  isMaskedValue,
  parseDefault,
  removeRow,
  operationsFromMessage,
  rowForErrorPath,
  toApi,
  updateRow,
  type EditableParameter,
} from "./parameters";

const row = (name: string, extra: Partial<EditableParameter> = {}): EditableParameter => ({ ...blankParameter(), name, ...extra });

describe("parameter names (spec §5 Plugin)", () => {
  it("accepts English letters and underscore", () => {
    expect(findNameProblems([row("city"), row("Max_Results"), row("_x")], "requestParams")).toEqual([]);
  });

  it("refuses empty names, digits, hyphens, spaces and non-English letters, naming the path", () => {
    const rows = [row(""), row("city2"), row("first-name"), row("a b"), row("城市")];
    const problems = findNameProblems(rows, "requestParams");
    expect(problems.map((p) => [p.path, p.problem])).toEqual([
      ["requestParams.0.name", "required"],
      ["requestParams.1.name", "invalid"],
      ["requestParams.2.name", "invalid"],
      ["requestParams.3.name", "invalid"],
      ["requestParams.4.name", "invalid"],
    ]);
    expect(problems[1]?.rowKey).toBe(rows[1]?.key);
  });

  it("refuses duplicates among siblings but allows the same name on another level", () => {
    const child = row("city");
    const dup = row("city");
    const rows = [row("city"), row("address", { type: "object", children: [child, row("zip"), dup] }), row("city")];
    const problems = findNameProblems(rows, "requestParams");
    expect(problems.map((p) => [p.path, p.problem])).toEqual([
      ["requestParams.1.children.2.name", "duplicate"],
      ["requestParams.2.name", "duplicate"],
    ]);
    expect(problems[0]?.rowKey).toBe(dup.key);
  });

  it("checks children of arrays too, but ignores children of scalar rows", () => {
    expect(findNameProblems([row("items", { type: "array", children: [row("bad-name")] })], "responseParams")[0]?.path).toBe(
      "responseParams.0.children.0.name",
    );
    expect(findNameProblems([row("x", { type: "string", children: [row("bad-name")] })], "requestParams")).toEqual([]);
  });
});

describe("server error paths onto rows", () => {
  const inner = row("b");
  const tree = [row("a"), row("obj", { type: "object", children: [row("x"), inner] })];

  it("finds nested rows and the field named", () => {
    expect(rowForErrorPath(tree, "requestParams", "requestParams.1.children.1.name")).toEqual({ rowKey: inner.key, field: "name" });
    expect(rowForErrorPath(tree, "requestParams", "requestParams.0.default")).toEqual({ rowKey: tree[0]?.key, field: "default" });
    expect(rowForErrorPath(tree, "requestParams", "requestParams.1")).toEqual({ rowKey: tree[1]?.key, field: "row" });
  });

  it("answers undefined for other trees, missing rows and odd paths", () => {
    expect(rowForErrorPath(tree, "requestParams", "responseParams.0.name")).toBeUndefined();
    expect(rowForErrorPath(tree, "requestParams", "requestParams.5.name")).toBeUndefined();
    expect(rowForErrorPath(tree, "requestParams", "requestParams.1.children.9.name")).toBeUndefined();
    expect(rowForErrorPath(tree, "requestParams", "requestParams.x.name")).toBeUndefined();
    expect(rowForErrorPath(tree, "requestParams", "requestParams")).toBeUndefined();
    expect(rowForErrorPath(tree, "requestParams", "name")).toBeUndefined();
  });
});

describe("converting between the API and the editor", () => {
  it("round-trips names, synonyms, defaults, locations and children", () => {
    const rows = fromApi([
      { name: "count", type: "int", description: "How many", required: true, default: 3, location: "query" },
      { name: "flag", type: "bool", description: "", required: false, default: false },
      { name: "filter", type: "object", description: "", required: false, children: [{ name: "tag", type: "string", description: "", required: false }] },
    ]);
    expect(rows.map((r) => [r.type, r.defaultText, r.location])).toEqual([
      ["integer", "3", "query"],
      ["boolean", "false", ""],
      ["object", "", ""],
    ]);
    expect(toApi(rows)).toEqual([
      { name: "count", type: "integer", description: "How many", required: true, default: 3, location: "query" },
      { name: "flag", type: "boolean", description: "", required: false, default: false },
      { name: "filter", type: "object", description: "", required: false, children: [{ name: "tag", type: "string", description: "", required: false }] },
    ]);
  });

  it("keeps every row (so error indices match) and drops children of scalar rows", () => {
    expect(toApi([row(""), row("s", { children: [row("x")] })])).toEqual([
      { name: "", type: "string", description: "", required: false },
      { name: "s", type: "string", description: "", required: false },
    ]);
  });

  it("parses defaults by type and passes unparsable text through for the server to name", () => {
    expect(parseDefault("float", "1.5")).toBe(1.5);
    expect(parseDefault("integer", "abc")).toBe("abc");
    expect(parseDefault("boolean", "true")).toBe(true);
    expect(parseDefault("array", "[1,2]")).toEqual([1, 2]);
    expect(parseDefault("object", "{oops")).toBe("{oops");
    expect(parseDefault("integer", "  ")).toBeUndefined();
    expect(parseDefault("string", " keep ")).toBe(" keep ");
  });

  it("updates and removes rows at any depth", () => {
    const child = row("c");
    const tree = [row("p", { type: "object", children: [child] })];
    expect(updateRow(tree, child.key, (r) => ({ ...r, name: "d" }))[0]?.children[0]?.name).toBe("d");
    expect(removeRow(tree, child.key)[0]?.children).toEqual([]);
  });

  it("sends header rows by name, keeping masked values as they came", () => {
    expect(
      headersToApi([
        { key: "1", name: " Authorization ", value: "****c0de" },
        { key: "2", name: "", value: "x" },
      ]),
    ).toEqual({ Authorization: "****c0de" });
    expect(isMaskedValue("****c0de")).toBe(true);
    expect(isMaskedValue("Bearer x")).toBe(false);
  });
});

describe("test-run arguments", () => {
  const rows = [
    row("city", { required: true, defaultText: "Hangzhou" }),
    row("days", { type: "integer" }),
    row("ratio", { type: "float" }),
    row("metric", { type: "boolean", defaultText: "true" }),
    row("filter", { type: "object" }),
  ];

  it("starts from the defaults", () => {
    expect(initialArguments(rows)).toEqual({ city: "Hangzhou", days: "", ratio: "", metric: true, filter: "" });
  });

  it("types the values as a model would send them and leaves out empty optional ones", () => {
    expect(buildArguments(rows, { city: "Paris", days: "3", ratio: "0.5", metric: false, filter: '{"a":1}' })).toEqual({
      args: { city: "Paris", days: 3, ratio: 0.5, metric: false, filter: { a: 1 } },
      problems: [],
    });
    expect(buildArguments(rows, { city: "Paris" }).args).toEqual({ city: "Paris" });
  });

  it("names missing required values, non-numbers, fractions for integers and broken JSON", () => {
    expect(buildArguments(rows, { city: " ", days: "1.5", ratio: "x", filter: "{" }).problems).toEqual([
      { name: "city", problem: "required" },
      { name: "days", problem: "integer" },
      { name: "ratio", problem: "number" },
      { name: "filter", problem: "json" },
    ]);
  });
});

describe("OpenAPI operations from the server message", () => {
  it("lists every operation, with or without an id, in either language", () => {
    const message = "The document has several operations; choose one in operation: getWeather (GET /weather), POST /orders/{id}, listPets (GET /pets)";
    expect(operationsFromMessage(message)).toEqual([
      { value: "GET /weather", label: "getWeather (GET /weather)" },
      { value: "POST /orders/{id}", label: "POST /orders/{id}" },
      { value: "GET /pets", label: "listPets (GET /pets)" },
    ]);
    expect(operationsFromMessage("文档包含多个接口，请在 operation 中选择一个：getWeather (GET /weather), DELETE /x").map((c) => c.value)).toEqual([
      "GET /weather",
      "DELETE /x",
    ]);
    expect(operationsFromMessage("nothing here")).toEqual([]);
  });
});
