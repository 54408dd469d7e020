import fs from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { addMember, createAppVia } from "../apps/testing";
import { spaceRoles, usageRecords } from "../db/schema/index";
import { startVisitor, type Visitor, visitorSays } from "../inbox/testing";
import { createKnowledgeBaseVia, uploadOk } from "../knowledge/testing";
import { createKnowledgeWorker } from "../knowledge/worker";
import { upgradeSpaceForTest } from "../plans/testing";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { createWorkflowVia } from "../workflows/testing";
import { operationAccess } from "./operations";
import { allGrants } from "./resources";

// Data ranges as enforced (issue 16, decision 0019): the owner makes two of everything; a member
// whose range is `chosen` {A1, K1, W1} and one whose range is `own` (who made one app) see, open
// and search only what is in their range. Out of range answers 404, as another space's would.

let ctx: TestContext;
let base: string;
let owner: TestUser;
let chosen: TestUser;
let own: TestUser;
const sockets: Socket[] = [];
const o = {} as {
  a1: { id: string; code: string };
  a2: { id: string; code: string };
  ownApp: { id: string; code: string };
  k1: string;
  k2: string;
  f1: string;
  f2: string;
  w1: string;
  w2: string;
  c1?: string;
  c2?: string;
  wf1: string;
  wf2: string;
  p1: string;
  db1: string;
  dbt1: string;
  v1: Visitor;
  v2: Visitor;
};

const headers = () => ({ "x-parley-space": owner.user.spaceId });
const get = (user: TestUser, url: string) => ctx.request(url, { token: user.token, headers: headers() });
const send = (user: TestUser, method: string, url: string, json?: unknown) =>
  ctx.request(url, { method, token: user.token, headers: headers(), ...(json === undefined ? {} : { json }) });
async function data<T = any>(response: Response, status = 200): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return (JSON.parse(text) as { data: T }).data;
}

async function role(id: string, grants: readonly string[], range: unknown) {
  await ctx.deps.db.insert(spaceRoles).values({
    id,
    spaceId: owner.user.spaceId,
    name: id,
    grants: JSON.stringify(grants),
    dataRange: JSON.stringify(range),
    createdBy: owner.user.id,
    updatedAt: new Date().toISOString(),
  });
}

async function indexedFile(knowledgeBaseId: string, text: string): Promise<string> {
  const file = await uploadOk(ctx, owner, knowledgeBaseId, "manual.txt", text);
  await send(owner, "POST", `/api/v1/knowledge-files/${file.id}/confirm`, {});
  expect(await createKnowledgeWorker(ctx.deps).drain()).toBe(1);
  return file.id;
}

async function channelClient(appId: string, name: string): Promise<string | undefined> {
  const response = await send(owner, "POST", "/api/v1/channel-clients", { appId, name, kind: "telegram", config: { botToken: "111:secret-token-aaa" } });
  return response.status === 201 ? ((await response.json()) as { data: { id: string } }).data.id : undefined;
}

beforeAll(async () => {
  ctx = await createTestContext();
  base = await ctx.listen();
  owner = await registerUser(ctx, "range-owner@example.com");
  chosen = await registerUser(ctx, "range-chosen@example.com");
  own = await registerUser(ctx, "range-own@example.com");
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  const h = headers();
  const a1 = await createAppVia(ctx, owner, { name: "App one" }, h);
  const a2 = await createAppVia(ctx, owner, { name: "App two" }, h);
  o.a1 = { id: a1.id, code: a1.code };
  o.a2 = { id: a2.id, code: a2.code };
  o.k1 = (await createKnowledgeBaseVia(ctx, owner, { name: "Manuals one" })).id;
  o.k2 = (await createKnowledgeBaseVia(ctx, owner, { name: "Manuals two" })).id;
  o.f1 = await indexedFile(o.k1, "Parcels ship within two days. Returns are accepted within thirty days.");
  o.f2 = await indexedFile(o.k2, "Secret pricing: the wholesale discount is forty percent.");
  o.w1 = (await data<{ id: string }>(await send(owner, "POST", "/api/v1/web-clients", { appId: a1.id, name: "Widget one" }), 201)).id;
  o.w2 = (await data<{ id: string }>(await send(owner, "POST", "/api/v1/web-clients", { appId: a2.id, name: "Widget two" }), 201)).id;
  o.c1 = await channelClient(a1.id, "Telegram one");
  o.c2 = await channelClient(a2.id, "Telegram two");
  o.wf1 = (await createWorkflowVia(ctx, owner, undefined, { name: "Flow one" })).id;
  o.wf2 = (await createWorkflowVia(ctx, owner, undefined, { name: "Flow two" })).id;
  o.p1 = (
    await data<{ id: string }>(
      await send(owner, "POST", "/api/v1/plugins", {
        name: "Owner tool",
        description: "d",
        avatar: "https://cdn.example.com/a.png",
        requestUrl: "https://api.example.com/v1/x",
        requestMethod: "GET",
        requestParams: [{ name: "q", type: "string", description: "Query", required: true }],
        responseParams: [],
        headers: {},
      }),
      201,
    )
  ).id;
  o.db1 = (await data<{ id: string }>(await send(owner, "POST", "/api/v1/databases", { type: "builtin", name: "Owner data" }), 201)).id;
  o.dbt1 = (
    await data<{ id: string }>(
      await send(owner, "POST", `/api/v1/databases/${o.db1}/tables`, { name: "orders", fields: [{ name: "total", type: "decimal" }] }),
      201,
    )
  ).id;
  // Visitors chat through the local fake model: inbox sessions, customers and usage records of both apps.
  o.v1 = await startVisitor(ctx, o.w1);
  o.v2 = await startVisitor(ctx, o.w2);
  await visitorSays(ctx, o.v1, "Where is my parcel?");
  await visitorSays(ctx, o.v2, "Where is my parcel?");

  // Every grant (every view grant among them), and only A1, K1, W1 (and the first channel client).
  await role("role_range_chosen", allGrants, { scope: "chosen", appIds: [o.a1.id], knowledgeBaseIds: [o.k1], clientIds: [o.w1, ...(o.c1 ? [o.c1] : [])] });
  await role("role_range_own", allGrants, { scope: "own" });
  await addMember(ctx, owner.user.spaceId, chosen, "role_range_chosen");
  await addMember(ctx, owner.user.spaceId, own, "role_range_own");
  const mine = await createAppVia(ctx, own, { name: "My own app" }, h);
  o.ownApp = { id: mine.id, code: mine.code };
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await ctx?.close();
});

type Ids = (user: TestUser) => Promise<string[]>;
const ids = (list: Array<{ id?: string; sessionId?: string }>) => list.map((item) => item.id ?? item.sessionId!).sort();
const listOf =
  (url: string, pick: (d: any) => Array<{ id?: string; sessionId?: string }> = (d) => d) =>
  async (user: TestUser) =>
    ids(pick(await data(await get(user, url))));

/**
 * Every GET list operation of a ranged resource (openapi.yaml paths not ending in a parameter),
 * with how this test checks it: the ids each caller sees, or why it lists nothing ranged.
 */
const lists: Record<string, { check: Ids; owner: () => string[]; chosen: () => string[]; own: () => string[] } | { notRanged: string }> = {
  "GET /api/v1/apps": {
    check: listOf("/api/v1/apps", (d) => d.items),
    owner: () => [o.a1.id, o.a2.id, o.ownApp.id],
    chosen: () => [o.a1.id],
    own: () => [o.ownApp.id],
  },
  // OpenAI's model list: the `data` of its answer, with app codes as ids.
  "GET /v1/models": { check: listOf("/v1/models"), owner: () => [o.a1.code, o.a2.code, o.ownApp.code], chosen: () => [o.a1.code], own: () => [o.ownApp.code] },
  "GET /api/v1/knowledge-bases": { check: listOf("/api/v1/knowledge-bases"), owner: () => [o.k1, o.k2], chosen: () => [o.k1], own: () => [] },
  "GET /api/v1/knowledge-bases/{knowledgeBaseId}/files": {
    check: async (user) => [...(await filesOf(user, o.k1)), ...(await filesOf(user, o.k2))].sort(),
    owner: () => [o.f1, o.f2],
    chosen: () => [o.f1],
    own: () => [],
  },
  "GET /api/v1/knowledge-files/{fileId}/segments": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/knowledge-files/${o.f1}/segments`, o.f1)),
      ...(await reachable(user, `/api/v1/knowledge-files/${o.f2}/segments`, o.f2)),
    ],
    owner: () => [o.f1, o.f2],
    chosen: () => [o.f1],
    own: () => [],
  },
  "GET /api/v1/knowledge-files/{fileId}/preview": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/knowledge-files/${o.f1}/preview`, o.f1)),
      ...(await reachable(user, `/api/v1/knowledge-files/${o.f2}/preview`, o.f2)),
    ],
    owner: () => [o.f1, o.f2],
    chosen: () => [o.f1],
    own: () => [],
  },
  "GET /api/v1/knowledge-files/{fileId}/export": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/knowledge-files/${o.f1}/export`, o.f1)),
      ...(await reachable(user, `/api/v1/knowledge-files/${o.f2}/export`, o.f2)),
    ],
    owner: () => [o.f1, o.f2],
    chosen: () => [o.f1],
    own: () => [],
  },
  "GET /api/v1/knowledge-files/{fileId}/qa/pairs": { notRanged: "a Q&A file's pairs: reached through loadFile, checked with 404 below" },
  "GET /api/v1/knowledge-files/{fileId}/table": { notRanged: "a table file: reached through loadFile, checked with 404 below" },
  "GET /api/v1/knowledge-files/{fileId}/table/rows": { notRanged: "a table file's rows: reached through loadFile, checked with 404 below" },
  "GET /api/v1/knowledge-bases/{knowledgeBaseId}/media": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/knowledge-bases/${o.k1}/media`, o.k1)),
      ...(await reachable(user, `/api/v1/knowledge-bases/${o.k2}/media`, o.k2)),
    ],
    owner: () => [o.k1, o.k2],
    chosen: () => [o.k1],
    own: () => [],
  },
  "GET /api/v1/knowledge-bases/{knowledgeBaseId}/qa-template": { notRanged: "a fixed template file" },
  // Issue 19 (t19-store): one app's or workflow's listing, reached through loadApp / loadWorkflow (404 outside the range).
  "GET /api/v1/apps/{appId}/publishing": { notRanged: "one app's listing: reached through loadApp, out of range is 404" },
  "GET /api/v1/workflows/{workflowId}/publishing": { notRanged: "one workflow's listing: reached through loadWorkflow, out of range is 404" },
  "GET /api/v1/team/notify-members": { notRanged: "the space's members, whom an app's handover may notify: people, not ranged objects" },
  "GET /api/v1/knowledge-feishu/authorization": { notRanged: "the space's Feishu credentials, not an object" },
  "GET /api/v1/knowledge-media/{mediaId}/content": { notRanged: "one material's bytes: loadMedia follows its knowledge base" },
  "GET /api/v1/apps/{appId}/senior": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/apps/${o.a1.id}/senior`, o.a1.id)),
      ...(await reachable(user, `/api/v1/apps/${o.a2.id}/senior`, o.a2.id)),
    ],
    owner: () => [o.a1.id, o.a2.id],
    chosen: () => [o.a1.id],
    own: () => [],
  },
  "GET /api/v1/apps/{appId}/advanced-config": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/apps/${o.a1.id}/advanced-config`, o.a1.id)),
      ...(await reachable(user, `/api/v1/apps/${o.a2.id}/advanced-config`, o.a2.id)),
    ],
    owner: () => [o.a1.id, o.a2.id],
    chosen: () => [o.a1.id],
    own: () => [],
  },
  "GET /api/v1/apps/{appId}/rate-limits": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/apps/${o.a1.id}/rate-limits`, o.a1.id)),
      ...(await reachable(user, `/api/v1/apps/${o.a2.id}/rate-limits`, o.a2.id)),
    ],
    owner: () => [o.a1.id, o.a2.id],
    chosen: () => [o.a1.id],
    own: () => [],
  },
  "GET /api/v1/chat/conversations": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/chat/conversations?appCode=${o.a1.code}`, o.a1.id)),
      ...(await reachable(user, `/api/v1/chat/conversations?appCode=${o.a2.code}`, o.a2.id)),
    ],
    owner: () => [o.a1.id, o.a2.id],
    chosen: () => [o.a1.id],
    own: () => [],
  },
  "GET /api/v1/chat/conversations/{conversationId}/messages": { notRanged: "the caller's own conversations; their app's range is checked below" },
  "GET /api/v1/usage-records": {
    check: async (user) => [...new Set((await data<Array<{ appId: string }>>(await get(user, "/api/v1/usage-records"))).map((row) => row.appId))].sort(),
    owner: () => [o.a1.id, o.a2.id],
    chosen: () => [o.a1.id],
    own: () => [],
  },
  "GET /api/v1/analysis/records": {
    check: async (user) =>
      [...new Set((await data<{ items: Array<{ appId: string }> }>(await get(user, "/api/v1/analysis/records"))).items.map((row) => row.appId))].sort(),
    owner: () => [o.a1.id, o.a2.id],
    chosen: () => [o.a1.id],
    own: () => [],
  },
  "GET /api/v1/analysis/dashboard": {
    check: async (user) =>
      (await data<{ byApp: Array<{ appId: string }> }>(await get(user, "/api/v1/analysis/dashboard"))).byApp.map((row) => row.appId).sort(),
    owner: () => [o.a1.id, o.a2.id],
    chosen: () => [o.a1.id],
    own: () => [],
  },
  "GET /api/v1/analysis/credits": {
    check: async (user) => (await data<{ byApp: Array<{ appId: string }> }>(await get(user, "/api/v1/analysis/credits"))).byApp.map((row) => row.appId).sort(),
    owner: () => [o.a1.id, o.a2.id],
    chosen: () => [o.a1.id],
    own: () => [],
  },
  "GET /api/v1/analysis/records/enums": {
    check: async (user) => (await data<{ apps: Array<{ id: string }> }>(await get(user, "/api/v1/analysis/records/enums"))).apps.map((row) => row.id).sort(),
    owner: () => [o.a1.id, o.a2.id, o.ownApp.id],
    chosen: () => [o.a1.id],
    own: () => [o.ownApp.id],
  },
  "GET /api/v1/analysis/not-hit": { notRanged: "the same records as GET /api/v1/analysis/records (one condition more); analysis.test.ts checks its range" },
  "GET /api/v1/analysis/transfers": { notRanged: "transfers follow their app like records; analysis.test.ts checks its range" },
  "GET /api/v1/analysis/words": { notRanged: "word counts, not objects; they follow their app (analysis.test.ts checks it)" },
  "GET /api/v1/credits": { notRanged: "the space's balance" },
  "GET /api/v1/credits/ledger": { notRanged: "the space's ledger, not of one object" },
  "GET /api/v1/plans/current": { notRanged: "the space's plan" },
  "GET /api/v1/balance-alert": { notRanged: "the space's alert setting" },
  "GET /api/v1/orders": { notRanged: "the space's orders" },
  "GET /api/v1/plugins": { check: listOf("/api/v1/plugins"), owner: () => [o.p1], chosen: () => [], own: () => [] },
  "GET /api/v1/plugins/builtin": { notRanged: "built-in plugins belong to no space" },
  // Databases, like plugins, are reached by their creator unless the range is all.
  "GET /api/v1/databases": { check: listOf("/api/v1/databases"), owner: () => [o.db1], chosen: () => [], own: () => [] },
  "GET /api/v1/databases/{databaseId}/tables": { notRanged: "a database's tables: loadDatabase follows the database, checked with 404 below" },
  "GET /api/v1/database-tables/{tableId}/rows": { notRanged: "a table's rows: loadTable follows its database, checked with 404 below" },
  "GET /api/v1/database-tables/{tableId}/export": { notRanged: "a table's rows as a file: loadTable follows its database, checked with 404 below" },
  "GET /api/v1/database-tables/{tableId}/template": { notRanged: "a table's header as a file: loadTable follows its database, checked with 404 below" },
  "GET /api/v1/databases/{databaseId}/online-tables": { notRanged: "a remote server's tables: loadDatabase follows the database, checked with 404 below" },
  "GET /api/v1/workflows": {
    check: listOf("/api/v1/workflows", (d) => d.items),
    owner: () => [o.wf1, o.wf2],
    chosen: () => [],
    own: () => [],
  },
  "GET /api/v1/workflows/{workflowId}/runs": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/workflows/${o.wf1}/runs`, o.wf1)),
      ...(await reachable(user, `/api/v1/workflows/${o.wf2}/runs`, o.wf2)),
    ],
    owner: () => [o.wf1, o.wf2],
    chosen: () => [],
    own: () => [],
  },
  "GET /api/v1/workflows/{workflowId}/scheduler": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/workflows/${o.wf1}/scheduler`, o.wf1)),
      ...(await reachable(user, `/api/v1/workflows/${o.wf2}/scheduler`, o.wf2)),
    ],
    owner: () => [o.wf1, o.wf2],
    chosen: () => [],
    own: () => [],
  },
  "GET /api/v1/workflows/{workflowId}/nodes/{nodeId}/references": { notRanged: "one node of a workflow: loadWorkflow, checked with 404 below" },
  "GET /api/v1/workflow-system-args": { notRanged: "fixed system arguments" },
  "GET /api/v1/web-clients": { check: listOf("/api/v1/web-clients"), owner: () => [o.w1, o.w2], chosen: () => [o.w1], own: () => [] },
  "GET /api/v1/channel-clients": {
    check: listOf("/api/v1/channel-clients"),
    owner: () => [o.c1, o.c2].filter((id): id is string => !!id).sort(),
    chosen: () => (o.c1 ? [o.c1] : []),
    own: () => [],
  },
  "GET /api/v1/channel-clients/catalogue": { notRanged: "the kinds of channel there are" },
  "GET /api/v1/hosting/accounts": { check: listOf("/api/v1/hosting/accounts"), owner: () => [], chosen: () => [], own: () => [] },
  "GET /api/v1/hosting/accounts/{id}/config": { notRanged: "one account's config: loadAccount follows its app" },
  "GET /api/v1/hosting/accounts/{id}/groups": { notRanged: "one account's groups: loadAccount follows its app" },
  "GET /api/v1/hosting/bridge": { notRanged: "whether the hosting bridge is configured" },
  "GET /api/v1/hosting/login/status": { notRanged: "one login attempt: loadAccount follows its app" },
  "GET /api/v1/inbox/sessions": {
    check: listOf("/api/v1/inbox/sessions", (d) => d.items),
    owner: () => [o.v1.sessionId, o.v2.sessionId].sort(),
    chosen: () => [o.v1.sessionId],
    own: () => [],
  },
  "GET /api/v1/inbox/sessions/{sessionId}/messages": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/inbox/sessions/${o.v1.sessionId}/messages`, o.v1.sessionId)),
      ...(await reachable(user, `/api/v1/inbox/sessions/${o.v2.sessionId}/messages`, o.v2.sessionId)),
    ],
    owner: () => [o.v1.sessionId, o.v2.sessionId].sort(),
    chosen: () => [o.v1.sessionId],
    own: () => [],
  },
  "GET /api/v1/customers": {
    check: async (user) =>
      [
        ...new Set(
          (await data<{ items: Array<{ clientId?: string; id: string }> }>(await get(user, "/api/v1/customers"))).items.map(
            (row) => customerClients.get(row.id)!,
          ),
        ),
      ].sort(),
    owner: () => [o.w1, o.w2].sort(),
    chosen: () => [o.w1],
    own: () => [],
  },
  // Only WeCom apps and official accounts are sources; this space has none (its channel clients are Telegram), so every
  // caller lists none here. The range over real WeCom and official account clients is checked in customers/sync.test.ts.
  "GET /api/v1/customers/sync-sources": {
    check: async (user) =>
      (await data<{ sources: Array<{ clientId: string }> }>(await get(user, "/api/v1/customers/sync-sources"))).sources.map((row) => row.clientId).sort(),
    owner: () => [],
    chosen: () => [],
    own: () => [],
  },
  "GET /api/v1/tags": { notRanged: "tags belong to the space; the customers they are given to follow their client" },
  "GET /api/v1/tag-groups": { notRanged: "tag groups belong to the space" },
  // Issue 20 (t20-eval): a knowledge base's evaluation questions and runs, reached through loadKnowledgeBase.
  "GET /api/v1/knowledge-bases/{knowledgeBaseId}/evaluation/questions": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/knowledge-bases/${o.k1}/evaluation/questions`, o.k1)),
      ...(await reachable(user, `/api/v1/knowledge-bases/${o.k2}/evaluation/questions`, o.k2)),
    ],
    owner: () => [o.k1, o.k2],
    chosen: () => [o.k1],
    own: () => [],
  },
  "GET /api/v1/knowledge-bases/{knowledgeBaseId}/evaluation/runs": {
    check: async (user) => [
      ...(await reachable(user, `/api/v1/knowledge-bases/${o.k1}/evaluation/runs`, o.k1)),
      ...(await reachable(user, `/api/v1/knowledge-bases/${o.k2}/evaluation/runs`, o.k2)),
    ],
    owner: () => [o.k1, o.k2],
    chosen: () => [o.k1],
    own: () => [],
  },
};

/** The client of each customer, read as the owner sees them. */
const customerClients = new Map<string, string>();

async function filesOf(user: TestUser, knowledgeBaseId: string): Promise<string[]> {
  const response = await get(user, `/api/v1/knowledge-bases/${knowledgeBaseId}/files`);
  if (response.status === 404) return [];
  return ids(await data(response));
}

/** `[id]` when the caller reaches the URL, `[]` when it answers 404 (a 5xx fails). */
async function reachable(user: TestUser, url: string, id: string): Promise<string[]> {
  const response = await get(user, url);
  if (response.status === 404) {
    const body = (await response.json()) as { success: boolean; code: number };
    expect(body.success).toBe(false);
    return [];
  }
  // Reached: answered, or refused for what the object is (a confirmed file has no preview), never a 5xx.
  expect(response.status, `${url}: ${await response.clone().text()}`).toBeLessThan(500);
  return [id];
}

const RANGED_RESOURCES = new Set(["apps", "knowledge", "plugins", "workflow", "clients", "customers", "chatManage", "account", "database", "analysis"]);

describe("data ranges", () => {
  it("covers every list operation of a ranged resource in openapi.yaml", () => {
    const document = parse(fs.readFileSync(path.resolve(__dirname, "../../../../openapi.yaml"), "utf8")) as { paths: Record<string, Record<string, unknown>> };
    const listOps = Object.entries(document.paths)
      .filter(([route, item]) => item.get && !route.endsWith("}"))
      .map(([route]) => `GET ${route}`)
      .filter((key) => {
        const needed = operationAccess[key];
        return needed !== undefined && RANGED_RESOURCES.has(needed.split(".")[0]!);
      });
    expect(listOps.filter((key) => !(key in lists)).sort()).toEqual([]);
  });

  it("shows each member only what is in their range, in every list", async () => {
    expect(o.c1 && o.c2, "a channel client on each app").toBeTruthy();
    // Customers are told apart by their client, as the owner reads them in the database.
    const { customers } = await import("../db/schema/index");
    for (const row of await ctx.deps.db.select().from(customers).where(eq(customers.spaceId, owner.user.spaceId))) customerClients.set(row.id, row.clientId);
    expect(
      await ctx.deps.db
        .select()
        .from(usageRecords)
        .where(and(eq(usageRecords.spaceId, owner.user.spaceId), eq(usageRecords.appId, o.a2.id))),
    ).not.toEqual([]);
    for (const [key, entry] of Object.entries(lists)) {
      if ("notRanged" in entry) continue;
      expect(await entry.check(owner), `${key} as the owner`).toEqual([...entry.owner()].sort());
      expect(await entry.check(chosen), `${key} with range chosen`).toEqual([...entry.chosen()].sort());
      expect(await entry.check(own), `${key} with range own`).toEqual([...entry.own()].sort());
    }
  });

  it("answers OpenAI's 404 for an app out of range named as the model", async () => {
    const ask = (user: TestUser, model: string) =>
      send(user, "POST", "/v1/chat/completions", { model, messages: [{ role: "user", content: "Where is my parcel?" }] });
    const refused = await ask(chosen, o.a2.code);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ error: { type: "not_found_error", code: "model_not_found", param: "model" } });
    expect((await ask(chosen, o.a1.code)).status).toBe(200);
    // The same app as an MCP server: its initialize request is refused before any session opens.
    const initialize = (user: TestUser, code: string) =>
      ctx.request(`/mcp/apps/${code}`, {
        method: "POST",
        token: user.token,
        headers: { ...headers(), accept: "application/json, text/event-stream" },
        json: {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "range-test", version: "1" } },
        },
      });
    expect((await initialize(chosen, o.a2.code)).status).toBe(404);
    expect((await initialize(chosen, o.a1.code)).status).toBe(200);
  });

  it("answers 404 for every detail and change of an object out of range", async () => {
    const outOfRange: Array<[string, string, unknown?]> = [
      ["GET", `/api/v1/apps/${o.a2.id}`],
      ["PATCH", `/api/v1/apps/${o.a2.id}`, { name: "Mine now" }],
      ["DELETE", `/api/v1/apps/${o.a2.id}`],
      ["POST", `/api/v1/apps/${o.a2.id}/copy`],
      ["POST", `/api/v1/apps/${o.a2.id}/upgrade`],
      ["POST", `/api/v1/apps/${o.a2.id}/thumb`],
      ["POST", `/api/v1/apps/${o.a2.id}/rate-limits`, { targetChannel: "all", periodUnit: "minute", count: 5 }],
      ["POST", `/api/v1/apps/${o.a2.id}/knowledge-bases`, { knowledgeBaseIds: [o.k1] }],
      ["GET", `/api/v1/chat/apps/${o.a2.code}`],
      ["GET", `/api/v1/knowledge-bases/${o.k2}`],
      ["PATCH", `/api/v1/knowledge-bases/${o.k2}`, { name: "Mine now" }],
      ["DELETE", `/api/v1/knowledge-bases/${o.k2}`],
      ["POST", `/api/v1/knowledge-bases/${o.k2}/retrieval-test`, { query: "wholesale discount" }],
      ["GET", `/api/v1/knowledge-files/${o.f2}/qa/pairs`],
      ["GET", `/api/v1/knowledge-files/${o.f2}/table`],
      ["GET", `/api/v1/knowledge-files/${o.f2}/table/rows`],
      ["DELETE", `/api/v1/knowledge-files/${o.f2}`],
      ["GET", `/api/v1/web-clients/${o.w2}`],
      ["PATCH", `/api/v1/web-clients/${o.w2}`, { name: "Mine now" }],
      ["POST", `/api/v1/web-clients/${o.w2}/rotate-secret`],
      ["DELETE", `/api/v1/web-clients/${o.w2}`],
      ["GET", `/api/v1/inbox/sessions/${o.v2.sessionId}`],
      ["POST", `/api/v1/inbox/sessions/${o.v2.sessionId}/messages`, { content: "Hello" }],
      ["POST", `/api/v1/inbox/sessions/${o.v2.sessionId}/read`],
      ["PUT", `/api/v1/inbox/sessions/${o.v2.sessionId}/mode`, { serviceMode: "MANUAL_MODE", confirm: true }],
      ["POST", "/api/v1/inbox/export", { sessionIds: [o.v2.sessionId], from: "2020-01-01", to: "2020-01-20" }],
      ["GET", `/api/v1/workflows/${o.wf2}`],
      ["PUT", `/api/v1/workflows/${o.wf2}/graph`, { elements: [], lines: [] }],
      ["POST", `/api/v1/workflows/${o.wf2}/copy`],
      ["POST", `/api/v1/workflows/${o.wf2}/publish`],
      ["POST", `/api/v1/workflows/${o.wf2}/app`],
      ["DELETE", `/api/v1/workflows/${o.wf2}`],
      ["GET", `/api/v1/plugins/${o.p1}`],
      ["PATCH", `/api/v1/plugins/${o.p1}`, { name: "Mine now" }],
      ["POST", `/api/v1/plugins/${o.p1}/enabled`, { enabled: false }],
      ["DELETE", `/api/v1/plugins/${o.p1}`],
      ["GET", `/api/v1/databases/${o.db1}`],
      ["PATCH", `/api/v1/databases/${o.db1}`, { name: "Mine now" }],
      ["GET", `/api/v1/databases/${o.db1}/tables`],
      ["GET", `/api/v1/databases/${o.db1}/online-tables`],
      ["POST", "/api/v1/databases/connection-test", { databaseId: o.db1 }],
      ["GET", `/api/v1/database-tables/${o.dbt1}`],
      ["GET", `/api/v1/database-tables/${o.dbt1}/rows`],
      ["POST", `/api/v1/database-tables/${o.dbt1}/rows`, { values: { total: 1 } }],
      ["GET", `/api/v1/database-tables/${o.dbt1}/export`],
      ["DELETE", `/api/v1/databases/${o.db1}`],
      ...(o.c2
        ? ([
            ["GET", `/api/v1/channel-clients/${o.c2}`],
            ["PATCH", `/api/v1/channel-clients/${o.c2}`, { name: "Mine now" }],
            ["DELETE", `/api/v1/channel-clients/${o.c2}`],
          ] as Array<[string, string, unknown?]>)
        : []),
    ];
    const wrong: string[] = [];
    for (const user of [chosen, own]) {
      for (const [method, url, body] of outOfRange) {
        const response = await send(user, method, url, body);
        const envelope = (await response.json()) as { success: boolean; code: number };
        if (response.status !== 404 || envelope.success !== false) wrong.push(`${user.email} ${method} ${url}: ${response.status}`);
      }
    }
    expect(wrong).toEqual([]);
    // Nothing out of range changed: the owner still sees all of it.
    expect((await data(await get(owner, `/api/v1/apps/${o.a2.id}`))).name).toBe("App two");
    expect((await data(await get(owner, `/api/v1/knowledge-bases/${o.k2}`))).name).toBe("Manuals two");
    // In range, the same reads answer.
    await data(await get(chosen, `/api/v1/apps/${o.a1.id}`));
    await data(await get(chosen, `/api/v1/chat/apps/${o.a1.code}`));
    await data(await send(chosen, "POST", `/api/v1/knowledge-bases/${o.k1}/retrieval-test`, { query: "parcel" }));
    await data(await get(own, `/api/v1/apps/${o.ownApp.id}`));
  });

  it("refuses binding an object out of range like a foreign id", async () => {
    const bind = await send(chosen, "PATCH", `/api/v1/apps/${o.a1.id}`, { knowledgeBaseIds: [o.k2] });
    expect(bind.status).toBe(400);
    expect(((await bind.json()) as { data: { field: string } }).data.field).toBe("knowledgeBaseIds");
    const client = await send(chosen, "POST", "/api/v1/web-clients", { appId: o.a2.id, name: "Sneaky" });
    expect(client.status).toBe(400);
    expect(((await client.json()) as { data: { field: string } }).data.field).toBe("appId");
    // A database the member did not create is out of their range: binding it to their own app is a foreign id.
    const database = await send(own, "POST", `/api/v1/apps/${o.ownApp.id}/databases`, { databaseIds: [o.db1] });
    expect(database.status).toBe(400);
    expect(((await database.json()) as { data: { field: string } }).data.field).toBe("databaseIds");
    // In range, binding works.
    await data(await send(chosen, "PATCH", `/api/v1/apps/${o.a1.id}`, { knowledgeBaseIds: [o.k1] }));
  });

  it("never shows another client's sessions through the inbox's filters", async () => {
    const seen = async (query: string) => ids((await data(await get(chosen, `/api/v1/inbox/sessions${query}`))).items);
    for (const query of [
      "",
      "?read=unread",
      "?read=read",
      "?read=all",
      `?clientId=${o.w2}`,
      "?keyword=parcel",
      "?mode=FULL_AUTO_MODE",
      `?sessionId=${o.v2.sessionId}`,
    ]) {
      expect(await seen(query), query).not.toContain(o.v2.sessionId);
    }
    expect(await seen(`?clientId=${o.w1}`)).toEqual([o.v1.sessionId]);
    const unread = (await data(await get(chosen, "/api/v1/inbox/sessions"))).unreadCount;
    expect(unread).toBeLessThanOrEqual(1);
    const readAll = await send(chosen, "POST", "/api/v1/inbox/read-all", { clientId: o.w2 });
    expect(readAll.status).toBe(400);
    await data(await send(chosen, "POST", "/api/v1/inbox/read-all", {}));
    // W2's session is still unread for the owner: read-all kept to the member's range.
    expect((await data(await get(owner, `/api/v1/inbox/sessions/${o.v2.sessionId}`))).readStatus).toBe("UNREAD");
  });

  it("a ranged member's console socket hears W1's session messages but not W2's", async () => {
    const socket = io(`${base}/console`, {
      auth: { token: chosen.token, spaceId: owner.user.spaceId },
      forceNew: true,
      reconnection: false,
      transports: ["websocket"],
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("connect_error", reject);
    });
    const ownerSocket = io(`${base}/console`, {
      auth: { token: owner.token, spaceId: owner.user.spaceId },
      forceNew: true,
      reconnection: false,
      transports: ["websocket"],
    });
    sockets.push(ownerSocket);
    await new Promise<void>((resolve, reject) => {
      ownerSocket.once("connect", () => resolve());
      ownerSocket.once("connect_error", reject);
    });
    const heard: string[] = [];
    const ownerHeard: string[] = [];
    socket.on("session.message", (event: { sessionId: string }) => heard.push(event.sessionId));
    ownerSocket.on("session.message", (event: { sessionId: string }) => ownerHeard.push(event.sessionId));
    // W2 first: its events would reach the socket before W1's (a socket's events keep their order).
    await visitorSays(ctx, o.v2, "Any news?");
    await visitorSays(ctx, o.v1, "Any news?");
    await expect.poll(() => heard.includes(o.v1.sessionId)).toBe(true);
    await expect.poll(() => ownerHeard.includes(o.v1.sessionId) && ownerHeard.includes(o.v2.sessionId)).toBe(true);
    expect(heard).not.toContain(o.v2.sessionId);
  });
});
