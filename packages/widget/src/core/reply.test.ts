import { describe, expect, it } from "vitest";
import {
  bracketQuestions,
  extractMedia,
  formatReply,
  normaliseMath,
  parseInline,
  parseMarkdown,
  type ReplyElement,
  type ReplyNode,
  truncateReply,
} from "./reply";
import { replyRuleCases, replyRuleInput } from "../../../../tests/fixtures/reply-rules";

describe("reply rendering rules (§5)", () => {
  it("cuts long text at 2000 characters plus an ellipsis, keeping emoji whole", () => {
    expect(truncateReply("a".repeat(2000))).toBe("a".repeat(2000));
    expect(truncateReply("a".repeat(2001))).toBe(`${"a".repeat(2000)}…`);
    expect(truncateReply("😀😀😀", 2)).toBe("😀😀…");
  });

  it("normalises math delimiters outside code only", () => {
    expect(normaliseMath("x \\( a+b \\) y \\[ c \\]")).toBe("x $a+b$ y $$c$$");
    expect(normaliseMath("`\\(a\\)` and\n```\n\\[b\\]\n```\n")).toBe("`\\(a\\)` and\n```\n\\[b\\]\n```\n");
  });

  it("takes image and video links out of prose, each once, and never out of code", () => {
    const { text, media } = extractMedia(
      "See ![chart](https://x.io/a.PNG) and https://x.io/b.jpg?x=1 and [clip](https://x.io/c.mp4) and https://x.io/a.PNG\n```\nhttps://x.io/code.png\n```\n`https://x.io/d.gif`",
    );
    expect(media).toEqual([
      { tag: "img", href: "https://x.io/a.PNG", children: ["chart"] },
      { tag: "img", href: "https://x.io/b.jpg?x=1", children: [] },
      { tag: "video", href: "https://x.io/c.mp4", children: ["clip"] },
    ]);
    expect(text).toContain("https://x.io/code.png");
    expect(text).toContain("`https://x.io/d.gif`");
    expect(text).not.toContain("b.jpg");
  });

  it("leaves unsafe and non-media links alone", () => {
    expect(extractMedia("[x](javascript:alert(1).png) https://x.io/page.html").media).toEqual([]);
  });

  it("puts media after the text", () => {
    expect(formatReply("Hi ![a](/img/a.webp)")).toEqual([
      { tag: "p", children: ["Hi"] },
      { tag: "img", href: "/img/a.webp", children: ["a"] },
    ]);
  });
});

describe("markdown subset to nodes", () => {
  it("renders bold, italic, inline code and safe links", () => {
    expect(parseInline("**b** *i* _j_ `c*d*` [l](https://a.io) [bad](javascript:x)")).toEqual([
      { tag: "strong", children: ["b"] },
      " ",
      { tag: "em", children: ["i"] },
      " ",
      { tag: "em", children: ["j"] },
      " ",
      { tag: "code", children: ["c*d*"] },
      " ",
      { tag: "a", href: "https://a.io", children: ["l"] },
      " [bad](javascript:x)",
    ]);
  });

  it("turns bare URLs into links and keeps HTML as text", () => {
    expect(parseInline("go https://a.io/x. <b>no</b>")).toEqual(["go ", { tag: "a", href: "https://a.io/x", children: ["https://a.io/x"] }, ". <b>no</b>"]);
  });

  it("parses paragraphs, lists and fenced code (also unclosed while streaming)", () => {
    expect(parseMarkdown("One\ntwo\n\n- a\n- **b**\n1. c\n\n```js\nconst x = 1 * 2 * 3;\n```\nend")).toEqual([
      { tag: "p", children: ["One\ntwo"] },
      {
        tag: "ul",
        children: [
          { tag: "li", children: ["a"] },
          { tag: "li", children: [{ tag: "strong", children: ["b"] }] },
        ],
      },
      { tag: "ol", children: [{ tag: "li", children: ["c"] }] },
      { tag: "pre", children: [{ tag: "code", children: ["const x = 1 * 2 * 3;"] }] },
      { tag: "p", children: ["end"] },
    ]);
    expect(parseMarkdown("```\nopen")).toEqual([{ tag: "pre", children: [{ tag: "code", children: ["open"] }] }]);
  });

  it("finds guiding questions in square brackets of an opening introduction", () => {
    expect(bracketQuestions("Hello! [What is Parley?] [Pricing] see [docs](https://a.io)")).toEqual({
      text: "Hello!   see [docs](https://a.io)",
      questions: ["What is Parley?", "Pricing"],
    });
  });
});

const cases = replyRuleCases;

const textOf = (nodes: ReplyNode[]): string => nodes.map((node) => (typeof node === "string" ? node : textOf(node.children))).join("");
const elementsOf = (nodes: ReplyNode[]): ReplyElement[] => nodes.flatMap((node) => (typeof node === "string" ? [] : [node, ...elementsOf(node.children)]));

describe("spec §5 rules shared with the console (tests/fixtures/reply-rules.json)", () => {
  it.each(cases.map((rule) => [rule.name, rule] as const))("%s", (_name, rule) => {
    const input = replyRuleInput(rule);
    const nodes = formatReply(input);
    const media = nodes.filter((node) => node.tag === "img" || node.tag === "video");
    const prose = nodes.filter((node) => !media.includes(node));
    const text = textOf(prose).trim();
    const all = elementsOf(prose);
    if (rule.media) {
      const found = media.map((node, index) => {
        const item = { kind: node.tag === "img" ? "image" : "video", url: node.href };
        return rule.media?.[index]?.alt === undefined ? item : { ...item, alt: (node.children[0] as string | undefined) ?? "" };
      });
      expect(found).toEqual(rule.media);
    }
    if (rule.links) expect(all.filter((node) => node.tag === "a").map((node) => node.href)).toEqual(rule.links);
    for (const code of rule.code ?? []) expect(all.filter((node) => node.tag === "code").map((node) => textOf(node.children))).toContain(code);
    // The widget shows formulas as their normalised TeX source.
    for (const math of rule.math ?? []) expect(text.includes(`$${math}$`) || text.includes(`$$${math}$$`)).toBe(true);
    for (const part of rule.textContains ?? []) expect(text).toContain(part);
    for (const part of rule.textExcludes ?? []) expect(text).not.toContain(part);
    if (rule.textLength !== undefined) expect([...text].length).toBe(rule.textLength);
    if (rule.textEndsWith !== undefined) expect(text.endsWith(rule.textEndsWith)).toBe(true);
    for (const tag of rule.absentTags ?? []) expect(all.map((node) => node.tag)).not.toContain(tag);
  });
});
