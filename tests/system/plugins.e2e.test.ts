import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { type ParleyProcess, startParley } from "./parley-process";

let parley: ParleyProcess;
let browser: Browser;
let weather: http.Server;
let weatherUrl = "";
/** What the local weather service saw, to check the test run really reached it. */
const seen: Array<{ url: string; apiKey: string | undefined }> = [];
let token: string | null = null;
let mcp: http.Server;
let mcpUrl = "";
/** The tool calls the local MCP server answered. */
const mcpCalls: Array<{ name: string; arguments: Record<string, unknown> }> = [];

// A small MCP server speaking Streamable HTTP with JSON answers: initialize, tools/list, tools/call.
function answerMcp(request: http.IncomingMessage, response: http.ServerResponse) {
  let body = "";
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString("utf8");
  });
  request.on("end", () => {
    const message = JSON.parse(body || "{}") as { id?: number; method?: string; params?: { name: string; arguments: Record<string, unknown> } };
    if (message.id === undefined) return void response.writeHead(202).end();
    const reply = (result: unknown) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result }));
    };
    if (message.method === "initialize")
      return reply({ protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "e2e-mcp", version: "1.0.0" } });
    if (message.method === "tools/list") {
      return reply({
        tools: [
          {
            name: "moon_phase",
            title: "Moon phase",
            description: "Phase of the moon on a date",
            inputSchema: { type: "object", properties: { date: { type: "string" } } },
          },
          { name: "broken", description: "Lists no input schema" },
        ],
      });
    }
    if (message.method === "tools/call" && message.params) {
      mcpCalls.push(message.params);
      return reply({ content: [{ type: "text", text: `Full moon on ${String(message.params.arguments.date)}` }] });
    }
    reply({});
  });
}

beforeAll(async () => {
  // A tiny HTTP service the plugin will call; loopback is allowed by the flag below.
  weather = http.createServer((request, response) => {
    seen.push({ url: request.url ?? "", apiKey: request.headers["x-api-key"] as string | undefined });
    const city = new URL(request.url ?? "/", "http://local").searchParams.get("city") ?? "nowhere";
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ city, temperature: 21, sky: "clear" }));
  });
  await new Promise<void>((resolve) => weather.listen(0, "127.0.0.1", resolve));
  weatherUrl = `http://127.0.0.1:${(weather.address() as AddressInfo).port}`;
  mcp = http.createServer(answerMcp);
  await new Promise<void>((resolve) => mcp.listen(0, "127.0.0.1", resolve));
  mcpUrl = `http://127.0.0.1:${(mcp.address() as AddressInfo).port}/mcp`;
  [parley, browser] = await Promise.all([
    startParley({ PARLEY_PLUGINS_ALLOW_PRIVATE_NETWORK: "true", PARLEY_PLUGINS_ALLOWED_HOSTS: "127.0.0.1" }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await parley?.stop();
  await new Promise((resolve) => weather?.close(resolve));
  await new Promise((resolve) => mcp?.close(resolve));
});

const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`);
/** A portable file's placeholder for a secret. */
const secret = (name: string) => `\${secret:${name}}`;

async function signedInPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  if (!token) {
    // The owner's one-time link printed at first start.
    await page.goto(parley.signInUrl!);
    await page.waitForURL(/\/console\/agents$/);
    await expect.poll(() => page.evaluate(() => localStorage.getItem("token"))).toMatch(/^pst_/);
    token = await page.evaluate(() => localStorage.getItem("token"));
  } else {
    await page.goto(`${parley.url}/login`);
    await page.evaluate((value) => localStorage.setItem("token", value), token);
  }
  return page;
}

describe("plugins and API access in Chromium", () => {
  it("creates a plugin from a curl command, test-runs it against a local service, saves it and lists it", async () => {
    const page = await signedInPage();
    await page.goto(`${parley.url}/console/plugins`);
    await byTestId(page, "plugin-empty").waitFor();
    await byTestId(page, "plugins-tab-builtin").click();
    await expect.poll(() => byTestId(page, "builtin-plugins").innerText()).toMatch(/Calculator/i);
    await byTestId(page, "plugins-tab-custom").click();

    // Source: a curl command.
    await byTestId(page, "plugin-create").click();
    await page.waitForURL(/\/console\/plugins\/detail$/);
    await byTestId(page, "plugin-source-curl").click();
    await byTestId(page, "plugin-source-content").fill(`curl '${weatherUrl}/weather?city=Hangzhou' -H 'X-Api-Key: secret-abcd1234'`);
    await byTestId(page, "plugin-parse").click();

    // The form comes filled from the parse: URL, method, the city parameter, the header.
    await expect.poll(() => byTestId(page, "plugin-url").inputValue()).toBe(`${weatherUrl}/weather`);
    await expect.poll(() => byTestId(page, "request-param-name-0").inputValue()).toBe("city");
    await expect.poll(() => byTestId(page, "plugin-header-name-0").inputValue()).toBe("X-Api-Key");

    // §5: a broken parameter name is refused on the row before anything is sent.
    await byTestId(page, "request-param-add").click();
    await byTestId(page, "request-param-name-1").fill("max-days");
    await expect.poll(() => byTestId(page, "request-param-error-1").innerText()).toMatch(/English letters/);
    await byTestId(page, "request-param-delete-1").click();

    await byTestId(page, "plugin-name").fill("Local weather");
    await byTestId(page, "plugin-description").fill("Current weather for a city, from the local test service");
    await byTestId(page, "plugin-next-test").click();

    // Test run: the argument input comes from the parameter.
    await byTestId(page, "plugin-arg-city").fill("Paris");
    await byTestId(page, "plugin-run").click();
    await expect.poll(() => byTestId(page, "plugin-test-outcome").innerText()).toMatch(/Succeeded/);
    expect(await byTestId(page, "plugin-test-status").innerText()).toContain("200");
    expect(await byTestId(page, "plugin-test-response").innerText()).toContain('"temperature": 21');
    expect(await byTestId(page, "plugin-test-response").innerText()).toContain('"city": "Paris"');
    expect(await byTestId(page, "plugin-test-result").innerText()).not.toContain("secret-abcd1234");
    expect(seen.at(-1)).toEqual({ url: "/weather?city=Paris", apiKey: "secret-abcd1234" });

    // Save: back on the list, the plugin is there and enabled.
    await byTestId(page, "plugin-save").click();
    await page.waitForURL(/\/console\/plugins$/);
    const table = byTestId(page, "plugin-table");
    await expect.poll(() => table.innerText()).toContain("Local weather");
    expect(await table.locator('button[role="switch"][aria-checked="true"]').count()).toBe(1);

    // The detail page shows the stored header masked.
    await table.getByText("Local weather").click();
    await page.waitForURL(/\/console\/plugins\/detail\?id=/);
    await expect.poll(() => byTestId(page, "plugin-header-value-0").inputValue()).toMatch(/^\*{4}1234$/);
    await page.context().close();
  });

  it("imports a plugin from a portable file (plan, then the secret it needs) and exports it again without the secret", async () => {
    const page = await signedInPage();
    await page.goto(`${parley.url}/console/plugins`);
    await byTestId(page, "plugin-table").waitFor();
    await byTestId(page, "portable-import").click();
    const file = [
      "parley: 1",
      "kind: bundle",
      "secrets: [{ name: WEATHER_KEY, description: The weather service key }]",
      "plugins:",
      "  - ref: plugin:weather",
      "    name: Imported weather",
      "    description: Weather of a city",
      "    avatar: https://cdn.example.com/weather.png",
      "    http:",
      `      url: ${weatherUrl}/weather`,
      "      method: GET",
      "      requestParams: [{ name: city, type: string, description: City, required: true, location: query }]",
      `      headers: { X-Api-Key: "${secret("WEATHER_KEY")}" }`,
    ].join("\n");
    await page.locator('.ant-modal input[type="file"]').setInputFiles({ name: "weather.yaml", mimeType: "application/yaml", buffer: Buffer.from(file) });
    await expect.poll(() => byTestId(page, "portable-import-plan").innerText()).toContain("Imported weather");
    await byTestId(page, "portable-secret-WEATHER_KEY").fill("key-5678");
    await byTestId(page, "portable-import-confirm").click();
    const row = byTestId(page, "plugin-table").locator("tr", { hasText: "Imported weather" });
    await row.waitFor();

    const [download] = await Promise.all([page.waitForEvent("download"), row.locator('[data-testid^="plugin-export-"]').click()]);
    const exported = await readFile((await download.path())!, "utf8");
    expect(exported).toContain(`X-Api-Key: ${secret("PLUGIN_IMPORTED_WEATHER_X_API_KEY")}`);
    expect(exported).not.toContain("key-5678");
    await page.context().close();
  });

  it("adds an MCP server: discovers its tools (refusing a broken one), switches one on, test-runs it and saves", async () => {
    const page = await signedInPage();
    await page.goto(`${parley.url}/console/plugins/detail`);
    await byTestId(page, "plugin-source-mcp").click();
    await byTestId(page, "plugin-parse").click();
    await byTestId(page, "mcp-name").fill("Moon");
    await byTestId(page, "mcp-description").fill("Moon facts over MCP");
    await byTestId(page, "mcp-url").fill(mcpUrl);
    // The HTTP form stays mounted (hidden): its header rows share these test ids.
    const editor = byTestId(page, "mcp-plugin-editor");
    await editor.locator('[data-testid="plugin-header-add"]').click();
    await editor.locator('[data-testid="plugin-header-name-0"]').fill("Authorization");
    await editor.locator('[data-testid="plugin-header-value-0"]').fill("Bearer moon-secret-9876");
    await byTestId(page, "mcp-discover").click();
    await expect.poll(() => byTestId(page, "mcp-discovered").innerText()).toMatch(/1 tool.*e2e-mcp/);
    expect(await byTestId(page, "mcp-warnings").innerText()).toContain("broken");
    await byTestId(page, "mcp-tool-switch-moon_phase").click();
    await byTestId(page, "mcp-test-tool").click();
    await page.locator(".ant-select-item-option").filter({ hasText: "moon_phase" }).click();
    await byTestId(page, "mcp-test-arguments").fill('{"date":"2026-12-24"}');
    await byTestId(page, "mcp-run").click();
    await expect.poll(() => byTestId(page, "plugin-test-response").innerText()).toBe("Full moon on 2026-12-24");
    expect(await byTestId(page, "plugin-test-result").innerText()).not.toContain("moon-secret");
    await byTestId(page, "plugin-save").click();
    await page.waitForURL(/\/console\/plugins$/);
    await expect.poll(() => byTestId(page, "plugin-table").innerText()).toMatch(/MCP[\s\S]*\/mcp/);
    expect(mcpCalls).toEqual([{ name: "moon_phase", arguments: { date: "2026-12-24" } }]);
    await page.context().close();
  });

  it("shows the API-access snippets with this origin", async () => {
    const page = await signedInPage();
    await page.goto(`${parley.url}/console/Integrations`);
    await byTestId(page, "user-key-table").waitFor();
    await byTestId(page, "integrations-tab-snippets").click();
    await expect.poll(() => byTestId(page, "snippet-curl-code").innerText()).toContain(`'${parley.url}/v1/chat/completions'`);
    expect(await byTestId(page, "snippets-base-url").innerText()).toContain(`${parley.url}/v1`);
    await page.getByRole("tab", { name: "MCP" }).click();
    await expect.poll(() => byTestId(page, "snippet-mcp-code").innerText()).toContain(`"url": "${parley.url}/mcp/apps/`);
    expect(await byTestId(page, "snippets-mcp-url").innerText()).toContain(`${parley.url}/mcp/apps/`);
    await page.context().close();
  });
});
