import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectOk } from "../testing/flows";
import type { PluginRuntime, PluginTool } from "./runtime-types";
import { pluginSchema } from "./schemas";
import { createPluginRuntime } from "./service/runtime";
import { guardedLookup, outboundPolicy } from "./service/network";
import { type FakeServer, sendJson, startFakeServer } from "./testing";

const secret = "tok-0123456789abcdef";

async function createPlugin(ctx: TestContext, user: TestUser, fields: Record<string, unknown>) {
  const response = await ctx.request("/api/v1/plugins", {
    method: "POST",
    token: user.token,
    json: { name: "Plugin", description: "A test plugin", avatar: "https://cdn.example.com/p.png", requestMethod: "GET", headers: {}, ...fields },
  });
  return expectOk(response, 201, pluginSchema);
}

async function toolFor(runtime: PluginRuntime, user: TestUser, code: string): Promise<PluginTool> {
  const [tool] = await runtime.toolsFor({ spaceId: user.user.spaceId, pluginCodes: [code] });
  if (!tool) throw new Error(`no tool for ${code}`);
  return tool;
}

describe("plugin runtime with the private network allowed (local fakes)", () => {
  let ctx: TestContext;
  let user: TestUser;
  let runtime: PluginRuntime;
  let api: FakeServer;
  beforeAll(async () => {
    api = await startFakeServer(async (request, response) => {
      const url = new URL(request.url, "http://x");
      if (url.pathname === "/hang") return; // never answers
      if (url.pathname === "/huge") {
        response.writeHead(200, { "content-type": "text/plain" });
        const chunk = Buffer.alloc(64 * 1024, "x");
        let written = 0;
        while (written < 10 * 1024 * 1024 && !response.destroyed) {
          const flushed = response.write(chunk);
          written += chunk.length;
          if (!flushed) {
            await new Promise((resolve) => {
              response.once("drain", resolve);
              response.once("close", resolve);
            });
          }
        }
        hugeWritten = written;
        response.end();
        return;
      }
      if (url.pathname === "/fail") return sendJson(response, 503, { error: "maintenance" });
      sendJson(response, 200, {
        method: request.method,
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: request.body ? JSON.parse(request.body) : null,
        auth: request.headers.authorization ?? null,
      });
    });
    ctx = await createTestContext({
      PARLEY_PLUGINS_ALLOW_PRIVATE_NETWORK: "true",
      PARLEY_PLUGINS_ALLOWED_HOSTS: "127.0.0.1",
      PARLEY_PLUGINS_TIMEOUT_MS: "600",
    });
    user = await registerUser(ctx, "runtime@example.com");
    // More than Free's quotas allow is created below.
    await upgradeSpaceForTest(ctx, user.user.spaceId);
    runtime = createPluginRuntime(ctx.deps);
  });
  afterAll(async () => {
    await api.close();
    await ctx.close();
  });
  let hugeWritten = 0;

  it("turns parameters into a JSON Schema tool named by the code, described by the plugin", async () => {
    const plugin = await createPlugin(ctx, user, {
      description: "Look up orders",
      requestUrl: `${api.url}/orders`,
      requestParams: [
        { name: "status", type: "string", description: "Order status", required: true },
        { name: "limit", type: "int", description: "", required: true, default: 10 },
        { name: "price", type: "float", description: "", required: false },
        { name: "paid", type: "bool", description: "", required: false },
        { name: "filter", type: "object", description: "", required: false, children: [{ name: "tag", type: "string", description: "", required: true }] },
        { name: "ids", type: "array", description: "", required: false, itemType: "integer" },
        { name: "lines", type: "array", description: "", required: false, children: [{ name: "sku", type: "string", description: "", required: true }] },
      ],
    });
    const tools = await runtime.toolsFor({ spaceId: user.user.spaceId, pluginCodes: [plugin.code, "calculator", "plg_unknown"] });
    expect(tools.map((tool) => [tool.code, tool.builtin])).toEqual([
      ["calculator", true],
      [plugin.code, false],
    ]);
    const custom = tools[1]!;
    expect(custom.definition).toEqual({
      name: plugin.code,
      description: "Look up orders",
      parameters: {
        type: "object",
        properties: {
          status: { type: "string", description: "Order status" },
          limit: { type: "integer", default: 10 },
          price: { type: "number" },
          paid: { type: "boolean" },
          filter: { type: "object", properties: { tag: { type: "string" } }, required: ["tag"] },
          ids: { type: "array", items: { type: "integer" } },
          lines: { type: "array", items: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] } },
        },
        required: ["status"],
      },
    });
    // Disabled plugins and other spaces' plugins give no tool.
    await ctx.request(`/api/v1/plugins/${plugin.id}/enabled`, { method: "POST", token: user.token, json: { enabled: false } });
    expect(await runtime.toolsFor({ spaceId: user.user.spaceId, pluginCodes: [plugin.code] })).toEqual([]);
    const other = await registerUser(ctx, "runtime-other@example.com");
    expect(await runtime.toolsFor({ spaceId: other.user.spaceId, pluginCodes: [plugin.code, "current_time"] })).toHaveLength(1);
    // A tool whose plugin was switched off since answers so, without throwing.
    const result = await runtime.execute({ spaceId: user.user.spaceId, tool: custom, arguments: '{"status":"paid"}' });
    expect(result).toMatchObject({ ok: false, content: expect.stringMatching(/no longer available/) });
  });

  it("GET: arguments go to the query (defaults filled, types coerced), path placeholders are filled, headers sent", async () => {
    const plugin = await createPlugin(ctx, user, {
      requestUrl: `${api.url}/users/{user_id}/orders?fixed=1`,
      requestParams: [
        { name: "user_id", type: "string", description: "", required: true },
        { name: "status", type: "string", description: "", required: true },
        { name: "limit", type: "integer", description: "", required: false, default: 10 },
        { name: "tags", type: "array", description: "", required: false, itemType: "string" },
      ],
      headers: { Authorization: `Bearer ${secret}` },
    });
    const tool = await toolFor(runtime, user, plugin.code);
    const result = await runtime.execute({
      spaceId: user.user.spaceId,
      tool,
      arguments: JSON.stringify({ user_id: "u 1/2", status: "paid", tags: ["a", "b"], extra: "dropped" }),
    });
    expect(result.ok).toBe(true);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const received = api.requests.at(-1)!;
    expect(received.method).toBe("GET");
    expect(received.url).toBe("/users/u%201%2F2/orders?fixed=1&status=paid&limit=10&tags=a&tags=b");
    expect(received.headers.authorization).toBe(`Bearer ${secret}`);
    expect(received.body).toBe("");
    expect(JSON.parse(result.content)).toMatchObject({ method: "GET", query: { fixed: "1", status: "paid", limit: "10" } });
  });

  it("POST: arguments go to a JSON body, nested values checked, string numbers coerced", async () => {
    const plugin = await createPlugin(ctx, user, {
      requestUrl: `${api.url}/orders`,
      requestMethod: "POST",
      requestParams: [
        {
          name: "customer",
          type: "object",
          description: "",
          required: true,
          children: [
            { name: "name", type: "string", description: "", required: true },
            { name: "vip", type: "boolean", description: "", required: false, default: false },
          ],
        },
        { name: "qty", type: "integer", description: "", required: true },
        { name: "dry_run", type: "boolean", description: "", required: false, location: "query" },
      ],
    });
    const tool = await toolFor(runtime, user, plugin.code);
    const result = await runtime.execute({ spaceId: user.user.spaceId, tool, arguments: '{"customer":{"name":"Lin"},"qty":"3","dry_run":true}' });
    expect(result.ok, result.content).toBe(true);
    const received = api.requests.at(-1)!;
    expect(received.method).toBe("POST");
    expect(received.url).toBe("/orders?dry_run=true");
    expect(received.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(received.body)).toEqual({ customer: { name: "Lin", vip: false }, qty: 3 });
  });

  it("invalid arguments come back as a message the model can act on, and nothing is sent", async () => {
    const plugin = await createPlugin(ctx, user, {
      name: "Orders",
      requestUrl: `${api.url}/orders`,
      requestMethod: "POST",
      requestParams: [
        { name: "qty", type: "integer", description: "", required: true },
        { name: "customer", type: "object", description: "", required: true, children: [{ name: "name", type: "string", description: "", required: true }] },
      ],
    });
    const tool = await toolFor(runtime, user, plugin.code);
    const before = api.requests.length;
    const cases: Array<[string, RegExp]> = [
      ["{not json", /Invalid arguments for Orders: the arguments are not valid JSON/],
      ["[1,2]", /must be a JSON object/],
      ['{"qty":"many","customer":{}}', /`qty` must be an integer; `customer.name` is required/],
      ['{"customer":{"name":"x"}}', /`qty` is required/],
      ['{"qty":1,"customer":"Lin"}', /`customer` must be an object/],
    ];
    for (const [argumentsText, message] of cases) {
      const result = await runtime.execute({ spaceId: user.user.spaceId, tool, arguments: argumentsText });
      expect(result.ok).toBe(false);
      expect(result.content).toMatch(message);
    }
    expect(api.requests.length).toBe(before);
  });

  it("an HTTP error answer is ok:false with the status and body", async () => {
    const plugin = await createPlugin(ctx, user, {
      name: "Flaky",
      requestUrl: `${api.url}/fail`,
      requestParams: [{ name: "q", type: "string", description: "", required: false }],
    });
    const result = await runtime.execute({ spaceId: user.user.spaceId, tool: await toolFor(runtime, user, plugin.code), arguments: "{}" });
    expect(result).toMatchObject({ ok: false, content: expect.stringMatching(/^Flaky answered HTTP 503:\n\{"error":"maintenance"\}/) });
  });

  it("a hanging server times out at the configured limit", async () => {
    const plugin = await createPlugin(ctx, user, {
      name: "Slow",
      requestUrl: `${api.url}/hang`,
      requestParams: [{ name: "q", type: "string", description: "", required: false }],
    });
    const result = await runtime.execute({ spaceId: user.user.spaceId, tool: await toolFor(runtime, user, plugin.code), arguments: "{}" });
    expect(result.ok).toBe(false);
    expect(result.content).toMatch(/Slow timed out: no answer within 600 ms/);
    expect(result.durationMs).toBeGreaterThanOrEqual(550);
    expect(result.durationMs).toBeLessThan(3000);
  });

  it("the engine's abort signal stops a call", async () => {
    const plugin = await createPlugin(ctx, user, {
      name: "Stoppable",
      requestUrl: `${api.url}/hang`,
      requestParams: [{ name: "q", type: "string", description: "", required: false }],
    });
    const result = await runtime.execute({
      spaceId: user.user.spaceId,
      tool: await toolFor(runtime, user, plugin.code),
      arguments: "{}",
      signal: AbortSignal.timeout(100),
    });
    expect(result).toMatchObject({ ok: false, content: expect.stringMatching(/cancelled/) });
    expect(result.durationMs).toBeLessThan(550);
  });

  it("a 10 MB answer is cut at 256 KB without being read to the end", async () => {
    const plugin = await createPlugin(ctx, user, {
      name: "Huge",
      requestUrl: `${api.url}/huge`,
      requestParams: [{ name: "q", type: "string", description: "", required: false }],
    });
    const heapBefore = process.memoryUsage().heapUsed;
    const result = await runtime.execute({ spaceId: user.user.spaceId, tool: await toolFor(runtime, user, plugin.code), arguments: "{}" });
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    expect(result.ok).toBe(true);
    const [body, note] = result.content.split("\n[truncated");
    expect(body).toBe("x".repeat(256 * 1024));
    expect(note).toMatch(/longer than 262144 bytes/);
    // The sender saw the connection close long before its 10 MB were out.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hugeWritten).toBeLessThan(10 * 1024 * 1024);
    expect(heapGrowth).toBeLessThan(8 * 1024 * 1024);
  });

  it("built-ins run through the same execute, with the model's argument text", async () => {
    const calculator = await toolFor(runtime, user, "calculator");
    expect(calculator.definition.parameters).toEqual({
      type: "object",
      properties: { expression: expect.objectContaining({ type: "string" }) },
      required: ["expression"],
    });
    expect(await runtime.execute({ spaceId: user.user.spaceId, tool: calculator, arguments: '{"expression":"2^10"}' })).toMatchObject({
      ok: true,
      content: "2^10 = 1024",
    });
    expect(await runtime.execute({ spaceId: user.user.spaceId, tool: calculator, arguments: "{}" })).toMatchObject({
      ok: false,
      content: expect.stringMatching(/`expression` is required/),
    });
    expect(await runtime.execute({ spaceId: user.user.spaceId, tool: calculator, arguments: "nope" })).toMatchObject({
      ok: false,
      content: expect.stringMatching(/not valid JSON/),
    });
  });

  it("a host name is called at the address DNS gave (the one that was checked); loopback stays refused with the private network open", async () => {
    const lookup = guardedLookup(outboundPolicy(ctx.deps.config), async () => [{ address: "10.1.2.3", family: 4 }]);
    const resolved = await new Promise<unknown>((resolve, reject) =>
      lookup("orders.internal.test", { all: true }, (error, address) => (error ? reject(error) : resolve(address))),
    );
    expect(resolved).toEqual([{ address: "10.1.2.3", family: 4 }]);
    const viaName = createPluginRuntime({ ...ctx.deps, resolver: async () => [{ address: "127.0.0.1", family: 4 }] });
    const plugin = await createPlugin(ctx, user, {
      requestUrl: `http://orders.internal.test:${api.port}/named`,
      requestParams: [{ name: "q", type: "string", description: "", required: false }],
    });
    const before = api.requests.length;
    const result = await viaName.execute({ spaceId: user.user.spaceId, tool: await toolFor(viaName, user, plugin.code), arguments: '{"q":"1"}' });
    expect(result).toMatchObject({ ok: false, content: expect.stringMatching(/resolves to 127\.0\.0\.1 is a loopback/) });
    expect(api.requests.length).toBe(before);
  });
});

describe("plugin runtime with the private network refused (the default)", () => {
  let ctx: TestContext;
  let user: TestUser;
  let runtime: PluginRuntime;
  let target: FakeServer;
  let redirector: FakeServer;
  beforeAll(async () => {
    target = await startFakeServer((_request, response) => sendJson(response, 200, { secret: "internal data" }));
    redirector = await startFakeServer((request, response) => {
      const to = new URL(request.url, "http://x").searchParams.get("to") ?? "";
      response.writeHead(302, { location: to });
      response.end();
    });
    // The redirector is listed by the owner as reachable; the target is not.
    ctx = await createTestContext({ PARLEY_PLUGINS_ALLOWED_HOSTS: `127.0.0.1:${redirector.port}` });
    user = await registerUser(ctx, "ssrf@example.com");
    // More than Free's quotas allow is created below.
    await upgradeSpaceForTest(ctx, user.user.spaceId);
    runtime = createPluginRuntime(ctx.deps);
  });
  afterAll(async () => {
    await target.close();
    await redirector.close();
    await ctx.close();
  });

  const refusedUrls = (port: number): Array<[string, RegExp]> => [
    [`http://127.0.0.1:${port}/x`, /127\.0\.0\.1 is a loopback, private or link-local address/],
    [`http://localhost:${port}/x`, /loopback/],
    [`http://[::1]:${port}/x`, /::1 is a loopback, private or link-local address/],
    ["http://169.254.169.254/latest/meta-data/", /cloud metadata address/],
    ["http://metadata.google.internal/computeMetadata/v1/", /cloud metadata address/],
    ["http://0.0.0.0:80/", /0\.0\.0\.0 is a loopback/],
    ["http://10.1.2.3/", /private/],
    ["http://172.20.0.5/", /private/],
    ["http://192.168.1.1/", /private/],
    ["http://[fe80::1]/", /link-local/],
    ["http://[fd12:3456::1]/", /private/],
    ["http://[::ffff:127.0.0.1]/", /loopback/],
    ["http://2130706433/", /loopback/],
  ];

  it("refuses loopback, private, link-local, 0.0.0.0 and metadata addresses", async () => {
    for (const [url, message] of refusedUrls(target.port)) {
      const plugin = await createPlugin(ctx, user, {
        name: "Probe",
        requestUrl: url,
        requestParams: [{ name: "q", type: "string", description: "", required: false }],
      });
      const result = await runtime.execute({ spaceId: user.user.spaceId, tool: await toolFor(runtime, user, plugin.code), arguments: "{}" });
      expect(result.ok, url).toBe(false);
      expect(result.content, url).toMatch(/^Probe could not be called: refused to call/);
      expect(result.content, url).toMatch(message);
    }
    expect(target.requests).toHaveLength(0);
  });

  it("checks the address a name resolves to, not the name (DNS rebinding)", async () => {
    const rebinding = createPluginRuntime({ ...ctx.deps, resolver: async () => [{ address: "127.0.0.1", family: 4 }] });
    const plugin = await createPlugin(ctx, user, {
      name: "Rebind",
      requestUrl: `http://harmless.example.com:${target.port}/x`,
      requestParams: [{ name: "q", type: "string", description: "", required: false }],
    });
    const result = await rebinding.execute({ spaceId: user.user.spaceId, tool: await toolFor(rebinding, user, plugin.code), arguments: "{}" });
    expect(result).toMatchObject({
      ok: false,
      content: expect.stringMatching(/refused to call harmless\.example\.com: it resolves to 127\.0\.0\.1 is a loopback/),
    });
    // One private address among public ones is enough to refuse.
    const mixed = createPluginRuntime({
      ...ctx.deps,
      resolver: async () => [
        { address: "93.184.215.14", family: 4 },
        { address: "10.0.0.7", family: 4 },
      ],
    });
    const second = await mixed.execute({ spaceId: user.user.spaceId, tool: await toolFor(mixed, user, plugin.code), arguments: "{}" });
    expect(second.content).toMatch(/10\.0\.0\.7/);
    expect(target.requests).toHaveLength(0);
  });

  it("checks every redirect hop: an allowed host redirecting to loopback is refused", async () => {
    const plugin = await createPlugin(ctx, user, {
      name: "Hop",
      requestUrl: `${redirector.url}/go`,
      requestParams: [{ name: "to", type: "string", description: "", required: true }],
    });
    const tool = await toolFor(runtime, user, plugin.code);
    for (const to of [`http://localhost:${target.port}/secret`, `http://127.0.0.1:${target.port}/secret`, "http://169.254.169.254/latest/meta-data/iam"]) {
      const result = await runtime.execute({ spaceId: user.user.spaceId, tool, arguments: JSON.stringify({ to }) });
      expect(result.ok, to).toBe(false);
      expect(result.content, to).toMatch(/refused to call/);
    }
    expect(redirector.requests).toHaveLength(3);
    expect(target.requests).toHaveLength(0);
  });

  it("refuses non-http schemes reached by redirect", async () => {
    const plugin = await createPlugin(ctx, user, {
      name: "Scheme",
      requestUrl: `${redirector.url}/go`,
      requestParams: [{ name: "to", type: "string", description: "", required: true }],
    });
    const result = await runtime.execute({
      spaceId: user.user.spaceId,
      tool: await toolFor(runtime, user, plugin.code),
      arguments: '{"to":"file:///etc/passwd"}',
    });
    expect(result.content).toMatch(/only http and https/);
  });

  it("fetch_webpage follows the same rules", async () => {
    const fetchPage = await toolFor(runtime, user, "fetch_webpage");
    for (const url of [
      `http://127.0.0.1:${target.port}/`,
      "http://169.254.169.254/",
      `${redirector.url}/go?to=${encodeURIComponent(`http://localhost:${target.port}/`)}`,
    ]) {
      const result = await runtime.execute({ spaceId: user.user.spaceId, tool: fetchPage, arguments: JSON.stringify({ url }) });
      expect(result.ok, url).toBe(false);
      expect(result.content, url).toMatch(/The page could not be fetched: refused to call/);
    }
    expect(target.requests).toHaveLength(0);
  });
});
