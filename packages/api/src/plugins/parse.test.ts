import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk } from "../testing/flows";
import { parseResultSchema, pluginSchema } from "./schemas";
import { splitShellWords } from "./service/parse/shell-words";

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures");
const weatherYaml = fs.readFileSync(path.join(fixtures, "weather-openapi.yaml"), "utf8");

let ctx: TestContext;
let user: TestUser;
beforeAll(async () => {
  ctx = await createTestContext();
  user = await registerUser(ctx, "parser@example.com");
});
afterAll(async () => ctx.close());

const parse = (json: unknown) => ctx.request("/api/v1/plugins/parse", { method: "POST", token: user.token, json });

describe("parse an OpenAPI document", () => {
  it("turns a GET operation into a draft: server variables, path/query params with $refs and defaults, response schema", async () => {
    const result = await expectOk(await parse({ source: "openapi", content: weatherYaml, operation: "getForecast" }), 200, parseResultSchema);
    expect(result.draft).toMatchObject({
      name: "City forecast",
      description: "Daily forecast for the coming days.",
      requestUrl: "https://eu.weather.example.com/v2/forecast/{city}",
      requestMethod: "GET",
      headers: {},
    });
    expect(result.draft.requestParams).toEqual([
      { name: "city", type: "string", description: "City name", required: true, location: "path" },
      { name: "units", type: "string", description: "Measurement system. One of: metric, imperial", required: false, default: "metric", location: "query" },
      { name: "days", type: "integer", description: "", required: false, default: 3, location: "query" },
    ]);
    expect(result.draft.responseParams).toEqual([
      { name: "city", type: "string", description: "", required: false },
      {
        name: "days",
        type: "array",
        description: "",
        required: false,
        children: [
          { name: "date", type: "string", description: "", required: false },
          { name: "high", type: "float", description: "", required: false },
          { name: "low", type: "float", description: "", required: false },
          { name: "summary", type: "string", description: "", required: false },
        ],
      },
    ]);
    expect(result.operations).toEqual([
      { operationId: "getForecast", method: "GET", path: "/forecast/{city}", summary: "City forecast" },
      { operationId: "createAlert", method: "POST", path: "/alerts", summary: "Subscribe to alerts" },
      { operationId: null, method: "DELETE", path: "/alerts", summary: "Remove all alerts" },
    ]);
    expect(result.warnings.join("\n")).toMatch(/cookie parameter "session"/);
    expect(result.warnings.join("\n")).toMatch(/X-Api-Key/);
  });

  it("reads a JSON body with allOf, nested $ref objects, arrays and required fields; picks by METHOD /path", async () => {
    const json = JSON.stringify(parseYaml(weatherYaml));
    const result = await expectOk(await parse({ source: "openapi", content: json, operation: "post /alerts" }), 200, parseResultSchema);
    expect(result.draft).toMatchObject({ name: "Subscribe to alerts", requestUrl: "https://eu.weather.example.com/v2/alerts", requestMethod: "POST" });
    expect(result.draft.requestParams).toEqual([
      { name: "email", type: "string", description: "Where alerts go", required: true, location: "body" },
      {
        name: "location",
        type: "object",
        description: "",
        required: false,
        location: "body",
        children: [
          { name: "lat", type: "float", description: "Latitude", required: true },
          { name: "lon", type: "float", description: "Longitude", required: true },
        ],
      },
      { name: "kinds", type: "array", description: "", required: false, itemType: "string", location: "body" },
      { name: "threshold", type: "integer", description: "", required: false, default: 3, location: "body" },
      { name: "urgent", type: "boolean", description: "", required: false, location: "body" },
    ]);
    expect(result.draft.responseParams.map((parameter) => parameter.name)).toEqual(["id", "status"]);
  });

  it("a parsed draft, given a name, image and the header, saves as a plugin", async () => {
    const { draft } = await expectOk(await parse({ source: "openapi", content: weatherYaml, operation: "getForecast" }), 200, parseResultSchema);
    const saved = await ctx.request("/api/v1/plugins", {
      method: "POST",
      token: user.token,
      json: { ...draft, avatar: "https://cdn.example.com/weather.png", headers: { "X-Api-Key": "key-1234567890abcdef" } },
    });
    const plugin = await expectOk(saved, 201, pluginSchema);
    expect(plugin.requestParams).toEqual(draft.requestParams);
  });

  it("lists the operations when the choice is missing or unknown", async () => {
    await expectError(await parse({ source: "openapi", content: weatherYaml }), 400, {
      field: "operation",
      message: /several operations.*getForecast \(GET \/forecast\/\{city\}\), createAlert \(POST \/alerts\), DELETE \/alerts/,
    });
    await expectError(await parse({ source: "openapi", content: weatherYaml, operation: "deleteEverything" }), 400, {
      field: "operation",
      message: /No operation "deleteEverything"/,
    });
  });

  it("takes the only operation without being told", async () => {
    const single = `openapi: "3.1.0"\ninfo: { title: Ping, version: "1" }\nservers: [{ url: "https://ping.example.com" }]\npaths:\n  /ping:\n    get:\n      parameters:\n        - { name: target, in: query, required: true, schema: { type: string } }\n      responses: { "200": { description: ok } }\n`;
    const result = await expectOk(await parse({ source: "openapi", content: single }), 200, parseResultSchema);
    expect(result.draft).toMatchObject({ name: "Ping", requestUrl: "https://ping.example.com/ping", requestMethod: "GET" });
    expect(result.draft.requestParams).toEqual([{ name: "target", type: "string", description: "", required: true, location: "query" }]);
  });

  const bad: Array<[string, string, RegExp]> = [
    ["broken YAML", "openapi: 3.0.0\npaths: [unclosed", /neither valid JSON nor YAML/],
    ["broken JSON", '{"openapi": "3.0.0", ', /neither valid JSON nor YAML/],
    ["a plain string", "just some words", /not an object/],
    ["Swagger 2.0", 'swagger: "2.0"\ninfo: { title: x, version: "1" }\npaths: {}\n', /Only OpenAPI 3\.x.*version 2\.0/],
    ["no operations", 'openapi: 3.0.0\ninfo: { title: x, version: "1" }\nservers: [{ url: "https://x.example.com" }]\npaths: {}\n', /no operations/],
    ["no server", 'openapi: 3.0.0\ninfo: { title: x, version: "1" }\npaths: { /a: { get: { responses: {} } } }\n', /no absolute server URL/],
    [
      "relative server",
      'openapi: 3.0.0\ninfo: { title: x, version: "1" }\nservers: [{ url: "/api" }]\npaths: { /a: { get: { responses: {} } } }\n',
      /no absolute server URL/,
    ],
    [
      "a dangling $ref",
      'openapi: 3.0.0\ninfo: { title: x, version: "1" }\nservers: [{ url: "https://x.example.com" }]\npaths: { /a: { get: { parameters: [{ $ref: "#/components/parameters/Missing" }], responses: {} } } }\n',
      /#\/components\/parameters\/Missing/,
    ],
    [
      "a reference loop",
      'openapi: 3.0.0\ninfo: { title: x, version: "1" }\nservers: [{ url: "https://x.example.com" }]\ncomponents: { schemas: { A: { $ref: "#/components/schemas/B" }, B: { $ref: "#/components/schemas/A" } } }\npaths: { /a: { post: { requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/A" } } } }, responses: {} } } }\n',
      /cannot be resolved/,
    ],
  ];
  for (const [title, content, message] of bad) {
    it(`refuses ${title} with a clear 400`, async () => {
      await expectError(await parse({ source: "openapi", content }), 400, { field: "content", message });
    });
  }

  it("survives a self-referencing schema (a tree) without looping", async () => {
    const tree = `openapi: 3.0.0
info: { title: Tree, version: "1" }
servers: [{ url: "https://tree.example.com" }]
components:
  schemas:
    Node:
      type: object
      properties:
        label: { type: string }
        children: { type: array, items: { $ref: "#/components/schemas/Node" } }
paths:
  /nodes:
    post:
      requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Node" } } } }
      responses: {}
`;
    const result = await expectOk(await parse({ source: "openapi", content: tree }), 200, parseResultSchema);
    expect(result.draft.requestParams[0]).toMatchObject({ name: "label", type: "string" });
    expect(result.draft.requestParams[1]).toMatchObject({ name: "children", type: "array" });
  });
});

describe("parse a curl command", () => {
  it("reads -X, -H, a --data-raw JSON body with nested objects and a query string, across continued lines", async () => {
    const command = `curl -X POST 'https://api.example.com/v1/orders?dry_run=true&region=eu' \\
  -H 'Content-Type: application/json' \\
  -H "Authorization: Bearer sk-test-abc123" \\
  --data-raw '{"customer":{"name":"Lin","vip":true},"items":[{"sku":"A1","qty":2}],"note":"it\\'s fine","total":12.5,"tags":["a","b"]}'`;
    const result = await expectOk(await parse({ source: "curl", content: command.replace("\\'s", "s") }), 200, parseResultSchema);
    expect(result.draft).toMatchObject({
      name: "orders",
      requestUrl: "https://api.example.com/v1/orders",
      requestMethod: "POST",
      headers: { Authorization: "Bearer sk-test-abc123" },
    });
    expect(result.draft.requestParams).toEqual([
      {
        name: "customer",
        type: "object",
        description: "",
        required: true,
        location: "body",
        children: [
          { name: "name", type: "string", description: "", required: true, default: "Lin" },
          { name: "vip", type: "boolean", description: "", required: true, default: true },
        ],
      },
      {
        name: "items",
        type: "array",
        description: "",
        required: true,
        location: "body",
        children: [
          { name: "sku", type: "string", description: "", required: true, default: "A1" },
          { name: "qty", type: "integer", description: "", required: true, default: 2 },
        ],
      },
      { name: "note", type: "string", description: "", required: true, default: "its fine", location: "body" },
      { name: "total", type: "float", description: "", required: true, default: 12.5, location: "body" },
      { name: "tags", type: "array", itemType: "string", description: "", required: true, default: ["a", "b"], location: "body" },
      { name: "dry_run", type: "boolean", description: "", required: true, default: true, location: "query" },
      { name: "region", type: "string", description: "", required: true, default: "eu", location: "query" },
    ]);
  });

  it("defaults to GET, and to POST when there is a body; reads -d and --json", async () => {
    const get = await expectOk(await parse({ source: "curl", content: "curl https://api.example.com/status?verbose=1" }), 200, parseResultSchema);
    expect(get.draft).toMatchObject({ requestMethod: "GET", requestUrl: "https://api.example.com/status" });
    expect(get.draft.requestParams).toEqual([{ name: "verbose", type: "integer", description: "", required: true, default: 1, location: "query" }]);

    const post = await expectOk(await parse({ source: "curl", content: `curl https://api.example.com/echo -d '{"text":"hi"}'` }), 200, parseResultSchema);
    expect(post.draft.requestMethod).toBe("POST");
    const json = await expectOk(
      await parse({ source: "curl", content: `curl --json '{"q":"x"}' --url https://api.example.com/search` }),
      200,
      parseResultSchema,
    );
    expect(json.draft).toMatchObject({ requestMethod: "POST", requestUrl: "https://api.example.com/search" });
    expect(json.draft.requestParams[0]).toMatchObject({ name: "q", location: "body" });
  });

  it("reads combined switches, attached values, --opt=value, -G data as the query, -u and $'…' quoting", async () => {
    const command = `$ curl -sSL -XPUT -G --data-urlencode "q=hello world" -d limit=5 --header=X-Team:core -u ann:s3cret $'https://api.example.com/items\\x2fall' | jq .`;
    const result = await expectOk(await parse({ source: "curl", content: command }), 200, parseResultSchema);
    expect(result.draft).toMatchObject({
      requestMethod: "PUT",
      requestUrl: "https://api.example.com/items/all",
      headers: { "X-Team": "core", Authorization: `Basic ${Buffer.from("ann:s3cret").toString("base64")}` },
    });
    expect(result.draft.requestParams).toEqual([
      { name: "q", type: "string", description: "", required: true, default: "hello world", location: "query" },
      { name: "limit", type: "integer", description: "", required: true, default: 5, location: "query" },
    ]);
  });

  it("reads a copy from a browser's dev tools (Windows ^ continuations) and warns about names the rule refuses", async () => {
    const command = 'curl "https://api.example.com/v2/lookup?user-id=7" ^\n  -H "accept: application/json" ^\n  --compressed';
    const result = await expectOk(await parse({ source: "curl", content: command }), 200, parseResultSchema);
    expect(result.draft.requestUrl).toBe("https://api.example.com/v2/lookup");
    expect(result.warnings).toEqual([expect.stringMatching(/"user-id".*rename/)]);
  });

  const bad: Array<[string, string, RegExp]> = [
    ["a command that is not curl", "wget https://example.com", /does not start with curl/],
    ["an unclosed quote", "curl 'https://example.com", /quote that is never closed/],
    ["no URL", "curl -X POST -H 'A: b'", /No URL/],
    ["an option without its value", "curl https://example.com -H", /-H has no value/],
    ["a non-http URL", "curl ftp://files.example.com/a", /not an http or https URL/],
    ["a form body", "curl https://example.com -d 'a=1&b=2'", /not a JSON object/],
    ["a JSON array body", `curl https://example.com -d '[1,2]'`, /not a JSON object/],
    ["a multipart upload", "curl https://example.com -F file=@a.png", /not a JSON object/],
    ["an unsupported method", "curl -X OPTIONS https://example.com", /OPTIONS is not supported/],
  ];
  for (const [title, content, message] of bad) {
    it(`refuses ${title} with a clear 400`, async () => {
      await expectError(await parse({ source: "curl", content }), 400, { field: "content", message });
    });
  }

  it("refuses an empty content and an unknown source by their fields", async () => {
    await expectError(await parse({ source: "curl", content: "" }), 400, { field: "content" });
    await expectError(await parse({ source: "postman", content: "{}" }), 400, { field: "source" });
  });
});

describe("shell words", () => {
  it("splits like a POSIX shell", () => {
    expect(splitShellWords(`a 'b c' "d \\"e\\" $f" g\\ h i\\\nj`)).toEqual(["a", "b c", 'd "e" $f', "g h", "ij"]);
    expect(splitShellWords(`x''y "" ''`)).toEqual(["xy", "", ""]);
    expect(splitShellWords(`$'tab\\there' $'\\u4e2d'`)).toEqual(["tab\there", "中"]);
    expect(splitShellWords(`"back\\slash" 'keep\\n'`)).toEqual(["back\\slash", "keep\\n"]);
    expect(() => splitShellWords(`"open`)).toThrow(/double quote/);
  });
});
