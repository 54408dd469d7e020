import { describe, expect, it } from "vitest";
import { codeRanges, normaliseMath, prepareReply } from "./prepare";
import { elements, renderReply, textOf } from "./reply-facts";
import { ELLIPSIS, mayHoldMath, REPLY_MAX_CHARS, truncateReply } from "./truncate";
import { isConsolePath, isSafeUrl, mediaKind } from "./urls";
import { replyRuleCases, replyRuleInput } from "../../../../../../tests/fixtures/reply-rules";

describe("truncateReply (spec §5/§9: 2000 characters plus an ellipsis)", () => {
  it("keeps text of exactly 2000 characters and cuts longer text, adding the ellipsis", () => {
    const exact = "a".repeat(REPLY_MAX_CHARS);
    expect(truncateReply(exact)).toBe(exact);
    const long = "b".repeat(REPLY_MAX_CHARS + 1);
    const cut = truncateReply(long);
    expect(cut).toBe(`${"b".repeat(REPLY_MAX_CHARS)}${ELLIPSIS}`);
    expect([...cut].length).toBe(REPLY_MAX_CHARS + 1);
  });

  it("counts characters, not UTF-16 units, so an emoji is never split", () => {
    const text = "😀".repeat(5);
    expect(truncateReply(text, 3)).toBe(`😀😀😀${ELLIPSIS}`);
  });

  it("the rendered reply shows the cut", () => {
    expect(renderReply("x".repeat(2500)).text).toBe(`${"x".repeat(REPLY_MAX_CHARS)}${ELLIPSIS}`);
    expect(renderReply("short").text).toBe("short");
  });
});

describe("codeRanges (what the Markdown parser reads as code)", () => {
  it("finds fenced blocks and inline code", () => {
    const text = "before `inline` mid\n```js\nconst a = 1;\n```\nafter";
    expect(codeRanges(text).map(([start, end]) => text.slice(start, end))).toEqual(["`inline`", "```js\nconst a = 1;\n```"]);
  });

  it("runs an unclosed fence (a streaming answer) to the end", () => {
    const text = "intro\n```py\nprint(1)";
    expect(codeRanges(text)).toEqual([[6, text.length]]);
  });
});

describe("normaliseMath (outside code only)", () => {
  it("turns \\( \\) into $ $ and \\[ \\] into $$ $$", () => {
    expect(normaliseMath("Area is \\( \\pi r^2 \\) and \\[ E = mc^2 \\]")).toBe("Area is $\\pi r^2$ and $$E = mc^2$$");
  });

  it("leaves delimiters inside fenced blocks and inline code alone", () => {
    const fenced = '```\nprintf("\\(x\\)");\n```';
    expect(normaliseMath(fenced)).toBe(fenced);
    expect(normaliseMath("use `\\(a\\)` but \\(b\\)")).toBe("use `\\(a\\)` but $b$");
  });

  it("prepareReply cuts before it normalises", () => {
    expect(prepareReply(`${"a".repeat(1999)}\\(x\\)`)).toBe(`${"a".repeat(1999)}\\${ELLIPSIS}`);
  });
});

describe("media (spec §5: image links extracted ignoring code; mp4 is video)", () => {
  it("extracts Markdown images, image links and bare image URLs of every allowed extension", () => {
    const text = [
      "Here: ![cat](https://x.test/cat.png)",
      "and [photo](https://x.test/p.JPG?size=2) and https://x.test/a.jpeg",
      "also https://x.test/b.webp and https://x.test/c.gif.",
    ].join("\n");
    const reply = renderReply(text);
    expect(reply.media.map((item) => item.url)).toEqual([
      "https://x.test/cat.png",
      "https://x.test/p.JPG?size=2",
      "https://x.test/a.jpeg",
      "https://x.test/b.webp",
      "https://x.test/c.gif",
    ]);
    expect(reply.media.every((item) => item.kind === "image")).toBe(true);
    expect(reply.media[0]?.alt).toBe("cat");
    expect(reply.text).not.toMatch(/https?:/);
    expect(reply.html.match(/data-testid="reply-image"/g)).toHaveLength(5);
  });

  it("treats .mp4 links as video", () => {
    const reply = renderReply("Watch https://x.test/clip.mp4 now");
    expect(reply.media).toEqual([{ kind: "video", url: "https://x.test/clip.mp4" }]);
    expect(reply.html).toContain('data-testid="reply-video"');
    expect(mediaKind("https://x.test/clip.MP4?t=1")).toBe("video");
  });

  it("ignores links inside fenced code and inline code", () => {
    const reply = renderReply("```\n![x](https://x.test/in-code.png)\n```\nand `https://x.test/inline.png` plus https://x.test/real.png");
    expect(reply.media.map((item) => item.url)).toEqual(["https://x.test/real.png"]);
    expect(reply.code).toContain("![x](https://x.test/in-code.png)\n");
    expect(reply.code).toContain("https://x.test/inline.png");
  });

  it("keeps other links, non-media extensions and unsafe schemes in the text", () => {
    const reply = renderReply("See [docs](https://x.test/guide) and https://x.test/file.pdf and ![x](javascript:alert(1).png)");
    expect(reply.media).toEqual([]);
    expect(reply.links).toEqual(["https://x.test/guide", "https://x.test/file.pdf"]);
  });

  it("lists a repeated URL once", () => {
    expect(renderReply("https://x.test/a.png https://x.test/a.png").media).toHaveLength(1);
  });
});

describe("inline Markdown", () => {
  it("renders code, math, links, strong and emphasis", () => {
    const reply = renderReply("a **b** *c* `d` $e$ [f](https://x.test)");
    const tags = elements(reply.tree).map((element) => element.tagName);
    expect(tags).toEqual(expect.arrayContaining(["p", "strong", "em", "code", "a"]));
    expect(textOf(elements(reply.tree).find((element) => element.tagName === "strong")!)).toBe("b");
    expect(textOf(elements(reply.tree).find((element) => element.tagName === "em")!)).toBe("c");
    expect(reply.code).toEqual(["d"]);
    expect(reply.math).toEqual(["e"]);
    expect(reply.links).toEqual(["https://x.test"]);
    expect(reply.html).toContain('target="_blank" rel="noopener noreferrer nofollow"');
    expect(reply.text).toBe("a b c d  f");
  });

  it('shows a Markdown image that is not a picture as a plain link, without the "!"', () => {
    const reply = renderReply("![map](https://x.test/map)");
    expect(reply.links).toEqual(["https://x.test/map"]);
    expect(reply.text).toBe("map");
    expect(reply.media).toEqual([]);
  });

  it("never makes a link of a javascript: URL and keeps HTML as plain text", () => {
    const reply = renderReply(
      '[click](javascript:alert(1)) <img src=x onerror=alert(1)> <script>alert(2)</script>\n\n<iframe src="https://evil.test"></iframe>',
    );
    expect(reply.links).toEqual([]);
    expect(reply.html).not.toContain("javascript:");
    expect(elements(reply.tree).map((element) => element.tagName)).not.toEqual(expect.arrayContaining(["img"]));
    expect(elements(reply.tree).some((element) => ["img", "script", "iframe"].includes(element.tagName))).toBe(false);
    expect(reply.text).toContain("<img src=x onerror=alert(1)>");
    expect(reply.text).toContain('<iframe src="https://evil.test"></iframe>');
    expect(isSafeUrl("javascript:alert(1)")).toBe(false);
    expect(isSafeUrl("data:text/html,hi")).toBe(false);
    expect(isSafeUrl("//evil.test/x")).toBe(false);
    expect(isSafeUrl("/assets/a.png")).toBe(true);
  });

  it("loads no media and follows no link of an unsafe scheme", () => {
    const reply = renderReply("![x](data:image/png;base64,AAAA) [y](//evil.test/a) <https://ok.test/b>");
    expect(reply.media).toEqual([]);
    expect(reply.links).toEqual(["https://ok.test/b"]);
    expect(reply.html).not.toContain("data:image");
    expect(reply.html).not.toContain("evil.test");
  });

  it("links the offline answer's console place, which the chat follows in place", () => {
    const reply = renderReply("The owner can add one in the Parley console under [API access → Models](/console/Integrations?tab=models).");
    const link = elements(reply.tree).find((element) => element.properties.dataTestid === "reply-console-link");
    expect(link?.properties.href).toBe("/console/Integrations?tab=models");
    expect(link?.properties.target).toBeUndefined();
    expect(textOf(link!)).toBe("API access → Models");
    expect(isConsolePath("/console/Integrations?tab=models")).toBe(true);
    expect(isConsolePath("/consoles/x")).toBe(false);
    expect(isConsolePath("https://x.test/console/x")).toBe(false);
  });
});

describe("blocks", () => {
  it("renders headings, lists, quotes, rules, code and display math", () => {
    const reply = renderReply("# Title\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n---\n\n```ts\nconst x = 1;\n```\n\n$$a+b$$\n\nThe end.");
    const blocks = reply.tree.children.filter((node) => node.type === "element").map((node) => (node.type === "element" ? node.tagName : ""));
    expect(blocks).toEqual(["h3", "ul", "ol", "blockquote", "hr", "pre", "p", "p"]);
    expect(reply.code).toEqual(["const x = 1;\n"]);
    expect(reply.math).toEqual(["a+b"]);
    expect(reply.html).toContain('class="katex-display"');
    expect(reply.text).toContain("The end.");
  });

  it("shows an unclosed fence as code while the answer streams", () => {
    expect(renderReply("```py\nprint(1)\n").code).toEqual(["print(1)\n"]);
  });

  it("renders GFM tables", () => {
    const reply = renderReply("| Plan | Price |\n| --- | ---: |\n| Basic | $5 |\n| Pro | $20 |");
    const cells = elements(reply.tree)
      .filter((element) => element.tagName === "td")
      .map((cell) => textOf(cell));
    expect(cells).toEqual(["Basic", "$5", "Pro", "$20"]);
    expect(elements(reply.tree).filter((element) => element.tagName === "th")).toHaveLength(2);
  });

  it("highlights code of a known language and leaves an unknown one plain", () => {
    const reply = renderReply('```ts\nconst answer: number = 42; // done\n```\n\n```cobol\nDISPLAY "HI".\n```');
    const code = elements(reply.tree).filter((element) => element.tagName === "code");
    expect(elements(code[0]!).some((element) => String(element.properties.className).includes("hljs-keyword"))).toBe(true);
    expect(textOf(code[0]!)).toBe("const answer: number = 42; // done\n");
    expect(elements(code[1]!)).toEqual([]);
    expect(textOf(code[1]!)).toBe('DISPLAY "HI".\n');
  });

  it("renders math with KaTeX (no raw delimiters left) and a bad formula without throwing", () => {
    const reply = renderReply("Area \\(\\pi r^2\\) and $\\frac{1}{$");
    expect(reply.math[0]).toBe("\\pi r^2");
    expect(reply.html).toContain('class="katex"');
    expect(reply.text).not.toContain("\\(");
  });
});

describe("which renderer a reply gets", () => {
  it("sends replies that may hold math to the KaTeX renderer, and others not", () => {
    for (const text of ["costs $5", "area \\(x\\)", "display \\[x\\]", "```math\nx^2\n```", "intro\n  ~~~ math\nx"]) expect(mayHoldMath(text)).toBe(true);
    for (const text of ["plain **bold**", "```ts\nconst a = 1;\n```", "mathematics is fun", "(x) and [y]"]) expect(mayHoldMath(text)).toBe(false);
  });

  it("a reply without a math sign renders through the plain renderer with the same rules", () => {
    const reply = renderReply("| a | b |\n| - | - |\n| 1 | 2 |\n\n![p](https://x.test/p.png) ```js\nlet x = 1;\n```");
    expect(reply.media.map((item) => item.url)).toEqual(["https://x.test/p.png"]);
    expect(
      elements(reply.tree)
        .filter((element) => element.tagName === "td")
        .map((cell) => textOf(cell)),
    ).toEqual(["1", "2"]);
    expect(reply.math).toEqual([]);
  });

  it("a ```math fence is typeset in display mode", () => {
    const reply = renderReply("```math\nx^2\n```");
    expect(reply.math.map((tex) => tex.trim())).toEqual(["x^2"]);
    expect(reply.html).toContain('class="katex-display"');
  });
});

describe("all rules together", () => {
  it("normalises math, pulls out media and leaves code untouched", () => {
    const reply = renderReply("Look ![a](https://x.test/a.png) at \\(x^2\\)\n```\n\\(raw\\) https://x.test/b.png\n```");
    expect(reply.media.map((item) => item.url)).toEqual(["https://x.test/a.png"]);
    expect(reply.tree.children[0]).toMatchObject({ type: "element", tagName: "p" });
    expect(reply.math).toEqual(["x^2"]);
    expect(reply.code).toEqual(["\\(raw\\) https://x.test/b.png\n"]);
  });
});

const cases = replyRuleCases;

describe("spec §5 rules shared with the widget (tests/fixtures/reply-rules.json)", () => {
  it.each(cases.map((rule) => [rule.name, rule] as const))("%s", (_name, rule) => {
    const input = replyRuleInput(rule);
    const reply = renderReply(input);
    const text = reply.text.trim();
    if (rule.media)
      expect(reply.media.map(({ kind, url, alt }, index) => (rule.media?.[index]?.alt === undefined ? { kind, url } : { kind, url, alt }))).toEqual(rule.media);
    if (rule.links) expect(reply.links).toEqual(rule.links);
    for (const code of rule.code ?? []) expect(reply.code.map((value) => value.replace(/\n$/, ""))).toContain(code);
    if (rule.math) expect(reply.math).toEqual(rule.math);
    for (const part of rule.textContains ?? []) expect(text).toContain(part);
    for (const part of rule.textExcludes ?? []) expect(text).not.toContain(part);
    if (rule.textLength !== undefined) expect([...text].length).toBe(rule.textLength);
    if (rule.textEndsWith !== undefined) expect(text.endsWith(rule.textEndsWith)).toBe(true);
    for (const tag of rule.absentTags ?? []) expect(elements(reply.tree).map((element) => element.tagName)).not.toContain(tag);
  });
});
