import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createMergeBuffer, replyDelayMs, splitReply } from "./humanization";

describe("split reply", () => {
  it("keeps short answers whole and packs paragraphs up to the limit", () => {
    expect(splitReply("Hello there.")).toEqual(["Hello there."]);
    const paragraphs = ["a".repeat(100), "b".repeat(100), "c".repeat(100)].join("\n\n");
    expect(splitReply(paragraphs, 250)).toEqual([`${"a".repeat(100)}\n\n${"b".repeat(100)}`, "c".repeat(100)]);
  });

  it("cuts long paragraphs at sentence ends, Latin and Chinese, then at spaces", () => {
    const english = "First sentence here. Second sentence is here too! Third one? Yes.";
    expect(splitReply(english, 30)).toEqual(["First sentence here.", "Second sentence is here too!", "Third one? Yes."]);
    const chinese = "你好，欢迎使用。我们可以帮你查询订单！还有什么问题吗？";
    expect(splitReply(chinese, 12)).toEqual(["你好，欢迎使用。", "我们可以帮你查询订单！", "还有什么问题吗？"]);
    const words = Array.from({ length: 30 }, (_, index) => `word${index}`).join(" ");
    for (const piece of splitReply(words, 40)) expect(piece.length).toBeLessThanOrEqual(40);
    expect(splitReply(words, 40).join(" ")).toBe(words);
  });

  it("never cuts inside a fenced code block", () => {
    const code = "```js\nconst a = 1;\n\nconst b = 2;\n```";
    const pieces = splitReply(`Intro text.\n\n${code}\n\nOutro text.`, 20);
    expect(pieces).toContain(code);
  });
});

describe("delay reply", () => {
  it("turns seconds into milliseconds and never goes negative", () => {
    expect(replyDelayMs({ delayReplySeconds: 2.5 })).toBe(2500);
    expect(replyDelayMs({ delayReplySeconds: -1 })).toBe(0);
  });
});

describe("merge reply", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("hands over one person's quick messages together after they go quiet", () => {
    const flushed: Array<[string, string]> = [];
    const buffer = createMergeBuffer({ mergeReply: true, mergeDelaySeconds: 3 }, (key, text) => flushed.push([key, text]));
    buffer.add("alice", "Hi");
    vi.advanceTimersByTime(2000);
    buffer.add("alice", "I have a question");
    buffer.add("bob", "Hello");
    vi.advanceTimersByTime(2999);
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushed).toEqual([
      ["alice", "Hi\nI have a question"],
      ["bob", "Hello"],
    ]);
    expect(buffer.size()).toBe(0);
  });

  it("passes messages straight through when merge reply is off, and flushes on shutdown", () => {
    const flushed: string[] = [];
    const off = createMergeBuffer({ mergeReply: false, mergeDelaySeconds: null }, (_, text) => flushed.push(text));
    off.add("a", "one");
    expect(flushed).toEqual(["one"]);
    const on = createMergeBuffer({ mergeReply: true, mergeDelaySeconds: 10 }, (_, text) => flushed.push(text));
    on.add("a", "two");
    on.flushAll();
    expect(flushed).toEqual(["one", "two"]);
  });
});
