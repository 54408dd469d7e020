import { spawnSync } from "node:child_process";
import path from "node:path";
import { createClient, ParleyError } from "@parley/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeFromOutbox, type ParleyProcess, root, startParley } from "./parley-process";

const ownerKey = "pk_sdk_system_owner_key_0123456789";
let parley: ParleyProcess;
beforeAll(async () => {
  parley = await startParley({ PARLEY_BOOTSTRAP_API_KEY: ownerKey });
});
afterAll(async () => parley?.stop());

describe("the SDK against a listening server", () => {
  it("registers, signs in with the form-encoded login, and manages API keys", async () => {
    const anonymous = createClient({ baseUrl: parley.url });
    const sent = await anonymous.POST("/api/v1/auth/codes", { body: { channel: "email", target: "dev@example.com", purpose: "register" } });
    expect(sent.error).toBeUndefined();
    expect(sent.data?.sentTo).toBe("d***@example.com");
    const code = await codeFromOutbox(parley.url, ownerKey, "dev@example.com");
    const registered = await anonymous.POST("/api/v1/auth/register", {
      body: { channel: "email", target: "dev@example.com", code, password: "dev-passw0rd", name: "Dev" },
    });
    expect(registered.error).toBeUndefined();
    expect(registered.data?.user.email).toBe("dev@example.com");

    const login = await anonymous.POST("/api/v1/auth/login", { body: { username: "dev@example.com", password: "dev-passw0rd" }, form: true });
    expect(login.error).toBeUndefined();
    const session = createClient({ baseUrl: parley.url, token: login.data!.token });
    const created = await session.POST("/api/v1/me/api-keys", { body: { name: "from the SDK" } });
    expect(created.data?.key).toMatch(/^pk_/);

    const withKey = createClient({ baseUrl: parley.url, apiKey: created.data!.key });
    const me = await withKey.GET("/api/v1/me");
    expect(me.data).toMatchObject({ name: "Dev", email: "dev@example.com", companyOwner: true });
    const keys = await withKey.GET("/api/v1/me/api-keys");
    expect(keys.data?.map((key) => key.name)).toEqual(["from the SDK"]);
    expect(JSON.stringify(keys.data)).not.toContain(created.data!.key);
  });

  it("turns error envelopes into typed ParleyErrors", async () => {
    const client = createClient({ baseUrl: parley.url, language: "zh-CN" });
    const missing = await client.GET("/api/v1/me");
    expect(missing.error).toBeInstanceOf(ParleyError);
    expect(missing.error).toMatchObject({ kind: "http", status: 401, code: 401 });
    expect(missing.error?.message).toBe("请先登录");
    const invalid = await client.POST("/api/v1/auth/codes", { body: { channel: "email", target: "not-an-address", purpose: "register" } });
    expect(invalid.error).toMatchObject({ status: 400, code: 400 });
    expect(invalid.error?.requestId).toMatch(/.+/);
  });

  it("runs examples/node-sdk as a user would", () => {
    const run = (key: string) =>
      spawnSync(process.execPath, [path.join(root, "examples/node-sdk/index.mjs")], {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", PARLEY_URL: parley.url, PARLEY_API_KEY: key },
        encoding: "utf8",
        timeout: 30_000,
      });
    const good = run(ownerKey);
    expect(good.stderr).toBe("");
    expect(good.status).toBe(0);
    expect(good.stdout).toContain("Signed in as Owner");
    expect(good.stdout).toMatch(/You have 1 API key\./);
    const bad = run("pk_not_a_real_key");
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/session has ended|log in/i);
  });

  // Issue 23: the OpenAI-compatible surface is in the contract. The official client and the SDK
  // (typed from openapi.yaml) ask the seeded demo knowledge app the same question.
  it("answers the official openai client and the SDK alike, with the knowledge app's citations", async () => {
    const openai = new OpenAI({ baseURL: `${parley.url}/v1`, apiKey: ownerKey, maxRetries: 0 });
    const models = await openai.models.list();
    const demo = models.data.find((model) => model.owned_by === "parley");
    expect(demo?.id).toMatch(/.+/);
    const question = { model: demo!.id, messages: [{ role: "user" as const, content: "How do I embed this chat on my site?" }] };

    const completion = await openai.chat.completions.create(question);
    const answer = completion.choices[0]!;
    expect(answer.finish_reason).toBe("stop");
    expect(answer.message.content).toContain("widget.js");
    const citations = (answer.message as typeof answer.message & { citations?: Array<{ index: number; source: string; content: string }> }).citations;
    expect(citations?.length).toBeGreaterThan(0);
    expect(citations![0]).toMatchObject({ index: 1, source: expect.stringMatching(/.+/), content: expect.stringMatching(/.+/) });

    const streamed = await openai.chat.completions.create({ ...question, stream: true, stream_options: { include_usage: true } });
    let text = "";
    let streamedCitations = 0;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of streamed) {
      text += chunk.choices[0]?.delta.content ?? "";
      streamedCitations += ((chunk.choices[0]?.delta as { citations?: unknown[] } | undefined)?.citations ?? []).length;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(answer.message.content);
    expect(streamedCitations).toBe(citations!.length);
    expect(usage?.total_tokens).toBeGreaterThan(0);

    const sdk = createClient({ baseUrl: parley.url, apiKey: ownerKey });
    const viaSdk = await sdk.POST("/v1/chat/completions", { body: question });
    expect(viaSdk.error).toBeUndefined();
    expect(viaSdk.data?.object === "chat.completion" && viaSdk.data.choices[0]?.message.content).toBe(answer.message.content);

    // Refusals are OpenAI's error object: the official client raises its typed errors; the SDK reads the message.
    const missing = await openai.chat.completions.create({ ...question, model: "app_missing" }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.NotFoundError>).code).toBe("model_not_found");
    const refused = await sdk.POST("/v1/chat/completions", { body: { ...question, model: "app_missing" } });
    expect(refused.error).toMatchObject({ status: 404, message: expect.stringContaining("app_missing") });
    const badKey = await new OpenAI({ baseURL: `${parley.url}/v1`, apiKey: "pk_wrong", maxRetries: 0 }).models.list().catch((error: unknown) => error);
    expect(badKey).toBeInstanceOf(OpenAI.AuthenticationError);
  });
});
