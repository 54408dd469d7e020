import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAnthropicFake } from "./llm-anthropic";
import type { LlmFake } from "./llm-common";
import { startGeminiFake } from "./llm-gemini";
import { startOpenAiFake } from "./llm-openai";

// The parts of the fakes the provider contract tests do not reach: whole answers, model lists,
// error bodies and headers as the vendors send them.
describe("LLM fakes", () => {
  let openai: LlmFake;
  let anthropic: LlmFake;
  let gemini: LlmFake;
  beforeAll(async () => {
    [openai, anthropic, gemini] = await Promise.all([startOpenAiFake({ models: ["gpt-4.1-mini", "local-model"] }), startAnthropicFake(), startGeminiFake()]);
  });
  afterAll(async () => Promise.all([openai.close(), anthropic.close(), gemini.close()]));

  const post = (url: string, body: unknown) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("OpenAI: whole completion with usage, tool calls, model list and error body", async () => {
    openai.reply({ text: "Hi!", usage: { promptTokens: 5, completionTokens: 2 } });
    const whole = await (await post(`${openai.url}/chat/completions`, { model: "gpt-4.1-mini", messages: [{ role: "user", content: "Hi" }] })).json();
    expect(whole).toMatchObject({
      object: "chat.completion",
      model: "gpt-4.1-mini",
      choices: [{ index: 0, message: { role: "assistant", content: "Hi!" }, finish_reason: "stop" }],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    });
    openai.replyToolCall({ id: "call_9", name: "lookup", arguments: { q: "x" } });
    const tool = await (await post(`${openai.url}/chat/completions`, { model: "gpt-4.1-mini", messages: [] })).json();
    expect(tool.choices[0]).toMatchObject({
      message: { content: null, tool_calls: [{ id: "call_9", type: "function", function: { name: "lookup", arguments: '{"q":"x"}' } }] },
      finish_reason: "tool_calls",
    });
    const models = await (await fetch(`${openai.url}/models`)).json();
    expect(models.data.map((model: { id: string }) => model.id)).toEqual(["gpt-4.1-mini", "local-model"]);
    openai.fail(429, { retryAfter: 3 });
    const limited = await post(`${openai.url}/chat/completions`, { model: "gpt-4.1-mini", messages: [] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(await limited.json()).toMatchObject({ error: { type: "requests", code: "rate_limit_exceeded" } });
  });

  it("OpenAI: streams SSE chunks, the usage chunk only when asked, then [DONE]", async () => {
    openai.reply({ text: "a b", chunks: 2 });
    const plain = await (await post(`${openai.url}/chat/completions`, { model: "m", stream: true, messages: [] })).text();
    expect(plain.trim().split("\n\n").at(-1)).toBe("data: [DONE]");
    expect(plain).not.toContain('"usage"');
    openai.reply({ text: "a b", chunks: 2 });
    const withUsage = await (
      await post(`${openai.url}/chat/completions`, { model: "m", stream: true, stream_options: { include_usage: true }, messages: [] })
    ).text();
    const events = withUsage.trim().split("\n\n");
    expect(JSON.parse(events.at(-2)!.slice(6))).toMatchObject({ choices: [], usage: { total_tokens: expect.any(Number) } });
    expect(events.filter((event) => event.includes('"content":"a "'))).toHaveLength(1);
  });

  it("Anthropic: whole message and the named SSE events in order", async () => {
    anthropic.reply({ text: "Bonjour", usage: { promptTokens: 9, completionTokens: 3 } });
    const whole = await (await post(`${anthropic.url}/messages`, { model: "claude-haiku-4-5", max_tokens: 10, messages: [] })).json();
    expect(whole).toMatchObject({
      type: "message",
      content: [{ type: "text", text: "Bonjour" }],
      stop_reason: "end_turn",
      usage: { input_tokens: 9, output_tokens: 3 },
    });
    anthropic.replyToolCall({ name: "lookup", arguments: { q: 1 } }, { text: "Let me check." });
    const stream = await (await post(`${anthropic.url}/messages`, { model: "claude-haiku-4-5", stream: true, messages: [] })).text();
    const names = [...stream.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    expect(names[0]).toBe("message_start");
    expect(names.slice(-2)).toEqual(["message_delta", "message_stop"]);
    expect(stream).toContain('"type":"input_json_delta"');
    expect(stream).toContain('"stop_reason":"tool_use"');
    anthropic.fail(429, { retryAfter: 4 });
    const limited = await post(`${anthropic.url}/messages`, { model: "x", messages: [] });
    expect(limited.headers.get("retry-after")).toBe("4");
    expect(await limited.json()).toEqual({ type: "error", error: { type: "rate_limit_error", message: expect.any(String) } });
  });

  it("Gemini: whole generateContent answer, function calls, and RetryInfo on 429", async () => {
    gemini.replyToolCall({ name: "lookup", arguments: { q: "y" } }, { usage: { promptTokens: 4, completionTokens: 6 } });
    const whole = await (await post(`${gemini.url}/models/gemini-2.5-flash:generateContent`, { contents: [] })).json();
    expect(whole).toMatchObject({
      candidates: [{ content: { role: "model", parts: [{ functionCall: { name: "lookup", args: { q: "y" } } }] }, finishReason: "STOP" }],
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 6, totalTokenCount: 10 },
    });
    gemini.fail(429, { retryAfter: 5 });
    const limited = await post(`${gemini.url}/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, { contents: [] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeNull();
    expect(await limited.json()).toMatchObject({ error: { code: 429, status: "RESOURCE_EXHAUSTED", details: [{ retryDelay: "5s" }] } });
  });
});
