import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { jsonDeeperThan, MAX_JSON_DEPTH } from "./schemas";

let ctx: TestContext;
let user: TestUser;
beforeAll(async () => {
  ctx = await createTestContext();
  user = await registerUser(ctx, "bounds@example.com");
});
afterAll(async () => ctx.close());

// Every list that pages; the ids need not exist: the query is checked before anything is looked up.
const pagedRoutes = [
  "/api/v1/apps",
  "/api/v1/credits/ledger",
  "/api/v1/usage-records",
  "/api/v1/workflows",
  "/api/v1/workflow-square",
  "/api/v1/workflows/wf_unknown/runs",
  "/api/v1/knowledge-files/kf_unknown/segments",
  "/api/v1/knowledge-files/kf_unknown/qa/pairs",
  "/api/v1/knowledge-files/kf_unknown/table/rows",
  "/api/v1/knowledge-bases/kb_unknown/media",
];

describe("paging parameters are bounded on every list", () => {
  for (const path of pagedRoutes) {
    it(`${path}: huge, zero and non-numeric pageNo and pageSize are 400s naming the field`, async () => {
      for (const [field, value] of [
        ["pageNo", "1000000000000000000"],
        ["pageNo", "9223372036854775807"],
        ["pageNo", "1000001"],
        ["pageNo", "0"],
        ["pageNo", "abc"],
        ["pageSize", "1000000000000000000"],
        ["pageSize", "0"],
      ] as const) {
        await expectError(await ctx.request(`${path}?${field}=${value}`, { token: user.token }), 400, { field, message: new RegExp(`^Invalid ${field}: `) });
      }
      await expectError(await ctx.request(`${path}?pageNo=1000000000000000000`, { token: user.token, headers: { "accept-language": "zh-CN" } }), 400, {
        field: "pageNo",
        message: /^pageNo 无效：/,
      });
    });
  }

  it("the largest accepted page is an empty page, not an error", async () => {
    for (const path of ["/api/v1/apps", "/api/v1/credits/ledger", "/api/v1/usage-records", "/api/v1/workflows", "/api/v1/workflow-square"]) {
      const response = await ctx.request(`${path}?pageNo=1000000&pageSize=100`, { token: user.token });
      expect(response.status, `${path} ${await response.clone().text()}`).toBe(200);
    }
  });
});

function nested(depth: number): unknown {
  let value: unknown = "bottom";
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? { deeper: value } : [value];
  return value;
}

describe("free-form JSON is bounded in depth", () => {
  it("measures depth without recursion", () => {
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDeeperThan(nested(200_000), MAX_JSON_DEPTH)).toBe(true);
  });

  // Sent as text: JSON.stringify itself overflows the stack on such a value (as startRun once did).
  const deep = { toJSON: () => "__DEEP__" };
  const deepText = `${'{"deeper":['.repeat(2500)}"bottom"${"]}".repeat(2500)}`;
  const send = (path: string, method: string, json: unknown, language?: string) =>
    ctx.request(path, {
      method,
      body: JSON.stringify(json).replace('"__DEEP__"', deepText),
      token: user.token,
      headers: { "content-type": "application/json", ...(language ? { "accept-language": language } : {}) },
    });
  const cases: Array<{ title: string; path: string; method: string; json: unknown; field: string }> = [
    { title: "workflow run variables", path: "/api/v1/workflows/wf_unknown/runs", method: "POST", json: { variables: { city: deep } }, field: "variables" },
    {
      title: "workflow node inputs",
      path: "/api/v1/workflows/wf_unknown/runs",
      method: "POST",
      json: { type: "NODE", nodeId: "llm_1", nodeInputs: { "start.city": deep } },
      field: "nodeInputs",
    },
    {
      title: "workflow node config",
      path: "/api/v1/workflows/wf_unknown/graph",
      method: "PUT",
      json: { elements: [{ id: "start_1", type: "start", config: { deep } }], lines: [] },
      field: "elements.0.config",
    },
    {
      title: "plugin test arguments",
      path: "/api/v1/plugins/debug",
      method: "POST",
      json: { pluginId: "plg_unknown", arguments: { deep } },
      field: "arguments",
    },
  ];
  for (const { title, path, method, json, field } of cases) {
    it(`${title}: 5,000 levels deep is a 400 naming ${field}, en and zh`, async () => {
      await expectError(await send(path, method, json), 400, { field, message: `Invalid ${field}: nested more than 64 levels deep` });
      await expectError(await send(path, method, json, "zh-CN"), 400, {
        field,
        message: `${field} 无效：嵌套超过 64 层`,
      });
    });
  }
});
