import { unzipSync } from "fflate";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createAppVia } from "../apps/testing";
import { plugins, workflows } from "../db/schema/index";
import { knowledgeFileSchema } from "../knowledge/schemas";
import { createKnowledgeBaseVia, uploadOk } from "../knowledge/testing";
import { createKnowledgeWorker } from "../knowledge/worker";
import { upgradeSpaceForTest } from "../plans/testing";
import { loadPlugin } from "../plugins/service/plugins";
import { expectOk } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { createWorkflowVia, line, node } from "../workflows/testing";
import { workflowSchema } from "../workflows/schemas";
import { graphOf, openGraph } from "../workflows/service/workflows";
import { placeholderOf } from "./format";
import { answerOf, askVia, citationsOf, exportVia, importOk, importVia } from "./testing";

// Acceptance of issue 23 item 4: export an offline knowledge app with its knowledge base, a
// workflow using both, and a plugin with a secret header; import the bundle into a fresh
// instance (its own database and files); the app and the workflow answer the same question the
// same way, with the same citations.
let source: TestContext;
let target: TestContext;
let owner: TestUser;
let importer: TestUser;
const SECRET = "sk-weather-1234567890";

const guide = [
  "# Returns",
  "Returns are accepted within thirty days of delivery when the item is unused.",
  "# Shipping",
  "Standard shipping takes three to five working days; express shipping arrives the next day.",
].join("\n\n");
const question = "How long does express shipping take?";

beforeAll(async () => {
  [source, target] = await Promise.all([createTestContext(), createTestContext()]);
  owner = await registerUser(source, "portable-owner@example.com");
  importer = await registerUser(target, "portable-importer@example.com");
  await upgradeSpaceForTest(source, owner.user.spaceId);
  await upgradeSpaceForTest(target, importer.user.spaceId);
});
afterAll(async () => {
  await Promise.all([source?.close(), target?.close()]);
});

describe("export, then import into a fresh instance", () => {
  it("answers the same question the same way, with its knowledge base, workflow and plugin; the secret travels only as a placeholder", async () => {
    const base = await createKnowledgeBaseVia(source, owner, { name: "Store guide", chunkTokens: 50, chunkOverlap: 0 });
    const file = await uploadOk(source, owner, base.id, "store-guide.md", guide);
    await expectOk(await source.request(`/api/v1/knowledge-files/${file.id}/confirm`, { method: "POST", token: owner.token }), 200, knowledgeFileSchema);
    await createKnowledgeWorker(source.deps).drain();

    const plugin = await source.request("/api/v1/plugins", {
      method: "POST",
      token: owner.token,
      json: {
        name: "Weather",
        description: "Weather of a city",
        avatar: "https://cdn.example.com/weather.png",
        requestUrl: "https://weather.example.com/now",
        requestMethod: "GET",
        requestParams: [{ name: "city", type: "string", description: "City", required: true, location: "query" }],
        responseParams: [],
        headers: { "X-Api-Key": SECRET },
      },
    });
    expect(plugin.status, await plugin.clone().text()).toBe(201);
    const pluginCode = ((await plugin.json()) as { data: { code: string } }).data.code;

    const app = await createAppVia(source, owner, {
      name: "Store helper",
      type: "KNOWLEDGE",
      defaultModel: "parley-offline",
      optionalModels: ["parley-offline"],
      knowledgeBaseIds: [base.id],
      plugins: [pluginCode, "current_time"],
      retrievalMode: "fulltext",
      fullTextCount: 3,
      citationEnabled: true,
      citationThreshold: 0.9,
      similarityThreshold: 0.8,
    });
    const workflow = await createWorkflowVia(
      source,
      owner,
      {
        elements: [
          node("start", "start", { inputs: { text: true } }),
          node("search", "knowledge_base", { knowledgeBaseIds: [base.id], input: "{{sys.query}}" }),
          node("ask", "app", { appId: app.id, input: "{{sys.query}}" }),
          node("end", "end", { output: "{{ask.output}}" }),
        ],
        lines: [line("start", "search"), line("search", "ask"), line("ask", "end")],
      },
      { name: "Store triage" },
    );
    const published = await source.request(`/api/v1/workflows/${workflow.id}/app`, { method: "POST", token: owner.token });
    expect(published.status, await published.clone().text()).toBe(200);
    const workflowAppCode = ((await published.json()) as { data: { appCode: string } }).data.appCode;

    const before = await askVia(source, owner, app.code, question);
    const beforeWorkflow = answerOf(await askVia(source, owner, workflowAppCode, question));
    expect(answerOf(before)).toContain("express shipping arrives the next day");
    expect(citationsOf(before).length).toBeGreaterThan(0);
    expect(beforeWorkflow).toContain("express shipping arrives the next day");

    // Export the app and the workflow (their knowledge base and plugin come along) with contents.
    const exported = await exportVia(source, owner, { appIds: [app.id], workflowIds: [workflow.id], includeContents: true });
    expect(exported.status, await exported.clone().text()).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/zip");
    const zip = new Uint8Array(await exported.arrayBuffer());
    const entries = unzipSync(zip);
    const yamlText = new TextDecoder().decode(entries["parley.yaml"]);
    expect(yamlText).not.toContain(SECRET);
    const document = parse(yamlText) as Record<string, any>;
    expect(document.parley).toBe(1);
    expect(document.kind).toBe("bundle");
    expect(document.secrets).toEqual([{ name: "PLUGIN_WEATHER_X_API_KEY", description: 'Header X-Api-Key of plugin "Weather"' }]);
    expect(document.plugins[0].http.headers).toEqual({ "X-Api-Key": placeholderOf("PLUGIN_WEATHER_X_API_KEY") });
    expect(document.apps[0]).toMatchObject({
      ref: "app:store-helper",
      knowledgeBases: ["kb:store-guide"],
      plugins: ["plugin:weather", "builtin:current_time"],
    });
    const graph = document.workflows[0].elements as Array<{ id: string; config: Record<string, unknown> }>;
    expect(graph.find((element) => element.id === "search")!.config.knowledgeBaseIds).toEqual(["kb:store-guide"]);
    expect(graph.find((element) => element.id === "ask")!.config.appId).toBe("app:store-helper");
    // No id of the source instance is left in the file.
    for (const id of [app.id, base.id, workflow.id, pluginCode]) expect(yamlText).not.toContain(id);

    // The dry run names the placeholder to fill and creates nothing.
    const plan = await importOk(target, importer, zip, { dryRun: true });
    expect(plan.secrets).toEqual([{ name: "PLUGIN_WEATHER_X_API_KEY", description: 'Header X-Api-Key of plugin "Weather"', provided: false }]);
    expect(plan.apps.map((item) => [item.ref, item.id])).toEqual([["app:store-helper", null]]);
    expect(plan.knowledgeFiles).toBe(1);
    const missing = await importVia(target, importer, zip);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toBe("Give a value for the secret PLUGIN_WEATHER_X_API_KEY");

    const result = await importOk(target, importer, zip, { secrets: { PLUGIN_WEATHER_X_API_KEY: SECRET } });
    await createKnowledgeWorker(target.deps).drain();
    const newApp = result.apps[0]!;
    expect(newApp.code).not.toBe(app.code);
    expect(newApp.id).not.toBe(app.id);

    // The plugin's header is the value given, sealed at rest, and the app names the new plugin.
    const storedPlugin = await target.deps.db.select().from(plugins).where(eq(plugins.spaceId, importer.user.spaceId)).get();
    expect(storedPlugin!.headers).not.toContain(SECRET);
    const opened = await loadPlugin(target.deps, { userId: importer.user.id, spaceId: importer.user.spaceId }, storedPlugin!.id);
    expect(opened.headers).toEqual({ "X-Api-Key": SECRET });

    const after = await askVia(target, importer, newApp.code!, question);
    expect(answerOf(after)).toBe(answerOf(before));
    expect(citationsOf(after)).toEqual(citationsOf(before));

    const importedWorkflow = await expectOk(
      await target.request(`/api/v1/workflows/${result.workflows[0]!.id}`, { method: "GET", token: importer.token }),
      200,
      workflowSchema,
    );
    expect(importedWorkflow.appCode).toBeTruthy();
    expect(answerOf(await askVia(target, importer, importedWorkflow.appCode!, question))).toBe(beforeWorkflow);
  });

  it("turns a robot webhook's URL and signing secret into placeholders, and seals the values given at import", async () => {
    const url = "https://oapi.dingtalk.com/robot/send?access_token=tok-9876";
    const workflow = await createWorkflowVia(
      source,
      owner,
      {
        elements: [
          node("start", "start", { inputs: { text: true } }),
          node("notify", "channel_send", { mode: "webhook", webhookUrl: url, webhookSecret: "SEC-robot-5555", content: "{{sys.query}}" }),
          node("end", "end", { output: "{{notify.output}}" }),
        ],
        lines: [line("start", "notify"), line("notify", "end")],
      },
      { name: "Robot relay" },
    );
    const exported = await exportVia(source, owner, { workflowIds: [workflow.id] });
    expect(exported.headers.get("content-type")).toBe("application/yaml; charset=utf-8");
    const text = await exported.text();
    expect(text).not.toContain("tok-9876");
    expect(text).not.toContain("SEC-robot-5555");
    const document = parse(text) as { secrets: Array<{ name: string }> };
    const [urlName, secretName] = document.secrets.map((secret) => secret.name);
    expect([urlName, secretName]).toEqual(["WORKFLOW_ROBOT_RELAY_NOTIFY_WEBHOOKURL", "WORKFLOW_ROBOT_RELAY_NOTIFY_WEBHOOKSECRET"]);

    const result = await importOk(target, importer, text, { secrets: { [urlName!]: url, [secretName!]: "SEC-new-7777" } });
    const row = await target.deps.db.select().from(workflows).where(eq(workflows.id, result.workflows[0]!.id!)).get();
    expect(row!.elements).not.toContain("SEC-new-7777");
    const notify = openGraph(target.deps, graphOf(row!)).elements.find((element) => element.id === "notify")!;
    expect(notify.config).toMatchObject({ webhookUrl: url, webhookSecret: "SEC-new-7777" });
  });

  it("carries an MCP plugin's endpoint, transport and tool switches; its header travels only as a placeholder", async () => {
    const tools = [
      { name: "get_weather", description: "Weather of a city", inputSchema: { type: "object", properties: { city: { type: "string" } } }, enabled: true },
      { name: "get_alerts", description: "Weather alerts", inputSchema: { type: "object", properties: {} }, enabled: false },
    ];
    const created = (await (
      await source.request("/api/v1/plugins", {
        method: "POST",
        token: owner.token,
        json: {
          kind: "mcp",
          name: "Weather over MCP",
          description: "Weather tools",
          avatar: "https://cdn.example.com/mcp.png",
          requestUrl: "https://mcp.example.com/mcp",
          headers: { Authorization: "Bearer mcp-secret-4321" },
          mcp: { transport: "sse", tools },
        },
      })
    ).json()) as { data: { id: string } };
    const text = await (await exportVia(source, owner, { pluginIds: [created.data.id] })).text();
    expect(text).not.toContain("mcp-secret-4321");
    const document = parse(text) as { secrets: Array<{ name: string }>; plugins: Array<{ kind: string; mcp: { url: string; transport: string } }> };
    expect(document.plugins[0]).toMatchObject({ kind: "mcp", mcp: { url: "https://mcp.example.com/mcp", transport: "sse" } });

    const result = await importOk(target, importer, text, { secrets: { [document.secrets[0]!.name]: "Bearer new-9999" } });
    const imported = await loadPlugin(target.deps, { userId: importer.user.id, spaceId: importer.user.spaceId }, result.plugins[0]!.id!);
    expect(imported).toMatchObject({
      kind: "mcp",
      requestUrl: "https://mcp.example.com/mcp",
      headers: { Authorization: "Bearer new-9999" },
      mcp: { transport: "sse" },
    });
    expect(imported.mcp!.tools.map((tool) => [tool.name, tool.enabled])).toEqual([
      ["get_weather", true],
      ["get_alerts", false],
    ]);
    const row = await target.deps.db.select().from(plugins).where(eq(plugins.id, imported.id)).get();
    expect(row!.headers).not.toContain("new-9999");
  });
});
