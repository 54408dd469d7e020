import fs from "node:fs";
import path from "node:path";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { apps, knowledgeBases, knowledgeFiles, plugins, workflows } from "../db/schema/index";
import { addMember } from "../apps/testing";
import { createKnowledgeBaseVia, zipOf } from "../knowledge/testing";
import { upgradeSpaceForTest } from "../plans/testing";
import { expectError } from "../testing/flows";
import { createTestContext, registerUser, type TestContext, type TestUser } from "../testing/harness";
import { readBundle } from "./archive";
import { placeholderOf, portableJsonSchema } from "./format";
import { importOk, importVia } from "./testing";

// What a portable import refuses, each with a clear message and nothing written: newer versions,
// foreign references, missing secrets, rule breaks, zip bombs, too many objects, the plan's quotas.
let ctx: TestContext;
let owner: TestUser;
let freeUser: TestUser;

beforeAll(async () => {
  ctx = await createTestContext();
  owner = await registerUser(ctx, "portable-refusals@example.com");
  await upgradeSpaceForTest(ctx, owner.user.spaceId);
  freeUser = await registerUser(ctx, "portable-free@example.com");
});
afterAll(async () => {
  await ctx?.close();
});

const appOf = (ref: string, overrides: Record<string, unknown> = {}) => ({
  ref,
  type: "LIGHT",
  name: "Support bot",
  description: "Answers questions about orders",
  openingIntroduction: "Hello! Ask me anything.",
  avatarUrl: "https://cdn.example.com/avatars/support.png",
  category: "customer_service",
  settingsPrompt: "You are a friendly support agent.",
  defaultModel: "parley-offline",
  ...overrides,
});
const pluginOf = (ref: string) => ({
  ref,
  kind: "http",
  name: "Weather",
  description: "Weather of a city",
  avatar: "https://cdn.example.com/weather.png",
  http: {
    url: "https://weather.example.com/now",
    method: "GET",
    requestParams: [{ name: "city", type: "string", description: "City", required: true, location: "query" }],
    headers: { "X-Api-Key": placeholderOf("WEATHER_KEY") },
  },
});
const fileOf = (body: Record<string, unknown>) => stringify({ parley: 1, kind: "bundle", ...body });

async function rows() {
  const out: Record<string, number> = {};
  for (const [name, table] of Object.entries({ apps, workflows, plugins, knowledgeBases, knowledgeFiles })) {
    out[name] = (await ctx.deps.db.select({ n: count() }).from(table).get())?.n ?? 0;
  }
  return out;
}

/** Expects the import refused with a 400 (or the given status) and no row written. */
async function refused(
  file: string | Uint8Array,
  expected: { status?: number; field?: string; message?: string | RegExp; code?: number },
  user = owner,
  secrets?: Record<string, string>,
) {
  const before = await rows();
  const body = await expectError(await importVia(ctx, user, file, secrets ? { secrets } : {}), expected.status ?? 400, expected);
  expect(await rows()).toEqual(before);
  return body;
}

describe("versions", () => {
  it("refuses a file from a newer Parley, naming both versions", async () => {
    await refused(fileOf({ parley: 2 }), {
      field: "parley",
      message: "This file was written in format version 2 by a newer Parley; this instance reads versions up to 1. Upgrade Parley to import it",
    });
  });

  it("migrates a version 0 (draft format) file and imports it", async () => {
    const draft = stringify({
      parley: 0,
      secrets: [{ name: "WEATHER_KEY", description: "Weather key" }],
      objects: [
        { ...(({ http, kind: _kind, ...card }) => ({ ...card, ...http, kind: "plugin" }))(pluginOf("plugin:weather")) },
        { kind: "app", ...appOf("app:bot", { name: "Draft bot", plugins: ["plugin:weather"] }) },
      ],
    });
    const result = await importOk(ctx, owner, draft, { secrets: { WEATHER_KEY: "k-1" } });
    expect(result.fromVersion).toBe(0);
    expect(result.apps.map((app) => app.name)).toEqual(["Draft bot"]);
    expect(result.plugins).toHaveLength(1);
  });

  it("refuses a text that is not a portable file", async () => {
    await refused("hello: world\n", { field: "parley", message: /not a Parley portable file/ });
    await refused("parley: [unclosed\n", { field: "file", message: /not valid YAML/ });
  });
});

describe("references and secrets", () => {
  it("refuses a reference to an object of another space (an id instead of a file ref), naming the field", async () => {
    const foreign = await createKnowledgeBaseVia(ctx, freeUser, { name: "Theirs" });
    await refused(fileOf({ apps: [appOf("app:bot", { knowledgeBases: [foreign.id] })] }), {
      field: "apps.0.knowledgeBases.0",
      message: `apps.0.knowledgeBases.0 refers to "${foreign.id}", which is not an object of this file (references to other spaces are not imported)`,
    });
    await refused(
      fileOf({
        workflows: [
          {
            ref: "workflow:w",
            name: "Flow",
            description: "A flow",
            avatarUrl: "https://cdn.example.com/w.png",
            category: "office",
            elements: [{ id: "ask", type: "app", config: { name: "ask", appId: "app_01jd7w3k5q9x2m4n6p8r" } }],
            lines: [],
          },
        ],
      }),
      { field: "workflows.0.elements.0.config.appId" },
    );
  });

  it("refuses an import whose placeholder has no value, naming it, and one using an undeclared secret", async () => {
    const file = fileOf({ secrets: [{ name: "WEATHER_KEY", description: "Weather key" }], plugins: [pluginOf("plugin:weather")] });
    await refused(file, { field: "secrets.WEATHER_KEY", message: "Give a value for the secret WEATHER_KEY" });
    await refused(fileOf({ plugins: [pluginOf("plugin:weather")] }), { message: /uses the secret WEATHER_KEY, which the file does not declare/ });
  });
});

describe("rules of the create paths, all or nothing", () => {
  it("writes nothing when one object of many breaks a rule, and names the object's field", async () => {
    const file = fileOf({
      secrets: [{ name: "WEATHER_KEY", description: "Weather key" }],
      knowledgeBases: [{ ref: "kb:manuals", name: "Manuals" }],
      plugins: [pluginOf("plugin:weather")],
      apps: [appOf("app:good", { knowledgeBases: ["kb:manuals"] }), appOf("app:bad", { description: "Hi" })],
    });
    await refused(file, { field: "apps.1.description", message: "The description must be longer than 5 characters" }, owner, { WEATHER_KEY: "k" });
  });

  it("keeps a script in a name as inert text, exactly as the create API does, and suffixes a name the space already uses", async () => {
    const name = "<script>alert(1)</script>";
    const first = await importOk(ctx, owner, fileOf({ apps: [appOf("app:x", { name })] }));
    const second = await importOk(ctx, owner, fileOf({ apps: [appOf("app:x", { name })] }));
    expect(first.apps[0]!.name).toBe(name);
    expect(second.apps[0]!.name).toBe(`${name} (2)`);
    const detail = await ctx.request(`/api/v1/apps/${first.apps[0]!.id}`, { token: owner.token });
    expect(((await detail.json()) as { data: { name: string } }).data.name).toBe(name);
    await refused(fileOf({ apps: [appOf("app:x", { name: "x".repeat(51) })] }), { field: "apps.0.name" });
  });
});

describe("limits", () => {
  it("refuses a zip bomb while inflating it, before it is unpacked whole, and a zip of too many entries", async () => {
    // 40 MB of zeros deflate to about 40 KB; with a 1 MB limit the inflater stops after its first steps.
    const bomb = zipOf([
      { name: "parley.yaml", data: new TextEncoder().encode(fileOf({})) },
      { name: "knowledge/big.json", data: new Uint8Array(40 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(100 * 1024);
    expect(() => readBundle(bomb, { uncompressedBytes: 1024 * 1024, zipEntries: 10 })).toThrow(
      expect.objectContaining({ messageId: "portable_zip_too_large", params: { limit: 1024 * 1024 } }),
    );
    const crowded = zipOf(Array.from({ length: 1001 }, (_, index) => ({ name: `knowledge/f${index}.json`, data: new Uint8Array(1) })));
    await refused(crowded, { field: "file", message: "The zip archive holds more than 1000 entries" });
  });

  it("refuses a zip with unexpected entries", async () => {
    const zip = zipOf([
      { name: "parley.yaml", data: new TextEncoder().encode(fileOf({})) },
      { name: "../../etc/passwd", data: new TextEncoder().encode("x") },
    ]);
    await refused(zip, { field: "file", message: /unexpected entry/ });
  });

  it("refuses 10,000 apps by the file limit, and more apps than the plan allows with 701", async () => {
    const many = `parley: 1\nkind: bundle\napps:\n${Array.from({ length: 10_000 }, (_, index) => `  - ref: app:a${index}\n`).join("")}`;
    await refused(many, { field: "file", message: "The file holds 10000 apps, workflows, plugins and knowledge bases; one import takes at most 500" });
    const six = fileOf({ apps: Array.from({ length: 6 }, (_, index) => appOf(`app:a${index}`)) });
    await refused(six, { status: 402, code: 701, message: "The Free plan allows up to 5 apps; upgrade your plan to add more" }, freeUser);
  });
});

describe("access", () => {
  it("refuses a member whose role may not create what the file holds, and lets it export what it may read", async () => {
    const viewer = await registerUser(ctx, "portable-viewer@example.com");
    await addMember(ctx, owner.user.spaceId, viewer, "viewer");
    const before = await rows();
    const response = await ctx.request("/api/v1/portable/import", {
      method: "POST",
      token: viewer.token,
      headers: { "x-parley-space": owner.user.spaceId },
      json: { yaml: fileOf({ secrets: [{ name: "WEATHER_KEY", description: "k" }], plugins: [pluginOf("plugin:weather")] }), secrets: { WEATHER_KEY: "k" } },
    });
    await expectError(response, 403);
    expect(await rows()).toEqual(before);
    // The same viewer may export what it can read.
    const exported = await ctx.request("/api/v1/portable/export", {
      method: "POST",
      token: viewer.token,
      headers: { "x-parley-space": owner.user.spaceId },
      json: { space: true },
    });
    expect(exported.status).toBe(200);
    expect(await exported.text()).toMatch(/^parley: 1\nkind: bundle\n/);
  });
});

describe("export", () => {
  it("answers 404 for an object of another space, and 400 when nothing is chosen", async () => {
    const theirs = await createKnowledgeBaseVia(ctx, freeUser, { name: "Not yours" });
    await expectError(await ctx.request("/api/v1/portable/export", { method: "POST", token: owner.token, json: { knowledgeBaseIds: [theirs.id] } }), 404);
    await expectError(await ctx.request("/api/v1/portable/export", { method: "POST", token: owner.token, json: {} }), 400, {
      message: "Choose what to export, or the whole space",
    });
  });
});

describe("format documentation", () => {
  it("docs/portable-format.schema.json is the schema the code defines", () => {
    const file = path.resolve(__dirname, "../../../../docs/portable-format.schema.json");
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(portableJsonSchema());
  });
});
