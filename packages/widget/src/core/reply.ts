/**
 * Spec §5 reply rendering rules and a small Markdown subset, as pure node descriptions the UI
 * turns into DOM nodes (never HTML strings). Same rules as the console's reply-format, kept
 * small for the widget's size budget.
 */

/** Replies longer than this many characters are cut and end in '…'. */
export const REPLY_MAX_CHARS = 2000;

/** A rendered piece of a reply: a text string or an element description. */
export type ReplyNode = string | ReplyElement;

/** An element of a rendered reply. */
export interface ReplyElement {
  tag: "p" | "strong" | "em" | "code" | "pre" | "ul" | "ol" | "li" | "a" | "img" | "video";
  href?: string;
  children: ReplyNode[];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const INLINE_CODE = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g;

/** Cuts text over `max` characters (whole code points) and adds '…'. */
export function truncateReply(text: string, max = REPLY_MAX_CHARS): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : text;
}

/** Splits text into prose (even indexes) and code (odd indexes: fenced blocks, inline spans). */
export function splitCode(text: string): string[] {
  const parts: string[] = [];
  let prose = "";
  const flushProse = () => {
    let last = 0;
    for (const match of prose.matchAll(INLINE_CODE)) {
      parts.push(prose.slice(last, match.index), match[0]);
      last = match.index + match[0].length;
    }
    parts.push(prose.slice(last));
    prose = "";
  };
  const lines = text.split(/(?<=\n)/);
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index]!);
    if (!open) {
      prose += lines[index];
      continue;
    }
    flushProse();
    let block = lines[index]!;
    const close = new RegExp(`^ {0,3}\\${open[1]![0]}{${open[1]!.length},}\\s*$`);
    while (++index < lines.length) {
      block += lines[index];
      if (close.test(lines[index]!)) break;
    }
    parts.push(block);
  }
  flushProse();
  return parts;
}

/** Applies `transform` to prose only. */
export function mapProse(text: string, transform: (prose: string) => string): string {
  return splitCode(text)
    .map((part, index) => (index % 2 ? part : transform(part)))
    .join("");
}

/** `\( x \)` → `$x$` and `\[ x \]` → `$$x$$`, outside code. */
export function normaliseMath(text: string): string {
  return mapProse(text, (prose) =>
    prose.replace(/\\\[([\s\S]+?)\\\]/g, (_, body: string) => `$$${body.trim()}$$`).replace(/\\\(([\s\S]+?)\\\)/g, (_, body: string) => `$${body.trim()}$`),
  );
}

/** Whether a URL may be linked or loaded: http(s) or a site path. */
export function isSafeUrl(url: string): boolean {
  return /^(https?:\/\/|\/(?!\/))/i.test(url);
}

/** `image`, `video` or undefined, by the URL path's extension. */
export function mediaKind(url: string): "image" | "video" | undefined {
  const extension = /\.(\w+)$/.exec(url.split(/[?#]/)[0]!)?.[1]?.toLowerCase();
  return extension === "mp4" ? "video" : /^(png|jpe?g|webp|gif)$/.test(extension ?? "") ? "image" : undefined;
}

const MEDIA = /!?\[([^\]\n]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|(?<![(<\w"'=])https?:\/\/[^\s<>()"'`]+[^\s<>()"'`.,;:!?]/g;

/** Takes image and video links out of the prose (never out of code), each URL once. */
export function extractMedia(text: string): { text: string; media: ReplyElement[] } {
  const media: ReplyElement[] = [];
  const seen = new Set<string>();
  const rest = mapProse(text, (prose) =>
    prose.replace(MEDIA, (match, label: string | undefined, linked: string | undefined) => {
      const url = linked ?? match;
      const kind = mediaKind(url);
      if (!kind || !isSafeUrl(url)) return match;
      if (!seen.has(url)) {
        seen.add(url);
        media.push({ tag: kind === "image" ? "img" : "video", href: url, children: label ? [label] : [] });
      }
      return "";
    }),
  );
  return { text: rest.replace(/[ \t]+\n/g, "\n").trim(), media };
}

const INLINE =
  /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\[([^\]\n]+)\]\(\s*<?([^)\s>]+)>?\s*\)|\*\*([^*\n]+?)\*\*|__([^_\n]+?)__|(?<![*\w])\*([^*\s](?:[^*\n]*?[^*\s])?)\*|(?<![_\w])_([^_\s](?:[^_\n]*?[^_\s])?)_(?![_\w])|https?:\/\/[^\s<>()"'`]+[^\s<>()"'`.,;:!?]/g;

/** Inline Markdown: code, links, bold, italic, bare URLs. */
export function parseInline(text: string): ReplyNode[] {
  const out: ReplyNode[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const [raw, , code, label, href, bold1, bold2, em1, em2] = match;
    let node: ReplyNode | undefined;
    if (code !== undefined) node = { tag: "code", children: [code.trim()] };
    else if (href !== undefined) node = isSafeUrl(href) ? { tag: "a", href, children: parseInline(label!) } : undefined;
    else if (bold1 ?? bold2) node = { tag: "strong", children: parseInline((bold1 ?? bold2)!) };
    else if (em1 ?? em2) node = { tag: "em", children: parseInline((em1 ?? em2)!) };
    else node = { tag: "a", href: raw, children: [raw] };
    if (!node) continue;
    if (match.index > last) out.push(text.slice(last, match.index));
    out.push(node);
    last = match.index + raw.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const ITEM = /^\s*(?:([-*+])|\d+[.)])\s+(.*)$/;

function parseProse(prose: string, out: ReplyElement[]): void {
  let paragraph: string[] = [];
  let list: ReplyElement | undefined;
  const flush = () => {
    const text = paragraph.join("\n").trim();
    if (text) out.push({ tag: "p", children: parseInline(text) });
    paragraph = [];
  };
  for (const line of prose.split("\n")) {
    const item = ITEM.exec(line);
    if (item) {
      flush();
      const tag = item[1] ? "ul" : "ol";
      if (list?.tag !== tag) out.push((list = { tag, children: [] }));
      list.children.push({ tag: "li", children: parseInline(item[2]!) });
      continue;
    }
    list = undefined;
    if (line.trim()) paragraph.push(line);
    else flush();
  }
  flush();
}

/** Parses Markdown (paragraphs, lists, fenced code, inline) into nodes. */
export function parseMarkdown(text: string): ReplyElement[] {
  const out: ReplyElement[] = [];
  let prose = "";
  splitCode(text).forEach((part, index) => {
    if (!(index % 2) || !FENCE.test(part)) {
      prose += part;
      return;
    }
    parseProse(prose, out);
    prose = "";
    const lines = part.replace(/\n$/, "").split("\n").slice(1);
    if (lines.length && FENCE.test(lines[lines.length - 1]!)) lines.pop();
    out.push({ tag: "pre", children: [{ tag: "code", children: [lines.join("\n")] }] });
  });
  parseProse(prose, out);
  return out;
}

/** The whole §5 pipeline: truncate, normalise math, take out media, parse; media come last. */
export function formatReply(text: string, max = REPLY_MAX_CHARS): ReplyElement[] {
  const { text: rest, media } = extractMedia(normaliseMath(truncateReply(text, max)));
  return [...parseMarkdown(rest), ...media];
}

/** Guiding questions written in square brackets in an opening introduction: `[How do I …?]`. */
export function bracketQuestions(introduction: string): { text: string; questions: string[] } {
  const questions: string[] = [];
  const text = introduction.replace(/\[([^\]\n]+)\](?!\()/g, (_, question: string) => {
    questions.push(question.trim());
    return "";
  });
  return { text: text.trim(), questions };
}
