const namedEntities: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  middot: "·",
  bull: "•",
  euro: "€",
  pound: "£",
  yen: "¥",
  deg: "°",
  times: "×",
};

/** Replaces character references (`&amp;`, `&#39;`, `&#x4e2d;`) with their characters. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z][a-z0-9]{1,31});/gi, (whole, entity: string) => {
    if (entity[0] === "#") {
      const code = entity[1] === "x" || entity[1] === "X" ? Number.parseInt(entity.slice(2), 16) : Number.parseInt(entity.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return namedEntities[entity.toLowerCase()] ?? whole;
  });
}

// Elements whose content is never readable text.
const HIDDEN = new Set(["script", "style", "noscript", "template", "svg", "iframe", "object", "canvas", "head"]);
// Elements that start a new line of text.
const BLOCK =
  /^(p|div|section|article|main|header|footer|nav|aside|h[1-6]|ul|ol|li|dl|dt|dd|table|thead|tbody|tfoot|tr|blockquote|pre|figure|figcaption|form|fieldset|address|hr|br|details|summary)$/i;

/**
 * Removes comments and hidden elements in one pass. Searching with indexOf keeps it linear:
 * an unclosed `<script` or `<!--` hides the rest of the page, as it would in a browser.
 */
function stripHidden(html: string): string {
  // ASCII-only lowering keeps every index of `lower` valid in `html`.
  const lower = html.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
  const opener = /<!--|<([a-z]+)\b/g;
  let out = "";
  let from = 0;
  for (let match = opener.exec(lower); match; match = opener.exec(lower)) {
    const tag = match[1];
    if (tag !== undefined && !HIDDEN.has(tag)) continue;
    out += `${html.slice(from, match.index)} `;
    const close = tag === undefined ? "-->" : `</${tag}`;
    const end = lower.indexOf(close, match.index + match[0].length);
    if (end < 0) return out;
    const after = tag === undefined ? end + 3 : lower.indexOf(">", end) + 1 || lower.length;
    from = after;
    opener.lastIndex = after;
  }
  return out + html.slice(from);
}

/** The readable text of an HTML page: its title, then its text with scripts, styles and tags gone. */
export function htmlToText(html: string): { title: string; text: string } {
  const title = decodeEntities(/<title[^<>]*>([^<]*)/i.exec(html)?.[1] ?? "")
    .replace(/\s+/g, " ")
    .trim();
  let body = stripHidden(html).replace(/<!doctype[^<>]*>/gi, " ");
  body = body.replace(/<(\/?)([a-z][a-z0-9-]*)\b(?:[^<>"']|"[^"<]*"|'[^'<]*')*>/gi, (_, closing: string, tag: string) => {
    if (/^li$/i.test(tag)) return closing ? "\n" : "\n- ";
    if (/^(td|th)$/i.test(tag)) return closing ? " " : " | ";
    // Inline elements (b, a, span…) add no space of their own, as in a browser.
    return BLOCK.test(tag) ? "\n" : "";
  });
  const text = decodeEntities(body)
    .split("\n")
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, " ").trim())
    .map((line) => line.replace(/^\|\s*|\s*\|$/g, "").trim())
    .filter((line) => line !== "" && line !== "-")
    .join("\n");
  return { title, text };
}
