import { createHmac } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppVia } from "./apps/testing";
import { getAppForChat } from "./apps/service/index";
import { bootstrap } from "./bootstrap";
import { loadConfig } from "./config";
import { apps, databases, knowledgeFeishuAuth, modelProviders, plugins, webClients } from "./db/schema/index";
import { postRobotNotice } from "./inbox/handover";
import { sealStoredSecrets } from "./platform/seal-stored";
import { isSealed, openValue } from "./platform/sealed";
import { startFakeServer, type FakeServer } from "./plugins/testing";
import { startServer } from "./server";
import { type FeishuFake, startFeishuFake } from "./testing/fakes/feishu";
import type { LlmFake } from "./testing/fakes/llm-common";
import { startOpenAiFake } from "./testing/fakes/llm-openai";
import { createTestContext, registerUser, type TestContext, type TestUser } from "./testing/harness";
import { upgradeSpaceForTest } from "./plans/testing";

// Every secret an owner gives Parley is sealed at rest under the instance key and never answered:
// the bytes of the data directory are searched for each one, every read is searched too, a read
// sent back keeps the secret, and the secret still does its job at the far end.
const OWNER_KEY = "pk_secrets-at-rest-owner-key-abcdefghijkl";
const PROVIDER_KEY = "sk-provider-secret-7f3a9c2e5b1d";
const PLUGIN_AUTH = "plugin-bearer-secret-4e8d2a6c";
const PLUGIN_API_KEY = "plugin-x-api-key-secret-91b7";
const FEISHU_APP = { appId: "cli_secretsatrest0001", appSecret: "feishu-app-secret-5c3e8a1f" };
const DING_TOKEN = "dingtalk-access-token-secret-1a2b";
const DING_SECRET = "SECdingtalk-signing-secret-77aa";
const WECOM_KEY = "wecom-robot-key-secret-3c4d";
const FEISHU_HOOK = "feishu-hook-id-secret-9f8e";
const FEISHU_ROBOT_SECRET = "feishu-robot-signing-secret-55ee";
const DATABASE_PASSWORD = "remote-db-password-secret-66dd";

let ctx: TestContext;
let owner: TestUser;
let llm: LlmFake;
let feishu: FeishuFake;
let api: FakeServer;
let robots: http.Server;
let robotUrl: string;
const robotRequests: Array<{ url: URL; body: Record<string, unknown> }> = [];

beforeAll(async () => {
  llm = await startOpenAiFake({ apiKey: PROVIDER_KEY });
  feishu = await startFeishuFake({ apps: [FEISHU_APP], documents: [] });
  api = await startFakeServer((_request, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end('{"ok":true}');
  });
  robots = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      robotRequests.push({
        url: new URL(request.url ?? "/", "http://robots"),
        body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>,
      });
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"errcode":0,"code":0}');
    });
  });
  await new Promise<void>((resolve) => robots.listen(0, "127.0.0.1", resolve));
  robotUrl = `http://127.0.0.1:${(robots.address() as AddressInfo).port}`;
  ctx = await createTestContext({
    PARLEY_BOOTSTRAP_API_KEY: OWNER_KEY,
    PARLEY_FEISHU_BASE_URL: feishu.url,
    PARLEY_PLUGINS_ALLOW_PRIVATE_NETWORK: "true",
    PARLEY_PLUGINS_ALLOWED_HOSTS: "127.0.0.1",
  });
  await bootstrap(ctx.deps);
  owner = await registerUser(ctx, "secrets-owner@example.com");
  // What this test creates needs a plan above Free (issue 15).
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
});
afterAll(async () => {
  await ctx.close();
  await llm.close();
  await feishu.close();
  await api.close();
  await new Promise((resolve) => robots.close(resolve));
});

/** Every file under a directory, as bytes. */
function filesUnder(dir: string): Array<{ file: string; bytes: Buffer }> {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).flatMap((entry) => {
    if (!entry.isFile()) return [];
    const file = path.join(entry.parentPath, entry.name);
    return [{ file, bytes: fs.readFileSync(file) }];
  });
}

function expectNotStored(dataDir: string, secrets: string[]) {
  const files = filesUnder(dataDir);
  expect(files.map((entry) => path.basename(entry.file))).toContain("parley.db");
  for (const { file, bytes } of files) {
    for (const secret of secrets) {
      if (bytes.includes(Buffer.from(secret, "utf8"))) throw new Error(`${secret} is stored in plain text in ${path.relative(dataDir, file)}`);
    }
  }
}

const allSecrets = [
  PROVIDER_KEY,
  PLUGIN_AUTH,
  PLUGIN_API_KEY,
  FEISHU_APP.appSecret,
  DING_TOKEN,
  DING_SECRET,
  WECOM_KEY,
  FEISHU_HOOK,
  FEISHU_ROBOT_SECRET,
  DATABASE_PASSWORD,
];

/** The robots of a handover notice, with their credentials. */
const robotHooks = () => [
  { kind: "dingtalk", url: `${robotUrl}/robot/send?access_token=${DING_TOKEN}`, secret: DING_SECRET },
  { kind: "wecom", url: `${robotUrl}/cgi-bin/webhook/send?key=${WECOM_KEY}`, secret: "wecom-signs-nothing" },
  { kind: "feishu", url: `${robotUrl}/open-apis/bot/v2/hook/${FEISHU_HOOK}`, secret: FEISHU_ROBOT_SECRET },
];

describe("secrets at rest", () => {
  let providerId: string;
  let pluginId: string;
  let appId: string;
  let clientId: string;
  let identitySecret: string;
  let databaseId: string;
  const reads: string[] = [];
  const read = async (url: string, token = owner.token) => {
    const response = await ctx.request(url, { token });
    const text = await response.text();
    expect(response.status, url).toBe(200);
    reads.push(text);
    return JSON.parse(text) as { data: any };
  };

  /** Each secret does its job: the provider key, plugin headers, Feishu secret, robot signatures, identity hash. */
  async function expectSecretsWork() {
    llm.reply({ text: "pong" });
    const tested = await read(`/api/v1/model-providers`, OWNER_KEY);
    expect(tested.data.find((entry: { id: string }) => entry.id === providerId)).toMatchObject({ hasApiKey: true });
    const test = await ctx.request(`/api/v1/model-providers/${providerId}/test`, { method: "POST", token: OWNER_KEY });
    expect((await test.json()).data).toMatchObject({ ok: true });

    const run = await ctx.request("/api/v1/plugins/debug", { method: "POST", token: owner.token, json: { pluginId, arguments: { city: "Oslo" } } });
    expect((await run.json()).data).toMatchObject({ ok: true, status: 200 });
    expect(api.requests.at(-1)!.headers.authorization).toBe(`Bearer ${PLUGIN_AUTH}`);
    expect(api.requests.at(-1)!.headers["x-api-key"]).toBe(PLUGIN_API_KEY);

    // Saving the app id alone tries the stored secret against Feishu first.
    const resaved = await ctx.request("/api/v1/knowledge-feishu/authorization", { method: "PUT", token: owner.token, json: { appId: FEISHU_APP.appId } });
    expect(resaved.status).toBe(200);

    robotRequests.splice(0);
    const webhooks = (await getAppForChat(ctx.deps, { appId })).advancedConfig.manualService.notify.webhooks;
    for (const webhook of webhooks) await postRobotNotice(ctx.deps, webhook, "A visitor is waiting");
    const ding = robotRequests.find((request) => request.url.pathname === "/robot/send")!;
    expect(ding.url.searchParams.get("access_token")).toBe(DING_TOKEN);
    const timestamp = ding.url.searchParams.get("timestamp")!;
    expect(ding.url.searchParams.get("sign")).toBe(createHmac("sha256", DING_SECRET).update(`${timestamp}\n${DING_SECRET}`).digest("base64"));
    expect(robotRequests.find((request) => request.url.pathname === "/cgi-bin/webhook/send")!.url.searchParams.get("key")).toBe(WECOM_KEY);
    const feishuRobot = robotRequests.find((request) => request.url.pathname.startsWith("/open-apis/bot/v2/hook/"))!;
    expect(feishuRobot.url.pathname).toBe(`/open-apis/bot/v2/hook/${FEISHU_HOOK}`);
    expect(feishuRobot.body.sign).toBe(
      createHmac("sha256", `${String(feishuRobot.body.timestamp)}\n${FEISHU_ROBOT_SECRET}`)
        .update("")
        .digest("base64"),
    );

    const hash = createHmac("sha256", identitySecret).update("user-7").digest("hex");
    expect((await ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", json: { identity: { userId: "user-7", hash } } })).status).toBe(201);
    const forged = createHmac("sha256", "").update("user-7").digest("hex");
    expect((await ctx.request(`/api/v1/widget/${clientId}/sessions`, { method: "POST", json: { identity: { userId: "user-7", hash: forged } } })).status).toBe(
      401,
    );
  }

  it("creates one of each kind; none is in the data directory's bytes or in any read, and each still works", async () => {
    const provider = await ctx.request("/api/v1/model-providers", {
      method: "POST",
      token: OWNER_KEY,
      json: { kind: "openai-compatible", name: "Fake", baseUrl: llm.url, apiKey: PROVIDER_KEY, models: ["fake-chat"] },
    });
    expect(provider.status).toBe(201);
    providerId = (await provider.json()).data.id;

    const plugin = await ctx.request("/api/v1/plugins", {
      method: "POST",
      token: owner.token,
      json: {
        name: "Weather",
        description: "Weather now",
        avatar: "https://cdn.example.com/w.png",
        requestUrl: `${api.url}/weather`,
        requestMethod: "GET",
        requestParams: [{ name: "city", type: "string", description: "", required: true }],
        responseParams: [],
        headers: { Authorization: `Bearer ${PLUGIN_AUTH}`, "X-Api-Key": PLUGIN_API_KEY },
      },
    });
    expect(plugin.status, await plugin.clone().text()).toBe(201);
    pluginId = (await plugin.json()).data.id;

    const saved = await ctx.request("/api/v1/knowledge-feishu/authorization", { method: "PUT", token: owner.token, json: FEISHU_APP });
    expect(saved.status).toBe(200);

    appId = (await createAppVia(ctx, owner)).id;
    const config = (await read(`/api/v1/apps/${appId}/advanced-config`)).data;
    const put = await ctx.request(`/api/v1/apps/${appId}/advanced-config`, {
      method: "PUT",
      token: owner.token,
      json: { ...config, manualService: { ...config.manualService, notify: { ...config.manualService.notify, webhook: true, webhooks: robotHooks() } } },
    });
    expect(put.status).toBe(200);
    reads.push(await put.text());

    const client = await ctx.request("/api/v1/web-clients", { method: "POST", token: owner.token, json: { appId, name: "Shop widget" } });
    expect(client.status).toBe(201);
    const created = (await client.json()).data;
    clientId = created.id;
    identitySecret = created.identitySecret;

    const database = await ctx.request("/api/v1/databases", {
      method: "POST",
      token: owner.token,
      json: {
        type: "remote",
        name: "Warehouse",
        dialect: "mysql",
        host: "db.example.com",
        port: 3306,
        username: "reader",
        password: DATABASE_PASSWORD,
        databaseName: "stock",
      },
    });
    expect(database.status, await database.clone().text()).toBe(201);
    reads.push(await database.clone().text());
    databaseId = (await database.json()).data.id;

    // Stored sealed: recognisable by their prefix, none in the clear.
    expect(isSealed((await ctx.deps.db.select().from(modelProviders).where(eq(modelProviders.id, providerId)).get())!.apiKey!)).toBe(true);
    expect(isSealed((await ctx.deps.db.select().from(plugins).where(eq(plugins.id, pluginId)).get())!.headers)).toBe(true);
    expect(isSealed((await ctx.deps.db.select().from(knowledgeFeishuAuth).get())!.appSecret)).toBe(true);
    expect(isSealed((await ctx.deps.db.select().from(webClients).where(eq(webClients.id, clientId)).get())!.identitySecret)).toBe(true);
    expect(isSealed((await ctx.deps.db.select().from(databases).where(eq(databases.id, databaseId)).get())!.password)).toBe(true);
    expectNotStored(ctx.dataDir, [...allSecrets, identitySecret]);

    // Reads answer masks and flags only.
    await read("/api/v1/model-providers", OWNER_KEY);
    await read("/api/v1/plugins");
    await read(`/api/v1/plugins/${pluginId}`);
    await read("/api/v1/knowledge-feishu/authorization");
    const advanced = (await read(`/api/v1/apps/${appId}/advanced-config`)).data;
    const senior = (await read(`/api/v1/apps/${appId}/senior`)).data;
    await read("/api/v1/web-clients");
    await read(`/api/v1/web-clients/${clientId}`);
    expect((await read(`/api/v1/databases/${databaseId}`)).data.remote).toMatchObject({ host: "db.example.com", passwordSet: true });
    await read("/api/v1/databases");
    for (const text of reads) for (const secret of [...allSecrets, identitySecret]) expect(text).not.toContain(secret);
    expect(advanced.manualService.notify.webhooks).toEqual([
      { kind: "dingtalk", url: `${robotUrl}/robot/send?access_token=••••1a2b`, secret: "", secretSet: true },
      { kind: "wecom", url: `${robotUrl}/cgi-bin/webhook/send?key=••••3c4d`, secret: "", secretSet: true },
      { kind: "feishu", url: `${robotUrl}/open-apis/bot/v2/hook/••••9f8e`, secret: "", secretSet: true },
    ]);
    expect(senior.advancedConfig).toEqual(advanced);

    await expectSecretsWork();
  });

  it("keeps every secret when what was read is sent back", async () => {
    const provider = (await read("/api/v1/model-providers", OWNER_KEY)).data.find((entry: { id: string }) => entry.id === providerId);
    expect(
      (await ctx.request(`/api/v1/model-providers/${providerId}`, { method: "PATCH", token: OWNER_KEY, json: { name: "Fake 2", apiKey: provider.apiKeyHint } }))
        .status,
    ).toBe(200);
    const plugin = (await read(`/api/v1/plugins/${pluginId}`)).data;
    expect(
      (await ctx.request(`/api/v1/plugins/${pluginId}`, { method: "PATCH", token: owner.token, json: { name: "Weather 2", headers: plugin.headers } })).status,
    ).toBe(200);
    const advanced = (await read(`/api/v1/apps/${appId}/advanced-config`)).data;
    const put = await ctx.request(`/api/v1/apps/${appId}/advanced-config`, { method: "PUT", token: owner.token, json: advanced });
    expect(put.status).toBe(200);
    expect((await put.json()).data).toEqual(advanced);
    // A remote database's settings sent back as read (no password in them) keep the stored password.
    const database = (await read(`/api/v1/databases/${databaseId}`)).data;
    const { passwordSet: _set, ...remote } = database.remote;
    expect(
      (await ctx.request(`/api/v1/databases/${databaseId}`, { method: "PATCH", token: owner.token, json: { name: database.name, ...remote } })).status,
    ).toBe(200);
    expect(openValue(ctx.deps.secrets, (await ctx.deps.db.select().from(databases).where(eq(databases.id, databaseId)).get())!.password)).toBe(
      DATABASE_PASSWORD,
    );
    expectNotStored(ctx.dataDir, [...allSecrets, identitySecret]);
    await expectSecretsWork();
  });

  it("seals at start-up the plain values a database from before sealing holds, once", async () => {
    // Put the rows back as an earlier version wrote them: in plain text.
    await ctx.deps.db.update(modelProviders).set({ apiKey: PROVIDER_KEY }).where(eq(modelProviders.id, providerId));
    await ctx.deps.db
      .update(plugins)
      .set({ headers: JSON.stringify({ Authorization: `Bearer ${PLUGIN_AUTH}`, "X-Api-Key": PLUGIN_API_KEY }) })
      .where(eq(plugins.id, pluginId));
    await ctx.deps.db.update(knowledgeFeishuAuth).set({ appSecret: FEISHU_APP.appSecret });
    await ctx.deps.db.update(webClients).set({ identitySecret }).where(eq(webClients.id, clientId));
    const row = (await ctx.deps.db.select().from(apps).where(eq(apps.id, appId)).get())!;
    const legacy = JSON.parse(row.advancedConfig) as { manualService: { notify: { webhooks: unknown } } };
    legacy.manualService.notify.webhooks = robotHooks();
    await ctx.deps.db
      .update(apps)
      .set({ advancedConfig: JSON.stringify(legacy) })
      .where(eq(apps.id, appId));
    const legacyText = (await ctx.deps.db.select().from(apps).where(eq(apps.id, appId)).get())!.advancedConfig;
    expect(legacyText).toContain(DING_SECRET);
    // The plain rows are still served while they wait to be sealed.
    await expectSecretsWork();

    // The start-up step, through the real server start on this data directory.
    const running = await startServer(
      loadConfig({
        ...process.env,
        PARLEY_DATA_DIR: ctx.dataDir,
        PORT: "0",
        HOST: "127.0.0.1",
        PARLEY_LOG_LEVEL: "silent",
        PARLEY_DATABASE_DRIVER: ctx.config.database.driver,
        PARLEY_SEED_DEMO: "false",
      }),
    );
    await running.close();
    expect(await sealStoredSecrets(ctx.deps)).toEqual({ modelProviders: 0, plugins: 0, feishu: 0, webClients: 0, apps: 0 });

    const sealedApp = (await ctx.deps.db.select().from(apps).where(eq(apps.id, appId)).get())!;
    const stored = JSON.parse(sealedApp.advancedConfig) as { manualService: { notify: { webhooks: Array<{ url: string; secret: string }> } } };
    expect(stored.manualService.notify.webhooks.every((webhook) => isSealed(webhook.url) && isSealed(webhook.secret))).toBe(true);
    // Only the webhooks changed.
    expect({ ...stored, manualService: { ...stored.manualService, notify: { ...stored.manualService.notify, webhooks: [] } } }).toEqual({
      ...legacy,
      manualService: { ...legacy.manualService, notify: { ...legacy.manualService.notify, webhooks: [] } },
    });
    await ctx.deps.models.reload();
    expectNotStored(ctx.dataDir, [...allSecrets, identitySecret]);
    await expectSecretsWork();
  });
});
