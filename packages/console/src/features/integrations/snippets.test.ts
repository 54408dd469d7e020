import { describe, expect, it } from "vitest";
import { APP_CODE_PLACEHOLDER, buildSnippets, normaliseOrigin, shellQuote } from "./snippets";

describe("API-access snippets", () => {
  const snippets = buildSnippets({ origin: "https://parley.example.com/", appCode: "K7P2QX9MRT" });

  it("points curl at /v1/chat/completions on the origin with the app code as the model", () => {
    expect(snippets.curl).toContain(`'https://parley.example.com/v1/chat/completions'`);
    expect(snippets.curl).toContain('"model":"K7P2QX9MRT"');
    expect(snippets.curl).toContain(`-H 'Authorization: Bearer YOUR_API_KEY'`);
    expect(snippets.curl).not.toContain('"stream"');
    expect(snippets.curl).not.toContain("-N");
  });

  it("streams with -N and stream: true", () => {
    expect(snippets.curlStream).toMatch(/^curl -N /);
    expect(snippets.curlStream).toContain('"stream":true');
  });

  it("uses the SDK chat.stream with the origin and app code", () => {
    expect(snippets.sdk).toContain(`createClient({ baseUrl: "https://parley.example.com"`);
    expect(snippets.sdk).toContain(`parley.chat.stream({ appCode: "K7P2QX9MRT"`);
    expect(snippets.sdk).toContain(`event.type === 'text-delta'`);
  });

  it("gives the app's MCP endpoint and a client config with the bearer header", () => {
    expect(snippets.mcpUrl).toBe("https://parley.example.com/mcp/apps/K7P2QX9MRT");
    expect(JSON.parse(snippets.mcpConfig)).toEqual({
      mcpServers: {
        "parley-K7P2QX9MRT": { type: "http", url: "https://parley.example.com/mcp/apps/K7P2QX9MRT", headers: { Authorization: "Bearer YOUR_API_KEY" } },
      },
    });
  });

  it("gives the openai client baseURL origin + /v1 and the code as model, plain and streamed", () => {
    expect(snippets.openai).toContain(`baseURL: "https://parley.example.com/v1"`);
    expect(snippets.openai.match(/model: "K7P2QX9MRT"/g)).toHaveLength(2);
    expect(snippets.openai).toContain("stream: true");
  });

  it("falls back to a placeholder app code and escapes quotes for the shell", () => {
    expect(buildSnippets({ origin: "http://x", appCode: "  " }).curl).toContain(APP_CODE_PLACEHOLDER);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(buildSnippets({ origin: "http://x", appCode: "a'b" }).curl).toContain(`"model":"a'\\''b"`);
    expect(normaliseOrigin(" http://127.0.0.1:3000// ")).toBe("http://127.0.0.1:3000");
  });
});
