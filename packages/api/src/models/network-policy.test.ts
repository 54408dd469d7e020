import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrap } from "../bootstrap";
import { checkUrl, refusalFor } from "../plugins/service/network";
import type { LlmFake } from "../testing/fakes/llm-common";
import { startOpenAiFake } from "../testing/fakes/llm-openai";
import { expectOk } from "../testing/flows";
import { createTestContext, type TestContext } from "../testing/harness";
import { modelProviderSchema, providerTestSchema } from "./schemas";

const OWNER_KEY = "pk_owner-bootstrap-key-0123456789abcdef";
const KEY = "sk-policy-test-secret-000000000";

// Every spelling of this host, link-local metadata and private ranges the URL parser lets through.
const refused = (port: number) => [
  `http://127.0.0.1:${port}/v1`,
  `http://127.1:${port}/v1`,
  `http://2130706433:${port}/v1`,
  `http://0x7f000001:${port}/v1`,
  `http://0x7f.0.0.1:${port}/v1`,
  `http://0177.0.0.1:${port}/v1`,
  `http://0.0.0.0:${port}/v1`,
  `http://localhost:${port}/v1`,
  `http://[::1]:${port}/v1`,
  `http://[0:0:0:0:0:0:0:1]:${port}/v1`,
  `http://[::ffff:127.0.0.1]:${port}/v1`,
  `http://[::ffff:7f00:1]:${port}/v1`,
  `http://[0:0:0:0:0:ffff:7f00:1]:${port}/v1`,
  `http://[::ffff:0:7f00:1]:${port}/v1`,
  `http://[64:ff9b::7f00:1]:${port}/v1`,
  `http://[2002:7f00:1::]:${port}/v1`,
  `http://[::127.0.0.1]:${port}/v1`,
  "http://169.254.169.254/latest",
  "http://[::ffff:169.254.169.254]/latest",
  "http://[::ffff:a9fe:a9fe]/latest",
  "http://metadata.google.internal/computeMetadata/v1",
  "http://10.0.0.8/v1",
  "http://172.16.4.4/v1",
  "http://192.168.1.1/v1",
  "http://100.64.0.1/v1",
  "http://[fd00::1]/v1",
  "http://[fd12:3456::1]/v1",
  "http://[fe80::1]/v1",
];

describe("one address policy: unit rules", () => {
  it("refuses every spelling of loopback and metadata even with the private network open, private ranges only when closed", () => {
    const closed = { allowPrivateNetwork: false, allowedHosts: [] };
    const open = { allowPrivateNetwork: true, allowedHosts: [] };
    for (const url of refused(8080)) expect(() => checkUrl(new URL(url), closed), url).toThrow(/refused to call/);
    for (const url of refused(8080).slice(0, 21)) expect(() => checkUrl(new URL(url), open), url).toThrow(/refused to call/);
    for (const address of ["10.0.0.8", "172.16.4.4", "192.168.1.1", "fd00::1", "fe80::1", "169.254.1.1"]) {
      expect(refusalFor(address, closed), address).toMatch(/private or link-local/);
      expect(refusalFor(address, open), address).toBeUndefined();
    }
    expect(refusalFor("fd00:ec2:0::254", open)).toMatch(/metadata/);
    expect(refusalFor("93.184.216.34", closed)).toBeUndefined();
    expect(refusalFor("::ffff:93.184.216.34", closed)).toBeUndefined();
    // A listed host is reached whatever it is.
    expect(() => checkUrl(new URL("http://127.0.0.1:8080/v1"), { allowPrivateNetwork: false, allowedHosts: ["127.0.0.1:8080"] })).not.toThrow();
  });
});

describe("model providers under the address policy", () => {
  let ctx: TestContext;
  let fake: LlmFake;
  const call = (path: string, init: Parameters<TestContext["request"]>[1] = {}) => ctx.request(path, { token: OWNER_KEY, ...init });
  const add = async (baseUrl: string) =>
    expectOk(
      await call("/api/v1/model-providers", {
        method: "POST",
        json: { kind: "openai-compatible", name: "Probe", baseUrl, apiKey: KEY, models: ["probe-model"] },
      }),
      201,
      modelProviderSchema,
    );
  const test = async (id: string) => expectOk(await call(`/api/v1/model-providers/${id}/test`, { method: "POST", json: {} }), 200, providerTestSchema);

  beforeAll(async () => {
    fake = await startOpenAiFake({ apiKey: KEY });
    ctx = await createTestContext({
      PARLEY_BOOTSTRAP_API_KEY: OWNER_KEY,
      // The operator's own provider on loopback: trusted without any listing.
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: KEY,
      PARLEY_OPENAI_MODELS: "gpt-4.1-mini",
      PARLEY_PLUGINS_ALLOWED_HOSTS: "localhost",
    });
    await bootstrap(ctx.deps);
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  it("refuses an owner's provider at any loopback, metadata or private spelling, without a request leaving", async () => {
    const port = Number(new URL(fake.url).port);
    for (const baseUrl of refused(port).filter((url) => !url.includes("localhost"))) {
      const provider = await add(baseUrl);
      const before = fake.requests.length;
      const result = await test(provider.id);
      expect(result.ok, baseUrl).toBe(false);
      expect(result.error?.status ?? null, baseUrl).toBeNull();
      expect(result.error?.message, baseUrl).toMatch(/refused to call/);
      expect(fake.requests.length, baseUrl).toBe(before);
      await call(`/api/v1/model-providers/${provider.id}`, { method: "DELETE" });
    }
  });

  it("reaches an owner's provider whose host the instance lists, and the operator's configured one", async () => {
    const provider = await add(fake.url.replace("127.0.0.1", "localhost"));
    fake.reply({ text: "pong" });
    expect(await test(provider.id)).toMatchObject({ ok: true, reply: "pong" });
    fake.reply({ text: "pong" });
    expect(await test("env-openai")).toMatchObject({ ok: true, reply: "pong" });
  });
});
