import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { LlmFake } from "../../testing/fakes/llm-common";
import { startAnthropicFake } from "../../testing/fakes/llm-anthropic";
import { startGeminiFake } from "../../testing/fakes/llm-gemini";
import { startOpenAiFake } from "../../testing/fakes/llm-openai";
import { ModelError, type ModelRequest, type ModelStreamPart } from "./types";
import { createVendorProvider, normalizeBaseUrl, type VendorKind } from "./vendors";

// One contract, run against every vendor kind through its local fake speaking the real wire format.

const KEY = "sk-test-secret-key-0123456789";

interface Case {
  kind: VendorKind;
  model: string;
  start(options: { apiKey: string }): Promise<LlmFake>;
  /** Context-length failure as the vendor words it. */
  contextError: { status: number; message: string; type?: string };
  /** What the vendor answers when it is overloaded. */
  overloadedStatus: number;
  /** The body the vendor received: asserts it carries the conversation in the vendor's shape. */
  checkRequest(request: LlmFake["requests"][number]): void;
}

const cases: Case[] = [
  {
    kind: "openai",
    model: "gpt-4.1-mini",
    start: (options) => startOpenAiFake(options),
    contextError: {
      status: 400,
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
    },
    overloadedStatus: 503,
    checkRequest(request) {
      expect(request.path).toBe("/v1/chat/completions");
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(request.body).toMatchObject({ model: "gpt-4.1-mini", stream: true, stream_options: { include_usage: true }, temperature: 0.3, max_tokens: 200 });
      expect(request.body.messages).toEqual([
        { role: "system", content: "You are terse." },
        { role: "user", content: "Weather in Paris?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_0", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }],
        },
        { role: "tool", tool_call_id: "call_0", content: "18°C, cloudy" },
        { role: "user", content: "And tomorrow?" },
      ]);
      expect(request.body.tools[0]).toMatchObject({ type: "function", function: { name: "get_weather", parameters: { type: "object" } } });
    },
  },
  {
    kind: "openai-compatible",
    model: "deepseek-chat",
    start: (options) => startOpenAiFake(options),
    contextError: {
      status: 400,
      message: "This model's maximum context length is 65536 tokens. However, you requested 70000 tokens. Please reduce the length of the messages.",
    },
    overloadedStatus: 503,
    checkRequest(request) {
      expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(request.body).toMatchObject({ model: "deepseek-chat", stream: true, stream_options: { include_usage: true } });
      expect(request.body.messages.map((message: { role: string }) => message.role)).toEqual(["system", "user", "assistant", "tool", "user"]);
      expect(request.body.messages[2].tool_calls[0].function).toEqual({ name: "get_weather", arguments: '{"city":"Paris"}' });
    },
  },
  {
    kind: "anthropic",
    model: "claude-haiku-4-5",
    start: (options) => startAnthropicFake(options),
    contextError: { status: 400, message: "prompt is too long: 210000 tokens > 200000 maximum", type: "invalid_request_error" },
    overloadedStatus: 529,
    checkRequest(request) {
      expect(request.path).toBe("/v1/messages");
      expect(request.headers["x-api-key"]).toBe(KEY);
      expect(request.headers["anthropic-version"]).toBeDefined();
      expect(request.body).toMatchObject({ model: "claude-haiku-4-5", stream: true, max_tokens: 200, temperature: 0.3 });
      expect(request.body.system).toEqual([{ type: "text", text: "You are terse." }]);
      expect(request.body.messages).toEqual([
        { role: "user", content: [{ type: "text", text: "Weather in Paris?" }] },
        { role: "assistant", content: [{ type: "tool_use", id: "call_0", name: "get_weather", input: { city: "Paris" } }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_0", content: "18°C, cloudy" },
            { type: "text", text: "And tomorrow?" },
          ],
        },
      ]);
      expect(request.body.tools[0]).toMatchObject({ name: "get_weather", input_schema: { type: "object" } });
    },
  },
  {
    kind: "gemini",
    model: "gemini-2.5-flash",
    start: (options) => startGeminiFake(options),
    contextError: { status: 400, message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", type: "INVALID_ARGUMENT" },
    overloadedStatus: 503,
    checkRequest(request) {
      expect(request.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent");
      expect(request.query.alt).toBe("sse");
      expect(request.headers["x-goog-api-key"]).toBe(KEY);
      expect(request.body.systemInstruction).toEqual({ parts: [{ text: "You are terse." }] });
      expect(request.body.contents).toEqual([
        { role: "user", parts: [{ text: "Weather in Paris?" }] },
        { role: "model", parts: [{ functionCall: { id: "call_0", name: "get_weather", args: { city: "Paris" } } }] },
        { role: "user", parts: [{ functionResponse: { id: "call_0", name: "get_weather", response: { name: "get_weather", content: "18°C, cloudy" } } }] },
        { role: "user", parts: [{ text: "And tomorrow?" }] },
      ]);
      expect(request.body.generationConfig).toMatchObject({ temperature: 0.3, maxOutputTokens: 200 });
      expect(request.body.tools[0].functionDeclarations[0]).toMatchObject({ name: "get_weather" });
    },
  },
];

const weatherTool = {
  name: "get_weather",
  description: "Current weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

async function run(stream: AsyncIterable<ModelStreamPart>, onPart?: (part: ModelStreamPart, index: number) => void) {
  const parts: ModelStreamPart[] = [];
  let error: unknown;
  try {
    for await (const part of stream) {
      parts.push(part);
      onPart?.(part, parts.length - 1);
    }
  } catch (caught) {
    error = caught;
  }
  const text = parts.flatMap((part) => (part.type === "text-delta" ? [part.text] : [])).join("");
  return { parts, text, error: error as ModelError | undefined };
}

describe.each(cases)("$kind provider against its fake", (testCase) => {
  let fake: LlmFake;
  const provider = (options: { apiKey?: string; timeoutMs?: number; baseUrl?: string } = {}) =>
    createVendorProvider({
      id: `test-${testCase.kind}`,
      kind: testCase.kind,
      name: testCase.kind,
      baseUrl: options.baseUrl ?? fake.url,
      apiKey: options.apiKey ?? KEY,
      models: [testCase.model],
      timeoutMs: options.timeoutMs ?? 5_000,
    });
  const ask = (extra: Partial<ModelRequest> = {}): ModelRequest => ({ model: testCase.model, messages: [{ role: "user", content: "Hello?" }], ...extra });

  beforeAll(async () => {
    fake = await testCase.start({ apiKey: KEY });
  });
  afterAll(async () => fake.close());
  beforeEach(() => fake.reset());

  it("streams text deltas, then a finish with the vendor's usage", async () => {
    fake.reply({ text: "Hello there, dear friend of mine", chunks: 3, usage: { promptTokens: 11, completionTokens: 7 } });
    const { parts, text, error } = await run(provider().stream(ask()));
    expect(error).toBeUndefined();
    expect(text).toBe("Hello there, dear friend of mine");
    expect(parts.filter((part) => part.type === "text-delta")).toHaveLength(3);
    expect(parts.at(-1)).toEqual({ type: "finish", reason: "stop", usage: { promptTokens: 11, completionTokens: 7 } });
    expect(fake.requests).toHaveLength(1);
  });

  it("sends the conversation, tools and settings in the vendor's shape", async () => {
    fake.reply("Probably sunny.");
    const { error } = await run(
      provider().stream({
        model: testCase.model,
        temperature: 0.3,
        maxOutputTokens: 200,
        tools: [weatherTool],
        messages: [
          { role: "system", content: "You are terse." },
          { role: "user", content: "Weather in Paris?" },
          { role: "assistant", content: "", toolCalls: [{ id: "call_0", name: "get_weather", arguments: '{"city":"Paris"}' }] },
          { role: "tool", toolCallId: "call_0", name: "get_weather", content: "18°C, cloudy" },
          { role: "user", content: "And tomorrow?" },
        ],
      }),
    );
    expect(error).toBeUndefined();
    testCase.checkRequest(fake.requests[0]!);
  });

  it("sends a person's image inline, in the vendor's own image format, before the words", async () => {
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806", "hex");
    fake.reply("A pixel.");
    const { error } = await run(
      provider().stream(ask({ messages: [{ role: "user", content: "What is it?", images: [{ type: "image", mediaType: "image/png", data: png }] }] })),
    );
    expect(error).toBeUndefined();
    const body = fake.requests[0]!.body;
    const base64 = png.toString("base64");
    if (testCase.kind === "anthropic")
      expect(body.messages[0].content).toEqual([
        { type: "image", source: { type: "base64", media_type: "image/png", data: base64 } },
        { type: "text", text: "What is it?" },
      ]);
    else if (testCase.kind === "gemini")
      expect(body.contents[0].parts).toEqual([{ inlineData: { mimeType: "image/png", data: base64 } }, { text: "What is it?" }]);
    else
      expect(body.messages[0].content).toEqual([
        { type: "image_url", image_url: { url: `data:image/png;base64,${base64}` } },
        { type: "text", text: "What is it?" },
      ]);
  });

  it("yields complete tool calls with id, name and JSON arguments", async () => {
    fake.replyToolCall(
      [
        { id: "call_a1", name: "get_weather", arguments: { city: "Paris", unit: "celsius" } },
        { id: "call_b2", name: "get_time", arguments: { zone: "Europe/Paris" } },
      ],
      { usage: { promptTokens: 30, completionTokens: 12 } },
    );
    const { parts, error } = await run(provider().stream(ask({ tools: [weatherTool, { ...weatherTool, name: "get_time" }] })));
    expect(error).toBeUndefined();
    const calls = parts.flatMap((part) => (part.type === "tool-call" ? [part.call] : []));
    expect(calls.map((call) => call.name)).toEqual(["get_weather", "get_time"]);
    expect(JSON.parse(calls[0]!.arguments)).toEqual({ city: "Paris", unit: "celsius" });
    expect(JSON.parse(calls[1]!.arguments)).toEqual({ zone: "Europe/Paris" });
    for (const call of calls) expect(call.id.length).toBeGreaterThan(0);
    // Gemini's function calls carry no id; the others keep the vendor's.
    if (testCase.kind !== "gemini") expect(calls.map((call) => call.id)).toEqual(["call_a1", "call_b2"]);
    expect(parts.at(-1)).toEqual({ type: "finish", reason: "tool-calls", usage: { promptTokens: 30, completionTokens: 12 } });
  });

  it("reports 429 as rate_limited with the vendor's retry delay, and does not retry", async () => {
    fake.fail(429, { retryAfter: 7 });
    const { error, parts } = await run(provider().stream(ask()));
    expect(parts).toEqual([]);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ kind: "rate_limited", details: { status: 429, retryAfterSeconds: 7 } });
    expect(fake.requests).toHaveLength(1);
  });

  it("reports 5xx and overload as unavailable, once", async () => {
    fake.fail(500).fail(testCase.overloadedStatus);
    const first = await run(provider().stream(ask()));
    expect(first.error).toMatchObject({ kind: "unavailable", details: { status: 500 } });
    const second = await run(provider().stream(ask()));
    expect(second.error).toMatchObject({ kind: "unavailable", details: { status: testCase.overloadedStatus } });
    expect(fake.requests).toHaveLength(2);
  });

  it("reports a wrong key as auth, without echoing the key", async () => {
    const wrongKey = "sk-wrong-key-abcdefghijklmnop";
    const { error } = await run(provider({ apiKey: wrongKey }).stream(ask()));
    expect(error).toMatchObject({ kind: "auth" });
    expect(error!.message).not.toContain(wrongKey);
    fake.fail(403);
    expect((await run(provider().stream(ask()))).error).toMatchObject({ kind: "auth" });
  });

  it("reports a prompt beyond the context window as context_length", async () => {
    fake.fail(testCase.contextError.status, {
      message: testCase.contextError.message,
      ...(testCase.contextError.type ? { type: testCase.contextError.type } : {}),
    });
    const { error } = await run(provider().stream(ask()));
    expect(error).toMatchObject({ kind: "context_length", details: { status: 400 } });
    expect(error!.message).toContain(testCase.contextError.message.slice(0, 20));
  });

  it("reports other 4xx as bad_request", async () => {
    fake.fail(404);
    expect((await run(provider().stream(ask()))).error).toMatchObject({ kind: "bad_request", details: { status: 404 } });
  });

  it("reports a chunk that is not JSON as malformed, after the text that came before", async () => {
    fake.malformed({ afterText: "Partial answer" });
    const { text, error } = await run(provider().stream(ask()));
    expect(text).toBe("Partial answer");
    expect(error).toMatchObject({ kind: "malformed" });
  });

  it("reports an error event inside the stream", async () => {
    fake.streamError({ afterText: "Start of" });
    const { text, error } = await run(provider().stream(ask()));
    expect(text).toBe("Start of");
    expect(error).toBeInstanceOf(ModelError);
    expect(error!.kind).toBe("unavailable");
  });

  it("stops with aborted when the caller cancels mid-stream", async () => {
    fake.reply({ text: "one two three four five six seven eight nine ten", chunks: 10, delayMs: 30 });
    const controller = new AbortController();
    const { parts, error } = await run(provider().stream(ask({ signal: controller.signal })), (part) => {
      if (part.type === "text-delta") controller.abort();
    });
    expect(error).toMatchObject({ kind: "aborted" });
    expect(parts.filter((part) => part.type === "text-delta").length).toBeLessThan(10);
  });

  it("stops with aborted at once when the signal was already aborted", async () => {
    const { error } = await run(provider().stream(ask({ signal: AbortSignal.abort() })));
    expect(error).toMatchObject({ kind: "aborted" });
    expect(fake.requests).toHaveLength(0);
  });

  it("times out when the vendor never answers", async () => {
    fake.hang();
    const started = Date.now();
    const { error } = await run(provider({ timeoutMs: 300 }).stream(ask()));
    expect(error).toMatchObject({ kind: "timeout" });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("times out when the stream stalls after some text", async () => {
    fake.hang({ afterText: "I was saying" });
    const { text, error } = await run(provider({ timeoutMs: 300 }).stream(ask()));
    expect(text).toBe("I was saying");
    expect(error).toMatchObject({ kind: "timeout" });
  });

  it("sends the call again, up to twice, when the connection closes before any answer byte", async () => {
    fake.dropConnection().dropConnection().reply("Answered on a fresh connection");
    const { text, error } = await run(provider().stream(ask()));
    expect(error).toBeUndefined();
    expect(text).toBe("Answered on a fresh connection");
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests[2]!.body).toEqual(fake.requests[0]!.body);
  });

  it("reports a connection that closes three times as unavailable, after two retries", async () => {
    fake.dropConnection().dropConnection().dropConnection().reply("never sent");
    const { text, error } = await run(provider().stream(ask()));
    expect(text).toBe("");
    expect(error).toMatchObject({ kind: "unavailable" });
    expect(fake.requests).toHaveLength(3);
    expect(fake.pending()).toBe(1);
  });

  it("reports an unreachable server as unavailable", async () => {
    const { error } = await run(provider({ baseUrl: "http://127.0.0.1:1" }).stream(ask()));
    expect(error).toMatchObject({ kind: "unavailable" });
  });

  it("serves the fixed answer instantly in benchmark mode, without recording", async () => {
    fake.always({ text: "Benchmark answer, always the same.", chunks: 4, record: false });
    for (let turn = 0; turn < 3; turn++) {
      const { text, parts } = await run(provider().stream(ask()));
      expect(text).toBe("Benchmark answer, always the same.");
      expect(parts.at(-1)?.type).toBe("finish");
    }
    expect(fake.requests).toHaveLength(0);
  });

  it("lists its models with context windows from the table", () => {
    expect(provider().models()).toEqual([
      expect.objectContaining({ id: testCase.model, providerId: `test-${testCase.kind}`, providerKind: testCase.kind, offline: false, supportsTools: true }),
    ]);
    expect(provider().models()[0]!.contextWindow).toBeGreaterThan(60_000);
  });
});

describe("base URLs", () => {
  it("adds the version segment Anthropic and Gemini expect when given a bare host", () => {
    expect(normalizeBaseUrl("anthropic", "https://proxy.example.com/")).toBe("https://proxy.example.com/v1");
    expect(normalizeBaseUrl("anthropic", "https://api.anthropic.com/v1")).toBe("https://api.anthropic.com/v1");
    expect(normalizeBaseUrl("gemini", "https://g.example.com")).toBe("https://g.example.com/v1beta");
    expect(normalizeBaseUrl("gemini", undefined)).toBe("https://generativelanguage.googleapis.com/v1beta");
    expect(normalizeBaseUrl("openai", "http://localhost:11434/v1/")).toBe("http://localhost:11434/v1");
    expect(normalizeBaseUrl("openai-compatible", undefined)).toBeUndefined();
  });
});
