import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { plugins } from "../db/schema/index";
import { spaceSchema } from "../identity/schemas";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectError, expectOk } from "../testing/flows";
import { builtinPluginSchema, pluginSchema } from "./schemas";
import { openValue } from "../platform/sealed";

let ctx: TestContext;
let owner: TestUser;
let stranger: TestUser;
beforeAll(async () => {
  ctx = await createTestContext();
  owner = await registerUser(ctx, "plugin-owner@example.com");
  // More than Free's quotas allow is created below.
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  stranger = await registerUser(ctx, "plugin-stranger@example.com");
});
afterAll(async () => ctx.close());

const secret = "sk-live-0123456789abcdef";

function weatherPlugin(overrides: Record<string, unknown> = {}) {
  return {
    name: "Weather",
    description: "Current weather for a city",
    avatar: "https://cdn.example.com/icons/weather.png",
    requestUrl: "https://api.example.com/v1/weather",
    requestMethod: "GET",
    requestParams: [
      { name: "city", type: "string", description: "City name", required: true },
      { name: "days", type: "int", description: "Forecast days", required: false, default: "3" },
      {
        name: "options",
        type: "object",
        description: "Extra options",
        required: false,
        children: [
          { name: "unit", type: "string", description: "metric or imperial", required: false, default: "metric" },
          { name: "detailed", type: "bool", description: "", required: false },
        ],
      },
    ],
    responseParams: [{ name: "temperature", type: "float", description: "Degrees", required: true }],
    headers: { Authorization: `Bearer ${secret}`, "X-Trace": "abc" },
    ...overrides,
  };
}

const create = (token: string, json: unknown) => ctx.request("/api/v1/plugins", { method: "POST", token, json });

describe("custom plugin CRUD", () => {
  it("creates a plugin with a unique plg_ code, normalised defaults and masked header secrets", async () => {
    const response = await create(owner.token, weatherPlugin());
    const text = await response.clone().text();
    const plugin = await expectOk(response, 201, pluginSchema);
    expect(plugin.id).toMatch(/^plg_/);
    expect(plugin.code).toMatch(/^plg_[0-9a-z]{16}$/);
    expect(plugin).toMatchObject({ builtin: false, enabled: true, name: "Weather", requestMethod: "GET", requestUrl: "https://api.example.com/v1/weather" });
    // "3" for an int is stored as the number 3.
    expect(plugin.requestParams[1]).toMatchObject({ name: "days", type: "int", default: 3 });
    expect(plugin.requestParams[2]!.children?.map((child) => child.name)).toEqual(["unit", "detailed"]);
    expect(plugin.headers).toEqual({ Authorization: "****cdef", "X-Trace": "****" });
    expect(text).not.toContain(secret);

    const row = await ctx.deps.db.select().from(plugins).where(eq(plugins.id, plugin.id)).get();
    expect(row).toMatchObject({
      spaceId: owner.user.spaceId,
      createdBy: owner.user.id,
      code: plugin.code,
      avatarUrl: "https://cdn.example.com/icons/weather.png",
    });
    expect(JSON.parse(openValue(ctx.deps.secrets, row!.headers))).toEqual({ Authorization: `Bearer ${secret}`, "X-Trace": "abc" });

    const second = await expectOk(await create(owner.token, weatherPlugin({ name: "Weather 2" })), 201, pluginSchema);
    expect(second.code).not.toBe(plugin.code);
  });

  it("lists the space's plugins with the enabled filter, shows detail, switches and deletes", async () => {
    const team = await expectOk(
      await ctx.request("/api/v1/spaces", { method: "POST", token: owner.token, json: { companyName: "Plugin Team" } }),
      201,
      spaceSchema,
    );
    // The new team space becomes the owner's current one, where later tests create more plugins than Free allows (issue 15).
    await upgradeSpaceForTest(ctx, team.spaceId);
    const inTeam = { "x-parley-space": team.spaceId };
    const on = await expectOk(
      await ctx.request("/api/v1/plugins", { method: "POST", token: owner.token, json: weatherPlugin({ name: "On" }), headers: inTeam }),
      201,
      pluginSchema,
    );
    const off = await expectOk(
      await ctx.request("/api/v1/plugins", { method: "POST", token: owner.token, json: weatherPlugin({ name: "Off", enabled: false }), headers: inTeam }),
      201,
      pluginSchema,
    );
    const list = (query = "") => ctx.request(`/api/v1/plugins${query}`, { token: owner.token, headers: inTeam });
    expect((await expectOk(await list(), 200, z.array(pluginSchema))).map((plugin) => plugin.name)).toEqual(["Off", "On"]);
    expect((await expectOk(await list("?enabled=true"), 200, z.array(pluginSchema))).map((plugin) => plugin.id)).toEqual([on.id]);
    expect((await expectOk(await list("?enabled=false"), 200, z.array(pluginSchema))).map((plugin) => plugin.id)).toEqual([off.id]);
    await expectError(await list("?enabled=maybe"), 400, { field: "enabled" });

    const detail = await expectOk(await ctx.request(`/api/v1/plugins/${on.id}`, { token: owner.token, headers: inTeam }), 200, pluginSchema);
    expect(detail).toEqual(on);

    const switched = await expectOk(
      await ctx.request(`/api/v1/plugins/${on.id}/enabled`, { method: "POST", token: owner.token, json: { enabled: false }, headers: inTeam }),
      200,
      pluginSchema,
    );
    expect(switched.enabled).toBe(false);
    expect((await ctx.deps.db.select().from(plugins).where(eq(plugins.id, on.id)).get())?.enabled).toBe(false);
    await expectError(
      await ctx.request(`/api/v1/plugins/${on.id}/enabled`, { method: "POST", token: owner.token, json: { enabled: "no" }, headers: inTeam }),
      400,
      {
        field: "enabled",
      },
    );

    const removed = await ctx.request(`/api/v1/plugins/${off.id}`, { method: "DELETE", token: owner.token, headers: inTeam });
    expect(await expectOk(removed, 200, z.object({ deleted: z.literal(true) }))).toEqual({ deleted: true });
    expect(await ctx.deps.db.select().from(plugins).where(eq(plugins.id, off.id)).get()).toBeUndefined();
    await expectError(await ctx.request(`/api/v1/plugins/${off.id}`, { method: "DELETE", token: owner.token, headers: inTeam }), 404);
    // The personal space does not see the team's plugins.
    const personal = await expectOk(
      await ctx.request("/api/v1/plugins", { token: owner.token, headers: { "x-parley-space": owner.user.spaceId } }),
      200,
      z.array(pluginSchema),
    );
    expect(personal.map((plugin) => plugin.id)).not.toContain(on.id);
  });

  it("updates only the fields sent; a masked header value sent back keeps the stored secret", async () => {
    const plugin = await expectOk(await create(owner.token, weatherPlugin({ name: "Editable" })), 201, pluginSchema);
    const updated = await expectOk(
      await ctx.request(`/api/v1/plugins/${plugin.id}`, {
        method: "PATCH",
        token: owner.token,
        json: { name: "Edited", headers: { ...plugin.headers, "X-Trace": "new-trace" } },
      }),
      200,
      pluginSchema,
    );
    expect(updated).toMatchObject({
      name: "Edited",
      description: plugin.description,
      requestParams: plugin.requestParams,
      responseParams: plugin.responseParams,
    });
    expect(updated.updatedAt >= plugin.updatedAt).toBe(true);
    const row = await ctx.deps.db.select().from(plugins).where(eq(plugins.id, plugin.id)).get();
    expect(JSON.parse(openValue(ctx.deps.secrets, row!.headers))).toEqual({ Authorization: `Bearer ${secret}`, "X-Trace": "new-trace" });

    // An update must still meet every rule.
    await expectError(await ctx.request(`/api/v1/plugins/${plugin.id}`, { method: "PATCH", token: owner.token, json: { description: "  " } }), 400, {
      field: "description",
      message: "The plugin description is required",
    });
  });

  it("answers 404 for another space's plugin on every route, and changes nothing", async () => {
    const plugin = await expectOk(await create(owner.token, weatherPlugin({ name: "Private" })), 201, pluginSchema);
    const routes: Array<[string, string, unknown?]> = [
      ["GET", `/api/v1/plugins/${plugin.id}`],
      ["PATCH", `/api/v1/plugins/${plugin.id}`, { name: "Stolen" }],
      ["POST", `/api/v1/plugins/${plugin.id}/enabled`, { enabled: false }],
      ["DELETE", `/api/v1/plugins/${plugin.id}`],
      ["POST", "/api/v1/plugins/debug", { pluginId: plugin.id, arguments: { city: "x" } }],
    ];
    for (const [method, path, json] of routes) {
      await expectError(await ctx.request(path, { method, token: stranger.token, ...(json ? { json } : {}) }), 404, { message: "Plugin not found" });
    }
    const list = await expectOk(await ctx.request("/api/v1/plugins", { token: stranger.token }), 200, z.array(pluginSchema));
    expect(list).toEqual([]);
    const row = await ctx.deps.db.select().from(plugins).where(eq(plugins.id, plugin.id)).get();
    expect(row).toMatchObject({ name: "Private", enabled: true });
  });

  it("needs a signed-in caller", async () => {
    await expectError(await ctx.request("/api/v1/plugins"), 401);
    await expectError(await ctx.request("/api/v1/plugins", { method: "POST", json: weatherPlugin() }), 401);
    await expectError(await ctx.request("/api/v1/plugins/builtin"), 401);
  });
});

describe("§5 Plugin rules, each naming its field", () => {
  const cases: Array<[string, Record<string, unknown>, string, string | RegExp]> = [
    ["name required", { name: "  " }, "name", "The plugin name is required"],
    ["name missing", { name: undefined }, "name", /name/],
    ["description required", { description: "" }, "description", "The plugin description is required"],
    ["image required", { avatar: "" }, "avatar", "The plugin image is required"],
    ["image must be an image address", { avatar: "javascript:alert(1)" }, "avatar", /image/],
    ["request type required", { requestMethod: undefined }, "requestMethod", "The request type is required"],
    ["request type must be known", { requestMethod: "TRACE" }, "requestMethod", /requestMethod/],
    ["URL required", { requestUrl: " " }, "requestUrl", "The request URL is required"],
    ["URL must be http or https", { requestUrl: "ftp://files.example.com/x" }, "requestUrl", /http/],
    ["URL must parse", { requestUrl: "not a url" }, "requestUrl", /http/],
    ["parameters required", { requestParams: [] }, "requestParams", "Add at least one request parameter"],
    [
      "parameter name required",
      { requestParams: [{ name: "", type: "string", description: "", required: true }] },
      "requestParams.0.name",
      "Every parameter needs a name",
    ],
    [
      "parameter names: letters and underscore only (digits)",
      { requestParams: [{ name: "city2", type: "string", description: "", required: true }] },
      "requestParams.0.name",
      'Parameter name "city2" may only hold English letters and underscores',
    ],
    [
      "parameter names: letters and underscore only (hyphen)",
      {
        requestParams: [
          { name: "ok_name", type: "string", description: "", required: true },
          { name: "api-key", type: "string", description: "", required: true },
        ],
      },
      "requestParams.1.name",
      /api-key/,
    ],
    [
      "parameter names: letters and underscore only (Chinese)",
      { requestParams: [{ name: "城市", type: "string", description: "", required: true }] },
      "requestParams.0.name",
      /城市/,
    ],
    [
      "no duplicate names",
      {
        requestParams: [
          { name: "city", type: "string", description: "", required: true },
          { name: "city", type: "int", description: "", required: false },
        ],
      },
      "requestParams.1.name",
      'Parameter name "city" is used twice at the same level',
    ],
    [
      "no duplicate names among sub-parameters",
      {
        requestParams: [
          {
            name: "filter",
            type: "object",
            description: "",
            required: false,
            children: [
              { name: "tag", type: "string", description: "", required: false },
              { name: "tag", type: "string", description: "", required: false },
            ],
          },
        ],
      },
      "requestParams.0.children.1.name",
      /"tag" is used twice/,
    ],
    [
      "sub-parameter names follow the rule two levels down",
      {
        requestParams: [
          {
            name: "items",
            type: "array",
            description: "",
            required: false,
            children: [
              {
                name: "meta",
                type: "object",
                description: "",
                required: false,
                children: [{ name: "bad name", type: "string", description: "", required: false }],
              },
            ],
          },
        ],
      },
      "requestParams.0.children.0.children.0.name",
      /bad name/,
    ],
    [
      "response parameter names follow the rule too",
      { responseParams: [{ name: "temp$", type: "float", description: "", required: false }] },
      "responseParams.0.name",
      /temp\$/,
    ],
    [
      "parameter type must be one of the list",
      { requestParams: [{ name: "city", type: "date", description: "", required: true }] },
      "requestParams.0.type",
      /type/,
    ],
    [
      "a default must fit its type",
      { requestParams: [{ name: "days", type: "integer", description: "", required: false, default: "three" }] },
      "requestParams.0.default",
      'The default of "days" is not a valid integer',
    ],
    ["header names must be valid", { headers: { "Bad Header": "x" } }, "headers.Bad Header", /Bad Header/],
    ["the transport's headers cannot be set", { headers: { Host: "evil.example.com" } }, "headers.Host", /Host/],
  ];
  for (const [title, change, field, message] of cases) {
    it(title, async () => {
      const before = (await ctx.deps.db.select().from(plugins)).length;
      await expectError(await create(owner.token, weatherPlugin(change)), 400, { field, message });
      expect((await ctx.deps.db.select().from(plugins)).length).toBe(before);
    });
  }

  it("accepts every type spelling, underscores, and the same name at different levels", async () => {
    const requestParams = ["string", "int", "integer", "float", "bool", "boolean", "object", "array"].map((type, index) => ({
      name: `p_${"abcdefgh"[index]}`,
      type,
      description: "",
      required: false,
    }));
    requestParams.push({
      name: "name",
      type: "object",
      description: "",
      required: false,
      children: [{ name: "name", type: "string", description: "", required: false }],
    } as never);
    await expectOk(await create(owner.token, weatherPlugin({ requestParams })), 201, pluginSchema);
  });

  it("answers in Chinese when asked", async () => {
    await expectError(
      await ctx.request("/api/v1/plugins", { method: "POST", token: owner.token, json: weatherPlugin({ name: "" }), headers: { "accept-language": "zh-CN" } }),
      400,
      {
        field: "name",
        message: "请填写插件名称",
      },
    );
  });
});

describe("built-in plugins", () => {
  it("lists the offline built-ins and web search, filtered by scope, in the reader's language", async () => {
    const all = await expectOk(await ctx.request("/api/v1/plugins/builtin", { token: owner.token }), 200, z.array(builtinPluginSchema));
    expect(all.map((plugin) => plugin.code)).toEqual(["current_time", "calculator", "fetch_webpage", "web_search"]);
    expect(all.find((plugin) => plugin.code === "web_search")?.available).toBe(false);
    expect(all.find((plugin) => plugin.code === "calculator")).toMatchObject({ builtin: true, scope: "utility", name: "Calculator", available: true });
    const web = await expectOk(await ctx.request("/api/v1/plugins/builtin?scope=web", { token: owner.token }), 200, z.array(builtinPluginSchema));
    expect(web.map((plugin) => plugin.code)).toEqual(["fetch_webpage", "web_search"]);
    const chinese = await expectOk(
      await ctx.request("/api/v1/plugins/builtin?scope=utility", { token: owner.token, headers: { "accept-language": "zh-CN" } }),
      200,
      z.array(builtinPluginSchema),
    );
    expect(chinese.map((plugin) => plugin.name)).toEqual(["当前时间", "计算器"]);
    await expectError(await ctx.request("/api/v1/plugins/builtin?scope=nope", { token: owner.token }), 400, { field: "scope" });
  });
});
