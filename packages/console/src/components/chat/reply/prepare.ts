/**
 * The pre-parse step of spec §5's reply rules, on the raw text before Markdown is parsed:
 * long text is cut, and the math delimiters `\( … \)` and `\[ … \]` — which CommonMark would
 * read as escaped brackets — become `$…$` and `$$…$$`, outside code only. What is code is
 * decided by the same CommonMark parser that renders the reply, so the two never disagree.
 */
import type { Nodes } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { REPLY_MAX_CHARS, truncateReply } from "./truncate";

/** Source ranges `[start, end)` of fenced/indented code blocks and inline code spans. */
export function codeRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  const walk = (node: Nodes) => {
    if (node.type === "code" || node.type === "inlineCode") {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (start !== undefined && end !== undefined) ranges.push([start, end]);
      return;
    }
    if ("children" in node) for (const child of node.children) walk(child);
  };
  walk(fromMarkdown(text));
  return ranges;
}

/** Applies `transform` to the prose between code, leaving code exactly as written. */
export function mapProse(text: string, transform: (prose: string) => string): string {
  let out = "";
  let last = 0;
  for (const [start, end] of codeRanges(text)) {
    out += transform(text.slice(last, start)) + text.slice(start, end);
    last = end;
  }
  return out + transform(text.slice(last));
}

/** `\( x \)` → `$x$` and `\[ x \]` → `$$x$$`, outside code. */
export function normaliseMath(text: string): string {
  return mapProse(text, (prose) =>
    prose
      .replace(/\\\[([\s\S]+?)\\\]/g, (_match, body: string) => `$$${body.trim()}$$`)
      .replace(/\\\(([\s\S]+?)\\\)/g, (_match, body: string) => `$${body.trim()}$`),
  );
}

/** The pre-parse step: cut, then normalise math delimiters. */
export function prepareReply(text: string, max: number = REPLY_MAX_CHARS): string {
  return normaliseMath(truncateReply(text, max));
}
