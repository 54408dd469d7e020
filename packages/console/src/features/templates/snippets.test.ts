import { describe, expect, it } from "vitest";
import { pluginKeySnippets } from "./snippets";

describe("pluginKey snippets", () => {
  it("name the app's code as the model, the /v1 endpoint and read the key from the environment", () => {
    const snippets = pluginKeySnippets("https://parley.example.com/", "abc123");
    expect(snippets.curl).toContain("https://parley.example.com/v1/chat/completions");
    expect(snippets.curl).toContain('"Authorization: Bearer $PARLEY_USER_KEY"');
    expect(snippets.curl).toContain('"model":"abc123"');
    expect(snippets.sdk).toContain("process.env.PARLEY_USER_KEY");
    expect(snippets.python).toContain('base_url="https://parley.example.com/v1"');
    expect(snippets.python).toContain('model="abc123"');
    expect(snippets.python).toContain('os.environ["PARLEY_USER_KEY"]');
  });
});
