import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../platform/llm/tokens";
import { chunkText } from "./chunker";

describe("chunkText", () => {
  it("keeps a short text whole", () => {
    const chunks = chunkText("One paragraph.\n\nAnother one.");
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ ordinal: 0, content: "One paragraph.\n\nAnother one.", headings: [] });
    expect(chunks[0]!.tokens).toBe(estimateTokens(chunks[0]!.content));
  });

  it("starts a chunk at each heading and keeps the breadcrumb", () => {
    const chunks = chunkText("# Guide\nIntro.\n## Install\nRun it.\n## Use\nCall it.\n# Other\nMore.");
    expect(chunks.map((chunk) => chunk.headings)).toEqual([["Guide"], ["Guide", "Install"], ["Guide", "Use"], ["Other"]]);
    expect(chunks[1]!.content).toBe("## Install\nRun it.");
  });

  it("ignores # lines inside code fences", () => {
    const chunks = chunkText("# Real\n```\n# not a heading\n```");
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.headings).toEqual(["Real"]);
  });

  it("splits long Chinese text at sentence ends within the budget, with overlap", () => {
    const sentence = "知识库的检索质量决定了回答的质量。";
    const text = sentence.repeat(60);
    const chunks = chunkText(text, { maxTokens: 100, overlapTokens: 20 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.tokens).toBeLessThanOrEqual(100);
      expect(chunk.content.endsWith("。")).toBe(true);
    }
    // The overlap repeats the previous chunk's last sentence.
    expect(chunks[1]!.content.startsWith(sentence)).toBe(true);
    expect(chunks[0]!.content.endsWith(sentence)).toBe(true);
  });

  it("splits English at . ! ? ; but not inside numbers", () => {
    const text = Array.from({ length: 40 }, (_, index) => `Value ${index} is 3.14 today! Is it stable? Yes; mostly.`).join(" ");
    const chunks = chunkText(text, { maxTokens: 60, overlapTokens: 10 });
    expect(chunks.length).toBeGreaterThan(5);
    for (const chunk of chunks) {
      expect(chunk.tokens).toBeLessThanOrEqual(60);
      expect(chunk.content).not.toMatch(/^14 /);
    }
    // Without overlap the chunks put back together give every sentence exactly once.
    const plain = chunkText(text, { maxTokens: 60, overlapTokens: 0 });
    expect(plain.map((chunk) => chunk.content).join(" ")).toBe(text);
  });

  it("cuts a run without any sentence end under the budget", () => {
    const chunks = chunkText("字".repeat(1200), { maxTokens: 500, overlapTokens: 50 });
    expect(chunks.length).toBe(3);
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(500);
    expect(chunks.map((chunk) => chunk.ordinal)).toEqual([0, 1, 2]);
  });
});
