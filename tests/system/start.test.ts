import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ParleyProcess, startParley } from "./parley-process";

let parley: ParleyProcess;
beforeAll(async () => {
  parley = await startParley({ PARLEY_BOOTSTRAP_API_KEY: "pk_system_bootstrap_key_0123456789" });
});
afterAll(async () => parley?.stop());

describe("the started server", () => {
  it("starts within 15 s and prints a single-use owner sign-in link", async () => {
    expect(parley.startupMs).toBeLessThan(15_000);
    console.log(`startup_ms=${Math.round(parley.startupMs)}`);
    expect(parley.signInUrl).toMatch(/\/console\/agents\?loginCode=lc_/);
    const loginCode = new URL(parley.signInUrl!).searchParams.get("loginCode");
    const exchange = (body: unknown) =>
      fetch(`${parley.url}/api/v1/auth/exchange`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const first = await exchange({ loginCode });
    expect(first.status).toBe(200);
    const session = (await first.json()) as { data: { token: string; user: { isInstanceOwner: boolean; name: string } } };
    expect(session.data.user).toMatchObject({ isInstanceOwner: true, name: "Owner" });
    const second = await exchange({ loginCode });
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({ success: false, code: 400, data: { field: "loginCode" } });
  });

  it("serves a valid OpenAPI 3.1 document at /openapi.json", async () => {
    const response = await fetch(`${parley.url}/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { responses: object }>>;
      components: { schemas: object };
    };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(["/api/v1/auth/login", "/api/v1/me", "/api/v1/me/api-keys", "/api/v1/spaces/{spaceId}"]),
    );
    for (const [route, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(Object.keys(operation.responses).length, `${method} ${route}`).toBeGreaterThan(0);
      }
    }
    const { validate } = await import("@seriousme/openapi-schema-validator").then((module) => ({ validate: new module.Validator() }));
    const result = await validate.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("serves the API reference at /docs with its bundle from this server", async () => {
    const page = await fetch(`${parley.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("/openapi.json");
    expect(html).toContain("/docs/scalar.js");
    expect(html).not.toMatch(/cdn\.jsdelivr|unpkg\.com/);
    const bundle = await fetch(`${parley.url}/docs/scalar.js`);
    expect(bundle.status).toBe(200);
    expect(Number((await bundle.arrayBuffer()).byteLength)).toBeGreaterThan(100_000);
  });

  it("serves the console for its client-side routes and 404 envelopes for unknown API paths", async () => {
    for (const route of ["/console/agents", "/login", "/console/knowledge/knowledgeManage/baseAll", "/no/such/page"]) {
      const response = await fetch(`${parley.url}${route}`);
      expect(response.status, route).toBe(200);
      expect(await response.text()).toContain('<div id="root">');
    }
    const api = await fetch(`${parley.url}/api/v1/no-such-thing`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ success: false, code: 404 });
  });

  it("keeps secrets out of the log", () => {
    expect(parley.output()).not.toContain("pk_system_bootstrap_key_0123456789");
    expect(parley.output()).not.toMatch(/scrypt\$/);
  });
});
