import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { createClient, isHtmlMessage, isInsufficientCredits, isSessionEnded, isUpgradeRequired, ParleyError } from "./index";
import { sendEnvelope, startServer } from "./test-server";
import type { TestServer } from "./test-server";

// A slice of what openapi-typescript emits, to check the client's types against.
interface User {
  name: string;
  email: string;
  companyName: string;
  memberGrade: string;
}
type Envelope<Data> = { success: boolean; code: number; message: string; data: Data };
type Json<Body> = { headers: { [name: string]: unknown }; content: { "application/json": Body } };
type NoParameters = { query?: never; header?: never; path?: never; cookie?: never };
type Unused = { put?: never; delete?: never; options?: never; head?: never; trace?: never };
interface FixturePaths {
  "/api/v1/me": Unused & {
    parameters: NoParameters;
    get: {
      parameters: NoParameters;
      requestBody?: never;
      responses: { 200: Json<Envelope<User>>; 401: Json<Envelope<null>> };
    };
    post?: never;
    patch?: never;
  };
  "/api/v1/apps/{appId}": Unused & {
    parameters: NoParameters;
    get?: never;
    post?: never;
    patch: {
      parameters: { query?: never; header?: never; path: { appId: string }; cookie?: never };
      requestBody: { content: { "application/json": { name: string } } };
      responses: { 200: Json<Envelope<{ id: string; name: string }>> };
    };
  };
  "/api/v1/auth/login": Unused & {
    parameters: NoParameters;
    get?: never;
    post: {
      parameters: NoParameters;
      requestBody: { content: { "application/x-www-form-urlencoded": { email: string; password: string } } };
      responses: { 200: Json<Envelope<{ token: string }>> };
    };
    patch?: never;
  };
}

// For tests about transport rather than types: any path, any method, any body.
type LooseOperation = {
  parameters: { query?: Record<string, unknown> };
  requestBody?: { content: { "application/json": unknown } };
  responses: { 200: Json<Envelope<unknown>> };
};
type LoosePaths = Record<string, { get: LooseOperation; post: LooseOperation }>;

const user: User = { name: "Ada", email: "ada@example.com", companyName: "Analytical", memberGrade: "pro" };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe("createClient", () => {
  it("unwraps the envelope and sends credentials, language and space", async () => {
    server = await startServer((_request, response) => sendEnvelope(response, 200, user));
    let space = "spc_1";
    const client = createClient<FixturePaths>({
      baseUrl: server.url,
      apiKey: "pk_test",
      language: "zh-CN",
      space: () => space,
      headers: { "X-Client": "tests" },
    });

    const result = await client.GET("/api/v1/me");

    expect(result.error).toBeUndefined();
    expect(result.data).toEqual(user);
    expect(result.response?.status).toBe(200);
    const headers = server.requests[0]?.headers;
    expect(headers?.authorization).toBe("Bearer pk_test");
    expect(headers?.["accept-language"]).toBe("zh-CN");
    expect(headers?.["x-parley-space"]).toBe("spc_1");
    expect(headers?.["x-client"]).toBe("tests");

    space = "spc_2";
    client.setToken("pst_session");
    await client.GET("/api/v1/me");
    expect(server.requests[1]?.headers.authorization).toBe("Bearer pst_session");
    expect(server.requests[1]?.headers["x-parley-space"]).toBe("spc_2");

    client.setToken(undefined);
    await client.GET("/api/v1/me", { headers: { "X-Parley-Space": "spc_call" } });
    expect(server.requests[2]?.headers.authorization).toBe("Bearer pk_test");
    expect(server.requests[2]?.headers["x-parley-space"]).toBe("spc_call");
  });

  it("reads a language function before every request, so a UI can switch language in place", async () => {
    server = await startServer((_request, response) => sendEnvelope(response, 200, user));
    let language = "en";
    const client = createClient<FixturePaths>({ baseUrl: server.url, apiKey: "pk_test", language: () => language });
    await client.GET("/api/v1/me");
    language = "zh-CN";
    await client.GET("/api/v1/me");
    expect(server.requests.map((request) => request.headers["accept-language"])).toEqual(["en", "zh-CN"]);
  });

  it("types data from the contract and checks paths, params and bodies", async () => {
    server = await startServer((request, response) =>
      sendEnvelope(response, 200, { id: request.url.split("/").pop(), name: request.body && JSON.parse(request.body).name }),
    );
    const client = createClient<FixturePaths>({ baseUrl: server.url });

    const updated = await client.PATCH("/api/v1/apps/{appId}", {
      params: { path: { appId: "app_1" } },
      body: { name: "Helper" },
      timeoutMs: 5000,
    });

    expect(server.requests[0]?.method).toBe("PATCH");
    expect(server.requests[0]?.headers["content-type"]).toBe("application/json");
    if (updated.error) throw updated.error;
    expectTypeOf(updated.data).toEqualTypeOf<{ id: string; name: string }>();
    expect(updated.data).toEqual({ id: "app_1", name: "Helper" });

    const me = await client.GET("/api/v1/me");
    if (!me.error) expectTypeOf(me.data).toEqualTypeOf<User>();
    else expectTypeOf(me.error).toEqualTypeOf<ParleyError>();

    // These lines are checked by `npm run -w @parley/sdk typecheck`; at run time they only fail.
    const rejected = [
      // @ts-expect-error no such path
      client.GET("/api/v1/nope"),
      // @ts-expect-error the path parameter is required
      client.PATCH("/api/v1/apps/{appId}", { body: { name: "x" } }),
      // @ts-expect-error the body has the wrong shape
      client.PATCH("/api/v1/apps/{appId}", { params: { path: { appId: "a" } }, body: { title: "x" } }),
      // @ts-expect-error GET is not defined for this path
      client.GET("/api/v1/auth/login"),
    ];
    await Promise.all(rejected);
  });

  it("is typed by the generated contract by default", async () => {
    server = await startServer((_request, response) => sendEnvelope(response, 200, user));
    const client = createClient({ baseUrl: server.url });

    const me = await client.GET("/api/v1/me");

    if (me.error) throw me.error;
    expectTypeOf(me.data.name).toEqualTypeOf<string>();
    expectTypeOf(me.data.companyName).toBeString();
    expect(me.data).toEqual(user);
  });

  it("turns an error envelope into a ParleyError with its fields", async () => {
    server = await startServer((_request, response) =>
      sendEnvelope(response, 404, { appId: "app_9" }, { message: "App not found", headers: { "x-request-id": "req_42" } }),
    );
    const seen: ParleyError[] = [];
    const client = createClient<FixturePaths>({ baseUrl: server.url, onError: (error) => seen.push(error) });

    const result = await client.GET("/api/v1/me");

    expect(result.data).toBeUndefined();
    expect(result.error).toBeInstanceOf(ParleyError);
    expect(result.error).toMatchObject({
      kind: "http",
      status: 404,
      code: 404,
      message: "App not found",
      requestId: "req_42",
      data: { appId: "app_9" },
    });
    expect(result.response?.status).toBe(404);
    expect(seen).toEqual([result.error]);
    expect(server.requests).toHaveLength(1);
  });

  it("recognises session-ended, upgrade, credits and HTML-message codes", async () => {
    const answers: Record<string, [code: number, httpStatus: number, message: string]> = {
      "/401": [401, 401, "Session ended"],
      "/701": [701, 402, "Upgrade required"],
      "/870": [870, 402, "Insufficient credits"],
      "/440": [440, 440, "<b>Read this</b>"],
    };
    server = await startServer((request, response) => {
      const [code, httpStatus, message] = answers[request.url] ?? [500, 500, "unknown"];
      sendEnvelope(response, code, null, { httpStatus, message });
    });
    const client = createClient<LoosePaths>({ baseUrl: server.url });
    const errorOf = async (path: string) => (await client.GET(path)).error;

    const sessionEnded = await errorOf("/401");
    expect(isSessionEnded(sessionEnded)).toBe(true);
    expect(isUpgradeRequired(sessionEnded)).toBe(false);

    const upgrade = await errorOf("/701");
    expect(upgrade).toMatchObject({ status: 402, code: 701 });
    expect(isUpgradeRequired(upgrade)).toBe(true);
    expect(isInsufficientCredits(upgrade)).toBe(false);

    const credits = await errorOf("/870");
    expect(isInsufficientCredits(credits)).toBe(true);

    const html = await errorOf("/440");
    expect(isHtmlMessage(html)).toBe(true);
    expect(html?.message).toBe("<b>Read this</b>");

    expect(isSessionEnded(new Error("401"))).toBe(false);
  });

  it("reports an answer without an envelope by its status", async () => {
    server = await startServer((_request, response) => {
      response.writeHead(502, { "content-type": "text/html" });
      response.end("<html>Bad gateway</html>");
    });
    const client = createClient<LoosePaths>({ baseUrl: server.url, retries: 0 });

    const { error } = await client.GET("/anything");

    expect(error).toMatchObject({ kind: "http", status: 502, code: undefined, message: "Bad Gateway" });
  });

  it("reports a success answer that is not JSON as an http error", async () => {
    server = await startServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/plain", "x-request-id": "req_7" });
      response.end("not json");
    });
    const client = createClient<LoosePaths>({ baseUrl: server.url });

    const { error } = await client.GET("/text");

    expect(error).toMatchObject({ kind: "http", status: 200, requestId: "req_7", message: "Response body is not valid JSON" });
  });

  it("times out, without retrying", async () => {
    server = await startServer(() => {});
    const seen: ParleyError[] = [];
    const client = createClient<LoosePaths>({ baseUrl: server.url, timeoutMs: 200, onError: (error) => seen.push(error) });

    const started = performance.now();
    const { error } = await client.GET("/slow");
    const elapsed = performance.now() - started;

    expect(error).toMatchObject({ kind: "timeout", message: "Request timed out after 200 ms" });
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1500);
    expect(server.requests).toHaveLength(1);
    expect(seen).toHaveLength(1);
  });

  it("reports a caller abort as aborted, never retries it and does not call onError", async () => {
    server = await startServer(() => {});
    const seen: ParleyError[] = [];
    const client = createClient<LoosePaths>({ baseUrl: server.url, onError: (error) => seen.push(error) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);

    const { error } = await client.GET("/slow", { signal: controller.signal });
    const already = await client.GET("/slow", { signal: AbortSignal.abort() });

    expect(error).toMatchObject({ kind: "aborted" });
    expect(already.error).toMatchObject({ kind: "aborted" });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(server.requests).toHaveLength(1);
    expect(seen).toHaveLength(0);
  });

  it("retries a 503 after the Retry-After seconds", async () => {
    server = await startServer((_request, response) => {
      if (server?.requests.length === 1) sendEnvelope(response, 503, null, { headers: { "retry-after": "1" } });
      else sendEnvelope(response, 200, user);
    });
    const client = createClient<FixturePaths>({ baseUrl: server.url });

    const result = await client.GET("/api/v1/me");

    expect(result.data).toEqual(user);
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it("honours Retry-After given as an HTTP date", async () => {
    server = await startServer((_request, response) => {
      if (server?.requests.length === 1) {
        const retryAt = new Date(Date.now() + 2000).toUTCString();
        sendEnvelope(response, 429, null, { headers: { "retry-after": retryAt } });
      } else sendEnvelope(response, 200, user);
    });
    const client = createClient<FixturePaths>({ baseUrl: server.url });

    const result = await client.GET("/api/v1/me");

    expect(result.data).toEqual(user);
    const [first, second] = server.requests;
    // The date has whole-second precision, so the wait is between one and two seconds.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it("gives up at once when the server asks for a long wait, and says how long", async () => {
    server = await startServer((_request, response) => sendEnvelope(response, 429, null, { message: "Slow down", headers: { "retry-after": "120" } }));
    const client = createClient<FixturePaths>({ baseUrl: server.url });

    const { error } = await client.GET("/api/v1/me");

    expect(error).toMatchObject({ kind: "http", status: 429, retryAfterMs: 120_000, message: "Slow down" });
    expect(server.requests).toHaveLength(1);
  });

  it("retries after the connection is reset", async () => {
    server = await startServer((_request, response, raw) => {
      if (server?.requests.length === 1) raw.socket.destroy();
      else sendEnvelope(response, 200, user);
    });
    const client = createClient<FixturePaths>({ baseUrl: server.url });

    const result = await client.GET("/api/v1/me");

    expect(result.data).toEqual(user);
    expect(server.requests).toHaveLength(2);
  });

  it("retries after the connection is refused", async () => {
    const probe = await startServer(() => {});
    const { port, url } = probe;
    await probe.close();
    const failures: unknown[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      try {
        return await fetch(input, init);
      } catch (error) {
        failures.push(error);
        throw error;
      }
    };
    const client = createClient<FixturePaths>({ baseUrl: url, fetch: recordingFetch });

    const pending = client.GET("/api/v1/me");
    // The first attempt meets a closed port; the first retry waits at least 150 ms.
    await new Promise((resolve) => setTimeout(resolve, 50));
    server = await startServer((_request, response) => sendEnvelope(response, 200, user), port);
    const result = await pending;

    expect(failures.length).toBeGreaterThanOrEqual(1);
    expect(result.data).toEqual(user);
  });

  it("reports a network error after the retries run out", async () => {
    const probe = await startServer(() => {});
    await probe.close();
    const client = createClient<FixturePaths>({ baseUrl: probe.url, retries: 1 });

    const { error, response } = await client.GET("/api/v1/me");

    expect(error?.kind).toBe("network");
    expect(error?.cause).toBeDefined();
    expect(response).toBeUndefined();
  });

  it("does not retry POST unless the call opts in", async () => {
    server = await startServer((_request, response) => sendEnvelope(response, 503, null, { headers: { "retry-after": "0" } }));
    const client = createClient<LoosePaths>({ baseUrl: server.url });

    const once = await client.POST("/api/v1/things", { body: { a: 1 } });
    expect(once.error).toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(1);

    await client.POST("/api/v1/things", { body: { a: 1 }, retries: 2 });
    expect(server.requests).toHaveLength(4);
    expect(server.requests.slice(1).map((request) => request.body)).toEqual(['{"a":1}', '{"a":1}', '{"a":1}']);

    await client.GET("/api/v1/things");
    expect(server.requests).toHaveLength(7);
  });

  it("sends a form-encoded body when asked", async () => {
    server = await startServer((_request, response) => sendEnvelope(response, 200, { token: "pst_new" }));
    const client = createClient<FixturePaths>({ baseUrl: server.url });

    const result = await client.POST("/api/v1/auth/login", {
      body: { email: "ada@example.com", password: "p&ss=word" },
      form: true,
    });

    expect(result.data).toEqual({ token: "pst_new" });
    const request = server.requests[0];
    expect(request?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual({
      email: "ada@example.com",
      password: "p&ss=word",
    });
  });
});
