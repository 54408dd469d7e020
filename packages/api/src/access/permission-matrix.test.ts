import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { addMember, createAppVia } from "../apps/testing";
import { spaceMembers, spaceRoles } from "../db/schema/index";
import { upgradeSpaceForTest } from "../plans/testing";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { operationAccess, operationKey } from "./operations";
import { allGrants, type Grant } from "./resources";

// The permission matrix (issue 16), generated from openapi.yaml when it runs: every signed-in
// operation that needs a grant is called by a member whose role has every grant but that one
// (and, for X.view, but X.edit too, which implies it). Each answers 403 with the envelope and
// changes no row of any table. Every `member` operation is open to a role without any grant.

type Schema = Record<string, unknown>;
interface Operation {
  method: string;
  path: string;
  key: string;
  body?: { type: string; schema: Schema };
  query: Record<string, string>;
}

const document = parse(fs.readFileSync(path.resolve(__dirname, "../../../../openapi.yaml"), "utf8")) as {
  paths: Record<string, Record<string, Schema>>;
  components: { schemas: Record<string, Schema> };
};

/**
 * The operations a member reaches whatever their role: their own profile, keys, notices and
 * benefits, and their spaces. Pinned here, so mapping an operation to `member` by mistake (its
 * grant check gone) fails this test instead of quietly dropping it from the matrix.
 */
const MEMBER_OPERATIONS = [
  "POST /api/v1/assets",
  "GET /api/v1/images/models",
  "POST /api/v1/images/tasks",
  "POST /api/v1/images/tasks/{taskId}/operate",
  "GET /api/v1/images/tasks/{taskId}",
  "GET /api/v1/images/tasks",
  "GET /api/v1/images/tasks/{taskId}/images/{index}",
  "DELETE /api/v1/me/api-keys/{id}",
  "DELETE /api/v1/me/wechat-bindings/{id}",
  "GET /api/v1/benefits",
  "GET /api/v1/benefits/ledger",
  "GET /api/v1/billing-rules",
  "GET /api/v1/cash-outs",
  "GET /api/v1/check-in",
  "GET /api/v1/invitation",
  "GET /api/v1/invitations",
  "GET /api/v1/me",
  "GET /api/v1/me/api-keys",
  "GET /api/v1/me/spaces",
  "GET /api/v1/me/wechat-bindings",
  "GET /api/v1/models",
  "GET /api/v1/rerank-models",
  "GET /api/v1/transcription-models",
  "GET /api/v1/speech-models",
  "GET /api/v1/voice/tones",
  "GET /api/v1/voice/demo",
  "GET /api/v1/notices",
  "GET /api/v1/privileges",
  "GET /api/v1/spaces/{spaceId}",
  "PATCH /api/v1/me",
  "POST /api/v1/auth/logout",
  "POST /api/v1/cash-outs",
  "POST /api/v1/check-in",
  "POST /api/v1/me/api-keys",
  "POST /api/v1/me/contact",
  "POST /api/v1/me/password",
  "POST /api/v1/notices/{noticeId}/read",
  "POST /api/v1/spaces",
  "POST /api/v1/spaces/{spaceId}/select",
  "GET /api/v1/team/credits/me",
  "POST /api/v1/team-invitations/accept",
  "POST /api/v1/team/exit",
  // Open to every member; the service itself refuses anyone but the owner (not a grant's refusal).
  "POST /api/v1/team/owner",
  // Announcements (issue 17): every user reads those addressed to them.
  "GET /api/v1/announcements",
  "GET /api/v1/announcements/stats",
  "POST /api/v1/announcements/read-all",
  "GET /api/v1/announcements/{announcementId}",
  // Store (issue 19): a user's own marks, the top-bar search, and the space's square setting (the service refuses plain members).
  "GET /api/v1/space-store-settings",
  "PUT /api/v1/space-store-settings",
  "POST /api/v1/store/apps/{code}/thumb",
  "DELETE /api/v1/store/apps/{code}/thumb",
  "POST /api/v1/store/apps/{code}/collect",
  "DELETE /api/v1/store/apps/{code}/collect",
  "GET /api/v1/search",
];

/** Member operations whose call would end the member's session or space and so is checked last, on its own. */
const ENDS_SESSION = new Set(["POST /api/v1/team/exit", "POST /api/v1/auth/logout"]);

/** Columns that change on every request whoever sends it (a session's last use), left out of the digest. */
const VOLATILE: Record<string, string[]> = { sessions: ["last_used_at", "expires_at"], api_keys: ["last_used_at"] };

function resolve(schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let hops = 0; typeof current.$ref === "string" && hops < 20; hops += 1) {
    current = document.components.schemas[(current.$ref as string).split("/").pop()!] ?? {};
  }
  return current;
}

/** A plausible value for a schema (examples first); the refusal comes before validation, so it need not be valid. */
function sample(schema: Schema | undefined, depth = 0): unknown {
  const s = resolve(schema);
  if (depth > 6) return null;
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum)) return s.enum[0];
  const variants = (s.anyOf ?? s.oneOf ?? s.allOf) as Schema[] | undefined;
  if (variants?.length && !s.properties) return sample(variants.find((v) => resolve(v).type !== "null") ?? variants[0], depth + 1);
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : (s.type as string | undefined);
  if (type === "object" || s.properties) {
    return Object.fromEntries(
      Object.entries((s.properties as Record<string, Schema> | undefined) ?? {}).map(([name, value]) => [name, sample(value, depth + 1)]),
    );
  }
  if (type === "array") return (s.minItems as number | undefined) ? [sample(s.items as Schema, depth + 1)] : [];
  if (type === "integer" || type === "number") return (s.minimum as number | undefined) ?? 1;
  if (type === "boolean") return true;
  return "x".repeat(Math.max(1, (s.minLength as number | undefined) ?? 1));
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [route, item] of Object.entries(document.paths)) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const op = item[method] as Schema | undefined;
      if (!op) continue;
      if (Array.isArray(op.security) && op.security.length === 0) continue;
      const content = (op.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
      const bodyType = content ? Object.keys(content)[0] : undefined;
      const query: Record<string, string> = {};
      for (const parameter of (op.parameters as Array<{ name: string; in: string; required?: boolean; schema?: Schema }> | undefined) ?? []) {
        if (parameter.in === "query" && parameter.required) query[parameter.name] = String(sample(parameter.schema));
      }
      out.push({
        method: method.toUpperCase(),
        path: route,
        key: operationKey(method, route),
        query,
        ...(bodyType && content ? { body: { type: bodyType, schema: content[bodyType]!.schema } } : {}),
      });
    }
  }
  return out;
}

let ctx: TestContext;
let owner: TestUser;
let member: TestUser;
const ids: Record<string, string> = {};

/** The path with the owner's real objects where it names one (the collection before `{id}`), else a made-up id. */
function pathOf(route: string): string {
  return route.replace(/([^/]+)\/\{(\w+)\}/g, (_, collection: string, name: string) => {
    const id = (name === "id" || name.endsWith("Id") ? ids[`/${collection}`] : undefined) ?? ids[name] ?? `${name}_matrix01jd7w3k5q`;
    return `${collection}/${encodeURIComponent(id)}`;
  });
}

async function call(op: Operation, user: TestUser): Promise<Response> {
  const query = Object.keys(op.query).length ? `?${new URLSearchParams(op.query)}` : "";
  const headers: Record<string, string> = { "x-parley-space": owner.user.spaceId };
  if (!op.body) return ctx.request(pathOf(op.path) + query, { method: op.method, token: user.token, headers });
  if (op.body.type === "application/json")
    return ctx.request(pathOf(op.path) + query, { method: op.method, token: user.token, headers, json: sample(op.body.schema) });
  const form = new FormData();
  form.set("file", new Blob(["matrix"], { type: "text/plain" }), "matrix.txt");
  return ctx.request(pathOf(op.path) + query, { method: op.method, token: user.token, headers, body: form });
}

/** A digest of every row of every table (volatile columns left out): equal digests, nothing changed. */
async function digest(): Promise<string> {
  const tables = (await ctx.deps.db.all(
    sql.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%' order by name"),
  )) as Array<{ name: string }>;
  const hash = createHash("sha256");
  for (const { name } of tables) {
    const rows = (await ctx.deps.db.all(sql.raw(`select * from "${name}"`))) as Array<Record<string, unknown>>;
    const lines = rows
      .map((row) => {
        const kept = { ...row };
        for (const column of VOLATILE[name] ?? []) delete kept[column];
        return JSON.stringify(kept, (_, value: unknown) => (typeof value === "bigint" ? value.toString() : value));
      })
      .sort();
    hash.update(`${name}\n${lines.join("\n")}\n`);
  }
  return hash.digest("hex");
}

async function setRole(grants: readonly string[]): Promise<void> {
  const id = `role_matrix_${createHash("sha1").update(grants.join(",")).digest("hex").slice(0, 12)}`;
  const now = new Date().toISOString();
  await ctx.deps.db
    .insert(spaceRoles)
    .values({
      id,
      spaceId: owner.user.spaceId,
      name: id,
      grants: JSON.stringify(grants),
      dataRange: JSON.stringify({ scope: "all" }),
      createdBy: owner.user.id,
      updatedAt: now,
    })
    .onConflictDoNothing();
  await ctx.deps.db
    .update(spaceMembers)
    .set({ roleId: id })
    .where(and(eq(spaceMembers.spaceId, owner.user.spaceId), eq(spaceMembers.userId, member.user.id)));
}

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await registerUser(ctx, "matrix-owner@example.com");
  member = await registerUser(ctx, "matrix-member@example.com");
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  await addMember(ctx, owner.user.spaceId, member, "viewer");
  // One real object of each kind the owner can make with a sample body, so `{id}` paths name real objects.
  const app = await createAppVia(ctx, owner);
  Object.assign(ids, { appId: app.id, appCode: app.code, spaceId: owner.user.spaceId, "/apps": app.id });
  const headers = { "x-parley-space": owner.user.spaceId };
  const client = await ctx.request("/api/v1/web-clients", { method: "POST", token: owner.token, headers, json: { appId: app.id, name: "Matrix widget" } });
  ids["/web-clients"] = ((await client.json()) as { data: { id: string } }).data.id;
  for (const op of operations()) {
    const collection = op.path.split("/").pop()!;
    if (op.method !== "POST" || op.body?.type !== "application/json" || op.path.includes("{") || ids[`/${collection}`]) continue;
    if (!Object.keys(document.paths).some((route) => route.startsWith(`${op.path}/{`))) continue;
    const response = await ctx.request(op.path, { method: "POST", token: owner.token, headers, json: sample(op.body.schema) });
    const id = response.ok ? ((await response.json()) as { data?: { id?: unknown } }).data?.id : undefined;
    if (typeof id === "string") ids[`/${collection}`] = id;
  }
});
afterAll(async () => ctx?.close());

describe("the permission matrix", () => {
  it("refuses every operation to a role without its grant, with the envelope and nothing changed", { timeout: 240_000 }, async () => {
    const matrix = operations().filter((op) => {
      const needed = operationAccess[op.key];
      return needed !== undefined && needed !== "member" && needed !== "instance";
    });
    console.log(`permission matrix operations=${matrix.length}`);
    expect(matrix.length).toBeGreaterThan(150);
    const byGrant = new Map<Grant, Operation[]>();
    for (const op of matrix) {
      const grant = operationAccess[op.key] as Grant;
      byGrant.set(grant, [...(byGrant.get(grant) ?? []), op]);
    }
    const failures: string[] = [];
    for (const [grant, ops] of byGrant) {
      const [resource, level] = grant.split(".") as [string, string];
      const withheld = level === "view" ? [grant, `${resource}.edit`] : [grant];
      await setRole(allGrants.filter((other) => !withheld.includes(other)));
      for (const op of ops) {
        const before = await digest();
        const response = await call(op, member);
        const body = (await response.json().catch(() => ({}))) as {
          success?: unknown;
          code?: unknown;
          message?: unknown;
          error?: { type?: unknown; message?: unknown };
        };
        // The OpenAI-compatible routes refuse with OpenAI's error object; every other route with the envelope.
        const refused = op.key.includes(" /v1/")
          ? body.error?.type === "permission_error" && typeof body.error.message === "string" && body.error.message !== ""
          : body.success === false && typeof body.code === "number" && typeof body.message === "string" && body.message !== "";
        if (response.status !== 403 || !refused) {
          failures.push(`${op.key} without ${grant}: ${response.status} ${JSON.stringify(body).slice(0, 160)}`);
        }
        if ((await digest()) !== before) failures.push(`${op.key} without ${grant}: rows changed`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("lets a role without any grant call every member operation, and only those are open to it", { timeout: 120_000 }, async () => {
    const open = operations().filter((op) => operationAccess[op.key] === "member");
    expect(open.map((op) => op.key).sort()).toEqual([...MEMBER_OPERATIONS].sort());
    await setRole([]);
    const failures: string[] = [];
    for (const op of [...open.filter((op) => !ENDS_SESSION.has(op.key)), ...open.filter((op) => ENDS_SESSION.has(op.key))]) {
      const response = await call(op, member);
      // A refusal for want of a grant is the failure; a service's own rule (only the owner transfers) is not.
      const text = await response.text();
      if (response.status === 403 && text.includes("Your role in this space cannot")) failures.push(`${op.key}: 403 ${text.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  });
});
