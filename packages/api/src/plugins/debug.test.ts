import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { expectError, expectOk } from "../testing/flows";
import { debugResultSchema, pluginSchema } from "./schemas";
import { type FakeServer, sendJson, startFakeServer } from "./testing";

const secret = "sk-debug-0123456789abcdef";

let ctx: TestContext;
let offCtx: TestContext;
let user: TestUser;
let offUser: TestUser;
let api: FakeServer;
beforeAll(async () => {
  api = await startFakeServer((request, response) => {
    const url = new URL(request.url, "http://x");
    if (url.pathname === "/big") {
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("y".repeat(300 * 1024));
      return;
    }
    if (request.headers.authorization !== `Bearer ${secret}`) return sendJson(response, 401, { error: "bad key" });
    sendJson(response, 200, { city: url.searchParams.get("city"), temperature: 21.5, body: request.body ? JSON.parse(request.body) : null });
  });
  ctx = await createTestContext({ PARLEY_PLUGINS_ALLOW_PRIVATE_NETWORK: "true", PARLEY_PLUGINS_ALLOWED_HOSTS: "127.0.0.1" });
  offCtx = await createTestContext();
  user = await registerUser(ctx, "debugger@example.com");
  offUser = await registerUser(offCtx, "debugger@example.com");
});
afterAll(async () => {
  await api.close();
  await ctx.close();
  await offCtx.close();
});

const draft = (overrides: Record<string, unknown> = {}) => ({
  requestUrl: `${api.url}/weather`,
  requestMethod: "GET",
  requestParams: [
    { name: "city", type: "string", description: "", required: true },
    { name: "units", type: "string", description: "", required: false, default: "metric" },
  ],
  headers: { Authorization: `Bearer ${secret}` },
  ...overrides,
});
const debug = (json: unknown, context = ctx, token = user.token) => context.request("/api/v1/plugins/debug", { method: "POST", token, json });

describe("test run", () => {
  it("calls an unsaved draft and shows the request (secrets masked) and the answer", async () => {
    const result = await expectOk(await debug({ plugin: draft(), arguments: { city: "Hangzhou" } }), 200, debugResultSchema);
    expect(result).toMatchObject({ ok: true, status: 200, error: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.request).toMatchObject({ method: "GET", url: `${api.url}/weather?city=Hangzhou&units=metric`, body: null });
    expect(result.request!.headers.authorization).toBe("****cdef");
    expect(JSON.stringify(result)).not.toContain(secret);
    expect(result.response).toMatchObject({ contentType: "application/json; charset=utf-8", truncated: false });
    expect(JSON.parse(result.response!.body)).toMatchObject({ city: "Hangzhou", temperature: 21.5 });
    expect(api.requests.at(-1)?.headers.authorization).toBe(`Bearer ${secret}`);
  });

  it("takes the arguments as JSON text too, and POSTs them as a JSON body", async () => {
    const result = await expectOk(await debug({ plugin: draft({ requestMethod: "POST" }), arguments: '{"city":"Paris"}' }), 200, debugResultSchema);
    expect(result.request).toMatchObject({ method: "POST", body: '{"city":"Paris","units":"metric"}' });
    expect(JSON.parse(result.response!.body).body).toEqual({ city: "Paris", units: "metric" });
  });

  it("runs a saved plugin by id, and a saved plugin's masked headers resolve to the stored secret", async () => {
    const saved = await expectOk(
      await ctx.request("/api/v1/plugins", {
        method: "POST",
        token: user.token,
        json: { ...draft(), name: "Weather", description: "Weather now", avatar: "https://cdn.example.com/w.png" },
      }),
      201,
      pluginSchema,
    );
    const byId = await expectOk(await debug({ pluginId: saved.id, arguments: { city: "Oslo" } }), 200, debugResultSchema);
    expect(byId).toMatchObject({ ok: true, status: 200 });
    // The editor sends the plugin back as it was shown (masked header) with an edited URL.
    const edited = await expectOk(
      await debug({ pluginId: saved.id, plugin: { ...draft({ requestUrl: `${api.url}/weather/v2` }), headers: saved.headers }, arguments: { city: "Rome" } }),
      200,
      debugResultSchema,
    );
    expect(edited).toMatchObject({ ok: true, status: 200 });
    expect(api.requests.at(-1)?.url).toBe("/weather/v2?city=Rome&units=metric");
  });

  it("reports the plugin's HTTP error, bad arguments and a cut answer without failing the call", async () => {
    const unauthorized = await expectOk(await debug({ plugin: draft({ headers: {} }), arguments: { city: "x" } }), 200, debugResultSchema);
    expect(unauthorized).toMatchObject({ ok: false, status: 401, error: "the plugin answered HTTP 401" });
    expect(unauthorized.response?.body).toBe('{"error":"bad key"}');

    const missing = await expectOk(await debug({ plugin: draft(), arguments: {} }), 200, debugResultSchema);
    expect(missing).toMatchObject({ ok: false, status: null, request: null, response: null, error: "Invalid arguments for the plugin: `city` is required." });

    const big = await expectOk(await debug({ plugin: draft({ requestUrl: `${api.url}/big` }), arguments: { city: "x" } }), 200, debugResultSchema);
    expect(big.response).toMatchObject({ truncated: true });
    expect(big.response!.body).toHaveLength(256 * 1024);
  });

  it("refuses a draft that breaks the request rules, naming the field", async () => {
    await expectError(await debug({ plugin: draft({ requestUrl: "gopher://x" }), arguments: {} }), 400, { field: "requestUrl" });
    await expectError(
      await debug({ plugin: draft({ requestParams: [{ name: "bad-name", type: "string", description: "", required: false }] }), arguments: {} }),
      400,
      {
        field: "requestParams.0.name",
      },
    );
    await expectError(await debug({ arguments: {} }), 400, { field: "plugin" });
    await expectError(await debug({ pluginId: "plg_missing", arguments: {} }), 404);
  });

  it("applies the address rules: loopback is refused when the private network is not allowed", async () => {
    const result = await expectOk(await debug({ plugin: draft(), arguments: { city: "x" } }, offCtx, offUser.token), 200, debugResultSchema);
    expect(result).toMatchObject({ ok: false, status: null, response: null });
    expect(result.error).toMatch(/refused to call 127\.0\.0\.1:\d+: 127\.0\.0\.1 is a loopback, private or link-local address/);
  });
});
