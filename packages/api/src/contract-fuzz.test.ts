import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createAppVia } from "./apps/testing";
import { createTestContext, registerUser, type TestContext, type TestUser } from "./testing/harness";

// Every operation of openapi.yaml, called as the owner with malformed input derived from its
// schemas (issue 13): wrong types, missing fields, huge numbers, deep nesting, long strings,
// invalid JSON, wrong content types and unicode junk. No answer may be a 5xx; every refusal is
// the JSON envelope; the process stays healthy. Seeded, and bounded per operation.

type Schema = Record<string, unknown>;
interface Operation {
  method: string;
  path: string;
  parameters: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  body?: { type: string; schema: Schema };
  responseTypes: Set<string>;
}
interface Case {
  label: string;
  path: string;
  query?: Record<string, string>;
  body?: string;
  contentType?: string;
}

// Fixed, so every run sends the same cases; PARLEY_FUZZ_SEED explores others by hand.
const SEED = Number(process.env.PARLEY_FUZZ_SEED ?? 0x5eed_13);
const MAX_CASES_PER_OPERATION = 160;
const MAX_FIELDS_PER_OPERATION = 40;
const JUNK_PER_FIELD = 3;
const REQUEST_TIMEOUT_MS = 15_000;
/**
 * Operations that check what they are given against an outside service: with no network in the
 * test, a well-formed request is a 502 envelope ("cannot be reached"), which is the right answer
 * to an unreachable upstream, not a failure on bad input. Counted and printed, never hidden.
 */
const UPSTREAM_OPERATIONS = new Set([
  "PUT /api/v1/knowledge-feishu/authorization",
  "POST /api/v1/plugins/mcp/discover",
  "POST /api/v1/plugins/mcp/debug",
  // A remote database's connection test: a case that leaves out only an optional field is a
  // well-formed request for db.example.com, which this machine cannot resolve.
  "POST /api/v1/databases/connection-test",
]);

/**
 * Image task submits: with no image model configured (as here) a well-formed request is spec
 * §8's 503 "service unavailable" envelope, the documented answer, not a failure on bad input.
 */
const IMAGE_UNAVAILABLE_OPERATIONS = new Set(["POST /api/v1/images/tasks"]);

/** mulberry32: a small seeded generator, so every run sends the same cases. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const document = parse(fs.readFileSync(path.resolve(__dirname, "../../../openapi.yaml"), "utf8")) as {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema> };
};

function resolve(schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let hops = 0; typeof current.$ref === "string" && hops < 20; hops += 1) {
    current = document.components.schemas[(current.$ref as string).split("/").pop()!] ?? {};
  }
  return current;
}

/** The properties of an object schema (allOf merged), resolved. */
function propertiesOf(schema: Schema): Record<string, Schema> {
  const resolved = resolve(schema);
  const own = (resolved.properties as Record<string, Schema> | undefined) ?? {};
  const merged = ((resolved.allOf as Schema[] | undefined) ?? []).reduce<Record<string, Schema>>((all, part) => Object.assign(all, propertiesOf(part)), {});
  return { ...merged, ...own };
}

/** `model` of the OpenAI-compatible routes is an app's code; elsewhere, left out, the app's default model is used. */
let modelField: unknown;

/** Fields whose valid value is one of the owner's objects: the real ones, so cases get past them to the rest. */
function knownFields(): Record<string, unknown> {
  return {
    appId: ids.appId,
    appCode: ids.appCode,
    clientId: ids.clientId,
    knowledgeBaseIds: ids["/knowledge-bases"] ? [ids["/knowledge-bases"]] : [],
    knowledgeBaseId: ids["/knowledge-bases"],
    notifyMemberIds: [owner.user.id],
    model: modelField,
    conversationId: undefined,
    target: "fuzz@example.com",
  };
}

/** A plausible value for a schema: examples and defaults first, so cases reach past the first field. */
function sample(schema: Schema | undefined, depth = 0): unknown {
  const s = resolve(schema);
  if (depth > 6) return null;
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.const !== undefined) return s.const;
  const variants = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (variants?.length) return sample(variants.find((v) => resolve(v).type !== "null") ?? variants[0], depth + 1);
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : (s.type as string | undefined);
  if (type === "object" || s.properties || s.allOf) {
    const out: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(propertiesOf(s))) out[name] = name in knownFields() ? knownFields()[name] : sample(property, depth + 1);
    return out;
  }
  if (type === "array") return (s.minItems as number | undefined) ? [sample(s.items as Schema, depth + 1)] : [];
  if (type === "integer" || type === "number") return (s.minimum as number | undefined) ?? 1;
  if (type === "boolean") return true;
  if (type === "string") {
    if (s.format === "date-time") return "2030-01-01T00:00:00.000Z";
    if (s.format === "email") return "fuzz@example.com";
    // Loopback: refused by the network policy, so no case reaches out of the machine.
    if (s.format === "uri") return "http://127.0.0.1:9/fuzz";
    return "x".repeat(Math.max(1, (s.minLength as number | undefined) ?? 1));
  }
  return "x";
}

/** The operations of openapi.yaml; `openAi` picks the OpenAI-compatible ones (/v1/…), which answer in OpenAI's format. */
function operations(openAi = false): Operation[] {
  const out: Operation[] = [];
  for (const [route, item] of Object.entries(document.paths)) {
    if (route.startsWith("/v1/") !== openAi) continue;
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const op = item[method] as Schema | undefined;
      if (!op) continue;
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
      const bodyType = content ? Object.keys(content)[0] : undefined;
      const responseTypes = new Set<string>();
      for (const response of Object.values((op.responses as Record<string, { content?: Record<string, unknown> }>) ?? {})) {
        for (const type of Object.keys(response.content ?? {})) responseTypes.add(type);
      }
      out.push({
        method: method.toUpperCase(),
        path: route,
        parameters: [...((item.parameters as unknown as Operation["parameters"]) ?? []), ...((op.parameters as Operation["parameters"]) ?? [])],
        ...(bodyType && content ? { body: { type: bodyType, schema: content[bodyType]!.schema } } : {}),
        responseTypes,
      });
    }
  }
  return out;
}

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const MB = 1024 * 1024;
/** Values of the wrong type or out of any sane range, for any field. */
const junkValues: unknown[] = [
  1e308,
  -1e308,
  2 ** 63,
  -1,
  0,
  1.5,
  "1e308",
  "9223372036854775808",
  "-1",
  "NaN",
  "Infinity",
  true,
  null,
  {},
  [],
  [[["a"]]],
  { $ne: 1 },
  ["a", 1, null],
  "",
  " ",
  "\u0000",
  "\ud800",
  "\u202e\u0000😀<script>alert(1)</script>' OR 1=1 --",
  "x".repeat(10_000),
];
const hugeNumbers = ["1e308", "9223372036854775808", "9223372036854775807", "1000000000000000000", "-1", "0", "NaN", "Infinity", "1.5", "0x10", " 1 "];
const junkQuery = [
  "1e308",
  "9223372036854775808",
  "-1",
  "NaN",
  "Infinity",
  "0",
  "1.5",
  "",
  "\u0000",
  "😀\u202e",
  "x".repeat(5000),
  "[object Object]",
  "true",
  "%",
  "1000000000000000000000",
];

/** Paths to every leaf of a sample value (array items by index), at most a few levels down. */
function leafPaths(value: unknown, prefix: Array<string | number> = [], depth = 0): Array<Array<string | number>> {
  if (depth > 0 && (value === null || typeof value !== "object")) return [prefix];
  if (depth > 5 || value === null || typeof value !== "object") return depth > 0 ? [prefix] : [];
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  // An empty object or array is a leaf too: junk there tests the container's own type.
  if (entries.length === 0) return depth > 0 ? [prefix] : [];
  const out: Array<Array<string | number>> = depth > 0 ? [prefix] : [];
  for (const [key, child] of entries) out.push(...leafPaths(child, [...prefix, key], depth + 1));
  return out;
}

const DEEP = "__fuzz_deep_value__";

function pathValue(value: unknown, at: Array<string | number>): unknown {
  return at.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}

/** A copy of `value` with the leaf at `at` replaced. */
function replaced(value: unknown, at: Array<string | number>, junk: unknown): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[at[at.length - 1]!] = junk;
  return copy;
}

/** Fills path parameters: the id of a real object of the collection before it when one was made, else by name, else random-looking. */
function pathWith(route: string, ids: Record<string, string>, override?: string): string {
  return route.replace(/([^/]+)\/\{(\w+)\}/g, (_, collection: string, name: string) => {
    const id = override ?? (name === "id" || name.endsWith("Id") ? ids[`/${collection}`] : undefined) ?? ids[name] ?? `${name}_fuzz01jd7w3k5q`;
    return `${collection}/${encodeURIComponent(id)}`;
  });
}

function casesFor(op: Operation, ids: Record<string, string>, next: () => number): Case[] {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const known = { ...ids };
  // A path parameter with a fixed set of values (a scene, a kind) gets its first one.
  for (const parameter of op.parameters)
    if (parameter.in === "path" && Array.isArray(resolve(parameter.schema).enum))
      known[parameter.name] = String((resolve(parameter.schema).enum as unknown[])[0]);
  const base = pathWith(op.path, known);
  const cases: Case[] = [];
  const query: Record<string, string> = {};
  for (const parameter of op.parameters) if (parameter.in === "query" && parameter.required) query[parameter.name] = String(sample(parameter.schema));
  const withQuery = (extra: Record<string, string> = {}) => ({ ...query, ...extra });

  if (op.path.includes("{")) {
    cases.push({ label: "random ids", path: pathWith(op.path, {}), query: withQuery() });
    for (const junk of ["x".repeat(2000), "😀\u202e\u0000", "..%2F..", "9223372036854775808"])
      cases.push({ label: `path ${junk.slice(0, 12)}`, path: pathWith(op.path, ids, junk), query: withQuery() });
  }
  for (const parameter of op.parameters.filter((p) => p.in === "query")) {
    // Numbers get every huge or odd spelling (paging offsets reach SQLite); other parameters a seeded few.
    const numeric = ["integer", "number"].includes(String(resolve(parameter.schema).type));
    const values = numeric ? hugeNumbers : [pick(junkQuery), pick(junkQuery), pick(junkQuery)];
    for (const value of values)
      cases.push({ label: `query ${parameter.name}=${value.slice(0, 12)}`, path: base, query: withQuery({ [parameter.name]: value }) });
  }
  if (op.body) {
    const valid = sample(op.body.schema);
    const json = (value: unknown) => JSON.stringify(value);
    const props = Object.keys(propertiesOf(op.body.schema));
    if (op.body.type === "application/json") {
      cases.push({ label: "sample body", path: base, query: withQuery(), body: json(valid), contentType: "application/json" });
      cases.push({ label: "empty object", path: base, query: withQuery(), body: "{}", contentType: "application/json" });
    } else {
      cases.push({ label: "json instead of multipart", path: base, query: withQuery(), body: json(valid), contentType: "application/json" });
      cases.push({
        label: "broken multipart",
        path: base,
        query: withQuery(),
        body: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
        contentType: "multipart/form-data; boundary=x",
      });
      cases.push({ label: "multipart without boundary", path: base, query: withQuery(), body: "abc", contentType: "multipart/form-data" });
    }
    for (const [label, body] of [
      ["invalid json", '{"a":'],
      ["top-level array", "[]"],
      ["top-level null", "null"],
      ["top-level string", '"x"'],
      ["top-level number", "1e308"],
      ["5000 deep", nested(5000)],
      ["5000 deep object", `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`],
      ["over the body limit", json({ ...(valid as object), pad: "x".repeat(MB + 1000) })],
    ] as const) {
      cases.push({ label, path: base, query: withQuery(), body, contentType: "application/json" });
    }
    cases.push({ label: "text/plain", path: base, query: withQuery(), body: json(valid), contentType: "text/plain" });
    cases.push({ label: "no content type", path: base, query: withQuery(), body: json(valid) });
    cases.push({ label: "form encoded", path: base, query: withQuery(), body: "a=1&b=%ZZ", contentType: "application/x-www-form-urlencoded" });
    if (valid && typeof valid === "object" && !Array.isArray(valid)) {
      // Leaves at any depth (array items included), so nested configs get junk too, not only top-level fields.
      const leaves = leafPaths(valid)
        .sort(() => next() - 0.5)
        .slice(0, MAX_FIELDS_PER_OPERATION);
      for (const leaf of leaves) {
        for (let i = 0; i < JUNK_PER_FIELD; i += 1) {
          const value = pick(junkValues);
          cases.push({
            label: `field ${leaf.join(".")}=${String(JSON.stringify(value)).slice(0, 16)}`,
            path: base,
            query: withQuery(),
            body: json(replaced(valid, leaf, value)),
            contentType: "application/json",
          });
        }
      }
      // 5000 levels (arrays, and objects for free-form records) at container fields and a few others.
      const allLeaves = leafPaths(valid);
      const containers = allLeaves.filter((leaf) => typeof pathValue(valid, leaf) === "object");
      const deepAt = [...new Set([...containers, ...[...allLeaves].sort(() => next() - 0.5).slice(0, 3)])].slice(0, 8);
      for (const leaf of deepAt) {
        for (const [kind, deep] of [
          ["array", nested(5000)],
          ["object", `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`],
        ] as const) {
          cases.push({
            label: `field ${leaf.join(".")} 5000 deep ${kind}`,
            path: base,
            query: withQuery(),
            body: json(replaced(valid, leaf, DEEP)).replace(JSON.stringify(DEEP), deep),
            contentType: "application/json",
          });
        }
      }
      const target = props.length ? pick(props) : "field";
      const { [target]: _replaced, ...others } = valid as Record<string, unknown>;
      const rest = json(others).slice(1);
      cases.push({
        label: `field ${target} 5000 deep`,
        path: base,
        query: withQuery(),
        body: `{"${target}":${nested(5000)}${rest === "}" ? "}" : `,${rest}`}`,
        contentType: "application/json",
      });
      cases.push({
        label: `field ${target} 1 MB`,
        path: base,
        query: withQuery(),
        body: json({ ...valid, [target]: "é".repeat(MB / 2 - 2000) }),
        contentType: "application/json",
      });
      if (props.length) {
        const { [pick(props)]: _dropped, ...missing } = valid as Record<string, unknown>;
        cases.push({ label: "a field missing", path: base, query: withQuery(), body: json(missing), contentType: "application/json" });
      }
    }
  }
  if (cases.length === 0) cases.push({ label: "plain call", path: base, query: withQuery() });
  return cases.slice(0, MAX_CASES_PER_OPERATION);
}

let ctx: TestContext;
let owner: TestUser;
let users = 0;
const ids: Record<string, string> = {};

async function newOwner() {
  users += 1;
  owner = await registerUser(ctx, `fuzz${users}@example.com`);
  for (const key of Object.keys(ids)) delete ids[key];
  const app = await createAppVia(ctx, owner);
  const client = await ctx.request("/api/v1/web-clients", { method: "POST", token: owner.token, json: { appId: app.id, name: "Fuzz widget" } });
  const clientId = ((await client.json()) as { data: { id: string } }).data.id;
  Object.assign(ids, { id: app.id, appId: app.id, appCode: app.code, code: app.code, clientId, "/apps": app.id, "/web-clients": clientId });
  // One object of every other collection that a sample body can create, so `{id}` paths reach their handlers.
  for (const op of operations()) {
    const collection = op.path.split("/").pop()!;
    if (op.method !== "POST" || !op.body || op.body.type !== "application/json" || op.path.includes("{") || ids[`/${collection}`]) continue;
    if (!Object.keys(document.paths).some((route) => route.startsWith(`${op.path}/{`))) continue;
    const response = await ctx.request(op.path, { method: "POST", token: owner.token, json: sample(op.body.schema) });
    const id = response.ok ? ((await response.json()) as { data?: { id?: unknown } }).data?.id : undefined;
    if (typeof id === "string") ids[`/${collection}`] = id;
  }
}

beforeAll(async () => {
  ctx = await createTestContext();
  await newOwner();
});
afterAll(async () => ctx.close());

describe("contract fuzz", () => {
  it("no operation answers a 5xx or a non-envelope error to malformed input", { timeout: 180_000 }, async () => {
    const next = random(SEED);
    const failures: string[] = [];
    let sent = 0;
    let upstream = 0;
    const statuses = new Map<number, number>();
    const ops = operations();
    const started = Date.now();
    for (const op of ops) {
      for (const testCase of casesFor(op, ids, next)) {
        const url = testCase.path + (testCase.query && Object.keys(testCase.query).length ? `?${new URLSearchParams(testCase.query)}` : "");
        // Pinned to the owner's personal space: a case that creates a team space would switch to it otherwise.
        const headers: Record<string, string> = {
          authorization: `Bearer ${owner.token}`,
          "x-parley-space": owner.user.spaceId,
          "accept-language": next() < 0.5 ? "en" : "zh-CN",
        };
        if (testCase.body !== undefined) {
          headers["content-length"] = String(Buffer.byteLength(testCase.body));
          if (testCase.contentType) headers["content-type"] = testCase.contentType;
        }
        const where = `${op.method} ${op.path} [${testCase.label}]`;
        sent += 1;
        let response: Response;
        try {
          response = await Promise.race([
            ctx.request(url, { method: op.method, headers, ...(testCase.body !== undefined ? { body: testCase.body } : {}) }),
            new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS)),
          ]);
        } catch (error) {
          failures.push(`${where}: threw ${String(error)}`);
          continue;
        }
        const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const text = await response.text();
        if (response.status === 502 && UPSTREAM_OPERATIONS.has(`${op.method} ${op.path}`) && type === "application/json") {
          upstream += 1;
          continue;
        }
        if (
          response.status === 503 &&
          IMAGE_UNAVAILABLE_OPERATIONS.has(`${op.method} ${op.path}`) &&
          type === "application/json" &&
          text.includes('"code":503')
        ) {
          upstream += 1;
          continue;
        }
        if (response.status >= 500) {
          failures.push(`${where}: ${response.status} ${text.slice(0, 200)}`);
          continue;
        }
        if (response.status >= 300 && response.status < 400) continue;
        if (type === "application/json") {
          let body: { success?: unknown; code?: unknown; message?: unknown };
          try {
            body = JSON.parse(text) as typeof body;
          } catch {
            failures.push(`${where}: ${response.status} JSON that does not parse`);
            continue;
          }
          const envelope = typeof body.success === "boolean" && typeof body.code === "number" && typeof body.message === "string";
          if (!envelope || response.status >= 400 !== (body.success === false))
            failures.push(`${where}: ${response.status} not an envelope: ${text.slice(0, 200)}`);
        } else if (response.status >= 400 || !op.responseTypes.has(type)) {
          failures.push(`${where}: ${response.status} undocumented content type "${type}"`);
        }
      }
      // A case may sign the owner out or delete the account: carry on as a new owner.
      if ((await ctx.request("/api/v1/me", { token: owner.token })).status !== 200) await newOwner();
    }
    const health = await ctx.request("/api/v1/health");
    console.info(
      `contract fuzz: ${ops.length} operations, ${sent} cases, ${failures.length} failures, ${upstream} upstream-unreachable 502s, ${users} owners, ${Object.keys(ids).filter((key) => key.startsWith("/")).length} collections with a real object, ${Date.now() - started} ms; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
    );
    expect(health.status).toBe(200);
    expect(failures).toEqual([]);
  });

  // The OpenAI-compatible routes are in openapi.yaml in OpenAI's shapes: fuzzed the same way, with
  // a user key; their refusals are OpenAI's error object, not the envelope.
  it("the OpenAI-compatible routes answer malformed input with OpenAI errors, never a 5xx", { timeout: 120_000 }, async () => {
    const created = await ctx.request("/api/v1/user-keys", {
      method: "POST",
      token: owner.token,
      headers: { "x-parley-space": owner.user.spaceId },
      json: { name: "Fuzz key" },
    });
    const key = ((await created.json()) as { data: { key: string } }).data.key;
    const openAiOps = operations(true);
    modelField = ids.appCode;
    expect(openAiOps.map((op) => `${op.method} ${op.path}`).sort()).toEqual(["GET /v1/models", "POST /v1/chat/completions"]);
    const next = random(SEED + 1);
    const failures: string[] = [];
    let sent = 0;
    for (const op of openAiOps) {
      for (const testCase of casesFor(op, ids, next)) {
        const headers: Record<string, string> = { authorization: `Bearer ${key}` };
        if (testCase.body !== undefined) {
          headers["content-length"] = String(Buffer.byteLength(testCase.body));
          if (testCase.contentType) headers["content-type"] = testCase.contentType;
        }
        sent += 1;
        const response = await ctx.request(testCase.path, { method: op.method, headers, ...(testCase.body !== undefined ? { body: testCase.body } : {}) });
        const type = (response.headers.get("content-type") ?? "").split(";")[0]!.trim();
        const text = await response.text();
        const where = `${op.method} ${op.path} [${testCase.label}]`;
        if (response.status >= 500) failures.push(`${where}: ${response.status} ${text.slice(0, 200)}`);
        else if (response.status >= 400) {
          const body = type === "application/json" ? (JSON.parse(text) as { error?: { message?: unknown; type?: unknown } }) : {};
          if (typeof body.error?.message !== "string" || typeof body.error.type !== "string")
            failures.push(`${where}: ${response.status} not an OpenAI error: ${text.slice(0, 200)}`);
        } else if (!op.responseTypes.has(type)) failures.push(`${where}: ${response.status} undocumented content type "${type}"`);
      }
    }
    console.info(`OpenAI-compatible fuzz: ${openAiOps.length} operations, ${sent} cases, ${failures.length} failures`);
    expect((await ctx.request("/api/v1/health")).status).toBe(200);
    expect(failures).toEqual([]);
  });
});
